package dev.dynamorelay.engine.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Get;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.ItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.Update;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ItemCodec;
import dev.dynamorelay.engine.value.ItemSize;
import dev.dynamorelay.engine.value.ValueChecks;

/**
 * TransactWriteItems and TransactGetItems: up to 100 actions on distinct items of one or more tables, 4 MB,
 * all or nothing, isolated from every other write.
 *
 * <p>Isolation: a transaction takes the write locks of all its tables, in the order of their names, prepares
 * every action (each condition checked, each new item worked out), and commits them all or none; no other write
 * to those tables runs meanwhile, and no read sees part of it, so transactions are serializable with every
 * other operation and never meet another in flight: this engine never answers TransactionConflictException
 * (DynamoDB answers it when another transaction holds an item; here the second simply waits). TransactGetItems
 * takes the read locks likewise.
 *
 * <p>ClientRequestToken: a TransactWriteItems that succeeded is remembered by its token for 10 minutes; the
 * same request again within them is answered as the first was, without being run again; another request with
 * the same token is refused with IdempotentParameterMismatchException; a second request with the token while
 * the first is running waits for it.
 *
 * <p>See the API Reference, TransactWriteItems and TransactGetItems, and the Developer Guide, "Amazon DynamoDB
 * Transactions: How it works" (Isolation levels, Idempotency, Capacity management).
 */
final class TransactionOperations {

	/** The most a transaction's items weigh together: 4 MB. */
	static final long MAX_TRANSACTION_BYTES = 4L * 1024 * 1024;

	private final Database database;

	private final Map<String, Remembered> tokens = new ConcurrentHashMap<>();

	private final ConcurrentLinkedQueue<String> tokenOrder = new ConcurrentLinkedQueue<>();

	TransactionOperations(Database database) {
		this.database = database;
	}

	/**
	 * One action of a TransactWriteItems: its write, or the refusal DynamoDB gives it as its cancellation reason
	 * (its key does not match its table's, its item is too large, its update writes a key) rather than as the
	 * request's error.
	 */
	private record Planned(Mutation write, AwsError refusal) {
	}

	/** A ClientRequestToken's request and outcome, until it expires. */
	private record Remembered(byte[] fingerprint, Instant expiry, CompletableFuture<TransactWriteItemsResponse> outcome) {
	}

	// ---- TransactWriteItems

	TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
		List<Planned> writes = prepareRequest(request);
		String token = request.clientRequestToken();
		if (token == null) {
			return run(request, writes);
		}
		byte[] fingerprint = fingerprint(request);
		while (true) {
			forgetExpiredTokens();
			Instant now = this.database.now();
			Remembered mine = new Remembered(fingerprint, now.plus(this.database.options.transactionTokenTtl()), new CompletableFuture<>());
			Remembered existing = this.tokens.putIfAbsent(token, mine);
			if (existing != null && existing.expiry().isBefore(now)) {
				this.tokens.remove(token, existing);
				continue;
			}
			if (existing != null) {
				if (!Arrays.equals(existing.fingerprint(), fingerprint)) {
					throw AwsError.of("IdempotentParameterMismatchException",
							"The request uses the same client token as a previous, but non-identical request. "
									+ "Do not reuse a client token with different requests, unless the requests are identical.");
				}
				try {
					return existing.outcome().join();
				}
				catch (CompletionException ex) {
					// the first request with this token failed: it did nothing, so this one runs
					this.tokens.remove(token, existing);
					continue;
				}
			}
			this.tokenOrder.add(token);
			try {
				TransactWriteItemsResponse response = run(request, writes);
				mine.outcome().complete(response);
				return response;
			}
			catch (RuntimeException ex) {
				this.tokens.remove(token, mine);
				mine.outcome().completeExceptionally(ex);
				throw ex;
			}
		}
	}

	private void forgetExpiredTokens() {
		Instant now = this.database.now();
		int excess = this.tokens.size() - this.database.options.maxTransactionTokens();
		while (true) {
			String oldest = this.tokenOrder.peek();
			if (oldest == null) {
				return;
			}
			Remembered remembered = this.tokens.get(oldest);
			boolean expired = remembered == null || remembered.expiry().isBefore(now);
			if (!expired && excess <= 0) {
				return;
			}
			this.tokenOrder.poll();
			if (remembered != null && remembered.outcome().isDone()) {
				this.tokens.remove(oldest, remembered);
				excess--;
			}
		}
	}

	private static byte[] fingerprint(TransactWriteItemsRequest request) {
		try {
			MessageDigest sha = MessageDigest.getInstance("SHA-256");
			return sha.digest(String.valueOf(request.transactItems()).getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java runtime has SHA-256", ex);
		}
	}

	/** Checks the request as DynamoDB does and makes one write an action (not yet prepared). */
	private List<Planned> prepareRequest(TransactWriteItemsRequest request) {
		Constraints constraints = new Constraints();
		List<TransactWriteItem> items = request.hasTransactItems() ? request.transactItems() : null;
		constraints.notNull("transactItems", items);
		constraints.size("transactItems", items, 1, 100);
		if (items != null && items.size() <= 100) {
			for (int i = 0; i < items.size(); i++) {
				String path = "transactItems." + (i + 1) + ".member";
				TransactWriteItem item = items.get(i);
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
		}
		constraints.oneOf("returnConsumedCapacity", request.returnConsumedCapacityAsString(), ItemOperations.RETURN_CONSUMED_CAPACITY);
		constraints.oneOf("returnItemCollectionMetrics", request.returnItemCollectionMetricsAsString(),
				ItemOperations.RETURN_ITEM_COLLECTION_METRICS);
		if (request.clientRequestToken() != null) {
			constraints.size("clientRequestToken", request.clientRequestToken(), 1, 36);
		}
		constraints.check();
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
		if (size > MAX_TRANSACTION_BYTES) {
			throw AwsError.validation("Collection size of items exceeded, which can also be caused by the aggregate size of the items "
					+ "in the transaction exceeding the 4MB limit");
		}
		return writes;
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
		ExprBridge.Input input = new ExprBridge.Input();
		if (item.put() != null) {
			Put put = item.put();
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
		if (item.update() != null) {
			Update update = item.update();
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
		if (item.delete() != null) {
			Delete delete = item.delete();
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
		ConditionCheck check = item.conditionCheck();
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

	/** Locks the tables, prepares every write, commits all or none, answers. */
	private TransactWriteItemsResponse run(TransactWriteItemsRequest request, List<Planned> planned) {
		List<Mutation> writes = new ArrayList<>(planned.size());
		TreeMap<String, StoredTable> tables = new TreeMap<>();
		for (Planned action : planned) {
			if (action.write() != null) {
				writes.add(action.write());
				tables.put(action.write().table.name, action.write().table);
			}
		}
		CompletableFuture<Void> told;
		List<StoredTable> locked = new ArrayList<>();
		try {
			for (StoredTable table : tables.values()) {
				table.lock.writeLock().lock();
				locked.add(table);
				Database.stillThere(table);
			}
			List<CancellationReason> reasons = new ArrayList<>(planned.size());
			boolean cancelled = false;
			for (Planned action : planned) {
				if (action.refusal() != null) {
					cancelled = true;
					reasons.add(reason(action.refusal()));
					continue;
				}
				try {
					action.write().prepare(this.database.options.itemCollectionLimitBytes());
					reasons.add(CancellationReason.builder().code("None").build());
				}
				catch (AwsError ex) {
					cancelled = true;
					reasons.add(reason(ex));
				}
			}
			if (cancelled) {
				List<String> codes = new ArrayList<>();
				for (CancellationReason reason : reasons) {
					codes.add(reason.code());
				}
				throw AwsError.transactionCanceled("Transaction cancelled, please refer cancellation reasons for specific reasons ["
						+ String.join(", ", codes) + "]", reasons);
			}
			told = this.database.commit(writes);
		}
		finally {
			for (int i = locked.size() - 1; i >= 0; i--) {
				locked.get(i).lock.writeLock().unlock();
			}
		}
		Database.await(told);
		TransactWriteItemsResponse.Builder response = TransactWriteItemsResponse.builder();
		if (Capacity.wanted(request.returnConsumedCapacityAsString())) {
			Map<StoredTable, Double> tableUnits = new LinkedHashMap<>();
			Map<StoredTable, Map<String, Double>> indexUnits = new LinkedHashMap<>();
			for (Mutation write : writes) {
				tableUnits.merge(write.table, 2 * write.tableUnits, Double::sum);
				Map<String, Double> doubled = new LinkedHashMap<>();
				write.indexUnits.forEach((name, units) -> doubled.put(name, 2 * units));
				Capacity.add(indexUnits.computeIfAbsent(write.table, (table) -> new LinkedHashMap<>()), doubled);
			}
			List<ConsumedCapacity> consumed = new ArrayList<>();
			for (Map.Entry<StoredTable, Double> entry : tableUnits.entrySet()) {
				consumed.add(Capacity.of(request.returnConsumedCapacityAsString(), entry.getKey(), entry.getValue(), indexUnits.get(entry.getKey())));
			}
			response.consumedCapacity(consumed);
		}
		if ("SIZE".equals(request.returnItemCollectionMetricsAsString())) {
			Map<String, List<ItemCollectionMetrics>> metrics = new LinkedHashMap<>();
			for (Mutation write : writes) {
				ItemCollectionMetrics collection = Capacity.collection("SIZE", write);
				if (collection != null) {
					metrics.computeIfAbsent(write.table.name, (name) -> new ArrayList<>()).add(collection);
				}
			}
			response.itemCollectionMetrics(metrics);
		}
		return response.build();
	}

	private static CancellationReason reason(AwsError error) {
		return switch (error.type()) {
			case "ConditionalCheckFailedException" -> CancellationReason.builder()
				.code("ConditionalCheckFailed")
				.message(error.getMessage())
				.item(error.item())
				.build();
			case "ValidationException" -> CancellationReason.builder().code("ValidationError").message(error.getMessage()).build();
			case "ItemCollectionSizeLimitExceededException" ->
				CancellationReason.builder().code("ItemCollectionSizeLimitExceeded").message(error.getMessage()).build();
			default -> CancellationReason.builder().code(error.type().replace("Exception", "")).message(error.getMessage()).build();
		};
	}

	// ---- TransactGetItems

	TransactGetItemsResponse transactGetItems(TransactGetItemsRequest request) {
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
				refusals.add(reason(ex));
			}
		}
		if (refused) {
			List<String> codes = new ArrayList<>();
			for (CancellationReason reason : refusals) {
				codes.add(reason.code());
			}
			throw AwsError.transactionCanceled("Transaction cancelled, please refer cancellation reasons for specific reasons ["
					+ String.join(", ", codes) + "]", refusals);
		}
		Set<List<Object>> distinct = new HashSet<>();
		for (int i = 0; i < targets.size(); i++) {
			if (!distinct.add(List.of(targets.get(i).name, ByteBuffer.wrap(keys.get(i))))) {
				throw AwsError.validation("Transaction request cannot include multiple operations on one item");
			}
		}
		TreeMap<String, StoredTable> tables = new TreeMap<>();
		for (StoredTable table : targets) {
			tables.put(table.name, table);
		}
		byte[][] found = new byte[items.size()][];
		List<StoredTable> locked = new ArrayList<>();
		try {
			for (StoredTable table : tables.values()) {
				table.lock.readLock().lock();
				locked.add(table);
				Database.stillThere(table);
			}
			for (int i = 0; i < items.size(); i++) {
				found[i] = targets.get(i).items.get(keys.get(i));
			}
		}
		finally {
			for (int i = locked.size() - 1; i >= 0; i--) {
				locked.get(i).lock.readLock().unlock();
			}
		}
		List<ItemResponse> responses = new ArrayList<>(items.size());
		Map<StoredTable, Double> units = new LinkedHashMap<>();
		long total = 0;
		for (int i = 0; i < items.size(); i++) {
			byte[] bytes = found[i];
			units.merge(targets.get(i), 2 * ((bytes != null) ? Capacity.readUnits(ItemCodec.size(bytes)) : 1), Double::sum);
			if (bytes == null) {
				responses.add(ItemResponse.builder().build());
				continue;
			}
			total += ItemCodec.size(bytes);
			Map<String, AttributeValue> item = ItemCodec.decode(bytes);
			ItemProjection projection = projections.get(i);
			responses.add(ItemResponse.builder().item((projection != null) ? projection.apply(item) : item).build());
		}
		if (total > MAX_TRANSACTION_BYTES) {
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

}
