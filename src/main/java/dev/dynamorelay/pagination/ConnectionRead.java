package dev.dynamorelay.pagination;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;

import dev.dynamorelay.budget.FairShare;
import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.dynamodb.CallTimeout;
import dev.dynamorelay.error.UnavailableException;
import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.SortOrder;

/**
 * One prepared read of a connection: the page loop and the count loop over DynamoDB.
 *
 * <p>The page loop reads from the cursor ({@code ExclusiveStartKey}) in the requested direction
 * until it holds one match more than the page size (so that {@code hasNextPage} is exact), the key
 * range ends (no {@code LastEvaluatedKey}), or the read budget is spent: the field's own, or the
 * request's, which all its connection fields and counts share ({@link ReadStats#takeItems}). Each
 * request's {@code Limit} is what the page still needs (one request for an unfiltered page) and never
 * more than what is left of either budget; a FilterExpression makes {@code Limit} bound reads, not
 * matches, so filtered reads grow their {@code Limit} with the observed selectivity. A page that finds
 * the request's budget spent before its first read sends nothing and hands out a cursor at the end it
 * would have started from ({@link Position}).
 *
 * <p>Every DynamoDB call waits for its place among the request's calls in flight
 * ({@link ReadStats#calls()}); its {@code Limit} and its timeout (what is left of the request's time)
 * are computed when it gets its place, not when it was queued.
 *
 * <p>The requests themselves, with the key condition and filter, are {@link ReadCalls}.
 *
 * @param <T> the node type
 */
public final class ConnectionRead<T> {

	private final DynamoDbAsyncClient dynamoDb;

	private final CursorCodec cursors;

	private final ReadBudgets budgets;

	private final ConnectionDefinition<T> definition;

	private final ConnectionQuery query;

	private final PageRequest request;

	private final CursorBinding binding;

	/** Where the page starts: the cursor's position, or null for the first page. */
	private final Position start;

	/** The Query or Scan requests of this read. */
	private final ReadCalls calls;

	private final ConnectionMeters meters;

	ConnectionRead(DynamoDbAsyncClient dynamoDb, CursorCodec cursors, ReadBudgets budgets,
			ConnectionDefinition<T> definition, ConnectionQuery query, PageRequest request, CursorBinding binding,
			Position start, ConnectionMeters meters) {
		this.meters = meters;
		this.dynamoDb = dynamoDb;
		this.cursors = cursors;
		this.budgets = budgets;
		this.definition = definition;
		this.query = query;
		this.request = request;
		this.binding = binding;
		this.start = start;
		this.calls = new ReadCalls(definition, query);
	}

	/** Reads the page. Requests are summed into {@code stats}, and take from its item budget. */
	public CompletableFuture<Page<T>> page(ReadStats stats) {
		boolean forward = this.request.direction() == Direction.FORWARD;
		// DynamoDB's order for this page: the connection's forwards, the reverse backwards.
		SortOrder readOrder = (forward == (this.query.order() == SortOrder.ASC)) ? SortOrder.ASC : SortOrder.DESC;
		boolean atEnd = this.start != null && this.start.isEnd();
		PageState<T> state = new PageState<>(this.request.size() + 1,
				(this.start == null || atEnd) ? null : this.start.key(), this.definition.mapper());
		// A cursor at the end the page reads away from (after the last item forwards, before the first
		// backwards): nothing lies that way.
		CompletableFuture<PageState<T>> read = (atEnd && (this.start.end() == Position.End.AFTER_LAST) == forward)
				? CompletableFuture.completedFuture(state) : readPage(state, readOrder, deadline(stats), stats);
		return read.thenApply((done) -> {
			Page<T> page = toPage(done);
			this.meters.page(page.cut());
			return page;
		});
	}

