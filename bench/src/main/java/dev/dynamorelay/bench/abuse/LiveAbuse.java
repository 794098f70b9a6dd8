package dev.dynamorelay.bench.abuse;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.BenchData;
import dev.dynamorelay.fixtures.RawWebSocket;
import dev.dynamorelay.bench.support.Stats;

/**
 * The abuse section's attacks on live connections (issue 31, findings 1 and 2), run beside the other attacks in the
 * window, and the resumes once more alone beside the normal page:
 * <ul>
 * <li><b>a client that stops reading</b>: from one address (one caller), {@value #SUBSCRIPTIONS} subscriptions on
 * one WebSocket, each selecting {@code product} under two aliases; it reads nothing while
 * {@value #PURCHASES_PER_ROUND} purchases of 350,000-byte products are created through {@code createPurchase}; once
 * the server has dropped it (its send timeout), again;</li>
 * <li><b>resumes</b>: from another address, {@value #SUBSCRIPTIONS} subscriptions on one WebSocket resume after one
 * event with {@value #BEHIND} changes behind it, and read them all; once all have caught up (or after 200 s),
 * again;</li>
 * <li>a <b>normal subscriber</b> from a third address, which creates a purchase of its own every 500 ms and must
 * receive each change once.</li>
 * </ul>
 * It reports whether the server stayed up, the most bytes it held for subscribers (its gauge, read every 2 s)
 * against their bound, each attack's rounds, the resumed changes checked (each subscription: every change, in
 * order, once), what the stream was read again for them, the normal subscriber's changes missed, and the normal
 * page's p50 beside the resumes alone against its p50 alone (target: at most 2x).
 */
public final class LiveAbuse {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	static final int SUBSCRIPTIONS = 100;

	static final int BEHIND = 3_000;

	static final int PURCHASES_PER_ROUND = 12;

	private static final String PRODUCT = "p".repeat(350_000);

	/** Each attack and the normal subscriber from an address of their own: anonymous callers count by address. */
	private static final String STOPPED_ADDRESS = "127.0.0.4";

	private static final String RESUMING_ADDRESS = "127.0.0.3";

	private static final String NORMAL_ADDRESS = "127.0.0.2";

	private static final String STOPPED_USER = BenchData.userId(1997);

	private static final String RESUMED_USER = BenchData.userId(1998);

	private static final String NORMAL_USER = BenchData.userId(1999);

	/** How long a round of resumes may take: at the server's 2,000 changes a second, 300,000 take 150 s. */
	private static final Duration CATCH_UP = Duration.ofSeconds(200);

	/** The server's heap (bench/run's -Xmx1g), of which the subscribers' bytes may take an eighth by default. */
	private static final long BOUND = 1024L * 1024 * 1024 / 8;

	private static final Pattern AMOUNT = Pattern.compile("\"amount\":([0-9.]+)");

	private final Bench bench;

	private final long pid;

	private final int port;

	private final int managementPort;

	private final HttpClient http = HttpClient.newHttpClient();

	private volatile boolean attacking;

	/** The event the resumes resume after. */
	private String after;

	/** The purchases' times, one millisecond apart: createPurchase refuses a second one of a user in one millisecond. */
	private final AtomicLong purchasedAt = new AtomicLong(1_900_000_000_000L);

	/** The purchases behind the resumes' event that were created. */
	private final AtomicLong behind = new AtomicLong();

	private final AtomicLong stoppedRounds = new AtomicLong();

	private final AtomicLong purchases = new AtomicLong();

	private final AtomicLong purchasesFailed = new AtomicLong();

	private final AtomicLong resumeRounds = new AtomicLong();

	private final AtomicLong caughtUp = new AtomicLong();

	private final AtomicLong resumed = new AtomicLong();

	private final AtomicLong resumedChanges = new AtomicLong();

	private final List<String> resumeFaults = Collections.synchronizedList(new ArrayList<>());

	private final List<Double> catchUpSeconds = Collections.synchronizedList(new ArrayList<>());

