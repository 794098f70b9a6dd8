package dev.dynamorelay.it.live;

import java.time.Duration;

import dev.dynamorelay.live.LiveConnections;

import static org.assertj.core.api.Assertions.assertThat;

/** Waits for the server's count of live subscriptions (its own, in the test's JVM). */
final class LiveSubscriptions {

	private static final Duration WITHIN = Duration.ofSeconds(10);

	private LiveSubscriptions() {
	}

	/** Waits until the server holds exactly {@code count} subscriptions, 10 s at most. */
	static void await(LiveConnections live, int count) {
		await(live, count, true);
	}

	/** Waits until the server holds {@code count} subscriptions or more, 10 s at most. */
	static void awaitAtLeast(LiveConnections live, int count) {
		await(live, count, false);
	}

	private static void await(LiveConnections live, int count, boolean exactly) {
		long deadline = System.nanoTime() + WITHIN.toNanos();
		while (exactly ? live.subscriptions() != count : live.subscriptions() < count) {
			assertThat(System.nanoTime()).as("%d subscriptions held, not %d", live.subscriptions(), count)
				.isLessThan(deadline);
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new AssertionError("interrupted while waiting for " + count + " subscriptions", ex);
			}
		}
	}

}