	/**
	 * Counts the whole connection (same key range and filter, whatever the page), within the count
	 * budget; empty when the budget (the count's or the request's) ran out first.
	 *
	 * <p>It reads in growing steps: first as many items as a page's read budget, then four times the
	 * step before. A count of a large connection costs a read or two more than one that asked for its
	 * whole budget at once; in exchange, a count of a small one takes no more of the request's budget,
	 * while it reads, than a page might, and leaves the rest to the request's other fields.
	 */
	public CompletableFuture<Optional<Integer>> count(ReadStats stats) {
		return count(null, 0, 0, this.budgets.readItems(), deadline(stats), stats);
	}

	private CompletableFuture<PageState<T>> readPage(PageState<T> state, SortOrder readOrder, long deadline,
			ReadStats stats) {
		int budgetLeft = this.budgets.readItems() - state.scanned;
		if (budgetLeft <= 0) {
			state.cut = true;
			return CompletableFuture.completedFuture(state);
		}
		int wanted = Math.min(state.nextLimit(this.query.filtered() || state.declined > 0), budgetLeft);
		return read(state.position, wanted, readOrder, ReadCalls.Wanted.ITEMS, deadline, stats).thenCompose((chunk) -> {
			if (chunk == null) {
				// The request's budget is spent.
				state.cut = true;
				return CompletableFuture.completedFuture(state);
			}
			state.add(chunk);
			if (state.full() || state.position == null) {
				return CompletableFuture.completedFuture(state);
			}
			return readPage(state, readOrder, deadline, stats);
		});
	}

	private Page<T> toPage(PageState<T> state) {
		int size = this.request.size();
		boolean full = state.matches.size() > size;
		boolean more = full || state.position != null || state.cut;
		int kept = Math.min(size, state.matches.size());
		List<Edge<T>> edges = new ArrayList<>(kept);
		for (int i = 0; i < kept; i++) {
			edges.add(new Edge<>(this.cursors.encode(this.binding, state.matches.get(i)), state.nodes.get(i)));
		}
		boolean forward = this.request.direction() == Direction.FORWARD;
		if (!forward) {
			Collections.reverse(edges);
		}
		String startCursor;
		String endCursor;
		if (!edges.isEmpty()) {
			startCursor = edges.get(0).cursor();
			endCursor = edges.get(edges.size() - 1).cursor();
		}
		else if (!full && state.position != null) {
			// Cut by the read budget with nothing matched: continue from where reading stopped.
			startCursor = this.cursors.encode(this.binding, state.position);
			endCursor = startCursor;
		}
		else if (state.cut) {
			// Cut by the request's budget before reading from the start: continue from the start, the end of
			// the connection this page reads from.
			startCursor = this.cursors.encode(this.binding, forward ? Position.BEFORE_FIRST : Position.AFTER_LAST);
			endCursor = startCursor;
		}
		else {
			startCursor = null;
			endCursor = null;
		}
		boolean continues = this.request.continues();
		PageInfo info = forward ? new PageInfo(more, continues, startCursor, endCursor)
				: new PageInfo(continues, more, startCursor, endCursor);
		return new Page<>(edges, info, !full && (state.cut || state.position != null));
	}

	private CompletableFuture<Optional<Integer>> count(Map<String, AttributeValue> position, int scanned,
			int counted, int step, long deadline, ReadStats stats) {
		int budgetLeft = this.budgets.countItems() - scanned;
		if (budgetLeft < 0) {
			return CompletableFuture.completedFuture(Optional.empty());
		}
		// One more than the budget: a range of exactly the budget's size ends inside this read and is counted.
		int wanted = (int) Math.min(budgetLeft + 1L, step);
		return read(position, wanted, SortOrder.ASC, ReadCalls.Wanted.COUNT, deadline, stats).thenCompose((chunk) -> {
			if (chunk == null) {
				// The request's budget is spent.
				return CompletableFuture.completedFuture(Optional.empty());
			}
			int total = counted + (this.definition.typedCount().isEmpty() ? chunk.count() : nodes(chunk.items()));
			if (chunk.lastEvaluatedKey() == null) {
				return CompletableFuture.completedFuture(Optional.of(total));
			}
			return count(chunk.lastEvaluatedKey(), scanned + chunk.scanned(), total,
					(int) Math.min(Integer.MAX_VALUE, step * 4L), deadline, stats);
		});
	}

