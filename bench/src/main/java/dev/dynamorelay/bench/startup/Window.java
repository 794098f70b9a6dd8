package dev.dynamorelay.bench.startup;

import java.util.Arrays;

/** Pages served between {@code from} and {@code to} (nanoTime), their latencies, and the server's CPU. */
record Window(long pages, double[] latencies, long nanos, long cpuNanos, long firstAnswerNanos, long jitNanos,
		long gcNanos) {

	static final Window NONE = new Window(0, new double[0], 0, 0, 0, 0, 0);

	double perSecond() {
		return this.pages / (this.nanos / 1e9);
	}

	double cpuPerPage() {
		return this.cpuNanos / 1e6 / this.pages;
	}

	double percentile(double percentile) {
		double[] sorted = this.latencies.clone();
		Arrays.sort(sorted);
		int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
	}

	double firstSeconds(long spawned) {
		return (this.firstAnswerNanos - spawned) / 1e9;
	}

	String describe() {
		return "%.0f pages/s, p50 %.1f ms, p99 %.1f ms, CPU %.2f ms/page (JIT compilers %.0f%%, GC %.0f%%)".formatted(
				perSecond(), percentile(50), percentile(99), cpuPerPage(), 100.0 * this.jitNanos / this.cpuNanos,
				100.0 * this.gcNanos / this.cpuNanos);
	}

	Window plus(Window other) {
		double[] all = Arrays.copyOf(this.latencies, this.latencies.length + other.latencies.length);
		System.arraycopy(other.latencies, 0, all, this.latencies.length, other.latencies.length);
		return new Window(this.pages + other.pages, all, this.nanos + other.nanos, this.cpuNanos + other.cpuNanos, 0,
				this.jitNanos + other.jitNanos, this.gcNanos + other.gcNanos);
	}

}
