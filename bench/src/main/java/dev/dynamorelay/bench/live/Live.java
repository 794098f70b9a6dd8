package dev.dynamorelay.bench.live;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.BenchData;
import dev.dynamorelay.bench.support.Processes;
import dev.dynamorelay.bench.support.Prometheus;
import dev.dynamorelay.bench.support.Settings;
import dev.dynamorelay.bench.support.Stamp;
import dev.dynamorelay.bench.support.StampedWrites;
import dev.dynamorelay.bench.support.Stats;
import dev.dynamorelay.bench.support.StreamPoller;
import dev.dynamorelay.bench.support.Subscriber;

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
public final class Live {

	/** The target: the p99 at 1,000 subscribers within this of the floor's. */
	private static final double P99_OVER_FLOOR_MS = 100;

	/** Connections opened at once. */
	private static final int OPENING = 32;

	private final Bench bench;

	private final DynamoDbAsyncClient dynamoDb;

	private final URI dynamoDbEndpoint;

	private final long serverPid;

	private final int port;

	private final Duration window = Settings.seconds("BENCH_SECONDS", 30);

	private final Duration warmUp = Settings.seconds("BENCH_WARMUP_SECONDS", 60);

	private final double rate = Double.parseDouble(System.getenv().getOrDefault("BENCH_LIVE_RATE", "20"));

	private final HttpClient http = HttpClient.newHttpClient();

	private final StampedWrites writes;

	/** The window measured now, or null between windows (priming, draining). */
	private volatile Window current;

	public Live(Bench bench, DynamoDbAsyncClient dynamoDb, URI dynamoDbEndpoint, long serverPid, int port) {
		this.bench = bench;
		this.dynamoDb = dynamoDb;
		this.dynamoDbEndpoint = dynamoDbEndpoint;
		this.serverPid = serverPid;
		this.port = port;
		this.writes = new StampedWrites(dynamoDb);
	}

	/** The server's arguments for this section: more subscriptions for one caller than the section opens. */
	public static List<String> serverArguments() {
		return List.of("--dynamo-relay.live.max-subscriptions-per-caller=10000");
	}

	/** One configuration: {@code subscribers} spread evenly over {@code users} users, a connection each. */
	private record Shape(int subscribers, int users, String description) {
	}

	public void run() throws Exception {
		System.out.printf("Live: %d s of warm-up, %d s a configuration, %.0f writes/s ...%n", this.warmUp.toSeconds(),
				this.window.toSeconds(), this.rate);
		try (DynamoDbStreamsAsyncClient streams = StreamPoller.client(this.dynamoDbEndpoint)) {
			StreamPoller reader = new StreamPoller(streams, this.dynamoDb, (stamp, at) -> seen(stamp, at, false));
			Thread poller = reader.start();
			warmUp();
			for (Shape shape : List.of(new Shape(1, 1, "1 subscriber"), new Shape(100, 10, "100 subscribers over 10 users"),
					new Shape(100, 100, "100 subscribers, one on each of 100 users"),
					new Shape(1_000, 10, "1,000 subscribers over 10 users"),
					new Shape(1_000, 1_000, "1,000 subscribers, one on each of 1,000 users"))) {
				measure(shape);
			}
			new IdleHeap(this, this.bench, this.serverPid, this.window).run();
			reader.stop();
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
				this.writes.put((int) (writes++ % 10));
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
			Window window = new Window(this.writes.next());
			long cpu = Processes.processCpuNanos(this.serverPid);
			this.current = window;
			long writes = this.writes.write(this.window, this.rate, (n) -> n % shape.users(), (stamp, u) -> {
			});
			cpu = Processes.processCpuNanos(this.serverPid) - cpu;
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
		double p50 = Stats.percentile(relay, 50);
		double p99 = Stats.percentile(relay, 99);
		double floorP50 = Stats.percentile(floor, 50);
		double floorP99 = Stats.percentile(floor, 99);
		boolean targeted = shape.subscribers() >= 1_000;
		this.bench.row("live: PutItem -> change at the subscribed client vs raw GetRecords poller (50 ms), %s: p50"
			.formatted(shape.description()), Stats.ms(p50), Stats.ms(floorP50), "%+.2f ms".formatted(p50 - floorP50),
				"-", null);
		this.bench.row("... p99", Stats.ms(p99), Stats.ms(floorP99), "%+.2f ms".formatted(p99 - floorP99),
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
	 * {@code connections} subscribers, each on a WebSocket connection of its own with {@code each} subscriptions,
	 * subscription i (of all) on user i modulo {@code users}; returns once the server counts them all.
	 */
	List<Subscriber> open(int connections, int each, int users) throws Exception {
		List<Subscriber> subscribers = new ArrayList<>(connections);
		Semaphore opening = new Semaphore(OPENING);
		List<CompletableFuture<?>> acknowledged = new ArrayList<>(connections);
		for (int c = 0; c < connections; c++) {
			opening.acquire();
			List<String> userIds = new ArrayList<>(each);
			for (int i = c * each; i < (c + 1) * each; i++) {
				userIds.add(BenchData.userId(i % users));
			}
			Subscriber subscriber = new Subscriber(userIds,
					(from, message, stampAt, at) -> seen(Stamp.parse(message, stampAt), at, true));
			subscribers.add(subscriber);
			subscriber.connect(this.http, this.port);
			acknowledged.add(subscriber.subscribed.whenComplete((done, failure) -> opening.release()));
		}
		CompletableFuture.allOf(acknowledged.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		awaitSubscribers(connections * each);
		return subscribers;
	}

	/** Waits until the server counts {@code count} subscriptions (its gauge on /actuator/prometheus). */
	void awaitSubscribers(int count) throws Exception {
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
				this.writes.put(u);
			}
			Thread.sleep(1_000);
		}
	}

	/**
	 * A stamped write seen, by a subscriber or by the raw reader: its latency goes to the window measured, if it
	 * was written in it.
	 */
	void seen(Stamp stamp, long at, boolean delivered) {
		Window window = this.current;
		if (window != null && stamp.sequence() >= window.first) {
			(delivered ? window.delivered : window.seen).add(at - stamp.sent());
		}
	}

	/** The server's meter of that name on /actuator/prometheus, summed over its tags (0 when it has none yet). */
	double scrape(String meter) throws Exception {
		String text = this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/prometheus"))
			.build(), HttpResponse.BodyHandlers.ofString()).body();
		return Prometheus.sum(text, meter);
	}

	void close(List<Subscriber> subscribers) throws Exception {
		for (Subscriber subscriber : subscribers) {
			subscriber.close();
		}
		awaitSubscribers(0);
	}

}
