package dev.dynamorelay.live;

/**
 * How many changes resumes hand on per second, all of them together: a bucket that refills at that rate and
 * holds a tenth of a second's worth, so that the work of catching up (each change judged, made into a message
 * and sent) takes a bounded share of the processors, whatever the number of resumes, and other callers' requests
 * keep their pace. A resume that takes more than the bucket holds waits for what it took before it hands on more.
 */
final class ReplayPace {

	/** What the bucket holds: a tenth of a second's worth. */
	private static final long BURST_NANOS = 100_000_000L;

	private final double nanosPerChange;

	/** When ({@link System#nanoTime()}) the next change is free. Guarded by this. */
	private double next = Double.NEGATIVE_INFINITY;

	/** @param perSecond the changes all resumes together hand on per second, at least 1 */
	ReplayPace(int perSecond) {
		if (perSecond < 1) {
			throw new IllegalArgumentException("at least one replayed change a second, got " + perSecond);
		}
		this.nanosPerChange = 1e9 / perSecond;
	}

	/** Takes {@code changes} handed on at {@code now}; answers how many nanoseconds to wait before handing on more. */
	synchronized long take(int changes, long now) {
		this.next = Math.max(this.next, now - BURST_NANOS) + changes * this.nanosPerChange;
		return Math.max(0, (long) Math.ceil(this.next - now));
	}

}
