package dev.dynamorelay.bench;

import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The benchmark's live section ({@code BENCH_ONLY=live}): how soon a write made straight to DynamoDB reaches the
 * clients subscribed to the sample's {@code purchaseChanges} over WebSocket, against the floor a raw reader of the
 * same stream sees.
 *
 * <p>Writes are PutItems of purchases to the benchmark's DynamoDB (the engine), each stamped with its send time in its {@code product}
 * ({@code live <sequence> <nanoTime>}), {@code BENCH_LIVE_RATE} (20) a second at random intervals around the mean,
 * for {@code BENCH_SECONDS} (30) a configuration: 1 subscriber; 100 over 10 users, and one on each of 100 users;
 * 1,000 over 10 users, and one on each of 1,000 users. Writes go to the users subscribed to, in turn. Each
 * subscriber is a WebSocket connection of its own ({@code graphql-transport-ws} on {@code java.net.http}:
 * connection_init, subscribe, next) that times each change it receives. The floor, in the same windows and for
 * the same writes: this JVM reads the table's stream itself, GetRecords on every open shard in a loop that waits
 * the server's default poll interval (50 ms) after a read that found nothing, as the server does. Then the heap
 * one idle subscriber costs the server: its heap after a full GC with 1,000 idle subscribers (one on each of
 * 1,000 users) minus without any, / 1,000.
 */
final class Live {

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	private static final String CHANGES = """
			subscription($userId: String!, $minAmount: Float) { purchaseChanges(userId: $userId, minAmount: $minAmount) {
			  kind eventId edge { cursor node { id purchasedAt product amount } } } }""";

	/** The stamp of a write, in its {@code product}: the sequence number and the send time follow it. */
	private static final String STAMP = "live ";

	private static final String STAMPED = "\"product\":\"" + STAMP;

	/** The server's default poll interval while a table has subscribers ({@code dynamo-relay.live.poll-interval}). */
	private static final Duration POLL = Duration.ofMillis(50);

	/** The target: the p99 at 1,000 subscribers within this of the floor's. */
	private static final double P99_OVER_FLOOR_MS = 100;

	/** The target for the heap of one idle subscriber. */
	private static final double HEAP_PER_SUBSCRIBER_KB = 20;

	private static final int IDLE_SUBSCRIBERS = 1_000;

	/** Connections opened at once. */
	private static final int OPENING = 32;

	private final Benchmark bench;

	private final DynamoDbAsyncClient dynamoDb;

	private final URI dynamoDbEndpoint;

	private final long serverPid;

	private final int port;

	private final Duration window = Writes.seconds("BENCH_SECONDS", 30);

	private final Duration warmUp = Writes.seconds("BENCH_WARMUP_SECONDS", 60);

	private final double rate = Double.parseDouble(System.getenv().getOrDefault("BENCH_LIVE_RATE", "20"));

	private final HttpClient http = HttpClient.newHttpClient();

	/** Every purchase written has its own {@code purchasedAt}. */
	private final AtomicLong clock = new AtomicLong(BenchData.T0 + 200L * 365 * 24 * 3_600_000L);

	private final AtomicLong sequence = new AtomicLong();

	/** The window measured now, or null between windows (priming, draining). */
	private volatile Window current;

	private volatile boolean stopped;

	Live(Benchmark bench, DynamoDbAsyncClient dynamoDb, URI dynamoDbEndpoint, long serverPid, int port) {
		this.bench = bench;
		this.dynamoDb = dynamoDb;
		this.dynamoDbEndpoint = dynamoDbEndpoint;
		this.serverPid = serverPid;
		this.port = port;
	}

	/** The server's arguments for this section: more subscriptions for one caller than the section opens. */
	static List<String> serverArguments() {
		return List.of("--dynamo-relay.live.max-subscriptions-per-caller=10000");
	}

	/** One configuration: {@code subscribers} spread evenly over {@code users} users, a connection each. */
	private record Shape(int subscribers, int users, String description) {
	}

