package dev.dynamorelay.engine.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.store.TransactWritePlans.Planned;

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
 *
 * <p>A write's request checks and actions are {@link TransactWritePlans}', its tokens {@link ClientRequestTokens}',
 * TransactGetItems {@link TransactGets}'; this class runs the writes and answers.
 */
final class TransactionOperations {

	/** The most a transaction's items weigh together: 4 MB. */
	static final long MAX_TRANSACTION_BYTES = 4L * 1024 * 1024;

	private final Database database;

	private final TransactWritePlans plans;

	private final ClientRequestTokens tokens;

	private final TransactGets gets;

	TransactionOperations(Database database) {
		this.database = database;
		this.plans = new TransactWritePlans(database);
		this.tokens = new ClientRequestTokens(database);
		this.gets = new TransactGets(database);
	}

	// ---- TransactWriteItems

	TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
		List<Planned> writes = this.plans.plan(request);
		String token = request.clientRequestToken();
		if (token == null) {
			return run(request, writes);
		}
		return this.tokens.once(token, request, () -> run(request, writes));
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
			prepare(planned);
			told = this.database.commit(writes);
		}
		finally {
			for (int i = locked.size() - 1; i >= 0; i--) {
				locked.get(i).lock.writeLock().unlock();
			}
		}
		Database.await(told);
		return answer(request, writes);
	}

	/** Prepares every write (its condition checked, its new item worked out), or cancels them all with the reasons. */
	private void prepare(List<Planned> planned) {
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
			throw cancelled(reasons);
		}
	}

	/** A committed transaction's answer: the capacity and item collection metrics asked for. */
	private static TransactWriteItemsResponse answer(TransactWriteItemsRequest request, List<Mutation> writes) {
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

	/** The cancellation of a transaction, with every action's reason ({@code None} for those that would have run). */
	static AwsError cancelled(List<CancellationReason> reasons) {
		List<String> codes = new ArrayList<>();
		for (CancellationReason reason : reasons) {
			codes.add(reason.code());
		}
		return AwsError.transactionCanceled("Transaction cancelled, please refer cancellation reasons for specific reasons ["
				+ String.join(", ", codes) + "]", reasons);
	}

	/** An action's error as its cancellation reason. */
	static CancellationReason reason(AwsError error) {
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
		return this.gets.transactGetItems(request);
	}

}
