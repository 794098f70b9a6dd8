package dev.dynamorelay.engine.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ItemCodec;
import dev.dynamorelay.engine.value.ItemSize;
import dev.dynamorelay.engine.value.ValueChecks;

/**
 * BatchGetItem (100 keys, 16 MB of items, the rest answered as UnprocessedKeys) and BatchWriteItem (25 puts and
 * deletes, no item twice, each a write of its own).
 *
 * <p>See the API Reference, BatchGetItem and BatchWriteItem.
 */
final class BatchOperations {

	/** The most items a BatchGetItem answers: 16 MB. */
	static final long MAX_BATCH_GET_BYTES = 16L * 1024 * 1024;

	private static final String TABLE_NAMES = "Map keys must satisfy constraint: [Member must have length less than or equal to 255, "
			+ "Member must have length greater than or equal to 3, Member must satisfy regular expression pattern: " + Constraints.NAME_PATTERN + "]";

	private final Database database;

	BatchOperations(Database database) {
		this.database = database;
	}

	// ---- BatchGetItem

	BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
		checkGetMembers(request);
		Map<String, KeysAndAttributes> requestItems = request.requestItems();
		Map<String, ExprBridge.Parsed> parsed = new LinkedHashMap<>();
		Map<String, List<Map<String, AttributeValue>>> keysByTable = checkedKeys(requestItems, parsed);
		Map<String, StoredTable> tables = tables(keysByTable, parsed);
		Map<String, List<Map<String, AttributeValue>>> responses = new LinkedHashMap<>();
		Map<String, KeysAndAttributes> unprocessed = new LinkedHashMap<>();
		List<ConsumedCapacity> consumed = new ArrayList<>();
		long total = 0;
		for (Map.Entry<String, StoredTable> entry : tables.entrySet()) {
			String name = entry.getKey();
			StoredTable table = entry.getValue();
			KeysAndAttributes asked = requestItems.get(name);
			boolean consistent = Boolean.TRUE.equals(asked.consistentRead());
			List<Map<String, AttributeValue>> found = new ArrayList<>();
			List<Map<String, AttributeValue>> left = new ArrayList<>();
			double units = 0;
			List<Map<String, AttributeValue>> keys = keysByTable.get(name);
			byte[][] stored = read(table, keys);
			ItemProjection projection = parsed.get(name).projection();
			for (int i = 0; i < keys.size(); i++) {
				byte[] bytes = stored[i];
				long size = (bytes != null) ? ItemCodec.size(bytes) : 0;
				if (!left.isEmpty() || total + size > MAX_BATCH_GET_BYTES) {
					left.add(requestItems.get(name).keys().get(i));
					continue;
				}
				total += size;
				units += (bytes != null) ? Capacity.readUnits(size) : 1;
				if (bytes != null) {
					Map<String, AttributeValue> item = ItemCodec.decode(bytes);
					found.add((projection != null) ? projection.apply(item) : item);
				}
			}
			responses.put(name, found);
			if (!left.isEmpty()) {
				unprocessed.put(name, asked.toBuilder().keys(left).build());
			}
			ConsumedCapacity capacity = Capacity.of(request.returnConsumedCapacityAsString(), table, consistent ? units : units / 2, Map.of());
			if (capacity != null) {
				consumed.add(capacity);
			}
		}
		BatchGetItemResponse.Builder response = BatchGetItemResponse.builder().responses(responses).unprocessedKeys(unprocessed);
		if (Capacity.wanted(request.returnConsumedCapacityAsString())) {
			response.consumedCapacity(consumed);
		}
		return response.build();
	}

	/** A BatchGetItem's members' constraints. */
	private static void checkGetMembers(BatchGetItemRequest request) {
		Constraints constraints = new Constraints();
		constraints.oneOf("returnConsumedCapacity", request.returnConsumedCapacityAsString(), ItemOperations.RETURN_CONSUMED_CAPACITY);
		Map<String, KeysAndAttributes> requestItems = request.hasRequestItems() ? request.requestItems() : null;
		constraints.notNull("requestItems", requestItems);
		if (requestItems != null) {
			constraints.size("requestItems", requestItems, 1, -1);
			tableNames(constraints, requestItems);
			for (Map.Entry<String, KeysAndAttributes> entry : requestItems.entrySet()) {
				String path = "requestItems." + entry.getKey() + ".member";
				KeysAndAttributes keys = entry.getValue();
				constraints.notNull(path + ".keys", keys.hasKeys() ? keys.keys() : null);
				constraints.size(path + ".keys", keys.hasKeys() ? keys.keys() : null, 1, 100);
				constraints.size(path + ".attributesToGet", keys.hasAttributesToGet() ? keys.attributesToGet() : null, 1, 255);
			}
		}
		constraints.check();
	}

	/**
	 * Each table's keys, checked (no key twice, 100 in all), with its projection parsed into {@code parsed}, in the
	 * order of the request.
	 */
	private static Map<String, List<Map<String, AttributeValue>>> checkedKeys(Map<String, KeysAndAttributes> requestItems,
			Map<String, ExprBridge.Parsed> parsed) {
		Map<String, List<Map<String, AttributeValue>>> keysByTable = new LinkedHashMap<>();
		int count = 0;
		for (Map.Entry<String, KeysAndAttributes> entry : requestItems.entrySet()) {
			KeysAndAttributes keys = entry.getValue();
			ExprBridge.checkParameters(Map.of("ProjectionExpression", keys.projectionExpression() != null),
					Map.of("AttributesToGet", keys.hasAttributesToGet()), ItemOperations.names(keys.hasExpressionAttributeNames(),
							keys.expressionAttributeNames()), null);
			ExprBridge.Input input = new ExprBridge.Input();
			input.names = ItemOperations.names(keys.hasExpressionAttributeNames(), keys.expressionAttributeNames());
			input.projectionExpression = keys.projectionExpression();
			input.attributesToGet = keys.hasAttributesToGet() ? keys.attributesToGet() : null;
			parsed.put(entry.getKey(), ExprBridge.parse(input));
			List<Map<String, AttributeValue>> checked = new ArrayList<>();
			Set<List<Object>> seen = new HashSet<>();
			for (Map<String, AttributeValue> key : keys.keys()) {
				Map<String, AttributeValue> normalized = ValueChecks.checkItem(key);
				if (!seen.add(keyIdentity(normalized))) {
					throw AwsError.validation("Provided list of item keys contains duplicates");
				}
				checked.add(normalized);
				if (++count > 100) {
					throw AwsError.validation("Too many items requested for the BatchGetItem call");
				}
			}
			keysByTable.put(entry.getKey(), checked);
		}
		return keysByTable;
	}

	/** Each table, active, its keys and projection checked against its key schema. */
	private Map<String, StoredTable> tables(Map<String, List<Map<String, AttributeValue>>> keysByTable, Map<String, ExprBridge.Parsed> parsed) {
		Map<String, StoredTable> tables = new LinkedHashMap<>();
		for (Map.Entry<String, List<Map<String, AttributeValue>>> entry : keysByTable.entrySet()) {
			StoredTable table = this.database.activeTable(entry.getKey());
			for (Map<String, AttributeValue> key : entry.getValue()) {
				Keys.checkKey(table.schema, key);
			}
			ItemProjection projection = parsed.get(entry.getKey()).projection();
			if (projection != null) {
				ExprBridge.checkKeyPaths(projection.nestedTopLevelNames(), table.schema);
			}
			tables.put(entry.getKey(), table);
		}
		return tables;
	}

	/** The stored items of {@code keys} (null where there is none), read under the table's read lock. */
	private static byte[][] read(StoredTable table, List<Map<String, AttributeValue>> keys) {
		byte[][] stored = new byte[keys.size()][];
		table.lock.readLock().lock();
		try {
			Database.stillThere(table);
			for (int i = 0; i < keys.size(); i++) {
				stored[i] = table.items.get(Keys.tableKey(table.schema, keys.get(i)));
			}
		}
		finally {
			table.lock.readLock().unlock();
		}
		return stored;
	}

	/** A key's identity whatever the order of its attributes (numbers normalized). */
	private static List<Object> keyIdentity(Map<String, AttributeValue> key) {
		List<Object> identity = new ArrayList<>();
		key.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach((entry) -> {
			identity.add(entry.getKey());
			identity.add(entry.getValue());
		});
		return identity;
	}

	private static void tableNames(Constraints constraints, Map<String, ?> requestItems) {
		for (String name : requestItems.keySet()) {
			if (name.length() < 3 || name.length() > 255 || !Constraints.isName(name)) {
				constraints.add("requestItems", requestItems, TABLE_NAMES);
				return;
			}
		}
	}

	// ---- BatchWriteItem

	BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
		checkWriteMembers(request);
		Map<String, List<WriteRequest>> requestItems = request.requestItems();
		Map<String, List<Map<String, AttributeValue>>> checked = checkedItems(requestItems);
		List<Mutation> writes = writes(requestItems, checked);
		Map<StoredTable, Double> tableUnits = new LinkedHashMap<>();
		Map<StoredTable, Map<String, Double>> indexUnits = new LinkedHashMap<>();
		Map<String, List<ItemCollectionMetrics>> metrics = new LinkedHashMap<>();
		for (Mutation write : writes) {
			this.database.itemOperations.write(write);
			tableUnits.merge(write.table, write.tableUnits, Double::sum);
			Capacity.add(indexUnits.computeIfAbsent(write.table, (table) -> new LinkedHashMap<>()), write.indexUnits);
			ItemCollectionMetrics collection = Capacity.collection(request.returnItemCollectionMetricsAsString(), write);
			if (collection != null) {
				metrics.computeIfAbsent(write.table.name, (name) -> new ArrayList<>()).add(collection);
			}
		}
		BatchWriteItemResponse.Builder response = BatchWriteItemResponse.builder().unprocessedItems(Map.of());
		if (Capacity.wanted(request.returnConsumedCapacityAsString())) {
			List<ConsumedCapacity> consumed = new ArrayList<>();
			for (Map.Entry<StoredTable, Double> entry : tableUnits.entrySet()) {
				consumed.add(Capacity.of(request.returnConsumedCapacityAsString(), entry.getKey(), entry.getValue(), indexUnits.get(entry.getKey())));
			}
			response.consumedCapacity(consumed);
		}
		if ("SIZE".equals(request.returnItemCollectionMetricsAsString())) {
			response.itemCollectionMetrics(metrics);
		}
		return response.build();
	}

	/** A BatchWriteItem's members' constraints. */
	private static void checkWriteMembers(BatchWriteItemRequest request) {
		Constraints constraints = new Constraints();
		constraints.oneOf("returnConsumedCapacity", request.returnConsumedCapacityAsString(), ItemOperations.RETURN_CONSUMED_CAPACITY);
		constraints.oneOf("returnItemCollectionMetrics", request.returnItemCollectionMetricsAsString(),
				ItemOperations.RETURN_ITEM_COLLECTION_METRICS);
		Map<String, List<WriteRequest>> requestItems = request.hasRequestItems() ? request.requestItems() : null;
		constraints.notNull("requestItems", requestItems);
		if (requestItems != null) {
			constraints.size("requestItems", requestItems, 1, -1);
			tableNames(constraints, requestItems);
			for (List<WriteRequest> writes : requestItems.values()) {
				if (writes.size() < 1 || writes.size() > 25) {
					constraints.add("requestItems", requestItems, "Map value must satisfy constraint: [Member must have length less than or equal to 25, "
							+ "Member must have length greater than or equal to 1]");
					break;
				}
			}
			for (Map.Entry<String, List<WriteRequest>> entry : requestItems.entrySet()) {
				List<WriteRequest> writes = entry.getValue();
				for (int i = 0; i < writes.size(); i++) {
					String path = "requestItems." + entry.getKey() + ".member." + (i + 1) + ".member";
					WriteRequest write = writes.get(i);
					if (write.deleteRequest() != null) {
						constraints.notNull(path + ".deleteRequest.key", write.deleteRequest().hasKey() ? write.deleteRequest().key() : null);
					}
					if (write.putRequest() != null) {
						constraints.notNull(path + ".putRequest.item", write.putRequest().hasItem() ? write.putRequest().item() : null);
					}
				}
			}
		}
		constraints.check();
	}

	/** Each table's items to put and keys to delete, their values checked; 25 in all. */
	private static Map<String, List<Map<String, AttributeValue>>> checkedItems(Map<String, List<WriteRequest>> requestItems) {
		int count = 0;
		Map<String, List<Map<String, AttributeValue>>> checked = new LinkedHashMap<>();
		for (Map.Entry<String, List<WriteRequest>> entry : requestItems.entrySet()) {
			List<Map<String, AttributeValue>> items = new ArrayList<>();
			for (WriteRequest write : entry.getValue()) {
				if ((write.putRequest() == null) == (write.deleteRequest() == null)) {
					throw AwsError.validation("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes");
				}
				if (write.putRequest() != null) {
					Map<String, AttributeValue> item = ValueChecks.checkItem(write.putRequest().item());
					if (ItemSize.of(item) > ItemSize.MAX_ITEM_BYTES) {
						throw AwsError.validation("Item size has exceeded the maximum allowed size");
					}
					items.add(item);
				}
				else {
					items.add(ValueChecks.checkItem(write.deleteRequest().key()));
				}
				count++;
			}
			checked.put(entry.getKey(), items);
		}
		if (count > 25) {
			throw AwsError.validation("Too many items requested for the BatchWriteItem call");
		}
		return checked;
	}

	/** The writes, each checked against its table's keys; no item twice in a table. */
	private List<Mutation> writes(Map<String, List<WriteRequest>> requestItems, Map<String, List<Map<String, AttributeValue>>> checked) {
		List<Mutation> writes = new ArrayList<>();
		for (Map.Entry<String, List<WriteRequest>> entry : requestItems.entrySet()) {
			StoredTable table = this.database.activeTable(entry.getKey());
			Set<ByteBuffer> seen = new HashSet<>();
			List<Map<String, AttributeValue>> items = checked.get(entry.getKey());
			for (int i = 0; i < items.size(); i++) {
				Map<String, AttributeValue> item = items.get(i);
				Mutation write;
				if (entry.getValue().get(i).putRequest() != null) {
					try {
						Keys.checkItem(table.schema, item);
					}
					catch (AwsError ex) {
						if (ex.getMessage().contains("Missing the key") || ex.getMessage().contains("Type mismatch for key")) {
							throw AwsError.validation("The provided key element does not match the schema");
						}
						throw ex;
					}
					write = Mutation.put(table, item, null, false);
				}
				else {
					Keys.checkKey(table.schema, item);
					write = Mutation.delete(table, item, null, false);
				}
				if (!seen.add(ByteBuffer.wrap(write.tableKey))) {
					throw AwsError.validation("Provided list of item keys contains duplicates");
				}
				writes.add(write);
			}
		}
		return writes;
	}

}
