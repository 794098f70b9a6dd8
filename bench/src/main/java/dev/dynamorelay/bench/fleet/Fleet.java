package dev.dynamorelay.bench.fleet;

import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

import dev.dynamorelay.bench.support.BenchData;
import dev.dynamorelay.bench.support.Processes;
import dev.dynamorelay.bench.support.Prometheus;
import dev.dynamorelay.bench.support.Report;
import dev.dynamorelay.bench.support.Settings;
import dev.dynamorelay.bench.support.Stamp;
import dev.dynamorelay.bench.support.StampedWrites;
import dev.dynamorelay.bench.support.Stats;
import dev.dynamorelay.bench.support.StreamPoller;
import dev.dynamorelay.bench.support.Subscriber;
import dev.dynamorelay.fixtures.RedisServer;
import dev.dynamorelay.fixtures.ServerProcess;

/**
 * The benchmark's fleet section ({@code BENCH_ONLY=fleet}): live connections across three instances
 * ({@code dynamo-relay.live.broker=redis}), with the real parts on this machine: the jar's DynamoDB engine as a
 * process of its own, a Redis server on loopback ({@link RedisServer}) and three server processes
 * ({@link ServerProcess}), one Kinesis Client Library application whose holder of the stream's shard lease publishes
 * each change to Redis.
 *
 * <p>{@value #SUBSCRIPTIONS} subscriptions of {@code purchaseChanges}, {@value #PER_USER} on each of
 * {@value #USERS} users, on {@value #CONNECTIONS} WebSocket connections of {@value #PER_CONNECTION} (connection c on
 * instance c % 3, so that each user's 10 are on all three). Stamped PutItems straight to the table at
 * {@code BENCH_FLEET_RATE} (30) a second to random users, each timed from its send to its arrival at each
 * subscription of its user, beside the raw GetRecords poller of the live section in the same run. Then the lease
 * holder is killed (SIGKILL) while the writes go on, and restarted.
 */
public final class Fleet {

	static final int USERS = 1_000;

	static final int PER_USER = 10;

	static final int SUBSCRIPTIONS = USERS * PER_USER;

	static final int PER_CONNECTION = 100;

	static final int CONNECTIONS = SUBSCRIPTIONS / PER_CONNECTION;

	static final int INSTANCES = 3;

	/** The target: the p99 within this of the raw reader's. */
	private static final double P99_OVER_FLOOR_MS = 100;

	private static final String LEASE_TABLE = "bench-fleet-leases";

	/** Connections opened at once. */
	private static final int OPENING = 32;

	private final Report report;

	private final Path out;

	private final Duration window = Settings.seconds("BENCH_SECONDS", 60);

	private final Duration warmUp = Settings.seconds("BENCH_WARMUP_SECONDS", 30);

	private final Duration failover = Settings.seconds("BENCH_FLEET_FAILOVER", 10);

	private final double rate = Double.parseDouble(System.getenv().getOrDefault("BENCH_FLEET_RATE", "30"));

	private final HttpClient http = HttpClient.newHttpClient();

	private final Deliveries deliveries = new Deliveries();

	private final List<ServerProcess> servers = new ArrayList<>();

	private final List<Subscriber> subscribers = new ArrayList<>();

	private RedisServer redis;

	private ServerProcess engine;

	public Fleet(Report report, Path out) {
		this.report = report;
		this.out = out;
	}