	private final AtomicLong normalWritten = new AtomicLong();

	private final Set<Integer> normalReceived = ConcurrentHashMap.newKeySet();

	private final AtomicLong normalDuplicates = new AtomicLong();

	private final AtomicLong maxPending = new AtomicLong(-1);

	private final List<String> faults = Collections.synchronizedList(new ArrayList<>());

	LiveAbuse(Bench bench, long pid, int port, int managementPort) {
		this.bench = bench;
		this.pid = pid;
		this.port = port;
		this.managementPort = managementPort;
	}

	/** The event the resumes resume after, and the {@value #BEHIND} changes behind it. */
	void prepare() throws Exception {
		System.out.printf("Abuse: live: %,d purchases of %s, behind the event the resumes resume after ...%n", BEHIND,
				RESUMED_USER);
		try (RawWebSocket socket = RawWebSocket.open(RESUMING_ADDRESS, this.port, 1 << 20, null)) {
			socket.send(RawWebSocket.subscribe("first", "subscription($u: String!) { purchaseChanges(userId: $u) { eventId } }",
					Map.of("u", RESUMED_USER)));
			JsonNode next = null;
			for (int attempt = 0; attempt < 20 && next == null; attempt++) {
				createPurchase(RESUMED_USER, "first", 0);
				next = socket.next(Duration.ofSeconds(2));
			}
			if (next == null) {
				throw new IllegalStateException("no change reached the resumes' first subscriber");
			}
			this.after = next.path("payload").path("data").path("purchaseChanges").path("eventId").asString();
		}
		// One at a time: the stream holds them in the order of their amounts, the order each resume must see.
		for (int i = 1; i <= BEHIND; i++) {
			if (createPurchase(RESUMED_USER, "behind " + i, i)) {
				this.behind.incrementAndGet();
			}
		}
		this.purchases.set(0);
		this.purchasesFailed.set(0);
	}

	/** The running attacks and the normal subscriber. */
	record Running(ExecutorService threads, List<Future<?>> running) {
	}

	/** The window's length and the stream's reads again for the resumes in it (GetRecords, records). */
	private double windowSeconds;

	private final double[] windowReads = new double[2];

	private long windowStart;

	/** Starts both attacks and the normal subscriber; {@code resumes}: the resumes too. */
	Running start(boolean stoppedReading, boolean resumes) {
		this.attacking = true;
		if (stoppedReading) {
			this.windowStart = System.nanoTime();
			this.windowReads[0] = -Math.max(0, gauge("dynamorelay_live_replay_reads_total"));
			this.windowReads[1] = -Math.max(0, gauge("dynamorelay_live_replay_records_total"));
		}
		ExecutorService threads = Executors.newFixedThreadPool(5);
		List<Future<?>> running = new ArrayList<>();
		if (stoppedReading) {
			running.add(threads.submit(this::stopsReading));
			running.add(threads.submit(this::normalSubscriber));
		}
		if (resumes) {
			running.add(threads.submit(this::resumes));
		}
		running.add(threads.submit(this::sample));
		return new Running(threads, running);
	}

	void stop(Running running) throws Exception {
		this.attacking = false;
		try {
			for (Future<?> each : running.running()) {
				each.get(CATCH_UP.toSeconds() + 60, TimeUnit.SECONDS);
			}
		}
		finally {
			running.threads().shutdownNow();
		}
		if (this.windowStart != 0 && this.windowSeconds == 0) {
			this.windowSeconds = (System.nanoTime() - this.windowStart) / 1e9;
			this.windowReads[0] += Math.max(0, gauge("dynamorelay_live_replay_reads_total"));
			this.windowReads[1] += Math.max(0, gauge("dynamorelay_live_replay_records_total"));
		}
	}

	// ---------------------------------------------------------------------------------------------
	// Finding 1: a client that stops reading

