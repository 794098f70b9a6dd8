package dev.dynamorelay.engine.store;

import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ByteSink;
import dev.dynamorelay.engine.value.ItemSize;
import dev.dynamorelay.engine.value.KeyBytes;
import dev.dynamorelay.engine.value.ScanHash;

/**
 * Where items sit in a table's and an index's sorted maps, and DynamoDB's checks of keys with its messages.
 *
 * <p>A table key is the partition key's 24-bit Scan hash (three bytes), then the partition key's and the sort
 * key's order-preserving encodings ({@link KeyBytes}): a table is ordered by hash, then partition key, then
 * sort key, so that one partition's items are contiguous and sorted, and a Scan walks the hash order. An index
 * key is the index partition key's hash, the index keys, then the tie-break of dynalite (the three-byte hash of
 * the table's partition and sort key together) and the table's keys: items with equal index keys are ordered as
 * dynalite orders them, and every entry is unique.
 */
final class Keys {

	/** The largest partition key of a string or binary: 2048 bytes. */
	static final int MAX_HASH_BYTES = 2048;

	/** The largest sort key of a string or binary: 1024 bytes. */
	static final int MAX_RANGE_BYTES = 1024;

	private Keys() {
	}

	/** The table key of an item (or a key), whose key attributes were checked. */
	static byte[] tableKey(TableSchema table, Map<String, AttributeValue> item) {
		ByteSink out = new ByteSink(48);
		writeTableKey(out, table, item);
		return out.toByteArray();
	}

	private static void writeTableKey(ByteSink out, TableSchema table, Map<String, AttributeValue> item) {
		AttributeValue hash = item.get(table.hash().name());
		writeHash(out, ScanHash.of(hash));
		KeyBytes.write(out, hash);
		if (table.range() != null) {
			KeyBytes.write(out, item.get(table.range().name()));
		}
	}

	/** The first bytes of every table key in the partition of {@code hash}. */
	static byte[] partition(AttributeValue hash) {
		ByteSink out = new ByteSink(32);
		writeHash(out, ScanHash.of(hash));
		KeyBytes.write(out, hash);
		return out.toByteArray();
	}

	/** The index key of an item the index holds ({@link IndexSchema#indexes}). */
	static byte[] indexKey(IndexSchema index, TableSchema table, Map<String, AttributeValue> item) {
		ByteSink out = new ByteSink(64);
		AttributeValue hash = item.get(index.hash().name());
		writeHash(out, ScanHash.of(hash));
		KeyBytes.write(out, hash);
		if (index.range() != null) {
			KeyBytes.write(out, item.get(index.range().name()));
		}
		AttributeValue tableHash = item.get(table.hash().name());
		AttributeValue tableRange = (table.range() != null) ? item.get(table.range().name()) : null;
		writeHash(out, ScanHash.of(tableHash, tableRange));
		KeyBytes.write(out, tableHash);
		if (tableRange != null) {
			KeyBytes.write(out, tableRange);
		}
		return out.toByteArray();
	}

	/** The index key of an item when the index holds it, else null. */
	static byte[] indexKeyOrNull(IndexSchema index, TableSchema table, Map<String, AttributeValue> item) {
		return (item != null && index.indexes(item)) ? indexKey(index, table, item) : null;
	}

	/** The first bytes of every index key in the index partition of {@code hash}. */
	static byte[] indexPartition(AttributeValue hash) {
		return partition(hash);
	}

	private static void writeHash(ByteSink out, int hash) {
		out.write(hash >>> 16);
		out.write(hash >>> 8);
		out.write(hash);
	}

	/** The Scan hash a table or index key starts with. */
	static int hashOf(byte[] key) {
		return ((key[0] & 0xFF) << 16) | ((key[1] & 0xFF) << 8) | (key[2] & 0xFF);
	}

	/**
	 * Checks a key given to GetItem, DeleteItem, UpdateItem or a batch: exactly the table's key attributes, of
	 * their types, not empty, not too large.
	 */
	static void checkKey(TableSchema table, Map<String, AttributeValue> key) {
		int expected = (table.range() == null) ? 1 : 2;
		if (key.size() != expected) {
			throw AwsError.validation("The provided key element does not match the schema");
		}
		checkKeyPart(key, table.hash(), true);
		if (table.range() != null) {
			checkKeyPart(key, table.range(), false);
		}
	}

