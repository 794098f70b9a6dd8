package dev.dynamorelay.live;

/** Where live connections report: records read, changes delivered and dropped, subscribers, reconnects. */
public interface LiveMeters {

	/** Records nothing. */
	LiveMeters NONE = new LiveMeters() {
	};

	/** Records read from a stream (one GetRecords). */
	default void read(int records) {
	}

	/** A read of a stream that failed (and is made again). */
	default void failed() {
	}

	/** A change handed to a subscriber of {@code field}. */
	default void delivered(String field) {
	}

	/**
	 * A change of {@code field} made into its answer: executed and serialized once for the subscriptions of one
	 * shape (document, variables, caller's rights) that were handed it.
	 */
	default void serialized(String field) {
	}

	/** A change of {@code field} answered with the answer made for another subscription of its shape. */
	default void shared(String field) {
	}

	/** A change of {@code field} merged into a later one of the same item, or lost with a dropped subscriber. */
	default void dropped(String field, int changes) {
	}

	/** A subscriber of {@code field} came ({@code +1}) or went ({@code -1}). */
	default void subscribers(String field, int delta) {
	}

	/** A subscriber of {@code field} resumed after an event it had seen. */
	default void resumed(String field) {
	}

	/** A read of a stream again for resuming subscribers (one GetRecords, shared by them), which found {@code records}. */
	default void replayed(int records) {
	}

}
