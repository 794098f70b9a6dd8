package dev.dynamorelay.engine.store;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ItemCodec;
import dev.dynamorelay.engine.value.ItemSize;
import dev.dynamorelay.engine.value.ValueChecks;

/**
 * PutItem, GetItem, UpdateItem and DeleteItem: DynamoDB's checks in DynamoDB's order (the request's members,
 * then its parameters together, its values, its expressions; then the table; then the key against the table),
 * then one write under the table's write lock, or one read under its read lock.
 */
final class ItemOperations {

	static final String[] RETURN_CONSUMED_CAPACITY = { "INDEXES", "TOTAL", "NONE" };

	static final String[] RETURN_VALUES = { "ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW" };

	static final String[] RETURN_ITEM_COLLECTION_METRICS = { "SIZE", "NONE" };

	static final String[] COMPARISON_OPERATORS = { "IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT", "NOT_NULL", "NE",
			"LE", "BEGINS_WITH", "GE", "CONTAINS" };

	private final Database database;

	ItemOperations(Database database) {
		this.database = database;
	}

	// ---- PutItem

	PutItemResponse putItem(PutItemRequest request) {
		Constraints constraints = new Constraints();
		constraints.oneOf("returnConsumedCapacity", request.returnConsumedCapacityAsString(), RETURN_CONSUMED_CAPACITY);
		tableName(constraints, "tableName", request.tableName());
		constraints.notNull("item", request.hasItem() ? request.item() : null);
		constraints.oneOf("conditionalOperator", request.conditionalOperatorAsString(), "OR", "AND");
		expected(constraints, request.hasExpected() ? request.expected() : null);
		constraints.oneOf("returnValues", request.returnValuesAsString(), RETURN_VALUES);
		constraints.oneOf("returnItemCollectionMetrics", request.returnItemCollectionMetricsAsString(), RETURN_ITEM_COLLECTION_METRICS);
		constraints.oneOf("returnValuesOnConditionCheckFailure", request.returnValuesOnConditionCheckFailureAsString(), "ALL_OLD", "NONE");
		constraints.check();
		ExprBridge.checkParameters(Map.of("ConditionExpression", request.conditionExpression() != null),
				Map.of("Expected", request.hasExpected()), names(request.hasExpressionAttributeNames(), request.expressionAttributeNames()),
				values(request.hasExpressionAttributeValues(), request.expressionAttributeValues()));
		Map<String, AttributeValue> item = ValueChecks.checkItem(request.item());
		String returnValues = request.returnValuesAsString();
		if (returnValues != null && !"ALL_OLD".equals(returnValues) && !"NONE".equals(returnValues)) {
			throw AwsError.validation("ReturnValues can only be ALL_OLD or NONE");
		}
		if (ItemSize.of(item) > ItemSize.MAX_ITEM_BYTES) {
			throw AwsError.validation("Item size has exceeded the maximum allowed size");
		}
		ExprBridge.Input input = new ExprBridge.Input();
		input.names = names(request.hasExpressionAttributeNames(), request.expressionAttributeNames());
		input.values = values(request.hasExpressionAttributeValues(), request.expressionAttributeValues());
		input.conditionExpression = request.conditionExpression();
		input.expected = request.hasExpected() ? request.expected() : null;
		input.conditionalOperator = request.conditionalOperatorAsString();
		ExprBridge.Parsed parsed = ExprBridge.parse(input);
		StoredTable table = this.database.activeTable(request.tableName());
		Keys.checkItem(table.schema, item);
		Mutation write = Mutation.put(table, item, parsed.condition(), returnOld(request.returnValuesOnConditionCheckFailureAsString()));
		write(write);
		PutItemResponse.Builder response = PutItemResponse.builder();
		if ("ALL_OLD".equals(returnValues) && write.old != null) {
			response.attributes(write.old);
		}
		response.consumedCapacity(Capacity.of(request.returnConsumedCapacityAsString(), table, write.tableUnits, write.indexUnits));
		response.itemCollectionMetrics(Capacity.collection(request.returnItemCollectionMetricsAsString(), write));
		return response.build();
	}

	// ---- GetItem

