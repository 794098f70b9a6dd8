package dev.dynamorelay.engine.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.Get;
import software.amazon.awssdk.services.dynamodb.model.ItemResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ItemCodec;
import dev.dynamorelay.engine.value.ValueChecks;

/**
 * TransactGetItems: up to 100 Gets of distinct items, read together under the read locks of their tables (taken in
 * the order of the tables' names), 4 MB at most together; a Get whose key does not fit its table is refused as its
 * cancellation reason.
 */
final class TransactGets {

	private final Database database;

	TransactGets(Database database) {
		this.database = database;
	}

	/** The Gets checked and resolved: each one's table, key and projection. */
	private record Targets(List<StoredTable> tables, List<byte[]> keys, List<ItemProjection> projections) {
	}

	TransactGetItemsResponse transactGetItems(TransactGetItemsRequest request) {
		checkMembers(request);
		List<TransactGetItem> items = request.transactItems();
		Targets targets = targets(items);
		byte[][] found = read(targets);
		List<ItemResponse> responses = new ArrayList<>(items.size());
		Map<StoredTable, Double> units = new LinkedHashMap<>();
		long total = 0;
		for (int i = 0; i < items.size(); i++) {
			byte[] bytes = found[i];
			units.merge(targets.tables().get(i), 2 * ((bytes != null) ? Capacity.readUnits(ItemCodec.size(bytes)) : 1), Double::sum);
			if (bytes == null) {
				responses.add(ItemResponse.builder().build());
				continue;
			}
			total += ItemCodec.size(bytes);
			Map<String, AttributeValue> item = ItemCodec.decode(bytes);
			ItemProjection projection = targets.projections().get(i);
			responses.add(ItemResponse.builder().item((projection != null) ? projection.apply(item) : item).build());
		}
		if (total > TransactionOperations.MAX_TRANSACTION_BYTES) {
			throw AwsError.validation("Collection size of items exceeded, which can also be caused by the aggregate size of the items "
					+ "in the transaction exceeding the 4MB limit");
		}
		TransactGetItemsResponse.Builder response = TransactGetItemsResponse.builder().responses(responses);
		if (Capacity.wanted(request.returnConsumedCapacityAsString())) {
			List<ConsumedCapacity> consumed = new ArrayList<>();
			for (Map.Entry<StoredTable, Double> entry : units.entrySet()) {
				consumed.add(Capacity.of(request.returnConsumedCapacityAsString(), entry.getKey(), entry.getValue(), Map.of()));
			}
			response.consumedCapacity(consumed);
		}
		return response.build();
	}

	/** The members' constraints, in DynamoDB's order. */
	private static void checkMembers(TransactGetItemsRequest request) {
		Constraints constraints = new Constraints();
		List<TransactGetItem> items = request.hasTransactItems() ? request.transactItems() : null;
		constraints.notNull("transactItems", items);
		constraints.size("transactItems", items, 1, 100);
		if (items != null && items.size() <= 100) {
			for (int i = 0; i < items.size(); i++) {
				String path = "transactItems." + (i + 1) + ".member.get";
				Get get = items.get(i).get();
				constraints.notNull(path, get);
				if (get != null) {
					constraints.notNull(path + ".key", get.hasKey() ? get.key() : null);
					ItemOperations.tableName(constraints, path + ".tableName", get.tableName());
				}
			}
		}
		constraints.oneOf("returnConsumedCapacity", request.returnConsumedCapacityAsString(), ItemOperations.RETURN_CONSUMED_CAPACITY);
		constraints.check();
	}

	/** Each Get's table, key and projection, checked; the Gets that do not fit their tables cancel the transaction. */
	private Targets targets(List<TransactGetItem> items) {
		List<StoredTable> targets = new ArrayList<>();
		List<byte[]> keys = new ArrayList<>();
		List<ItemProjection> projections = new ArrayList<>();
		List<CancellationReason> refusals = new ArrayList<>();
		boolean refused = false;
		for (TransactGetItem item : items) {
			Get get = item.get();
			Map<String, String> names = get.hasExpressionAttributeNames() ? get.expressionAttributeNames() : null;
			ExprBridge.checkParameters(Map.of("ProjectionExpression", get.projectionExpression() != null), Map.of(), names, null);
			Map<String, AttributeValue> key = ValueChecks.checkItem(get.key());
			ExprBridge.Input input = new ExprBridge.Input();
			input.names = names;
			input.projectionExpression = get.projectionExpression();
			ItemProjection projection = ExprBridge.parse(input).projection();
			projections.add(projection);
			StoredTable table = this.database.activeTable(get.tableName());
			try {
				// a Get whose key does not fit its table is refused as its cancellation reason
				Keys.checkKey(table.schema, key);
				if (projection != null) {
					ExprBridge.checkKeyPaths(projection.nestedTopLevelNames(), table.schema);
				}
				refusals.add(CancellationReason.builder().code("None").build());
				targets.add(table);
				keys.add(Keys.tableKey(table.schema, key));
			}
			catch (AwsError ex) {
				if (!"ValidationException".equals(ex.type())) {
					throw ex;
				}
				refused = true;
				refusals.add(TransactionOperations.reason(ex));
			}
		}
		if (refused) {
			throw TransactionOperations.cancelled(refusals);
		}
		Set<List<Object>> distinct = new HashSet<>();
		for (int i = 0; i < targets.size(); i++) {
			if (!distinct.add(List.of(targets.get(i).name, ByteBuffer.wrap(keys.get(i))))) {
				throw AwsError.validation("Transaction request cannot include multiple operations on one item");
			}
		}
		return new Targets(targets, keys, projections);
	}

	/** Reads every item under the read locks of its tables, taken in the order of their names. */
	private static byte[][] read(Targets targets) {
		TreeMap<String, StoredTable> tables = new TreeMap<>();
		for (StoredTable table : targets.tables()) {
			tables.put(table.name, table);
		}
		byte[][] found = new byte[targets.keys().size()][];
		List<StoredTable> locked = new ArrayList<>();
		try {
			for (StoredTable table : tables.values()) {
				table.lock.readLock().lock();
				locked.add(table);
				Database.stillThere(table);
			}
			for (int i = 0; i < found.length; i++) {
				found[i] = targets.tables().get(i).items.get(targets.keys().get(i));
			}
		}
		finally {
			for (int i = locked.size() - 1; i >= 0; i--) {
				locked.get(i).lock.readLock().unlock();
			}
		}
		return found;
	}

}
