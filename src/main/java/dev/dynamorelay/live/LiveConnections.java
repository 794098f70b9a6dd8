package dev.dynamorelay.live;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Flux;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.error.BusyException;
import dev.dynamorelay.error.InvalidCursorException;
import dev.dynamorelay.error.QueryTooComplexException;
import dev.dynamorelay.pagination.Paginator;

/**
 * The live connections of one process: one stream reader per table that a live connection reads, each record
 * routed to the subscriptions of its partition, and the subscriptions themselves, within their limits (in all,
 * and per caller).
 *
 * <p>A subscription that resumes after an event it saw first reads the stream again from that event (its shard
 * from there, then the shards that followed it) up to where the live reader stood when it subscribed, then
 * goes on with the live changes; a change both would send is sent once.
 */
public final class LiveConnections implements AutoCloseable {

	private final DynamoDbStreamsAsyncClient streams;

	private final Paginator paginator;

	private final LiveSettings settings;

	private final LiveMeters meters;

	private final LiveMemory memory;

	private final ScheduledExecutorService timer;

	/** By table, as DynamoDB knows it. */
	private final Map<String, Table> tables = new ConcurrentHashMap<>();

	private final AtomicInteger subscriptions = new AtomicInteger();

	private final Map<String, AtomicInteger> byCaller = new ConcurrentHashMap<>();

