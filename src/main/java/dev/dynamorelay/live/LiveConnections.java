package dev.dynamorelay.live;

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
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

import dev.dynamorelay.budget.CallLimiter;
import dev.dynamorelay.budget.FairShare;
import dev.dynamorelay.error.BusyException;
import dev.dynamorelay.error.QueryTooComplexException;
import dev.dynamorelay.pagination.Paginator;

/**
 * The live connections of one process: one stream reader per table that a live connection reads, each record
 * routed to the subscriptions of its partition, and the subscriptions themselves, within their limits (in all,
 * and per caller).
 *
 * <p>A subscription that resumes after an event it saw first reads the stream again from that event (its shard
 * from there, then the shards that followed it) up to where the live reader stood when it subscribed, then
 * goes on with the live changes; a change both would send is sent once. Resumes share their reads
 * ({@link Replays}).
 */
public final class LiveConnections implements AutoCloseable {

	private final Paginator paginator;

	private final LiveSettings settings;

	private final LiveMeters meters;

	private final LiveMemory memory;

	private final ScheduledExecutorService timer;

	/** Each table's reading, by table as DynamoDB knows it. */
	private final Map<String, TableStream> streams = new ConcurrentHashMap<>();

	/** Who is subscribed to which table and partition. */
	private final Subscriptions subscriptions;

	public LiveConnections(DynamoDbStreamsAsyncClient streams, DynamoDbAsyncClient dynamoDb, List<String> tables,
			Paginator paginator, LiveSettings settings, LiveMeters meters, LiveMemory memory, FairShare fairShare) {
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
		// Every resume's reads, of every table: at most so many at once, and one request's share among requests'.
		CallLimiter replayCalls = new CallLimiter(settings.maxReplayReads(), fairShare);
		ReplayPace replayPace = new ReplayPace(settings.replayRate());
		// Switched off, the process reads no stream (and so is none of a shard's two readers).
		List<String> read = settings.enabled() ? tables : List.of();
		this.subscriptions = new Subscriptions(read, settings.maxSubscriptions(), settings.maxSubscriptionsPerCaller());
		for (String table : read) {
			TableSubscribers subscribers = this.subscriptions.of(table);
			StreamReader reader = new StreamReader(streams, dynamoDb, table, this.timer, settings, subscribers::wanted,
					meters, subscribers);
			this.streams.put(table, new TableStream(reader, new Replays(reader, replayCalls, replayPace, this.timer, meters)));
		}
	}

	/** Starts every table's reader at its stream's newest records; completes once each has its place. */
	public CompletableFuture<Void> start() {
		return CompletableFuture.allOf(this.streams.values()
			.stream()
			.map((stream) -> stream.reader().start())
			.toArray(CompletableFuture[]::new));
	}

	/**
	 * The changes of {@code query} from now (or from right behind {@code after}) for {@code caller}, until the
	 * subscriber cancels.
	 * @throws BusyException when the process serves as many subscriptions as it may, or none at all
	 * @throws QueryTooComplexException when the caller holds as many as one caller may
	 */
	public Flux<Change> subscribe(LiveQuery query, SubscriberId caller, Optional<StreamPosition> after,
			LiveMemory.Outlet outlet) {
		if (!this.settings.enabled()) {
			throw new BusyException("This server instance serves no live subscriptions (dynamo-relay.live.enabled="
					+ "false): subscribe at an instance that does.");
		}
		if (this.stopping) {
			// After endSubscriptions, nothing would end it: the graceful shutdown would wait for it to its timeout.
			throw new BusyException("The server is stopping: subscribe at another instance, or here once it is back.");
		}
		String name = query.definition().table();
		TableStream stream = this.streams.get(name);
		TableSubscribers subscribers = this.subscriptions.of(name);
		if (stream == null || subscribers == null) {
			throw new IllegalStateException("no live reader of table " + name);
		}
		this.subscriptions.reserve(caller);
		return Flux.<Change>create((sink) -> {
			// Where the live reader stands before the subscriber is added: each change it gets lies behind.
			LiveSubscriber subscriber = new LiveSubscriber(query, this.paginator, this.meters, this.settings.buffer(),
					outlet, stream.reader().positions(), after);
			subscriber.attach(sink);
			sink.onCancel(() -> subscriber.detach(true));
			sink.onDispose(() -> {
				subscribers.remove(subscriber);
				subscriber.detach(false);
				this.subscriptions.release(caller);
				this.meters.subscribers(query.field(), -1);
			});
			this.meters.subscribers(query.field(), +1);
			subscriber.hold(after.isPresent());
			subscribers.add(subscriber);
			after.ifPresent((position) -> {
				this.meters.resumed(query.field());
				stream.replays().resume(subscriber, position, stream.reader().positions());
			});
			outlet.connection().subscribed(outlet.id());
		});
	}

	/** The bytes held for subscribers, and their bounds. */
	public LiveMemory memory() {
		return this.memory;
	}

	/** The tables whose streams are read, as DynamoDB knows them. */
	public Set<String> tablesRead() {
		return Set.copyOf(this.streams.keySet());
	}

	/** The subscriptions held now. */
	public int subscriptions() {
		return this.subscriptions.held();
	}

	/** How far the reading of the tables' streams is behind their newest records: the most of any table. */
	public java.time.Duration lag() {
		return this.streams.values()
			.stream()
			.map((stream) -> stream.reader().lag())
			.max(java.time.Duration::compareTo)
			.orElse(java.time.Duration.ZERO);
	}

	/** Set when the server stops ({@link #endSubscriptions}): no subscription is taken until it starts again. */
	private volatile boolean stopping;

	/**
	 * Takes subscriptions again after {@link #endSubscriptions}: a context that is stopped and started again (Spring's
	 * test contexts are, when paused) serves as before.
	 */
	public void takeSubscriptions() {
		this.stopping = false;
	}

	/**
	 * Ends every subscription because the server stops, each told {@code UNAVAILABLE} and where to resume.
	 * @return how many were ended
	 */
	public int endSubscriptions() {
		this.stopping = true;
		AtomicInteger ended = new AtomicInteger();
		this.subscriptions.forEach((subscriber) -> {
			ended.incrementAndGet();
			subscriber.serverStopping();
		});
		return ended.get();
	}

	@Override
	public void close() {
		this.streams.values().forEach((stream) -> stream.reader().stop());
		this.timer.shutdownNow();
	}

	/** A table's stream: its live reading, and its resumes' readings again. */
	private record TableStream(StreamReader reader, Replays replays) {
	}

}
