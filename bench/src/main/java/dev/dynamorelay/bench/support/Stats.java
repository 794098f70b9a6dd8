package dev.dynamorelay.bench.support;

import java.util.Arrays;

/** The benchmark's arithmetic and formats: percentiles, interleaved samples, milliseconds and megabytes. */
public final class Stats {

	private Stats() {
	}

	public static double percentile(double[] samples, double percentile) {
		double[] sorted = samples.clone();
		Arrays.sort(sorted);
		int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
	}

	public static String ms(double millis) {
		return "%.2f ms".formatted(millis);
	}

	public static String mb(long bytes) {
		return "%.1f MB".formatted(bytes / 1024.0 / 1024.0);
	}

	/**
	 * {@code samples} timings (ms) of each of {@code a} and {@code b}, taken in turns (A, B, B, A, A, B, ...), so that
	 * both see the same machine at the same time.
	 */
	public static double[][] interleaved(int samples, Runnable a, Runnable b) {
		double[] first = new double[samples];
		double[] second = new double[samples];
		for (int i = 0; i < samples; i++) {
			if (i % 2 == 0) {
				first[i] = time(a);
				second[i] = time(b);
			}
			else {
				second[i] = time(b);
				first[i] = time(a);
			}
		}
		return new double[][] { first, second };
	}

	private static double time(Runnable action) {
		long start = System.nanoTime();
		action.run();
		return (System.nanoTime() - start) / 1e6;
	}

}
