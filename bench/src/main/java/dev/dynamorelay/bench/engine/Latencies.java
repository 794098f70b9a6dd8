package dev.dynamorelay.bench.engine;

import java.util.Arrays;

/** One thread's latencies, in nanoseconds, growing as needed. */
final class Latencies {

	private long[] values = new long[16_384];

	private int size;

	void add(long nanos) {
		if (this.size == this.values.length) {
			this.values = Arrays.copyOf(this.values, this.size * 2);
		}
		this.values[this.size++] = nanos;
	}

	static long[] merge(Latencies[] all) {
		int size = 0;
		for (Latencies each : all) {
			size += each.size;
		}
		long[] merged = new long[size];
		int at = 0;
		for (Latencies each : all) {
			System.arraycopy(each.values, 0, merged, at, each.size);
			at += each.size;
		}
		return merged;
	}

}
