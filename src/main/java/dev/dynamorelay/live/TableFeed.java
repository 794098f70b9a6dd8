package dev.dynamorelay.live;

import java.math.BigInteger;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Where one table's changes come from for this process's subscribers, and how a subscriber resumes in them: the
 * process's own reading of the table's stream ({@link StreamReader}, {@link Replays}), or, in a fleet, the broker's
 * channels and window ({@link BrokeredFeed}).
 */
interface TableFeed {

	/** Starts the feed; completes once it has its place in the stream (from then on no change is missed). */
	CompletableFuture<Void> start();

	void stop();

	/** Where this process stands in each shard of the table's stream: a subscriber added now gets what follows. */
	Map<String, BigInteger> positions();

	/** How far the feed is behind the stream's newest records. */
	Duration lag();

	/** Has the changes {@code query} may concern come to this process; completes once they do. */
	CompletableFuture<Void> watch(LiveQuery query);

	/** A subscriber of {@code query} went: its changes may stop coming. */
	void unwatch(LiveQuery query);

	/**
	 * Sends {@code subscriber} the changes after {@code after} up to where the feed stands now, then lets its live
	 * changes go ({@link LiveSubscriber#hold}); an event the feed cannot resume after ends it {@code INVALID_CURSOR}.
	 */
	void resume(LiveSubscriber subscriber, StreamPosition after);

	/** The process reads the table's stream itself: its reader, and its resumes' readings again. */
	record Own(StreamReader reader, Replays replays) implements TableFeed {

		@Override
		public CompletableFuture<Void> start() {
			return this.reader.start();
		}

		@Override
		public void stop() {
			this.reader.stop();
		}

		@Override
		public Map<String, BigInteger> positions() {
			return this.reader.positions();
		}

		@Override
		public Duration lag() {
			return this.reader.lag();
		}

		@Override
		public CompletableFuture<Void> watch(LiveQuery query) {
			return CompletableFuture.completedFuture(null);
		}

		@Override
		public void unwatch(LiveQuery query) {
		}

		@Override
		public void resume(LiveSubscriber subscriber, StreamPosition after) {
			this.replays.resume(subscriber, after, this.reader.positions());
		}

	}

}