	void run() throws Exception {
		System.out.printf("Live: %d s of warm-up, %d s a configuration, %.0f writes/s ...%n", this.warmUp.toSeconds(),
				this.window.toSeconds(), this.rate);
		try (DynamoDbStreamsAsyncClient streams = DynamoDbStreamsAsyncClient.builder()
			.httpClientBuilder(NettyNioAsyncHttpClient.builder())
			.endpointOverride(this.dynamoDbEndpoint)
			.region(Region.US_EAST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench")))
			.build()) {
			Thread poller = new Thread(() -> poll(streams), "bench-stream-poller");
			poller.setDaemon(true);
			poller.start();
			warmUp();
			for (Shape shape : List.of(new Shape(1, 1, "1 subscriber"), new Shape(100, 10, "100 subscribers over 10 users"),
					new Shape(100, 100, "100 subscribers, one on each of 100 users"),
					new Shape(1_000, 10, "1,000 subscribers over 10 users"),
					new Shape(1_000, 1_000, "1,000 subscribers, one on each of 1,000 users"))) {
				measure(shape);
			}
			idleHeap();
			this.stopped = true;
			poller.join(5_000);
		}
	}

	/**
	 * 100 subscribers over 10 users and writes at 5 times the rate for {@code BENCH_WARMUP_SECONDS}: the JIT
	 * compiles the server's path from the stream to the WebSocket.
	 */
	private void warmUp() throws Exception {
		System.out.println("  warming up: 100 subscribers over 10 users ...");
		List<Subscriber> subscribers = open(100, 1, 10);
		try {
			prime(subscribers, 10);
			long end = System.nanoTime() + this.warmUp.toNanos();
			long writes = 0;
			while (System.nanoTime() < end) {
				put((int) (writes++ % 10));
				TimeUnit.NANOSECONDS.sleep((long) (1e9 / this.rate / 5));
			}
			Thread.sleep(2_000);
		}
		finally {
			close(subscribers);
		}
	}

	/** Subscribes, primes every subscription, measures one window of writes, and closes the subscriptions. */
	private void measure(Shape shape) throws Exception {
		System.out.printf("  %s ...%n", shape.description());
		List<Subscriber> subscribers = open(shape.subscribers(), 1, shape.users());
		try {
			prime(subscribers, shape.users());
			double dropped = scrape("dynamorelay_live_changes_dropped_total");
			Window window = new Window(this.sequence.get() + 1);
			long cpu = Benchmark.processCpuNanos(this.serverPid);
			this.current = window;
			long writes = write(this.window, shape.users());
			cpu = Benchmark.processCpuNanos(this.serverPid) - cpu;
			// Changes of the last writes on their way: the floor's poll interval and then some.
			Thread.sleep(2_000);
			this.current = null;
			dropped = scrape("dynamorelay_live_changes_dropped_total") - dropped;
			report(shape, window, writes, cpu, dropped, subscribers);
		}
		finally {
			close(subscribers);
		}
	}

	private void report(Shape shape, Window window, long writes, long serverCpu, double dropped,
			List<Subscriber> subscribers) {
		double[] relay = window.delivered.stream().mapToDouble((nanos) -> nanos / 1e6).toArray();
		double[] floor = window.seen.stream().mapToDouble((nanos) -> nanos / 1e6).toArray();
		if (relay.length == 0 || floor.length == 0) {
			throw new IllegalStateException("no change reached %s (%d) or the raw reader (%d) in the window"
				.formatted(shape.description(), relay.length, floor.length));
		}
		long expected = writes * (shape.subscribers() / Math.min(shape.subscribers(), shape.users()));
		double p50 = Benchmark.percentile(relay, 50);
		double p99 = Benchmark.percentile(relay, 99);
		double floorP50 = Benchmark.percentile(floor, 50);
		double floorP99 = Benchmark.percentile(floor, 99);
		boolean targeted = shape.subscribers() >= 1_000;
		this.bench.row("live: PutItem -> change at the subscribed client vs raw GetRecords poller (50 ms), %s: p50"
			.formatted(shape.description()), Benchmark.ms(p50), Benchmark.ms(floorP50), "%+.2f ms".formatted(p50 - floorP50),
				"-", null);
		this.bench.row("... p99", Benchmark.ms(p99), Benchmark.ms(floorP99), "%+.2f ms".formatted(p99 - floorP99),
				targeted ? "p99 within %.0f ms of the floor's".formatted(P99_OVER_FLOOR_MS) : "-",
				targeted ? p99 - floorP99 <= P99_OVER_FLOOR_MS : null);
		long failures = subscribers.stream().filter((each) -> each.failure != null).count();
		this.bench.row("... changes delivered / expected (writes x subscribers per user), dropped, subscribers failed",
				"%,d / %,d, %.0f dropped, %d failed".formatted(relay.length, expected, dropped, failures),
				"%,d of %,d writes seen".formatted(floor.length, writes), "-", "every change, none dropped",
				relay.length == expected && dropped == 0 && failures == 0 && floor.length == writes);
		this.bench.row("... server CPU per delivered change", "%.3f ms".formatted(serverCpu / 1e6 / relay.length), "-",
				"%,.0f changes/s".formatted(relay.length / (this.window.toNanos() / 1e9)), "-", null);
		String key = "live" + shape.subscribers() + "Over" + shape.users();
		this.bench.figures.put(key + "P50Ms", p50);
		this.bench.figures.put(key + "P99Ms", p99);
		this.bench.figures.put(key + "FloorP50Ms", floorP50);
		this.bench.figures.put(key + "FloorP99Ms", floorP99);
		this.bench.figures.put(key + "ServerCpuMsPerChange", serverCpu / 1e6 / relay.length);
		for (Subscriber subscriber : subscribers) {
			if (subscriber.failure != null) {
				System.out.println("  a subscriber failed: " + subscriber.failure);
				break;
			}
		}
	}

	/**
	 * The heap one idle subscriber holds in the server: after a full GC with {@value #IDLE_SUBSCRIBERS} idle
	 * subscribers (each on a user of its own, each on a connection of its own) minus without any; the server's CPU
	 * meanwhile; the same subscriptions on 10 connections (100 each), which tells the connection's part from the
	 * subscription's. The classes that grew most with the 1,000 connections go to
	 * {@code target/bench/live-idle-heap.txt}.
	 */
	private void idleHeap() throws Exception {
		System.out.printf("  heap of %,d idle subscribers ...%n", IDLE_SUBSCRIBERS);
		awaitSubscribers(0);
		Thread.sleep(2_000);
		long without = Benchmark.heapUsedAfterGc(this.serverPid);
		Map<String, long[]> before = histogram();
		long threadsWithout = threads();
		long with;
		long threadsWith;
		double idleCpu;
		Map<String, long[]> after;
		List<Subscriber> subscribers = open(IDLE_SUBSCRIBERS, 1, IDLE_SUBSCRIBERS);
		try {
			Thread.sleep(2_000);
			with = Benchmark.heapUsedAfterGc(this.serverPid);
			after = histogram();
			threadsWith = threads();
			Duration quiet = Duration.ofSeconds(Math.min(10, this.window.toSeconds()));
			long cpu = Benchmark.processCpuNanos(this.serverPid);
			Thread.sleep(quiet.toMillis());
			idleCpu = (Benchmark.processCpuNanos(this.serverPid) - cpu) / 1e6 / (quiet.toNanos() / 1e9);
		}
		finally {
			close(subscribers);
		}
		Thread.sleep(2_000);
		long withoutAgain = Benchmark.heapUsedAfterGc(this.serverPid);
		long shared;
		List<Subscriber> multiplexed = open(10, IDLE_SUBSCRIBERS / 10, IDLE_SUBSCRIBERS);
		try {
			Thread.sleep(2_000);
			shared = Benchmark.heapUsedAfterGc(this.serverPid);
		}
		finally {
			close(multiplexed);
		}
		double perSubscriber = (with - without) / 1024.0 / IDLE_SUBSCRIBERS;
		double perSubscription = (shared - withoutAgain) / 1024.0 / IDLE_SUBSCRIBERS;
		this.bench.row("live: server heap per idle subscriber (%,d idle, one connection each, after GC, minus none)"
			.formatted(IDLE_SUBSCRIBERS), "%.1f KB".formatted(perSubscriber), "-",
				"%s with, %s without; server threads %d with, %d without".formatted(Benchmark.mb(with),
						Benchmark.mb(without), threadsWith, threadsWithout),
				"< %.0f KB".formatted(HEAP_PER_SUBSCRIBER_KB), perSubscriber < HEAP_PER_SUBSCRIBER_KB);
		this.bench.row("... the same %,d subscriptions on 10 connections (100 each): heap per subscription"
			.formatted(IDLE_SUBSCRIBERS), "%.1f KB".formatted(perSubscription), "-",
				"%s with, %s without; a connection's own part about %.0f KB".formatted(Benchmark.mb(shared),
						Benchmark.mb(withoutAgain), (perSubscriber - perSubscription) * IDLE_SUBSCRIBERS / (IDLE_SUBSCRIBERS - 10)),
				"-", null);
		this.bench.row("... server CPU with %,d idle subscribers (one connection each)".formatted(IDLE_SUBSCRIBERS),
				"%.1f ms/s".formatted(idleCpu), "-", "%.1f%% of a core".formatted(idleCpu / 10), "-", null);
		this.bench.figures.put("liveHeapPerIdleSubscriberKb", perSubscriber);
		this.bench.figures.put("liveHeapPerIdleSubscriptionKb", perSubscription);
		this.bench.figures.put("liveIdleServerCpuMsPerSecond", idleCpu);
		grown(before, after);
	}

	/** The server's threads now (Linux: /proc/PID/status), or -1. */
	private long threads() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc", Long.toString(this.serverPid), "status"))) {
				if (line.startsWith("Threads:")) {
					return Long.parseLong(line.substring("Threads:".length()).trim());
				}
			}
		}
		catch (IOException | NumberFormatException ex) {
			// Not Linux: no count.
		}
		return -1;
	}

	/** The server's classes by name: instances and bytes (jcmd GC.class_histogram, after a full GC). */
	private Map<String, long[]> histogram() throws Exception {
		String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
		String text = Benchmark.run(jcmd, Long.toString(this.serverPid), "GC.class_histogram");
		Map<String, long[]> classes = new HashMap<>();
		Matcher line = Pattern.compile("(?m)^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)")
			.matcher(text);
		while (line.find()) {
			classes.put(line.group(3), new long[] { Long.parseLong(line.group(1)), Long.parseLong(line.group(2)) });
		}
		return classes;
	}

	/** The classes that grew most between two histograms, to {@code target/bench/live-idle-heap.txt}. */
	private void grown(Map<String, long[]> before, Map<String, long[]> after) throws IOException {
		List<Map.Entry<String, long[]>> growth = new ArrayList<>();
		after.forEach((name, counts) -> {
			long[] was = before.getOrDefault(name, new long[2]);
			growth.add(Map.entry(name, new long[] { counts[0] - was[0], counts[1] - was[1] }));
		});
		growth.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
		StringBuilder text = new StringBuilder("The server's classes that grew most with %,d idle subscribers (one connection each), after GC:%n"
			.formatted(IDLE_SUBSCRIBERS));
		text.append("%12s %14s  %s%n".formatted("instances", "bytes", "class"));
		for (Map.Entry<String, long[]> each : growth.subList(0, Math.min(30, growth.size()))) {
			text.append("%+12d %+14d  %s%n".formatted(each.getValue()[0], each.getValue()[1], each.getKey()));
		}
		Path file = Path.of("target", "bench", "live-idle-heap.txt");
		Files.writeString(file, text);
		System.out.print(text.toString().lines().limit(8).map((line) -> "  " + line + "\n").reduce("", String::concat));
		System.out.println("  (the 30 largest in " + file + ")");
	}

	/**
	 * {@code connections} subscribers, each on a WebSocket connection of its own with {@code each} subscriptions,
	 * subscription i (of all) on user i modulo {@code users}; returns once the server counts them all.
	 */
	private List<Subscriber> open(int connections, int each, int users) throws Exception {
		List<Subscriber> subscribers = new ArrayList<>(connections);
		Semaphore opening = new Semaphore(OPENING);
		List<CompletableFuture<?>> acknowledged = new ArrayList<>(connections);
		for (int c = 0; c < connections; c++) {
			opening.acquire();
			List<String> userIds = new ArrayList<>(each);
			for (int i = c * each; i < (c + 1) * each; i++) {
				userIds.add(BenchData.userId(i % users));
			}
			Subscriber subscriber = new Subscriber(userIds);
			subscribers.add(subscriber);
			this.http.newWebSocketBuilder()
				.subprotocols("graphql-transport-ws")
				.connectTimeout(Duration.ofSeconds(10))
				.buildAsync(URI.create("ws://127.0.0.1:" + this.port + "/graphql"), subscriber)
				.whenComplete((socket, failure) -> {
					if (failure != null) {
						subscriber.failed(failure);
					}
				});
			acknowledged.add(subscriber.subscribed.whenComplete((done, failure) -> opening.release()));
		}
		CompletableFuture.allOf(acknowledged.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		awaitSubscribers(connections * each);
		return subscribers;
	}

	/** Waits until the server counts {@code count} subscriptions (its gauge on /actuator/prometheus). */
	private void awaitSubscribers(int count) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		double now = -1;
		while (System.nanoTime() < deadline) {
			now = scrape("dynamorelay_live_subscribers");
			if (now == count) {
				return;
			}
			Thread.sleep(100);
		}
		throw new IllegalStateException("the server counts %.0f subscriptions, not %d".formatted(now, count));
	}

	/**
	 * A write to each user subscribed to, until every subscriber has received one: each subscription is then in
	 * the server's routing, whatever its reader's place in the stream was when it subscribed.
	 */
	private void prime(List<Subscriber> subscribers, int users) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (subscribers.stream().anyMatch((each) -> each.received.sum() == 0)) {
			if (System.nanoTime() > deadline) {
				long waiting = subscribers.stream().filter((each) -> each.received.sum() == 0).count();
				throw new IllegalStateException(waiting + " subscribers received no change within 60 s; first failure: "
						+ subscribers.stream().filter((each) -> each.failure != null).findFirst().map((each) -> each.failure)
							.orElse(null));
			}
			for (int u = 0; u < Math.min(users, subscribers.size()); u++) {
				put(u);
			}
			Thread.sleep(1_000);
		}
	}

	/**
	 * Writes for {@code duration} at {@link #rate} a second on average (uniform random gaps between 0.5 and 1.5
	 * times the mean, so that the writes keep no phase with the poll interval), to the users in turn.
	 */
	private long write(Duration duration, int users) throws InterruptedException {
		long end = System.nanoTime() + duration.toNanos();
		long mean = (long) (1e9 / this.rate);
		long next = System.nanoTime();
		long writes = 0;
		while (next < end) {
			long wait = next - System.nanoTime();
			if (wait > 0) {
				TimeUnit.NANOSECONDS.sleep(wait);
			}
			put((int) (writes % users));
			writes++;
			next += (long) (mean * (0.5 + ThreadLocalRandom.current().nextDouble()));
		}
		return writes;
	}

	/** A PutItem of a new purchase of user {@code u}, stamped with its sequence number and send time. */
	private void put(int u) {
		long sequence = this.sequence.incrementAndGet();
		Map<String, AttributeValue> item = new HashMap<>();
		item.put("userId", AttributeValue.fromS(BenchData.userId(u)));
		item.put("purchasedAt", AttributeValue.fromN(Long.toString(this.clock.incrementAndGet())));
		item.put("category", AttributeValue.fromS(BenchData.category(u % BenchData.CATEGORIES)));
		item.put("amount", AttributeValue.fromN("50"));
		item.put("product", AttributeValue.fromS(STAMP + sequence + " " + System.nanoTime()));
		this.dynamoDb.putItem((put) -> put.tableName("UserPurchases").item(item)).join();
	}

	/**
	 * The floor: reads the purchases' stream as the server's reader does (every open shard from its newest record,
	 * one GetRecords at a time per shard, at once again after a read that found records, after the poll interval
	 * after one that found none) and times each stamped write it sees.
	 */
	private void poll(DynamoDbStreamsAsyncClient streams) {
		String arn = this.dynamoDb.describeTable((describe) -> describe.tableName("UserPurchases")).join()
			.table()
			.latestStreamArn();
		Map<String, String> iterators = new HashMap<>();
		Map<String, BigInteger> last = new HashMap<>();
		for (Shard shard : shards(streams, arn)) {
			if (shard.sequenceNumberRange().endingSequenceNumber() == null) {
				iterators.put(shard.shardId(), iterator(streams, arn, shard.shardId(), ShardIteratorType.LATEST, null));
			}
			else {
				last.put(shard.shardId(), null);
			}
		}
		long nextDiscovery = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (!this.stopped) {
			boolean found = false;
			for (String shardId : List.copyOf(iterators.keySet())) {
				GetRecordsResponse response;
				try {
					response = streams.getRecords((get) -> get.shardIterator(iterators.get(shardId)).limit(1000)).join();
				}
				catch (java.util.concurrent.CompletionException ex) {
					BigInteger after = last.get(shardId);
					iterators.put(shardId, iterator(streams, arn, shardId,
							(after != null) ? ShardIteratorType.AFTER_SEQUENCE_NUMBER : ShardIteratorType.TRIM_HORIZON, after));
					continue;
				}
				long seen = System.nanoTime();
				for (Record record : response.records()) {
					last.put(shardId, new BigInteger(record.dynamodb().sequenceNumber()));
					if (record.dynamodb().hasNewImage()) {
						AttributeValue product = record.dynamodb().newImage().get("product");
						if (product != null && product.s() != null && product.s().startsWith(STAMP)) {
							seen(product.s(), STAMP.length(), seen, false);
						}
					}
				}
				found |= !response.records().isEmpty();
				if (response.nextShardIterator() == null) {
					iterators.remove(shardId);
					nextDiscovery = 0;
				}
				else {
					iterators.put(shardId, response.nextShardIterator());
				}
			}
			if (System.nanoTime() > nextDiscovery) {
				// New shards, each read from its start once its parent is read to its end.
				for (Shard shard : shards(streams, arn)) {
					String parent = shard.parentShardId();
					if (!iterators.containsKey(shard.shardId()) && !last.containsKey(shard.shardId())
							&& (parent == null || !iterators.containsKey(parent))) {
						iterators.put(shard.shardId(), iterator(streams, arn, shard.shardId(), ShardIteratorType.TRIM_HORIZON,
								null));
						last.put(shard.shardId(), null);
					}
				}
				nextDiscovery = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			}
			if (!found) {
				try {
					Thread.sleep(POLL.toMillis());
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}
	}

	private static List<Shard> shards(DynamoDbStreamsAsyncClient streams, String arn) {
		List<Shard> all = new ArrayList<>();
		String after = null;
		do {
			String from = after;
			var description = streams.describeStream((describe) -> describe.streamArn(arn).exclusiveStartShardId(from))
				.join()
				.streamDescription();
			all.addAll(description.shards());
			after = description.lastEvaluatedShardId();
		}
		while (after != null);
		return all;
	}

	private static String iterator(DynamoDbStreamsAsyncClient streams, String arn, String shardId, ShardIteratorType type,
			BigInteger after) {
		return streams.getShardIterator((get) -> {
			get.streamArn(arn).shardId(shardId).shardIteratorType(type);
			if (after != null) {
				get.sequenceNumber(after.toString());
			}
		}).join().shardIterator();
	}

	/**
	 * A stamped write seen, by a subscriber or by the raw reader: its latency goes to the window measured, if it
	 * was written in it.
	 */
	private void seen(String text, int from, long at, boolean delivered) {
		Window window = this.current;
		if (window == null) {
			return;
		}
		int space = text.indexOf(' ', from);
		int end = space + 1;
		while (end < text.length() && (Character.isDigit(text.charAt(end)) || text.charAt(end) == '-')) {
			end++;
		}
		long sequence = Long.parseLong(text.substring(from, space));
		long sent = Long.parseLong(text.substring(space + 1, end));
		if (sequence >= window.first) {
			(delivered ? window.delivered : window.seen).add(at - sent);
		}
	}

	/** The server's meter of that name on /actuator/prometheus, summed over its tags (0 when it has none yet). */
	private double scrape(String meter) throws Exception {
		String text = this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/prometheus"))
			.build(), HttpResponse.BodyHandlers.ofString()).body();
		double sum = 0;
		for (String line : text.split("\n")) {
			if (line.startsWith(meter + "{") || line.startsWith(meter + " ")) {
				sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		return sum;
	}

	private void close(List<Subscriber> subscribers) throws Exception {
		for (Subscriber subscriber : subscribers) {
			subscriber.close();
		}
		awaitSubscribers(0);
	}

	/** The latencies of one window, in nanoseconds: of each change delivered, of each write the raw reader saw. */
	private static final class Window {

		/** The first write of the window: changes of writes before it (priming) are not counted. */
		final long first;

		final ConcurrentLinkedQueue<Long> delivered = new ConcurrentLinkedQueue<>();

		final ConcurrentLinkedQueue<Long> seen = new ConcurrentLinkedQueue<>();

		Window(long first) {
			this.first = first;
		}

	}

	/**
	 * One subscriber on a WebSocket connection of its own, speaking {@code graphql-transport-ws}: connection_init,
	 * a subscribe (or several, each with its own id) once acknowledged, pong to each ping; each change it receives
	 * is timed.
	 */
	private final class Subscriber implements WebSocket.Listener {

		/** The user of each subscription. */
		private final List<String> userIds;

		/** Completes once the subscribe messages are sent (or the connection failed). */
		final CompletableFuture<Void> subscribed = new CompletableFuture<>();

		final LongAdder received = new LongAdder();

		volatile Object failure;

		private volatile WebSocket socket;

		private volatile boolean closing;

		private final StringBuilder partial = new StringBuilder();

		/** The last send: java.net.http takes one at a time. */
		private CompletableFuture<WebSocket> sending;

		Subscriber(List<String> userIds) {
			this.userIds = userIds;
		}

		@Override
		public void onOpen(WebSocket webSocket) {
			this.socket = webSocket;
			this.sending = CompletableFuture.completedFuture(webSocket);
			send("{\"type\":\"connection_init\",\"payload\":{}}");
			webSocket.request(1);
		}

		@Override
		public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
			long at = System.nanoTime();
			this.partial.append(data);
			if (last) {
				String message = this.partial.toString();
				this.partial.setLength(0);
				handle(message, at);
			}
			webSocket.request(1);
			return null;
		}

		private void handle(String message, long at) {
			if (message.contains("\"type\":\"next\"")) {
				this.received.increment();
				int stamp = message.indexOf(STAMPED);
				if (stamp < 0 || message.contains("\"errors\"")) {
					failed(message);
					return;
				}
				seen(message, stamp + STAMPED.length(), at, true);
			}
			else if (message.contains("\"type\":\"connection_ack\"")) {
				for (int i = 0; i < this.userIds.size(); i++) {
					Map<String, Object> subscribe = Map.of("id", Integer.toString(i + 1), "type", "subscribe", "payload",
							Map.of("query", CHANGES, "variables", Map.of("userId", this.userIds.get(i), "minAmount", 10)));
					send(JSON.writeValueAsString(subscribe));
				}
				this.subscribed.complete(null);
			}
			else if (message.contains("\"type\":\"ping\"")) {
				send("{\"type\":\"pong\"}");
			}
			else if (!message.contains("\"type\":\"pong\"")) {
				failed(message);
			}
		}

		private synchronized void send(String text) {
			this.sending = this.sending.thenCompose((webSocket) -> webSocket.sendText(text, true));
		}

		@Override
		public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
			if (!this.closing) {
				failed("closed by the server: " + statusCode + " " + reason);
			}
			return null;
		}

		@Override
		public void onError(WebSocket webSocket, Throwable error) {
			failed(error);
		}

		void failed(Object why) {
			if (this.failure == null) {
				this.failure = why;
			}
			this.subscribed.complete(null);
		}

		void close() {
			this.closing = true;
			WebSocket webSocket = this.socket;
			if (webSocket != null) {
				synchronized (this) {
					this.sending = this.sending.thenCompose((open) -> open.sendClose(WebSocket.NORMAL_CLOSURE, ""));
				}
			}
		}

	}

}
