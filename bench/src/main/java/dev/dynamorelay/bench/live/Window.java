package dev.dynamorelay.bench.live;

import java.util.concurrent.ConcurrentLinkedQueue;

/** The latencies of one window, in nanoseconds: of each change delivered, of each write the raw reader saw. */
final class Window {

	/** The first write of the window: changes of writes before it (priming) are not counted. */
	final long first;

	final ConcurrentLinkedQueue<Long> delivered = new ConcurrentLinkedQueue<>();

	final ConcurrentLinkedQueue<Long> seen = new ConcurrentLinkedQueue<>();

	Window(long first) {
		this.first = first;
	}

}
