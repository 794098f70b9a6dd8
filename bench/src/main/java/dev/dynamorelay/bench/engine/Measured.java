package dev.dynamorelay.bench.engine;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a server did in one or more windows.
 * @param ops the calls answered
 * @param nanos the windows' time
 * @param latencies every answered call's latency, nanoseconds
 * @param serverCpu the server process's CPU time (user and system, from /proc/PID/stat)
 * @param benchCpu this JVM's (the load generator's)
 * @param errors the calls that failed
 */
record Measured(long ops, long nanos, long[] latencies, long serverCpu, long benchCpu, long errors) {

	Measured plus(Measured other) {
		long[] both = Arrays.copyOf(this.latencies, this.latencies.length + other.latencies.length);
		System.arraycopy(other.latencies, 0, both, this.latencies.length, other.latencies.length);
		return new Measured(this.ops + other.ops, this.nanos + other.nanos, both, this.serverCpu + other.serverCpu,
				this.benchCpu + other.benchCpu, this.errors + other.errors);
	}

	double perSecond() {
		return this.ops / (this.nanos / 1e9);
	}

	double percentile(double percentile) {
		long[] sorted = this.latencies.clone();
		Arrays.sort(sorted);
		int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e6;
	}

	double serverCpuPerOp() {
		return this.serverCpu / 1e3 / this.ops;
	}

	String summary() {
		return "%,.0f ops/s, %.2f / %.2f ms%s".formatted(perSecond(), percentile(50), percentile(99),
				(this.errors == 0) ? "" : " (%d FAILED)".formatted(this.errors));
	}

	String cpuPerOp() {
		return "%.0f µs".formatted(serverCpuPerOp());
	}

	String benchCpuPerOp() {
		return "%.0f µs".formatted(this.benchCpu / 1e3 / this.ops);
	}

	Map<String, Object> figures() {
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("ops", this.ops);
		figures.put("seconds", Math.round(this.nanos / 1e7) / 100.0);
		figures.put("opsPerSecond", Math.round(perSecond()));
		figures.put("p50Ms", Math.round(percentile(50) * 1000) / 1000.0);
		figures.put("p99Ms", Math.round(percentile(99) * 1000) / 1000.0);
		figures.put("serverCpuMicrosPerOp", Math.round(serverCpuPerOp() * 10) / 10.0);
		figures.put("serverCoresBusy", Math.round(this.serverCpu * 100.0 / this.nanos) / 100.0);
		figures.put("loadGeneratorCpuMicrosPerOp", Math.round(this.benchCpu / 1e2 / this.ops) / 10.0);
		figures.put("errors", this.errors);
		return figures;
	}

}