	GetItemResponse getItem(GetItemRequest request) {
		Constraints constraints = new Constraints();
		constraints.oneOf("returnConsumedCapacity", request.returnConsumedCapacityAsString(), RETURN_CONSUMED_CAPACITY);
		constraints.size("attributesToGet", request.hasAttributesToGet() ? request.attributesToGet() : null, 1, 255);
		tableName(constraints, "tableName", request.tableName());
		constraints.notNull("key", request.hasKey() ? request.key() : null);
		constraints.check();
		ExprBridge.checkParameters(Map.of("ProjectionExpression", request.projectionExpression() != null),
				Map.of("AttributesToGet", request.hasAttributesToGet()),
				names(request.hasExpressionAttributeNames(), request.expressionAttributeNames()), null);
		Map<String, AttributeValue> key = ValueChecks.checkItem(request.key());
		ExprBridge.Input input = new ExprBridge.Input();
		input.names = names(request.hasExpressionAttributeNames(), request.expressionAttributeNames());
		input.projectionExpression = request.projectionExpression();
		input.attributesToGet = request.hasAttributesToGet() ? request.attributesToGet() : null;
		ExprBridge.Parsed parsed = ExprBridge.parse(input);
		StoredTable table = this.database.activeTable(request.tableName());
		Keys.checkKey(table.schema, key);
		if (parsed.projection() != null) {
			ExprBridge.checkKeyPaths(parsed.projection().nestedTopLevelNames(), table.schema);
		}
		byte[] tableKey = Keys.tableKey(table.schema, key);
		byte[] stored;
		table.lock.readLock().lock();
		try {
			Database.stillThere(table);
			stored = table.items.get(tableKey);
		}
		finally {
			table.lock.readLock().unlock();
		}
		GetItemResponse.Builder response = GetItemResponse.builder();
		if (stored != null) {
			Map<String, AttributeValue> item = ItemCodec.decode(stored);
			response.item((parsed.projection() != null) ? parsed.projection().apply(item) : item);
		}
		boolean consistent = Boolean.TRUE.equals(request.consistentRead());
		double units = (stored != null) ? Capacity.readUnits(ItemCodec.size(stored)) : 1;
		response.consumedCapacity(Capacity.of(request.returnConsumedCapacityAsString(), table, consistent ? units : units / 2, Map.of()));
		return response.build();
	}

	// ---- UpdateItem

	UpdateItemResponse updateItem(UpdateItemRequest request) {
		Constraints constraints = new Constraints();
		constraints.oneOf("returnConsumedCapacity", request.returnConsumedCapacityAsString(), RETURN_CONSUMED_CAPACITY);
		tableName(constraints, "tableName", request.tableName());
		constraints.oneOf("returnItemCollectionMetrics", request.returnItemCollectionMetricsAsString(), RETURN_ITEM_COLLECTION_METRICS);
		constraints.oneOf("returnValues", request.returnValuesAsString(), RETURN_VALUES);
		constraints.notNull("key", request.hasKey() ? request.key() : null);
		constraints.oneOf("conditionalOperator", request.conditionalOperatorAsString(), "OR", "AND");
		expected(constraints, request.hasExpected() ? request.expected() : null);
		if (request.hasAttributeUpdates()) {
			for (Map.Entry<String, AttributeValueUpdate> update : request.attributeUpdates().entrySet()) {
				constraints.oneOf("attributeUpdates." + update.getKey() + ".member.action", update.getValue().actionAsString(),
						"ADD", "PUT", "DELETE");
			}
		}
		constraints.oneOf("returnValuesOnConditionCheckFailure", request.returnValuesOnConditionCheckFailureAsString(), "ALL_OLD", "NONE");
		constraints.check();
		ExprBridge.checkParameters(
				ordered("UpdateExpression", request.updateExpression() != null, "ConditionExpression", request.conditionExpression() != null),
				ordered("AttributeUpdates", request.hasAttributeUpdates(), "Expected", request.hasExpected()),
				names(request.hasExpressionAttributeNames(), request.expressionAttributeNames()),
				values(request.hasExpressionAttributeValues(), request.expressionAttributeValues()));
		Map<String, AttributeValue> key = ValueChecks.checkItem(request.key());
		ExprBridge.Input input = new ExprBridge.Input();
		input.names = names(request.hasExpressionAttributeNames(), request.expressionAttributeNames());
		input.values = values(request.hasExpressionAttributeValues(), request.expressionAttributeValues());
		input.conditionExpression = request.conditionExpression();
		input.updateExpression = request.updateExpression();
		input.expected = request.hasExpected() ? request.expected() : null;
		input.conditionalOperator = request.conditionalOperatorAsString();
		input.attributeUpdates = request.hasAttributeUpdates() ? request.attributeUpdates() : null;
		ExprBridge.Parsed parsed = ExprBridge.parse(input);
		StoredTable table = this.database.activeTable(request.tableName());
		Keys.checkKey(table.schema, key);
		ItemUpdate update = (parsed.update() != null) ? parsed.update() : NO_UPDATE;
		checkUpdate(table.schema, update);
		Mutation write = Mutation.update(table, key, update, parsed.condition(),
				returnOld(request.returnValuesOnConditionCheckFailureAsString()));
		write(write);
		UpdateItemResponse.Builder response = UpdateItemResponse.builder();
		Map<String, AttributeValue> attributes = switch (String.valueOf(request.returnValuesAsString())) {
			case "ALL_OLD" -> write.old;
			case "UPDATED_OLD" -> (write.old != null) ? update.updatedPaths().apply(write.old) : null;
			case "ALL_NEW" -> write.next;
			case "UPDATED_NEW" -> update.updatedPaths().apply(write.next);
			default -> null;
		};
		if (attributes != null && !attributes.isEmpty()) {
			response.attributes(attributes);
		}
		response.consumedCapacity(Capacity.of(request.returnConsumedCapacityAsString(), table, write.tableUnits, write.indexUnits));
		response.itemCollectionMetrics(Capacity.collection(request.returnItemCollectionMetricsAsString(), write));
		return response.build();
	}