	/** How many of the items the mapper accepts as nodes. */
	private int nodes(List<Map<String, AttributeValue>> items) {
		int nodes = 0;
		for (Map<String, AttributeValue> item : items) {
			if (this.definition.mapper().apply(item) != null) {
				nodes++;
			}
		}
		return nodes;
	}

	/**
	 * One Query or Scan of at most {@code wanted} items, once it has its place among the request's calls
	 * in flight and as many of the request's items as it gets; null (and nothing sent) when the request's
	 * item budget is spent.
	 */
	private CompletableFuture<Chunk> read(Map<String, AttributeValue> from, int wanted, SortOrder readOrder,
			ReadCalls.Wanted what, long deadline, ReadStats stats) {
		if (!stats.budget().hasItemsLeft()) {
			return CompletableFuture.completedFuture(null);
		}
		return stats.budget().calls().call(() -> {
			// Smaller steps while other requests' calls wait (FairShare), so that places free often.
			int limit = stats.budget().takeItems(stats.budget().calls().limit(wanted));
			if (limit == 0) {
				return CompletableFuture.completedFuture(null);
			}
			CompletableFuture<Chunk> sent;
			try {
				sent = send(from, limit, readOrder, what, deadline, stats);
			}
			catch (RuntimeException ex) {
				stats.budget().returnItems(limit);
				throw ex;
			}
			// DynamoDB scans at most Limit items; what it did not scan goes back to the request.
			return sent.whenComplete((chunk, failure) -> stats.budget().returnItems(limit - ((chunk != null) ? chunk.scanned() : 0)));
		});
	}

	/**
	 * One DynamoDB call of a whole-connection read (an export): from {@code from} (null: the connection's
	 * start) in the connection's order, built as the page loop builds its calls, with {@code limit} (null:
	 * none, DynamoDB's pages of 1 MB) and bounded by {@code timeout}; recorded into {@code stats}, without
	 * taking from its item budget or waiting for a place among its calls. Items the mapper declines are
	 * passed over, as pages pass them over. No cursor is encoded: the caller encodes one per batch, where
	 * it stores its position.
	 */
	public CompletableFuture<Batch<T>> batch(Map<String, AttributeValue> from, Integer limit, Duration timeout,
			ReadStats stats) {
		return send(from, limit, this.query.order(), ReadCalls.Wanted.ITEMS, System.nanoTime() + timeout.toNanos(), stats)
			.thenApply((chunk) -> {
				List<T> nodes = new ArrayList<>(chunk.items().size());
				for (Map<String, AttributeValue> item : chunk.items()) {
					T node = this.definition.mapper().apply(item);
					if (node != null) {
						nodes.add(node);
					}
				}
				return new Batch<>(nodes, chunk.lastEvaluatedKey(), chunk.scanned());
			});
	}

	private CompletableFuture<Chunk> send(Map<String, AttributeValue> from, Integer limit, SortOrder readOrder,
			ReadCalls.Wanted what, long deadline, ReadStats stats) {
		Optional<Duration> callTimeout = CallTimeout.of(Duration.ofNanos(deadline - System.nanoTime()));
		if (callTimeout.isEmpty()) {
			return CompletableFuture.failedFuture(new UnavailableException(
					"DynamoDB did not serve `%s` within %s.".formatted(this.definition.field(), this.budgets.timeout()),
					null));
		}
		AwsRequestOverrideConfiguration timeout = AwsRequestOverrideConfiguration.builder()
			.apiCallTimeout(callTimeout.get())
			.build();
		if (this.definition.isScan()) {
			return stats.costs().sent(this.dynamoDb.scan(this.calls.scan(from, limit, what, timeout)))
				.thenApply((response) -> Chunk.of(limit, response.items(), response.scannedCount(), response.count(),
						response.hasLastEvaluatedKey() ? response.lastEvaluatedKey() : null,
						response.consumedCapacity(), stats, this.meters));
		}
		return stats.costs().sent(this.dynamoDb.query(this.calls.query(from, limit, readOrder, what, timeout)))
			.thenApply((response) -> Chunk.of(limit, response.items(), response.scannedCount(), response.count(),
					response.hasLastEvaluatedKey() ? response.lastEvaluatedKey() : null, response.consumedCapacity(),
					stats, this.meters));
	}