	public LiveConnections(DynamoDbStreamsAsyncClient streams, DynamoDbAsyncClient dynamoDb, List<String> tables,
			Paginator paginator, LiveSettings settings, LiveMeters meters, LiveMemory memory) {
		this.streams = streams;
		this.memory = memory;
		this.paginator = paginator;
		this.settings = settings;
		this.meters = meters;
		AtomicInteger threads = new AtomicInteger();
		ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(2, (task) -> {
			Thread thread = new Thread(task, "stream-reader-" + threads.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		timer.setRemoveOnCancelPolicy(true);
		this.timer = timer;
		// Switched off, the process reads no stream (and so is none of a shard's two readers).
		for (String table : settings.enabled() ? tables : List.<String>of()) {
			TableChanges changes = new TableChanges();
			StreamReader reader = new StreamReader(streams, dynamoDb, table, this.timer, settings, changes::wanted, meters,
					changes);
			this.tables.put(table, new Table(reader, changes));
		}
	}

	/** Starts every table's reader at its stream's newest records; completes once each has its place. */
	public CompletableFuture<Void> start() {
		return CompletableFuture.allOf(this.tables.values()
			.stream()
			.map((table) -> table.reader().start())
			.toArray(CompletableFuture[]::new));
	}

	/**
	 * The changes of {@code query} from now (or from right behind {@code after}) for {@code caller}, until the
	 * subscriber cancels.
	 * @throws BusyException when the process serves as many subscriptions as it may, or none at all
	 * @throws QueryTooComplexException when the caller holds as many as one caller may
	 */
	public Flux<Change> subscribe(LiveQuery query, String caller, Optional<StreamPosition> after,
			LiveMemory.Outlet outlet) {
		if (!this.settings.enabled()) {
			throw new BusyException("This server instance serves no live subscriptions (dynamo-relay.live.enabled="
					+ "false): subscribe at an instance that does.");
		}
		Table table = this.tables.get(query.definition().table());
		if (table == null) {
			throw new IllegalStateException("no live reader of table " + query.definition().table());
		}
		reserve(caller);
		return Flux.<Change>create((sink) -> {
			// Where the live reader stands before the subscriber is added: each change it gets lies behind.
			LiveSubscriber subscriber = new LiveSubscriber(query, this.paginator, this.meters, this.settings.buffer(),
					outlet, table.reader().positions(), after);
			subscriber.attach(sink);
			sink.onCancel(() -> subscriber.detach(true));
			sink.onDispose(() -> {
				table.changes().remove(subscriber);
				subscriber.detach(false);
				release(caller);
				this.meters.subscribers(query.field(), -1);
			});
			this.meters.subscribers(query.field(), +1);
			subscriber.hold(after.isPresent());
			table.changes().add(subscriber);
			after.ifPresent((position) -> {
				this.meters.resumed(query.field());
				new Replay(table.reader(), subscriber, position, table.reader().positions()).start();
			});
		});
	}

	/** The bytes held for subscribers, and their bounds. */
	public LiveMemory memory() {
		return this.memory;
	}

	private void reserve(String caller) {
		if (this.subscriptions.incrementAndGet() > this.settings.maxSubscriptions()) {
			this.subscriptions.decrementAndGet();
			throw new BusyException("The server holds %d live subscriptions, the most it serves "
				.formatted(this.settings.maxSubscriptions()) + "(dynamo-relay.live.max-subscriptions): subscribe again later.");
		}
		AtomicInteger own = this.byCaller.computeIfAbsent(caller, (key) -> new AtomicInteger());
		if (own.incrementAndGet() > this.settings.maxSubscriptionsPerCaller()) {
			own.decrementAndGet();
			this.subscriptions.decrementAndGet();
			throw new QueryTooComplexException(("This caller holds %d live subscriptions, the most one caller may "
					+ "(dynamo-relay.live.max-subscriptions-per-caller): end one first.")
				.formatted(this.settings.maxSubscriptionsPerCaller()));
		}
	}

	private void release(String caller) {
		this.subscriptions.decrementAndGet();
		AtomicInteger own = this.byCaller.get(caller);
		if (own != null && own.decrementAndGet() <= 0) {
			this.byCaller.remove(caller, own);
		}
	}

	/** The tables whose streams are read, as DynamoDB knows them. */
	public Set<String> tablesRead() {
		return Set.copyOf(this.tables.keySet());
	}

	/** The subscriptions held now. */
	public int subscriptions() {
		return this.subscriptions.get();
	}

	/** How far the reading of the tables' streams is behind their newest records: the most of any table. */
	public java.time.Duration lag() {
		return this.tables.values()
			.stream()
			.map((table) -> table.reader().lag())
			.max(java.time.Duration::compareTo)
			.orElse(java.time.Duration.ZERO);
	}

	@Override
	public void close() {
		this.tables.values().forEach((table) -> table.reader().stop());
		this.timer.shutdownNow();
	}

	private record Table(StreamReader reader, TableChanges changes) {
	}

	/**
	 * Reads a table's stream again for one resuming subscriber: the shard of its last event from right behind
	 * it, then the shards that followed, each up to where the live reader stood when it subscribed.
	 */
	/** How long a replay waits for its subscriber to take the changes it read again, before handing on more. */
	private static final java.time.Duration REPLAY_PAUSE = java.time.Duration.ofMillis(20);

	private final class Replay {

		private final StreamReader reader;

		private final LiveSubscriber subscriber;

		private final StreamPosition after;

		private final Map<String, BigInteger> upTo;

		Replay(StreamReader reader, LiveSubscriber subscriber, StreamPosition after, Map<String, BigInteger> upTo) {
			this.reader = reader;
			this.subscriber = subscriber;
			this.after = after;
			this.upTo = upTo;
		}

		void start() {
			this.reader.shards().thenCompose((shards) -> {
				if (shards.stream().noneMatch((shard) -> shard.shardId().equals(this.after.shardId()))) {
					throw new java.util.concurrent.CompletionException(expired());
				}
				return read(this.after.shardId(), this.after.sequenceNumber(), shards);
			}).whenComplete((done, failure) -> {
				if (failure != null) {
					Throwable cause = DynamoDbFailures.unwrap(failure);
					boolean gone = cause instanceof InvalidCursorException || cause instanceof TrimmedDataAccessException
							|| cause instanceof ResourceNotFoundException;
					this.subscriber.fail(gone ? expired() : cause);
					return;
				}
				this.subscriber.hold(false);
			});
		}

		/** One shard from behind {@code from} (from its start when null), then its children, in order. */
		private CompletableFuture<Void> read(String shardId, BigInteger from, List<Shard> shards) {
			return LiveConnections.this.streams.getShardIterator((get) -> {
				get.streamArn(this.reader.streamArn()).shardId(shardId);
				if (from != null) {
					get.shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER).sequenceNumber(StreamPosition.sequence(from));
				}
				else {
					get.shardIteratorType(ShardIteratorType.TRIM_HORIZON);
				}
			}).thenCompose((iterator) -> page(shardId, iterator.shardIterator())).thenCompose((finished) -> {
				if (!finished) {
					return CompletableFuture.completedFuture(null);
				}
				List<CompletableFuture<Void>> children = new ArrayList<>();
				for (Shard shard : shards) {
					if (shardId.equals(shard.parentShardId())) {
						children.add(read(shard.shardId(), null, shards));
					}
				}
				return CompletableFuture.allOf(children.toArray(CompletableFuture[]::new));
			});
		}

		/**
		 * Reads a shard page by page; completes true when the shard ended before the live reader's place (its
		 * children follow), false when the live reader's place was reached. Where the live reader has delivered
		 * nothing of the shard yet (it started at the shard's newest record), its place is the shard's tip: the
		 * first read that finds nothing more; the subscriber skips the live changes it got here already.
		 */
		private CompletableFuture<Boolean> page(String shardId, String iterator) {
			if (iterator == null) {
				return CompletableFuture.completedFuture(true);
			}
			BigInteger limit = this.upTo.get(shardId);
			return LiveConnections.this.streams.getRecords((get) -> get.shardIterator(iterator).limit(1000))
				.thenCompose((response) -> deliver(shardId, response.records(), 0, limit).thenCompose((passed) -> {
					if (passed) {
						return CompletableFuture.completedFuture(false);
					}
					if (response.records().isEmpty() && limit != null && response.nextShardIterator() != null) {
						// Caught up with an open shard: the live reader takes it from here.
						return CompletableFuture.completedFuture(false);
					}
					return page(shardId, response.nextShardIterator());
				}));
		}

		/**
		 * Hands {@code records} from index {@code from} on to the subscriber, waiting while as many replayed
		 * changes as its buffer holds wait to be sent: a slow client slows its catching up, and never loses it.
		 * Completes true once past the live reader's place (or when the subscriber is gone).
		 */
		private CompletableFuture<Boolean> deliver(String shardId, List<Record> records, int from, BigInteger limit) {
			for (int i = from; i < records.size(); i++) {
				var change = records.get(i).dynamodb();
				BigInteger sequence = new BigInteger(change.sequenceNumber());
				if ((limit != null && limit.signum() > 0 && sequence.compareTo(limit) > 0) || this.subscriber.closed()) {
					return CompletableFuture.completedFuture(true);
				}
				ChangeRecord read = new ChangeRecord(shardId, sequence,
						change.hasOldImage() ? Optional.of(change.oldImage()) : Optional.empty(),
						change.hasNewImage() ? Optional.of(change.newImage()) : Optional.empty(),
						(change.approximateCreationDateTime() != null) ? change.approximateCreationDateTime()
								: java.time.Instant.now());
				if (!this.subscriber.replay(read)) {
					int next = i;
					CompletableFuture<Boolean> later = new CompletableFuture<>();
					LiveConnections.this.timer.schedule(() -> deliver(shardId, records, next, limit).whenComplete((passed,
							failure) -> {
						if (failure != null) {
							later.completeExceptionally(failure);
						}
						else {
							later.complete(passed);
						}
					}), REPLAY_PAUSE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
					return later;
				}
			}
			return CompletableFuture.completedFuture(false);
		}

		private InvalidCursorException expired() {
			return new InvalidCursorException("The event `after` names is older than the stream keeps (24 hours), or of "
				+ "another table or server: refetch the connection and subscribe again without `after`.");
		}

	}

}