	/** The update of an UpdateItem without UpdateExpression or AttributeUpdates: the item as it is (or its key). */
	static final ItemUpdate NO_UPDATE = new ItemUpdate() {

		@Override
		public Map<String, AttributeValue> apply(Map<String, AttributeValue> item) {
			return item;
		}

		@Override
		public Set<String> touchedTopLevelNames() {
			return Set.of();
		}

		@Override
		public ItemProjection updatedPaths() {
			return new ItemProjection() {

				@Override
				public Map<String, AttributeValue> apply(Map<String, AttributeValue> item) {
					return Map.of();
				}

				@Override
				public Set<String> topLevelNames() {
					return Set.of();
				}

			};
		}

	};

	/**
	 * DynamoDB's checks of an update against the table's keys before the item is read: no key attribute
	 * written, no index key given a value of another type, no document path into a key attribute.
	 */
	static void checkUpdate(TableSchema schema, ItemUpdate update) {
		Set<String> touched = update.touchedTopLevelNames();
		for (String key : (schema.range() == null) ? List.of(schema.hash().name()) : List.of(schema.hash().name(), schema.range().name())) {
			if (touched.contains(key)) {
				throw AwsError.validation("One or more parameter values were invalid: Cannot update attribute " + key
						+ ". This attribute is part of the key");
			}
		}
		for (IndexSchema index : schema.indexes()) {
			for (KeyAttribute attribute : (index.range() == null) ? List.of(index.hash()) : List.of(index.hash(), index.range())) {
				if (!index.global() && attribute == index.hash()) {
					continue;
				}
				AttributeValue.Type assigned = update.assignedType(attribute.name());
				String actual = (assigned == null) ? null : (assigned == AttributeValue.Type.NUL) ? "NULL" : assigned.name();
				if (actual != null && !actual.equals(attribute.type())) {
					throw AwsError.validation("One or more parameter values were invalid: Type mismatch for Index Key " + attribute.name()
							+ " Expected: " + attribute.type() + " Actual: " + actual + " IndexName: " + index.name());
				}
			}
		}
		ExprBridge.checkKeyPaths(update.nestedTopLevelNames(), schema);
	}

	// ---- DeleteItem

