package dev.dynamorelay.engine.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.Update;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ItemSize;
import dev.dynamorelay.engine.value.ValueChecks;

/**
 * A TransactWriteItems request checked as DynamoDB checks it, and its actions made writes, not yet prepared: each
 * Put, Update, Delete or ConditionCheck with its expressions parsed and its table found, an action that does not
 * fit its table kept as its cancellation reason, the items distinct and 4 MB at most together.
 */
final class TransactWritePlans {

	private final Database database;

	TransactWritePlans(Database database) {
		this.database = database;
	}

	/**
	 * One action of a TransactWriteItems: its write, or the refusal DynamoDB gives it as its cancellation reason
	 * (its key does not match its table's, its item is too large, its update writes a key) rather than as the
	 * request's error.
	 */
	record Planned(Mutation write, AwsError refusal) {
	}

	/** Checks the request as DynamoDB does and makes one write an action (not yet prepared). */
	List<Planned> plan(TransactWriteItemsRequest request) {
		checkMembers(request);
		List<TransactWriteItem> items = request.transactItems();
		List<Planned> writes = new ArrayList<>(items.size());
		long size = 0;
		Set<List<Object>> targets = new HashSet<>();
		for (TransactWriteItem item : items) {
			int actions = ((item.conditionCheck() != null) ? 1 : 0) + ((item.put() != null) ? 1 : 0) + ((item.delete() != null) ? 1 : 0)
					+ ((item.update() != null) ? 1 : 0);
			if (actions != 1) {
				throw AwsError.validation("TransactItems can only contain one of Check, Put, Update or Delete");
			}
			Planned planned = action(item);
			writes.add(planned);
			if (planned.refusal() != null) {
				continue;
			}
			Mutation write = planned.write();
			size += (write.item != null) ? ItemSize.of(write.item) : ItemSize.of(write.key);
			if (!targets.add(List.of(write.table.name, ByteBuffer.wrap(write.tableKey)))) {
				throw AwsError.validation("Transaction request cannot include multiple operations on one item");
			}
		}
		if (size > TransactionOperations.MAX_TRANSACTION_BYTES) {
			throw AwsError.validation("Collection size of items exceeded, which can also be caused by the aggregate size of the items "
					+ "in the transaction exceeding the 4MB limit");
		}
		return writes;
	}

	/** The members' constraints, in DynamoDB's order. */
	private static void checkMembers(TransactWriteItemsRequest request) {
		Constraints constraints = new Constraints();
		List<TransactWriteItem> items = request.hasTransactItems() ? request.transactItems() : null;
		constraints.notNull("transactItems", items);
		constraints.size("transactItems", items, 1, 100);
		if (items != null && items.size() <= 100) {
			for (int i = 0; i < items.size(); i++) {
				checkItemMembers(constraints, "transactItems." + (i + 1) + ".member", items.get(i));
			}
		}
		constraints.oneOf("returnConsumedCapacity", request.returnConsumedCapacityAsString(), ItemOperations.RETURN_CONSUMED_CAPACITY);
		constraints.oneOf("returnItemCollectionMetrics", request.returnItemCollectionMetricsAsString(),
				ItemOperations.RETURN_ITEM_COLLECTION_METRICS);
		if (request.clientRequestToken() != null) {
			constraints.size("clientRequestToken", request.clientRequestToken(), 1, 36);
		}
		constraints.check();
	}

	private static void checkItemMembers(Constraints constraints, String path, TransactWriteItem item) {
		if (item.conditionCheck() != null) {
			ConditionCheck check = item.conditionCheck();
			constraints.notNull(path + ".conditionCheck.key", check.hasKey() ? check.key() : null);
			ItemOperations.tableName(constraints, path + ".conditionCheck.tableName", check.tableName());
			constraints.notNull(path + ".conditionCheck.conditionExpression", check.conditionExpression());
		}
		if (item.put() != null) {
			constraints.notNull(path + ".put.item", item.put().hasItem() ? item.put().item() : null);
			ItemOperations.tableName(constraints, path + ".put.tableName", item.put().tableName());
		}
		if (item.delete() != null) {
			constraints.notNull(path + ".delete.key", item.delete().hasKey() ? item.delete().key() : null);
			ItemOperations.tableName(constraints, path + ".delete.tableName", item.delete().tableName());
		}
		if (item.update() != null) {
			constraints.notNull(path + ".update.key", item.update().hasKey() ? item.update().key() : null);
			constraints.notNull(path + ".update.updateExpression", item.update().updateExpression());
			ItemOperations.tableName(constraints, path + ".update.tableName", item.update().tableName());
		}
	}

	/** An action's checks against its table, refused as its cancellation reason (an empty key stays the request's). */
	private static Planned againstTable(java.util.function.Supplier<Mutation> checked) {
		try {
			return new Planned(checked.get(), null);
		}
		catch (AwsError ex) {
			if (!"ValidationException".equals(ex.type()) || ex.getMessage().contains("cannot contain an empty")) {
				throw ex;
			}
			return new Planned(null, ex);
		}
	}

	private Planned action(TransactWriteItem item) {
		if (item.put() != null) {
			return put(item.put());
		}
		if (item.update() != null) {
			return update(item.update());
		}
		if (item.delete() != null) {
			return delete(item.delete());
		}
		return conditionCheck(item.conditionCheck());
	}