	/** The field's reads end within the timeout of their start and of the request's start. */
	private long deadline(ReadStats stats) {
		return System.nanoTime() + stats.budget().remaining(this.budgets.timeout()).toNanos();
	}

	/** What one DynamoDB response brought, and the {@code Limit} it was asked with. */
	private record Chunk(int limit, List<Map<String, AttributeValue>> items, int scanned, int count,
			Map<String, AttributeValue> lastEvaluatedKey) {

		static Chunk of(Integer limit, List<Map<String, AttributeValue>> items, Integer scanned, Integer count,
				Map<String, AttributeValue> lastEvaluatedKey, ConsumedCapacity capacity, ReadStats stats,
				ConnectionMeters meters) {
			int scannedCount = (scanned != null) ? scanned : 0;
			int matched = (count != null) ? count : 0;
			Double units = (capacity != null) ? capacity.capacityUnits() : null;
			stats.costs().record(scannedCount, matched, units);
			meters.call(scannedCount, matched, units);
			// The SDK answers an absent LastEvaluatedKey with an empty map, not null.
			Map<String, AttributeValue> next = (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) ? null
					: lastEvaluatedKey;
			return new Chunk((limit != null) ? limit : 0, items, scannedCount, matched, next);
		}

	}

	/**
	 * What one call of a whole-connection read brought.
	 *
	 * @param nodes the items the mapper accepted, in the connection's order
	 * @param next where the read continues ({@code LastEvaluatedKey}); null at the connection's end
	 * @param scanned the items DynamoDB read for it ({@code ScannedCount})
	 * @param <T> the node type
	 */
	public record Batch<T>(List<T> nodes, Map<String, AttributeValue> next, int scanned) {
	}

	/**
	 * The page loop's progress; touched by one request chain at a time. An item the mapper declines (of a
	 * type the connection does not serve) is passed over like one the filter dropped.
	 */
	private static final class PageState<T> {

		private final int wanted;

		private final Function<Map<String, AttributeValue>, T> mapper;

		private final List<Map<String, AttributeValue>> matches = new ArrayList<>();

		private final List<T> nodes = new ArrayList<>();

		private Map<String, AttributeValue> position;

		private int scanned;

		private int lastLimit;

		/** Items read that the mapper declined: from then on reads grow their Limit as filtered ones do. */
		private int declined;

		/** Whether a budget (the field's or the request's) stopped the page before it was full or ended. */
		private boolean cut;

		PageState(int wanted, Map<String, AttributeValue> start, Function<Map<String, AttributeValue>, T> mapper) {
			this.wanted = wanted;
			this.position = start;
			this.mapper = mapper;
		}

		int nextLimit(boolean filtered) {
			int need = this.wanted - this.matches.size();
			if (!filtered) {
				return need;
			}
			if (this.lastLimit == 0) {
				return need;
			}
			if (this.matches.isEmpty()) {
				return (int) Math.min(Integer.MAX_VALUE, this.lastLimit * 4L);
			}
			double perMatch = (double) this.scanned / this.matches.size();
			return (int) Math.min(Integer.MAX_VALUE, Math.max(need, Math.ceil(need * perMatch * 1.25)));
		}

		void add(Chunk chunk) {
			this.lastLimit = chunk.limit();
			this.scanned += chunk.scanned();
			for (Map<String, AttributeValue> item : chunk.items()) {
				if (this.matches.size() == this.wanted) {
					break;
				}
				T node = this.mapper.apply(item);
				if (node != null) {
					this.matches.add(item);
					this.nodes.add(node);
				}
				else {
					this.declined++;
				}
			}
			this.position = chunk.lastEvaluatedKey();
		}

		boolean full() {
			return this.matches.size() >= this.wanted;
		}

	}


}
