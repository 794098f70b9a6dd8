package dev.dynamorelay.engine.store;

import java.util.LinkedHashMap;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionMetrics;

/**
 * Capacity units as DynamoDB counts them, and the ConsumedCapacity and ItemCollectionMetrics of an answer.
 * Reads: one unit per 4 KB of item (a Query or Scan sums the sizes of the items it read, then rounds), half of
 * that when eventually consistent, one unit (or half) for an item that is not there. Writes: one unit per KB of
 * the larger of the item before and after, at least one; each index entry written, moved or deleted its own
 * units by its projected size. Transactions: twice.
 *
 * <p>See the Developer Guide, "DynamoDB read and write capacity units" (Read/write capacity mode), "Provisioned
 * throughput considerations for global secondary indexes" and "... for local secondary indexes".
 */
final class Capacity {

	private Capacity() {
	}

	/** The read units of reading {@code size} bytes (of items, summed), before eventual consistency halves them. */
	static double readUnits(long size) {
		return Math.ceil(size / 4096.0);
	}

	/** Whether the request asked for ConsumedCapacity. */
	static boolean wanted(String mode) {
		return "TOTAL".equals(mode) || "INDEXES".equals(mode);
	}

	/**
	 * The ConsumedCapacity of one table's share of an operation, or null when not asked for.
	 * @param indexUnits units by index name (global and local told apart by the table's schema)
	 */
	static ConsumedCapacity of(String mode, StoredTable table, double tableUnits, Map<String, Double> indexUnits) {
		if (!wanted(mode)) {
			return null;
		}
		double total = tableUnits;
		Map<String, software.amazon.awssdk.services.dynamodb.model.Capacity> globals = new LinkedHashMap<>();
		Map<String, software.amazon.awssdk.services.dynamodb.model.Capacity> locals = new LinkedHashMap<>();
		TableSchema schema = table.schema;
		for (Map.Entry<String, Double> entry : indexUnits.entrySet()) {
			total += entry.getValue();
			IndexSchema index = schema.index(entry.getKey());
			software.amazon.awssdk.services.dynamodb.model.Capacity capacity = units(entry.getValue());
			if (index == null || index.global()) {
				globals.put(entry.getKey(), capacity);
			}
			else {
				locals.put(entry.getKey(), capacity);
			}
		}
		ConsumedCapacity.Builder consumed = ConsumedCapacity.builder().tableName(table.name).capacityUnits(total);
		if ("INDEXES".equals(mode)) {
			consumed.table(units(tableUnits));
			if (!globals.isEmpty()) {
				consumed.globalSecondaryIndexes(globals);
			}
			if (!locals.isEmpty()) {
				consumed.localSecondaryIndexes(locals);
			}
		}
		return consumed.build();
	}

	private static software.amazon.awssdk.services.dynamodb.model.Capacity units(double units) {
		return software.amazon.awssdk.services.dynamodb.model.Capacity.builder().capacityUnits(units).build();
	}

	/** Adds {@code more} units by index name into {@code into}. */
	static void add(Map<String, Double> into, Map<String, Double> more) {
		for (Map.Entry<String, Double> entry : more.entrySet()) {
			into.merge(entry.getKey(), entry.getValue(), Double::sum);
		}
	}

	/**
	 * The ItemCollectionMetrics of a write to a table with a local secondary index, when asked for
	 * ({@code SIZE}); otherwise null. DynamoDB gives an estimate of the collection's size in GB as a range.
	 */
	static ItemCollectionMetrics collection(String mode, Mutation write) {
		if (!"SIZE".equals(mode) || write.collectionSize < 0) {
			return null;
		}
		String hash = write.schema.hash().name();
		Map<String, AttributeValue> key = Map.of(hash, write.key.get(hash));
		double gigabytes = write.collectionSize / (1024.0 * 1024 * 1024);
		double low = Math.floor(gigabytes);
		return ItemCollectionMetrics.builder().itemCollectionKey(key).sizeEstimateRangeGB(low, low + 1).build();
	}

}
