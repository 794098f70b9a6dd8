package dev.dynamorelay.pagination;

/**
 * What one connection's reads tell the metrics: every DynamoDB call (of its pages, counts and whole
 * reads) and every page served. The engine calls it on the thread that completed the call, so an
 * implementation must be cheap and thread-safe; {@link #NONE} records nothing.
 */
public interface ConnectionMeters {

	/** Records nothing. */
	ConnectionMeters NONE = new ConnectionMeters() {

		@Override
		public void call(long scanned, long returned, Double capacityUnits) {
		}

		@Override
		public void page(boolean cut) {
		}

	};

	/**
	 * One DynamoDB call of the connection.
	 * @param scanned the items it read ({@code ScannedCount})
	 * @param returned the items that matched its filter ({@code Count})
	 * @param capacityUnits the read capacity it consumed, or null when DynamoDB did not say
	 */
	void call(long scanned, long returned, Double capacityUnits);

	/** One page served; {@code cut} when a read budget ended it before it was full. */
	void page(boolean cut);

	/** The meters of each connection, by its field coordinate (e.g. {@code User.purchases}). */
	@FunctionalInterface
	interface Source {

		/** Meters for no connection: records nothing. */
		Source NONE = (field) -> ConnectionMeters.NONE;

		ConnectionMeters of(String field);

	}

}