	public void run() throws Exception {
		System.out.printf("Fleet: 3 instances, %,d subscriptions over %,d users on %d connections; %d s of warm-up, "
				+ "%d s measured, %.0f writes/s; failover-time %d s ...%n", SUBSCRIPTIONS, USERS, CONNECTIONS,
				this.warmUp.toSeconds(), this.window.toSeconds(), this.rate, this.failover.toSeconds());
		try {
			start();
			try (DynamoDbAsyncClient dynamoDb = DynamoDbAsyncClient.builder()
				.httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(16))
				.endpointOverride(this.engine.uri(""))
				.region(Region.US_EAST_1)
				.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench")))
				.build(); DynamoDbStreamsAsyncClient streams = StreamPoller.client(this.engine.uri(""))) {
				StampedWrites writes = new StampedWrites(dynamoDb);
				StreamPoller reader = new StreamPoller(streams, dynamoDb, this.deliveries::seen);
				Thread poller = reader.start();
				try {
					measure(writes);
				}
				finally {
					reader.stop();
					poller.join(5_000);
				}
			}
		}
		finally {
			stop();
		}
	}

	/** Redis, the engine, the first instance (which makes the tables), the other two beside each other. */
	private void start() throws Exception {
		for (int i = 0; i < INSTANCES; i++) {
			Files.deleteIfExists(log(i));
		}
		Files.deleteIfExists(this.out.resolve("fleet-engine.log"));
		this.redis = RedisServer.start();
		this.engine = ServerProcess.engine(this.out.resolve("fleet-engine.log"));
		long starting = System.nanoTime();
		this.servers.add(server(0));
		this.servers.addAll(ServerProcess.beside(1, INSTANCES, this::server));
		System.out.printf("  3 instances ready in %.0f s (pids %d, %d, %d); waiting for a lease ...%n",
				(System.nanoTime() - starting) / 1e9, this.servers.get(0).pid(), this.servers.get(1).pid(),
				this.servers.get(2).pid());
		long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
		while (leasesHeld() < 1) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("no instance holds a lease within 120 s; see " + log(0));
			}
			Thread.sleep(250);
		}
		System.out.printf("  a lease held %.0f s after the start%n", (System.nanoTime() - starting) / 1e9);
	}

	private ServerProcess server(int index) throws Exception {
		List<String> properties = new ArrayList<>(List.of("--dynamo-relay.dynamodb.endpoint=" + this.engine.uri(""),
				"--dynamo-relay.tables.create=true", "--dynamo-relay.sample-data.enabled=false",
				"--dynamo-relay.cursor.secret=benchmark-fleet-benchmark-fleet-benchmark-fleet",
				"--dynamo-relay.live.broker=redis", "--dynamo-relay.live.fleet.redis-url=" + this.redis.url(),
				"--dynamo-relay.live.fleet.lease-table=" + LEASE_TABLE,
				"--dynamo-relay.live.fleet.failover-time=" + this.failover.toSeconds() + "s",
				// Every subscriber here is the same anonymous caller; the default is 100.
				"--dynamo-relay.live.max-subscriptions-per-caller=" + SUBSCRIPTIONS, "--logging.level.root=WARN"));
		properties.addAll(dev.dynamorelay.bench.support.ServerProcess.arguments());
		return ServerProcess.server(log(index), List.of("-Xms512m", "-Xmx512m"), properties, Duration.ofSeconds(180));
	}

	private Path log(int index) {
		return this.out.resolve("fleet-server-" + index + ".log");
	}

	private void stop() throws Exception {
		for (Subscriber subscriber : this.subscribers) {
			subscriber.close();
		}
		for (ServerProcess server : this.servers) {
			server.close();
		}
		if (this.engine != null) {
			this.engine.kill();
		}
		if (this.redis != null) {
			this.redis.close();
		}
	}

	private void measure(StampedWrites writes) throws Exception {
		long[] without = heaps();
		open();
		prime(writes);
		long[] with = heaps();
		System.out.printf("  warming up: %d s at %.0f writes/s ...%n", this.warmUp.toSeconds(), this.rate * 2);
		writes.write(this.warmUp, this.rate * 2, (n) -> ThreadLocalRandom.current().nextInt(USERS), (stamp, u) -> {
		});
		Thread.sleep(3_000);
		steady(writes);
		heapRow(without, with);
		new KillPhase(this, this.report, this.deliveries, this.servers, this.subscribers, this.rate, this.failover).run(writes);
	}

	/** The steady window: every instance up, writes at the rate. */
	private void steady(StampedWrites writes) throws Exception {
		System.out.printf("  measuring %d s ...%n", this.window.toSeconds());
		double dropped = sum("dynamorelay_live_changes_dropped_total");
		long first = writes.next();
		long cpu = cpu();
		long started = System.nanoTime();
		long made = writes.write(this.window, this.rate, (n) -> ThreadLocalRandom.current().nextInt(USERS),
				this.deliveries::written);
		long ended = System.nanoTime();
		cpu = cpu() - cpu;
		// The changes on their way: until every one has arrived, at most 10 s.
		long last = writes.next();
		long drain = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		Deliveries.Range range = this.deliveries.range(first, last, (s) -> true);
		while (range.received() < range.expected() && System.nanoTime() < drain) {
			Thread.sleep(500);
			range = this.deliveries.range(first, last, (s) -> true);
		}
		Thread.sleep(1_000);
		range = this.deliveries.range(first, last, (s) -> true);
		dropped = sum("dynamorelay_live_changes_dropped_total") - dropped;
		double[] relay = range.latenciesMs();
		double[] floor = range.floorMs();
		if (relay.length == 0 || floor.length == 0) {
			throw new IllegalStateException("no change reached the subscribers (%d) or the raw reader (%d) in the window"
				.formatted(relay.length, floor.length));
		}
		double p50 = Stats.percentile(relay, 50);
		double p99 = Stats.percentile(relay, 99);
		double floorP50 = Stats.percentile(floor, 50);
		double floorP99 = Stats.percentile(floor, 99);
		String measure = "fleet: PutItem -> change at the subscribed client, 3 instances, %,d subscribers over %,d users on %d connections, vs raw GetRecords poller (50 ms)"
			.formatted(SUBSCRIPTIONS, USERS, CONNECTIONS);
		this.report.row(measure + ": p50", Stats.ms(p50), Stats.ms(floorP50), "%+.2f ms".formatted(p50 - floorP50), "-",
				null);
		this.report.row("... p99", Stats.ms(p99), Stats.ms(floorP99), "%+.2f ms".formatted(p99 - floorP99),
				"p99 within %.0f ms of the raw reader's".formatted(P99_OVER_FLOOR_MS), p99 - floorP99 <= P99_OVER_FLOOR_MS);
		long failed = this.subscribers.stream().filter((each) -> each.failure != null).count();
		this.report.row("... changes delivered / expected (writes x the %d subscribers of the user), twice, to another user, dropped, connections failed; subscribes refused UNAVAILABLE (sent again) since the start"
			.formatted(PER_USER),
				"%,d / %,d, %d twice, %d to another user, %.0f dropped, %d failed; %d refused".formatted(range.received(),
						range.expected(), range.twice(), range.wrongUser(), dropped, failed, resubscribed()),
				"%,d of %,d writes seen".formatted(floor.length, made), "%,d missing".formatted(range.expected() - range.received()),
				"no change missing, none twice",
				range.received() == range.expected() && range.twice() == 0 && range.wrongUser() == 0 && failed == 0);
		double seconds = (ended - started) / 1e9;
		long[] gap = range.longestGap(started, ended);
		this.report.row("... the three servers' CPU per delivered change", "%.3f ms".formatted(cpu / 1e6 / range.received()),
				"-", "%,.0f changes/s (%.1f writes/s); %.0f%% of a core in all; longest time without a delivery %s"
					.formatted(range.received() / seconds, made / seconds, cpu / 1e7 / seconds, Stats.ms((gap[1] - gap[0]) / 1e6)),
				"-", null);
		this.report.figure("fleetP50Ms", p50);
		this.report.figure("fleetP99Ms", p99);
		this.report.figure("fleetFloorP50Ms", floorP50);
		this.report.figure("fleetFloorP99Ms", floorP99);
		this.report.figure("fleetMissing", range.expected() - range.received());
		this.report.figure("fleetTwice", range.twice());
		this.report.figure("fleetServerCpuMsPerChange", cpu / 1e6 / range.received());
		failures();
	}

	private void heapRow(long[] without, long[] with) {
		long before = without[0] + without[1] + without[2];
		long after = with[0] + with[1] + with[2];
		double perSubscriber = (after - before) / 1024.0 / SUBSCRIPTIONS;
		this.report.row("... heap per idle subscriber (%,d on %d connections, live objects after GC, the three instances with minus without, / %,d)"
			.formatted(SUBSCRIPTIONS, CONNECTIONS, SUBSCRIPTIONS), "%.1f KB".formatted(perSubscriber), "-",
				"%s with, %s without; instance by instance %s / %s, %s / %s, %s / %s".formatted(Stats.mb(after),
						Stats.mb(before), Stats.mb(with[0]), Stats.mb(without[0]), Stats.mb(with[1]), Stats.mb(without[1]),
						Stats.mb(with[2]), Stats.mb(without[2])),
				"-", null);
		this.report.figure("fleetHeapPerIdleSubscriberKb", perSubscriber);
	}

	/**
	 * The {@value #CONNECTIONS} connections, connection c on instance c % 3 with subscriptions c * 100 to c * 100 +
	 * 99, subscription s on user s % 1,000; returns once each instance counts its own.
	 */
	private void open() throws Exception {
		System.out.printf("  opening %d connections of %d subscriptions ...%n", CONNECTIONS, PER_CONNECTION);
		Semaphore opening = new Semaphore(OPENING);
		List<CompletableFuture<?>> acknowledged = new ArrayList<>();
		int[] expected = new int[INSTANCES];
		for (int c = 0; c < CONNECTIONS; c++) {
			opening.acquire();
			List<String> userIds = new ArrayList<>(PER_CONNECTION);
			for (int s = c * PER_CONNECTION; s < (c + 1) * PER_CONNECTION; s++) {
				userIds.add(BenchData.userId(s % USERS));
			}
			int connection = c;
			Subscriber subscriber = new Subscriber(userIds,
					(from, message, stampAt, at) -> delivered(connection, from, message, stampAt, at)).resubscribing();
			this.subscribers.add(subscriber);
			subscriber.connect(this.http, this.servers.get(c % INSTANCES).port());
			expected[c % INSTANCES] += PER_CONNECTION;
			acknowledged.add(subscriber.subscribed.whenComplete((done, failure) -> opening.release()));
		}
		CompletableFuture.allOf(acknowledged.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
		for (Subscriber subscriber : this.subscribers) {
			if (subscriber.failure != null) {
				throw new IllegalStateException("a connection failed: " + subscriber.failure);
			}
		}
		long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
		for (int i = 0; i < INSTANCES; i++) {
			double counted;
			while ((counted = Prometheus.sum(metrics(this.servers.get(i)), "dynamorelay_live_subscribers")) != expected[i]) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("instance %d counts %.0f subscriptions, not %d (%d refused UNAVAILABLE)"
						.formatted(i, counted, expected[i], resubscribed()));
				}
				Thread.sleep(100);
			}
		}
		System.out.printf("  every subscription counted (%d refused UNAVAILABLE and sent again)%n", resubscribed());
	}

	/** Subscriptions refused UNAVAILABLE and sent again, every connection's, so far. */
	private long resubscribed() {
		return this.subscribers.stream().mapToLong((each) -> each.resubscribed.sum()).sum();
	}

	/** A change received by connection {@code connection}: its subscription, eventId and stamp. */
	private void delivered(int connection, Subscriber from, String message, int stampAt, long at) {
		int payload = message.indexOf("\"payload\"");
		int id = message.lastIndexOf("\"id\":\"", payload);
		if (id < 0) {
			id = message.lastIndexOf("\"id\":\"");
		}
		id += "\"id\":\"".length();
		int subscription = connection * PER_CONNECTION + Integer.parseInt(message, id, message.indexOf('"', id), 10) - 1;
		int event = message.indexOf("\"eventId\":\"") + "\"eventId\":\"".length();
		String eventId = message.substring(event, message.indexOf('"', event));
		this.deliveries.delivered(subscription, eventId, Stamp.parse(message, stampAt), at);
	}

	/**
	 * A write to each user whose subscriptions have not all received a change yet, until every one has: each is then
	 * in its instance's routing and its instance subscribed to the user's channel.
	 */
	private void prime(StampedWrites writes) throws Exception {
		System.out.println("  priming every subscription ...");
		long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
		while (true) {
			List<Integer> waiting = new ArrayList<>();
			for (int u = 0; u < USERS; u++) {
				for (int s = u; s < SUBSCRIPTIONS; s += USERS) {
					if (!this.deliveries.received(s)) {
						waiting.add(u);
						break;
					}
				}
			}
			if (waiting.isEmpty()) {
				return;
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("the subscriptions of %d users received no change within 120 s"
					.formatted(waiting.size()));
			}
			for (int u : waiting) {
				writes.put(u);
			}
			Thread.sleep(2_000);
		}
	}

	/** Each instance's live objects after a full GC (as the live section's idle row reads them). */
	private long[] heaps() throws Exception {
		long[] heaps = new long[INSTANCES];
		for (int i = 0; i < INSTANCES; i++) {
			heaps[i] = Processes.liveHeapAfterGc(this.servers.get(i).pid());
		}
		return heaps;
	}

	/** The three servers' CPU time together (ns). */
	private long cpu() {
		long cpu = 0;
		for (ServerProcess server : this.servers) {
			cpu += Processes.processCpuNanos(server.pid());
		}
		return cpu;
	}

	/** A meter summed over the instances alive. */
	private double sum(String meter) throws Exception {
		double sum = 0;
		for (ServerProcess server : this.servers) {
			if (server.alive()) {
				sum += Prometheus.sum(metrics(server), meter);
			}
		}
		return sum;
	}

	/**
	 * The server's {@code /actuator/prometheus}, asked again for up to 60 s when it does not answer within the
	 * fixture's 5 s: on two cores shared with other work a scrape can take that long.
	 */
	static String metrics(ServerProcess server) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (true) {
			try {
				return server.metrics();
			}
			catch (java.io.IOException ex) {
				if (System.nanoTime() > deadline || !server.alive()) {
					throw ex;
				}
			}
		}
	}

	int leasesHeld() throws Exception {
		return (int) sum("dynamorelay_live_fleet_leases");
	}

	/** The instance holding a lease (the most, if more than one does). */
	int holder() throws Exception {
		int holder = -1;
		double most = 0;
		for (int i = 0; i < INSTANCES; i++) {
			double held = Prometheus.sum(metrics(this.servers.get(i)), "dynamorelay_live_fleet_leases");
			if (held > most) {
				most = held;
				holder = i;
			}
		}
		if (holder < 0) {
			throw new IllegalStateException("no instance holds a lease");
		}
		return holder;
	}

	private void failures() {
		for (Subscriber subscriber : this.subscribers) {
			if (subscriber.failure != null) {
				System.out.println("  a connection failed: " + subscriber.failure);
				return;
			}
		}
	}

}
