package dev.dynamorelay.engine.store;

import java.util.Arrays;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A secondary index's entries and state. An entry's key is the index key ({@link Keys#indexKey}); its value is
 * the same byte array as the table's item (shared, not copied), projected when read. Guarded by its table's
 * lock.
 */
final class StoredIndex {

	final IndexSchema schema;

	final String arn;

	final ConcurrentSkipListMap<byte[], byte[]> entries = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);

	/** CREATING (being backfilled), ACTIVE, UPDATING or DELETING. */
	String status;

	/** Whether a new global index is still being filled from the table's items. */
	boolean backfilling;

	/** A global index's throughput; null for a local index (which shares its table's). */
	Throughput throughput;

	long itemCount;

	long sizeBytes;

	StoredIndex(IndexSchema schema, String arn, String status, Throughput throughput) {
		this.schema = schema;
		this.arn = arn;
		this.status = status;
		this.throughput = throughput;
	}

}