	private Planned put(Put put) {
		ExprBridge.Input input = new ExprBridge.Input();
		check(put.returnValuesOnConditionCheckFailureAsString(), put.conditionExpression(), null, put.hasExpressionAttributeNames()
				? put.expressionAttributeNames() : null, put.hasExpressionAttributeValues() ? put.expressionAttributeValues() : null);
		Map<String, AttributeValue> checked = ValueChecks.checkItem(put.item());
		input.names = put.hasExpressionAttributeNames() ? put.expressionAttributeNames() : null;
		input.values = put.hasExpressionAttributeValues() ? put.expressionAttributeValues() : null;
		input.conditionExpression = put.conditionExpression();
		ExprBridge.Parsed parsed = ExprBridge.parse(input);
		StoredTable table = this.database.activeTable(put.tableName());
		return againstTable(() -> {
			Keys.checkItem(table.schema, checked);
			if (ItemSize.of(checked) > ItemSize.MAX_ITEM_BYTES) {
				throw AwsError.validation("Item size has exceeded the maximum allowed size");
			}
			return Mutation.put(table, checked, parsed.condition(), ItemOperations.returnOld(put.returnValuesOnConditionCheckFailureAsString()));
		});
	}

	private Planned update(Update update) {
		ExprBridge.Input input = new ExprBridge.Input();
		check(update.returnValuesOnConditionCheckFailureAsString(), update.conditionExpression(), update.updateExpression(),
				update.hasExpressionAttributeNames() ? update.expressionAttributeNames() : null,
				update.hasExpressionAttributeValues() ? update.expressionAttributeValues() : null);
		Map<String, AttributeValue> key = ValueChecks.checkItem(update.key());
		input.names = update.hasExpressionAttributeNames() ? update.expressionAttributeNames() : null;
		input.values = update.hasExpressionAttributeValues() ? update.expressionAttributeValues() : null;
		input.conditionExpression = update.conditionExpression();
		input.updateExpression = update.updateExpression();
		ExprBridge.Parsed parsed = ExprBridge.parse(input);
		StoredTable table = this.database.activeTable(update.tableName());
		return againstTable(() -> {
			Keys.checkKey(table.schema, key);
			ItemUpdate change = (parsed.update() != null) ? parsed.update() : ItemOperations.NO_UPDATE;
			ItemOperations.checkUpdate(table.schema, change);
			return Mutation.update(table, key, change, parsed.condition(),
					ItemOperations.returnOld(update.returnValuesOnConditionCheckFailureAsString()));
		});
	}

	private Planned delete(Delete delete) {
		ExprBridge.Input input = new ExprBridge.Input();
		check(delete.returnValuesOnConditionCheckFailureAsString(), delete.conditionExpression(), null,
				delete.hasExpressionAttributeNames() ? delete.expressionAttributeNames() : null,
				delete.hasExpressionAttributeValues() ? delete.expressionAttributeValues() : null);
		Map<String, AttributeValue> key = ValueChecks.checkItem(delete.key());
		input.names = delete.hasExpressionAttributeNames() ? delete.expressionAttributeNames() : null;
		input.values = delete.hasExpressionAttributeValues() ? delete.expressionAttributeValues() : null;
		input.conditionExpression = delete.conditionExpression();
		ExprBridge.Parsed parsed = ExprBridge.parse(input);
		StoredTable table = this.database.activeTable(delete.tableName());
		return againstTable(() -> {
			Keys.checkKey(table.schema, key);
			return Mutation.delete(table, key, parsed.condition(), ItemOperations.returnOld(delete.returnValuesOnConditionCheckFailureAsString()));
		});
	}

	private Planned conditionCheck(ConditionCheck check) {
		ExprBridge.Input input = new ExprBridge.Input();
		check(check.returnValuesOnConditionCheckFailureAsString(), check.conditionExpression(), null,
				check.hasExpressionAttributeNames() ? check.expressionAttributeNames() : null,
				check.hasExpressionAttributeValues() ? check.expressionAttributeValues() : null);
		Map<String, AttributeValue> key = ValueChecks.checkItem(check.key());
		input.names = check.hasExpressionAttributeNames() ? check.expressionAttributeNames() : null;
		input.values = check.hasExpressionAttributeValues() ? check.expressionAttributeValues() : null;
		input.conditionExpression = check.conditionExpression();
		ExprBridge.Parsed parsed = ExprBridge.parse(input);
		StoredTable table = this.database.activeTable(check.tableName());
		return againstTable(() -> {
			Keys.checkKey(table.schema, key);
			return Mutation.check(table, key, parsed.condition(), ItemOperations.returnOld(check.returnValuesOnConditionCheckFailureAsString()));
		});
	}

	private static void check(String returnValuesOnConditionCheckFailure, String condition, String update, Map<String, String> names,
			Map<String, AttributeValue> values) {
		new Constraints().oneOf("returnValuesOnConditionCheckFailure", returnValuesOnConditionCheckFailure, "ALL_OLD", "NONE").check();
		Map<String, Boolean> expressions = new LinkedHashMap<>();
		if (update != null) {
			expressions.put("UpdateExpression", true);
		}
		expressions.put("ConditionExpression", condition != null);
		ExprBridge.checkParameters(expressions, Map.of(), names, values);
	}

}