	DeleteItemResponse deleteItem(DeleteItemRequest request) {
		Constraints constraints = new Constraints();
		constraints.oneOf("returnConsumedCapacity", request.returnConsumedCapacityAsString(), RETURN_CONSUMED_CAPACITY);
		tableName(constraints, "tableName", request.tableName());
		constraints.oneOf("returnValues", request.returnValuesAsString(), RETURN_VALUES);
		constraints.oneOf("returnItemCollectionMetrics", request.returnItemCollectionMetricsAsString(), RETURN_ITEM_COLLECTION_METRICS);
		constraints.notNull("key", request.hasKey() ? request.key() : null);
		constraints.oneOf("conditionalOperator", request.conditionalOperatorAsString(), "OR", "AND");
		expected(constraints, request.hasExpected() ? request.expected() : null);
		constraints.oneOf("returnValuesOnConditionCheckFailure", request.returnValuesOnConditionCheckFailureAsString(), "ALL_OLD", "NONE");
		constraints.check();
		ExprBridge.checkParameters(Map.of("ConditionExpression", request.conditionExpression() != null),
				Map.of("Expected", request.hasExpected()), names(request.hasExpressionAttributeNames(), request.expressionAttributeNames()),
				values(request.hasExpressionAttributeValues(), request.expressionAttributeValues()));
		Map<String, AttributeValue> key = ValueChecks.checkItem(request.key());
		String returnValues = request.returnValuesAsString();
		if (returnValues != null && !"ALL_OLD".equals(returnValues) && !"NONE".equals(returnValues)) {
			throw AwsError.validation("ReturnValues can only be ALL_OLD or NONE");
		}
		ExprBridge.Input input = new ExprBridge.Input();
		input.names = names(request.hasExpressionAttributeNames(), request.expressionAttributeNames());
		input.values = values(request.hasExpressionAttributeValues(), request.expressionAttributeValues());
		input.conditionExpression = request.conditionExpression();
		input.expected = request.hasExpected() ? request.expected() : null;
		input.conditionalOperator = request.conditionalOperatorAsString();
		ExprBridge.Parsed parsed = ExprBridge.parse(input);
		StoredTable table = this.database.activeTable(request.tableName());
		Keys.checkKey(table.schema, key);
		Mutation write = Mutation.delete(table, key, parsed.condition(), returnOld(request.returnValuesOnConditionCheckFailureAsString()));
		write(write);
		DeleteItemResponse.Builder response = DeleteItemResponse.builder();
		if ("ALL_OLD".equals(returnValues) && write.old != null) {
			response.attributes(write.old);
		}
		response.consumedCapacity(Capacity.of(request.returnConsumedCapacityAsString(), table, write.tableUnits, write.indexUnits));
		response.itemCollectionMetrics(Capacity.collection(request.returnItemCollectionMetricsAsString(), write));
		return response.build();
	}

	// ---- shared

	/** Prepares and commits one write under its table's write lock, then waits for the listeners. */
	void write(Mutation write) {
		CompletableFuture<Void> told;
		StoredTable table = write.table;
		table.lock.writeLock().lock();
		try {
			Database.stillThere(table);
			write.prepare(this.database.options.itemCollectionLimitBytes());
			told = this.database.commit(List.of(write));
		}
		finally {
			table.lock.writeLock().unlock();
		}
		Database.await(told);
	}

	/** The journal's replay of a put ({@code item}) or a delete ({@code key}): no checks, no listeners. */
	void restore(String tableName, Map<String, AttributeValue> item, Map<String, AttributeValue> key) {
		StoredTable table = this.database.tables.get(tableName);
		if (table == null) {
			throw new IllegalStateException("no table " + tableName + " to restore an item into");
		}
		Mutation write = (item != null) ? Mutation.put(table, item, null, false) : Mutation.delete(table, key, null, false);
		table.lock.writeLock().lock();
		try {
			write.prepare(Long.MAX_VALUE);
			write.apply();
		}
		finally {
			table.lock.writeLock().unlock();
		}
	}

	static boolean returnOld(String returnValuesOnConditionCheckFailure) {
		return "ALL_OLD".equals(returnValuesOnConditionCheckFailure);
	}

	static void tableName(Constraints constraints, String path, String name) {
		constraints.notNull(path, name);
		constraints.name(path, name);
	}

	static void expected(Constraints constraints, Map<String, ExpectedAttributeValue> expected) {
		if (expected == null) {
			return;
		}
		for (Map.Entry<String, ExpectedAttributeValue> entry : expected.entrySet()) {
			constraints.oneOf("expected." + entry.getKey() + ".member.comparisonOperator", entry.getValue().comparisonOperatorAsString(),
					COMPARISON_OPERATORS);
		}
	}

	static Map<String, String> names(boolean given, Map<String, String> names) {
		return given ? names : null;
	}

	static Map<String, AttributeValue> values(boolean given, Map<String, AttributeValue> values) {
		return given ? values : null;
	}

	/** Two parameters in order (Map.of has none). */
	static Map<String, Boolean> ordered(String first, boolean firstGiven, String second, boolean secondGiven) {
		Map<String, Boolean> parameters = new java.util.LinkedHashMap<>();
		parameters.put(first, firstGiven);
		parameters.put(second, secondGiven);
		return parameters;
	}

}