	private Void stopsReading() throws Exception {
		while (this.attacking) {
			try (RawWebSocket socket = RawWebSocket.open(STOPPED_ADDRESS, this.port, 4096, null)) {
				for (int i = 0; i < SUBSCRIPTIONS; i++) {
					socket.send(RawWebSocket.subscribe("s" + i,
							"subscription($u: String!) { purchaseChanges(userId: $u) { eventId edge { node { a: product b: product } } } }",
							Map.of("u", STOPPED_USER)));
				}
				Thread.sleep(1_000);
				// It reads nothing from here on.
				for (int i = 0; i < PURCHASES_PER_ROUND && this.attacking; i++) {
					createPurchase(STOPPED_USER, PRODUCT, i);
				}
				// The server drops it once a send has waited its send timeout (10 s).
				long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
				while (this.attacking && System.nanoTime() < until) {
					Thread.sleep(200);
				}
				this.stoppedRounds.incrementAndGet();
			}
			catch (RuntimeException ex) {
				fault("stops reading: " + ex);
				Thread.sleep(1_000);
			}
		}
		return null;
	}

	/** A purchase of {@code userId} through the server; counted, and told when it failed. */
	private boolean createPurchase(String userId, String product, double amount) {
		String at = java.time.Instant.ofEpochMilli(this.purchasedAt.incrementAndGet()).toString();
		try {
			HttpResponse<String> answer = this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port
					+ "/graphql"))
				.header("Content-Type", "application/json")
				.timeout(Duration.ofSeconds(30))
				.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("query",
						"mutation($u: String!, $p: String!, $a: Float!, $at: String) { createPurchase(input: {userId: $u, "
								+ "product: $p, category: \"live-abuse\", amount: $a, purchasedAt: $at}) { id } }",
						"variables", Map.of("u", userId, "p", product, "a", amount, "at", at)))))
				.build(), HttpResponse.BodyHandlers.ofString());
			this.purchases.incrementAndGet();
			if (answer.statusCode() != 200 || answer.body().contains("\"errors\"")) {
				this.purchasesFailed.incrementAndGet();
				fault("createPurchase " + answer.statusCode() + " " + answer.body().substring(0,
						Math.min(200, answer.body().length())));
				return false;
			}
			return true;
		}
		catch (Exception ex) {
			this.purchases.incrementAndGet();
			this.purchasesFailed.incrementAndGet();
			fault("createPurchase: " + ex);
			return false;
		}
	}

	// ---------------------------------------------------------------------------------------------
	// Finding 2: resumes

	private Void resumes() throws Exception {
		while (this.attacking) {
			resumeRound();
		}
		return null;
	}

	/** One round: {@value #SUBSCRIPTIONS} subscriptions resume after the event and read everything behind it. */
	private void resumeRound() {
		long started = System.nanoTime();
		try (RawWebSocket socket = RawWebSocket.open(RESUMING_ADDRESS, this.port, 1 << 20, null)) {
			for (int i = 0; i < SUBSCRIPTIONS; i++) {
				socket.send(RawWebSocket.subscribe("r" + i,
						"subscription($u: String!, $after: String) { purchaseChanges(userId: $u, after: $after) { edge { node { amount } } } }",
						Map.of("u", RESUMED_USER, "after", this.after)));
			}
			this.resumed.addAndGet(SUBSCRIPTIONS);
			Map<String, Integer> count = new HashMap<>();
			Map<String, Double> last = new HashMap<>();
			int done = 0;
			long deadline = started + CATCH_UP.toNanos();
			while (done < SUBSCRIPTIONS && System.nanoTime() < deadline && this.attacking) {
				String text = socket.nextText(Duration.ofSeconds(5));
				if (text == null) {
					if (socket.closeCode() != null) {
						fault("resumes: closed " + socket.closeCode());
						break;
					}
					continue;
				}
				if (!text.contains("\"type\":\"next\"")) {
					if (!text.contains("\"type\":\"ping\"")) {
						this.resumeFaults.add(text.substring(0, Math.min(300, text.length())));
					}
					continue;
				}
				String id = text.substring(7, text.indexOf('"', 7));
				Matcher amount = AMOUNT.matcher(text);
				double value = amount.find() ? Double.parseDouble(amount.group(1)) : -1;
				Double previous = last.put(id, value);
				if (previous != null && value <= previous && this.resumeFaults.size() < 10) {
					this.resumeFaults.add("%s: %s after %s".formatted(id, value, previous));
				}
				this.resumedChanges.incrementAndGet();
				if (count.merge(id, 1, Integer::sum) == this.behind.get()) {
					done++;
					this.caughtUp.incrementAndGet();
					this.catchUpSeconds.add((System.nanoTime() - started) / 1e9);
				}
			}
			for (Map.Entry<String, Integer> each : count.entrySet()) {
				if (each.getValue() > this.behind.get() && this.resumeFaults.size() < 10) {
					this.resumeFaults.add("%s: %d changes, not %d".formatted(each.getKey(), each.getValue(), this.behind.get()));
				}
			}
			this.resumeRounds.incrementAndGet();
		}
		catch (RuntimeException ex) {
			fault("resumes: " + ex);
		}
	}

	// ---------------------------------------------------------------------------------------------
	// The normal subscriber

	private Void normalSubscriber() throws Exception {
		try (RawWebSocket socket = RawWebSocket.open(NORMAL_ADDRESS, this.port, 1 << 20, null)) {
			socket.send(RawWebSocket.subscribe("n", "subscription($u: String!) { purchaseChanges(userId: $u) { edge { node { amount } } } }",
					Map.of("u", NORMAL_USER)));
			Thread.sleep(1_000);
			Thread reader = new Thread(() -> {
				while (this.attacking || this.normalReceived.size() < this.normalWritten.get()) {
					String text = socket.nextText(Duration.ofSeconds(10));
					if (text == null) {
						if (socket.closeCode() != null) {
							fault("normal subscriber: closed " + socket.closeCode());
							return;
						}
						if (!this.attacking) {
							return;
						}
						continue;
					}
					Matcher amount = AMOUNT.matcher(text);
					if (text.contains("\"type\":\"next\"") && amount.find()
							&& !this.normalReceived.add((int) Double.parseDouble(amount.group(1)))) {
						this.normalDuplicates.incrementAndGet();
					}
				}
			}, "live-abuse-normal-subscriber");
			reader.start();
			while (this.attacking) {
				createPurchase(NORMAL_USER, "normal", this.normalWritten.incrementAndGet());
				Thread.sleep(500);
			}
			reader.join(15_000);
		}
		return null;
	}

	// ---------------------------------------------------------------------------------------------
	// Readings

	private Void sample() throws Exception {
		while (this.attacking) {
			long pending = (long) gauge("dynamorelay_live_pending_bytes");
			this.maxPending.accumulateAndGet(pending, Math::max);
			Thread.sleep(2_000);
		}
		return null;
	}

	/** A meter's value (the sum over its series) from the management port's scrape; -1 when absent. */
	double gauge(String name) {
		try {
			String scrape = this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.managementPort
					+ "/actuator/prometheus")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString())
				.body();
			Matcher value = Pattern.compile("(?m)^" + name + "(\\{[^}]*})? ([0-9.E+-]+)$").matcher(scrape);
			double sum = -1;
			while (value.find()) {
				sum = Math.max(sum, 0) + Double.parseDouble(value.group(2));
			}
			return sum;
		}
		catch (Exception ex) {
			fault("scrape: " + ex);
			return -1;
		}
	}

	private void fault(String what) {
		if (this.faults.size() < 20) {
			this.faults.add(what);
		}
	}

	/** The window's rows: the server up, the bytes held against their bound, each attack, the normal subscriber. */
	void report() {
		boolean alive = ProcessHandle.of(this.pid).map(ProcessHandle::isAlive).orElse(false);
		long held = this.maxPending.get();
		this.bench.row("abuse: live: a client that stops reading, 100 subscriptions selecting a 350 KB product twice, "
				+ PURCHASES_PER_ROUND + " such purchases a round",
				"%d rounds, %d purchases created (with the normal subscriber's), %d failed".formatted(this.stoppedRounds.get(), this.purchases.get(),
						this.purchasesFailed.get()),
				"-", "server alive: %s; most bytes held for subscribers %s (bound %s)".formatted(alive ? "yes" : "NO",
						Stats.mb(held), Stats.mb(BOUND)),
				"server alive; held <= bound; every purchase answered", alive && held >= 0 && held <= BOUND
						&& this.purchasesFailed.get() == 0);
		reportResumes("beside the other attacks", this.windowSeconds, "stream read again: %,.0f GetRecords, %,.0f records"
			.formatted(this.windowReads[0], this.windowReads[1]));
		long written = this.normalWritten.get();
		long missed = written - this.normalReceived.size();
		this.bench.row("abuse: live: a normal subscriber beside them: its changes written / received / missed",
				"%d / %d / %d".formatted(written, this.normalReceived.size(), missed), "-",
				"%d received twice".formatted(this.normalDuplicates.get()), "0 missed", written > 0 && missed == 0);
		if (!this.faults.isEmpty()) {
			System.out.println("  live attacks' faults (the first 20): " + this.faults);
		}
	}

	private void reportResumes(String where, double seconds, String reads) {
		double[] caught = new ArrayList<>(this.catchUpSeconds).stream().mapToDouble(Double::doubleValue).toArray();
		this.bench.row("abuse: live: 100 subscriptions resuming after one event, %,d changes behind it, %s"
			.formatted(this.behind.get(), where),
				"%d rounds, %,d changes received (%,.0f/s), %d of %d caught up".formatted(this.resumeRounds.get(),
						this.resumedChanges.get(), this.resumedChanges.get() / seconds, this.caughtUp.get(), this.resumed.get()),
				"-", "%s; %s; out of order, twice or errors: %s".formatted((caught.length == 0) ? "none caught up"
						: "caught up in p50 %.1f s, max %.1f s".formatted(Stats.percentile(caught, 50),
								Stats.percentile(caught, 100)), reads,
						this.resumeFaults.isEmpty() ? "none" : this.resumeFaults),
				"every change, in order, once", this.resumeFaults.isEmpty() && this.resumedChanges.get() > 0);
	}

	/** The abuse section's normal page for a while: its p50, p99 and failures. */
	interface NormalPage {

		double[] measure(Duration duration) throws Exception;

	}

	/**
	 * The resumes alone beside the normal page for {@code duration}: its p50 against {@code aloneP50}, and what the
	 * stream was read again for them (the server's counters).
	 */
	void resumesAlone(NormalPage normal, double aloneP50, Duration duration) throws Exception {
		System.out.printf("Abuse: live: the normal page beside the resumes alone, %d s ...%n", duration.toSeconds());
		this.resumeRounds.set(0);
		this.caughtUp.set(0);
		this.resumed.set(0);
		this.resumedChanges.set(0);
		this.resumeFaults.clear();
		this.catchUpSeconds.clear();
		double reads = gauge("dynamorelay_live_replay_reads_total");
		double records = gauge("dynamorelay_live_replay_records_total");
		long started = System.nanoTime();
		Running running = start(false, true);
		Thread.sleep(2_000);
		double[] beside = normal.measure(duration);
		stop(running);
		double seconds = (System.nanoTime() - started) / 1e9;
		double ratio = beside[0] / aloneP50;
		this.bench.row("abuse: live: normal 20-edge page, 16 clients, beside the resumes alone vs alone: p50",
				Stats.ms(beside[0]), Stats.ms(aloneP50), "%.2fx (p99 %s, %d failed)".formatted(ratio,
						Stats.ms(beside[1]), (long) beside[2]),
				"<= 2x", ratio <= 2 && beside[2] == 0);
		reportResumes("alone", seconds, "stream read again: %,.0f GetRecords, %,.0f records".formatted(
				gauge("dynamorelay_live_replay_reads_total") - Math.max(reads, 0),
				gauge("dynamorelay_live_replay_records_total") - Math.max(records, 0)));
	}

}