	private static void checkKeyPart(Map<String, AttributeValue> key, KeyAttribute attribute, boolean hash) {
		AttributeValue value = key.get(attribute.name());
		if (value == null || !attribute.accepts(value)) {
			throw AwsError.validation("The provided key element does not match the schema");
		}
		if (isEmpty(value)) {
			throw AwsError.validation("One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain an empty "
					+ emptyKind(value) + " value. Key: " + attribute.name());
		}
		checkKeySize(value, hash);
	}

	/** Checks an item given to PutItem or a batch's put: its key attributes, and its index keys' types. */
	static void checkItem(TableSchema table, Map<String, AttributeValue> item) {
		checkItemKey(item, table.hash(), true);
		if (table.range() != null) {
			checkItemKey(item, table.range(), false);
		}
		checkIndexKeys(table, item);
	}

	private static void checkItemKey(Map<String, AttributeValue> item, KeyAttribute attribute, boolean hash) {
		AttributeValue value = item.get(attribute.name());
		if (value == null) {
			throw AwsError.validation("One or more parameter values were invalid: Missing the key " + attribute.name() + " in the item");
		}
		if (!attribute.accepts(value)) {
			throw AwsError.validation("One or more parameter values were invalid: Type mismatch for key " + attribute.name()
					+ " expected: " + attribute.type() + " actual: " + KeyAttribute.typeOf(value));
		}
		if (isEmpty(value)) {
			throw AwsError.validation("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty "
					+ emptyKind(value) + " value. Key: " + attribute.name());
		}
		checkKeySize(value, hash);
	}

	/**
	 * Checks the index key attributes an item has: of the declared type, not empty, not too large (an item
	 * without them is simply not in the index).
	 */
	static void checkIndexKeys(TableSchema table, Map<String, AttributeValue> item) {
		for (IndexSchema index : table.indexes()) {
			checkIndexKey(index, index.hash(), true, item);
			if (index.range() != null) {
				checkIndexKey(index, index.range(), false, item);
			}
		}
	}

	private static void checkIndexKey(IndexSchema index, KeyAttribute attribute, boolean hash, Map<String, AttributeValue> item) {
		AttributeValue value = item.get(attribute.name());
		if (value == null) {
			return;
		}
		if (!attribute.accepts(value)) {
			throw AwsError.validation("One or more parameter values were invalid: Type mismatch for Index Key " + attribute.name()
					+ " Expected: " + attribute.type() + " Actual: " + KeyAttribute.typeOf(value) + " IndexName: " + index.name());
		}
		if (isEmpty(value)) {
			throw AwsError.validation("One or more parameter values are not valid. A value specified for a secondary index key is not supported. "
					+ "The AttributeValue for a key attribute cannot contain an empty " + emptyKind(value) + " value. IndexName: "
					+ index.name() + ", IndexKey: " + attribute.name());
		}
		int size = keySize(value);
		int max = hash ? MAX_HASH_BYTES : MAX_RANGE_BYTES;
		if (size > max) {
			throw AwsError.validation("One or more parameter values were invalid: Size limit exceeded for Index Key " + attribute.name()
					+ " Actual Size: " + size + " bytes Max Size: " + max + " bytes IndexName: " + index.name());
		}
	}

	private static void checkKeySize(AttributeValue value, boolean hash) {
		if (value.n() != null) {
			return;
		}
		int size = keySize(value);
		if (hash && size > MAX_HASH_BYTES) {
			throw AwsError.validation("One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes");
		}
		if (!hash && size > MAX_RANGE_BYTES) {
			throw AwsError.validation("One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes");
		}
	}

	private static int keySize(AttributeValue value) {
		if (value.s() != null) {
			return ItemSize.utf8Length(value.s());
		}
		if (value.b() != null) {
			return value.b().asByteArrayUnsafe().length;
		}
		return (int) ItemSize.value(value);
	}

	private static boolean isEmpty(AttributeValue value) {
		return (value.s() != null && value.s().isEmpty()) || (value.b() != null && value.b().asByteArrayUnsafe().length == 0);
	}

	private static String emptyKind(AttributeValue value) {
		return (value.s() != null) ? "string" : "binary";
	}

}
