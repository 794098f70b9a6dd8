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
import reactor.core.publisher.FluxSink;
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

	/** Where each table's changes come from, by table as DynamoDB knows it. */
	private final Map<String, TableFeed> feeds = new ConcurrentHashMap<>();

	/** In a fleet: the broker and this instance's part in reading the streams; null for one instance alone. */
	private final Fleet fleet;

	/** Who is subscribed to which table and partition. */
	private final Subscriptions subscriptions;

	/** One instance alone: the process reads each table's stream itself. */
	public LiveConnections(DynamoDbStreamsAsyncClient streams, DynamoDbAsyncClient dynamoDb, List<String> tables,
			Paginator paginator, LiveSettings settings, LiveMeters meters, LiveMemory memory, FairShare fairShare) {
		this(tables, paginator, settings, meters, memory, fairShare, null, (table, subscribers, shared) -> {
			StreamReader reader = new StreamReader(streams, dynamoDb, table, shared.timer(), settings,
					subscribers::wanted, meters, subscribers);
			return new TableFeed.Own(reader, new Replays(reader, shared.replayCalls(), shared.pace(), shared.timer(), meters));
		});
	}

	/** What the feeds of a process share: its timer, and the resumes' bounds. */
	record Shared(ScheduledExecutorService timer, CallLimiter replayCalls, ReplayPace pace) {
	}

	/** Makes a table's feed. */
	interface Feeds {

		TableFeed feed(String table, TableSubscribers subscribers, Shared shared);

	}

	/**
	 * The fleet's parts this process holds: the broker (whose loss ends the subscriptions), and this instance's
	 * part in reading the streams (null where it reads none).
	 */
	record Fleet(RedisBroker broker, ShardLeases leases) {
	}

	LiveConnections(List<String> tables, Paginator paginator, LiveSettings settings, LiveMeters meters,
			LiveMemory memory, FairShare fairShare, Fleet fleet, Feeds feeds) {
		this.memory = memory;
		this.paginator = paginator;
		this.settings = settings;
		this.meters = meters;
		this.fleet = fleet;
		AtomicInteger threads = new AtomicInteger();
		ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(2, (task) -> {
			Thread thread = new Thread(task, "stream-reader-" + threads.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		timer.setRemoveOnCancelPolicy(true);
		this.timer = timer;
		// Every resume's reads, of every table: at most so many at once, and one request's share among requests'.
		Shared shared = new Shared(this.timer, new CallLimiter(settings.maxReplayReads(), fairShare),
				new ReplayPace(settings.replayRate()));
		// Switched off, the process reads no stream (and so is none of a shard's two readers).
		List<String> read = settings.enabled() ? tables : List.of();
		this.subscriptions = new Subscriptions(read, settings.maxSubscriptions(), settings.maxSubscriptionsPerCaller());
		for (String table : read) {
			this.feeds.put(table, feeds.feed(table, this.subscriptions.of(table), shared));
		}
		if (fleet != null) {
			fleet.broker().onLost(this::brokerLost);
		}
	}

	/** Starts every table's reader at its stream's newest records; completes once each has its place. */
	public CompletableFuture<Void> start() {
		CompletableFuture<Void> started = CompletableFuture.allOf(this.feeds.values()
			.stream()
			.map(TableFeed::start)
			.toArray(CompletableFuture[]::new));
		if (this.fleet != null && this.fleet.leases() != null) {
			this.fleet.leases().start();
		}
		return started;
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
		if (this.fleet != null && !this.fleet.broker().connected()) {
			throw new BusyException("The change broker (Redis) is unreachable: subscribe again once it is back.");
		}
		String name = query.definition().table();
		TableFeed feed = this.feeds.get(name);
		TableSubscribers subscribers = this.subscriptions.of(name);
		if (feed == null || subscribers == null) {
			throw new IllegalStateException("no live reader of table " + name);
		}
		this.subscriptions.reserve(caller);
		return Flux.<Change>create((sink) -> {
			// Where the feed stands before the subscriber is added: each change it gets lies behind.
			LiveSubscriber subscriber = new LiveSubscriber(query, this.paginator, this.meters, this.settings.buffer(),
					outlet, feed.positions(), after);
			// Watched before the dispose that unwatches is set (which runs at once if the sink is disposed already).
			CompletableFuture<Void> watched = feed.watch(query);
			subscriber.attach(sink);
			sink.onCancel(() -> subscriber.detach(true));
			sink.onDispose(() -> {
				subscribers.remove(subscriber);
				feed.unwatch(query);
				subscriber.detach(false);
				this.subscriptions.release(caller);
				this.meters.subscribers(query.field(), -1);
			});
			this.meters.subscribers(query.field(), +1);
			subscriber.hold(after.isPresent());
			subscribers.add(subscriber);
			watched.whenComplete((ignored, failure) -> {
				if (failure != null) {
					subscriber.fail(new BusyException("The change broker (Redis) did not take the subscription: "
							+ "subscribe again in a moment."));
					return;
				}
				after.ifPresent((position) -> {
					this.meters.resumed(query.field());
					feed.resume(subscriber, position);
				});
				outlet.connection().subscribed(outlet.id());
			});
			// The subscriber hands on no more than asked for (its own buffer holds the rest): no queue of the sink's,
			// whose buffering one would take 1 KB a subscription, idle or not.
		}, FluxSink.OverflowStrategy.IGNORE);
	}

	/** The bytes held for subscribers, and their bounds. */
	public LiveMemory memory() {
		return this.memory;
	}

	/** The tables whose streams are read, as DynamoDB knows them. */
	public Set<String> tablesRead() {
		return Set.copyOf(this.feeds.keySet());
	}

	/** The subscriptions held now. */
	public int subscriptions() {
		return this.subscriptions.held();
	}

	/** How far the reading of the tables' streams is behind their newest records: the most of any table. */
	public java.time.Duration lag() {
		return this.feeds.values()
			.stream()
			.map(TableFeed::lag)
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

	/** The broker is unreachable: every subscription ends UNAVAILABLE, each told where to resume. */
	private void brokerLost() {
		this.subscriptions.forEach(LiveSubscriber::brokerLost);
	}

	/** Whether this process serves subscriptions now: in a fleet, while the broker is reachable. */
	public boolean brokerReachable() {
		return this.fleet == null || this.fleet.broker().connected();
	}

	/**
	 * Whether this process does its part in a fleet: the broker reachable, and its part in reading the streams
	 * working (KCL started, what it reads published); true for one instance alone.
	 */
	public boolean fleetWorking() {
		return brokerReachable() && (this.fleet == null || this.fleet.leases() == null || this.fleet.leases().working());
	}

	/** In a fleet: the shards this instance reads now, and how far behind; empty for one instance alone. */
	public java.util.Optional<Leases> leases() {
		if (this.fleet == null || this.fleet.leases() == null) {
			return java.util.Optional.empty();
		}
		return java.util.Optional.of(new Leases(this.fleet.leases().leasesHeld(), this.fleet.leases().lag(),
				this.fleet.broker().watching()));
	}

	/**
	 * This instance's part in a fleet.
	 *
	 * @param held the shard leases it holds
	 * @param lag how far the shards it reads are behind their streams' newest records
	 * @param channels the broker's channels it is subscribed to (the partitions its subscribers read)
	 */
	public record Leases(int held, java.time.Duration lag, int channels) {
	}

	@Override
	public void close() {
		if (this.fleet != null && this.fleet.leases() != null) {
			this.fleet.leases().close();
		}
		this.feeds.values().forEach(TableFeed::stop);
		if (this.fleet != null) {
			this.fleet.broker().close();
		}
		this.timer.shutdownNow();
	}

}
