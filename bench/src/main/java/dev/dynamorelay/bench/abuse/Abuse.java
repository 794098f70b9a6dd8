package dev.dynamorelay.bench.abuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.springframework.boot.convert.DurationStyle;

import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.BenchData;
import dev.dynamorelay.bench.support.Clients;
import dev.dynamorelay.bench.support.GraphQl;
import dev.dynamorelay.bench.support.ServerProcess;
import dev.dynamorelay.bench.support.Stats;

/**
 * The benchmark's abuse section ({@code BENCH_ONLY=abuse}): the normal 20-edge page of the fairness section
 * on 16 connections, alone and then for {@code BENCH_ABUSE_SECONDS} (600) beside every kind of request in
 * "Limits every request respects" (docs/limits.md), sent from other threads, against the server in the
 * production set-up (docs/operating.md: the actuator on a management port of its own, health details there).
 *
 * <p>Beside the normal clients: {@code BENCH_ABUSE_THREADS} (4) threads rotating over the kinds that are
 * answered at once ({@link Kind}, {@link Attacker}), one thread holding {@value SlowBodies#CONNECTIONS} connections whose bodies
 * trickle in a byte every 5 s, a liveness and a readiness probe on the management port every second (each
 * must answer within 1 s), and a scrape of {@code /actuator/prometheus} there every 10 s, as a monitoring
 * system would. It reports the normal page against its figures alone, the server's heap after GC and RSS
 * at the start (after a first 20 s of the attacks, which fill what the server keeps for connections and
 * operation names; the figures before any attack are printed beside) and at the end, the probe seconds
 * missed, every attack's answers by kind, the longest answer of the requests that run into the deadline,
 * the server's own refusal and error counters and what it logged ({@link AbuseReport}). Beside them, the attacks on
 * live connections ({@link LiveAbuse}) and the requests of many calls ({@link MultiCallAttack}).
 */
public final class Abuse {

	static final int NORMAL_CLIENTS = 16;

	static final Duration ALONE = Duration.ofSeconds(30);

	private static final Duration AFTER = Duration.ofSeconds(20);

	/** The attacks alone before the start's reading: long enough for every slow body to be refused once. */
	static final Duration FIRST_ROUND = Duration.ofSeconds(20);

	private final Bench bench;

	private final long pid;

	private final int port;

	private final int managementPort;

	private final Duration window = Duration.ofSeconds(Long.parseLong(env("BENCH_ABUSE_SECONDS", "600")));

	private final int attackThreads = Integer.parseInt(env("BENCH_ABUSE_THREADS", "4"));

	/** How long the normal page is measured beside the live section's resumes alone. */
	private final Duration resumeWindow = Duration.ofSeconds(Long.parseLong(env("BENCH_ABUSE_RESUME_SECONDS", "60")));

	/** {@code dynamo-relay.dynamodb.timeout}: the deadline of a request's reads. */
	private final Duration deadline = serverDuration("dynamo-relay.dynamodb.timeout", "5s");

	private final Duration bodyTimeout = serverDuration("dynamo-relay.http.body-timeout", "10s");

	private final Answers answers = new Answers();

	private final Attacker attacker;

	private final Monitoring monitoring;

	private final ServerMemory memory;

	private final AbuseReport report;

	private volatile boolean attacking;

	/**
	 * The resident set and threads at half the window. Not the heap: a full GC there would pause the server
	 * under the load being measured, and under load the heap's figure after it is mostly what was allocated
	 * since (the class histogram of the live objects is not).
	 */
	private volatile Memory middle;

	public Abuse(Bench bench, long pid, int port, int managementPort) {
		this.bench = bench;
		this.pid = pid;
		this.port = port;
		this.managementPort = managementPort;
		this.attacker = new Attacker(this.answers, port, this.deadline);
		this.monitoring = new Monitoring(managementPort, this.attacker.client());
		this.memory = new ServerMemory(bench, pid);
		this.report = new AbuseReport(bench, this.answers, this.window, this.deadline, this.bodyTimeout);
	}

	/** The server's arguments for the production set-up (docs/operating.md): the actuator on its own port. */
	public static List<String> productionSetUp(int managementPort) {
		return List.of("--management.server.port=" + managementPort, "--management.server.address=127.0.0.1",
				"--management.endpoint.health.show-details=always");
	}

	public void run() throws Exception {
		List<byte[]> bodies = warmUp();
		health();
		// What the server holds for its connections (Tomcat keeps up to 200 processors with their buffers) and
		// its operation names (up to 100, with their timers) fills within seconds of the first attacks and stays:
		// read before them, and again after a first round of them, so that start and end compare what a server
		// that has met such traffic holds.
		// The live attacks' own set-up (issue 31: a client that stops reading, resumes), kept apart: LiveAbuse.
		LiveAbuse liveAbuse = new LiveAbuse(this.bench, this.pid, this.port, this.managementPort);
		liveAbuse.prepare();
		Memory before = this.memory.read("before");
		System.out.printf("Abuse: a first round of the attacks, %d s ...%n", FIRST_ROUND.toSeconds());
		Attacks first = attack();
		Thread.sleep(FIRST_ROUND.toMillis());
		stop(first);
		System.out.println("  " + this.answers.of(Kind.SLOW));
		clear();
		Memory start = this.memory.read("start");
		System.out.printf("Abuse: the normal page alone, %d clients, %d s ...%n", NORMAL_CLIENTS, ALONE.toSeconds());
		Normal alone = normal(bodies, ALONE, null);
		MultiCallAttack multiCalls = new MultiCallAttack(this.bench, this.attacker, this.deadline);
		multiCalls.run(bodies);
		Monitoring.Scrape scrapeBefore = this.monitoring.scrape();
		Path log = Path.of("target", "bench", "server.log");
		long logLines = lines(log).size();
		Attacked attacked = attacked(bodies, liveAbuse);
		Monitoring.Scrape scrapeAfter = this.monitoring.scrape();
		List<String> logged = lines(log);
		logged = logged.subList((int) Math.min(logLines, logged.size()), logged.size());
		Thread.sleep(2_000);
		Memory end = this.memory.read("end");
		System.out.printf("Abuse: the normal page alone again, %d s ...%n", AFTER.toSeconds());
		Normal again = normal(bodies, AFTER, null);

		this.report.normal(alone, attacked.normal, again, attacked.seconds);
		multiCalls.report(alone);
		liveAbuse.report();
		liveAbuse.resumesAlone((duration) -> {
			Normal resuming = normal(bodies, duration, null);
			return new double[] { resuming.p(50), resuming.p(99), resuming.failed() };
		}, alone.p(50), this.resumeWindow);
		this.memory.rows(before, start, this.middle, end);
		int missed = probeRow(attacked.live, attacked.ready);
		this.report.scrapes(attacked.scrapes, scrapeBefore, scrapeAfter);
		this.report.refusals(scrapeBefore, scrapeAfter);
		this.report.logLines(logged);
		// Everything here shares the machine's cores: the server, the engine, the load and whatever else runs.
		this.bench.row("abuse: the machine's load average (1 min) at the window's start / end", attacked.loadAtStart
				+ " / " + attacked.loadAtEnd, "-", "%d cores".formatted(Runtime.getRuntime().availableProcessors()), "-",
				null);
		this.report.figures(alone, attacked.normal, start, end, missed);
	}

	/**
	 * The warm-up under load, 60 s of the 16 clients, and each attack twice, as a check and to warm its paths;
	 * returns the normal page's bodies.
	 */
	private List<byte[]> warmUp() throws Exception {
		String category = BenchData.category(5);
		System.out.println("Abuse: warming up under load ...");
		List<String> cursors = this.bench.walkCursors(category, 100);
		this.bench.warmUp(cursors, category, Bench.rawPage(BenchData.category(3)));
		List<byte[]> bodies = cursors.stream()
			.map((cursor) -> GraphQl.body(Bench.PAGE_20, GraphQl.vars("c", category, "a", cursor)))
			.toList();
		// The warm-up's rounds are of 8 clients; the measured load is 16, and its JIT settles later.
		normal(bodies, Duration.ofSeconds(60), null);
		System.out.println("Abuse: each attack twice, as a check and to warm its paths ...");
		for (int i = 0; i < 2; i++) {
			for (Kind kind : rotating()) {
				this.attacker.step(kind, null);
			}
		}
		for (Kind kind : rotating()) {
			System.out.printf("  %s: %s%n", kind.name().toLowerCase(Locale.ROOT), this.answers.of(kind));
		}
		clear();
		return bodies;
	}

	/** The production set-up's row: /actuator/health on the management port, with details. */
	private void health() {
		Exchange health = this.attacker.exchange(new HttpGet("http://127.0.0.1:" + this.managementPort + "/actuator/health"));
		String details = (health.body() == null) ? "" : new String(health.body(), StandardCharsets.UTF_8);
		boolean detailed = health.status() == 200 && details.contains("\"dynamoDb\"") && details.contains("\"details\"");
		this.bench.row("abuse: the production set-up: /actuator/health on the management port",
				"%d%s".formatted(health.status(), detailed ? ", with DynamoDB's details" : ", no details"), "-", "-",
				"200 with details (the public port: 404 NOT_FOUND, below)", detailed);
	}

	/**
	 * The attacked window: the normal clients, the scrapes and the probes, beside the attacks, the live ones and the
	 * slow bodies.
	 */
	private record Attacked(Normal normal, double seconds, String loadAtStart, String loadAtEnd, boolean[] live,
			boolean[] ready, List<Monitoring.Scrape> scrapes) {
	}

	/** The normal page beside the attacks for the window, probed every second and scraped every 10 s. */
	private Attacked attacked(List<byte[]> bodies, LiveAbuse liveAbuse) throws Exception {
		System.out.printf("Abuse: the normal page beside the attacks for %d s (%d rotating threads, %d slow bodies, "
				+ "probes every second, a scrape every 10 s) ...%n", this.window.toSeconds(), this.attackThreads,
				SlowBodies.CONNECTIONS);
		String loadAtStart = loadAverage();
		long started = System.nanoTime();
		this.attacker.windowStart = started;
		Attacks attacks = attack();
		LiveAbuse.Running liveAttacks = liveAbuse.start(true, true);
		ExecutorService side = Executors.newFixedThreadPool(3);
		long probeStart = System.nanoTime();
		int probeSeconds = (int) this.window.toSeconds() + 2;
		Future<boolean[]> liveness = side.submit(() -> this.monitoring.probe("/actuator/health/liveness", probeStart,
				probeSeconds));
		Future<boolean[]> readiness = side.submit(() -> this.monitoring.probe("/actuator/health/readiness", probeStart,
				probeSeconds));
		List<Monitoring.Scrape> scrapes = Collections.synchronizedList(new ArrayList<>());
		List<List<Double>> beside = new ArrayList<>();
		Future<?> monitor = side.submit(() -> {
			monitor(probeStart, probeSeconds, scrapes, beside);
			return null;
		});
		// The attacks reach their pace, then the normal clients measure beside them.
		Thread.sleep(2_000);
		Normal attacked = normal(bodies, this.window, beside);
		stop(attacks);
		liveAbuse.stop(liveAttacks);
		double attackSeconds = (System.nanoTime() - started) / 1e9;
		String loadAtEnd = loadAverage();
		boolean[] live = liveness.get(10, TimeUnit.SECONDS);
		boolean[] ready = readiness.get(10, TimeUnit.SECONDS);
		monitor.get(30, TimeUnit.SECONDS);
		side.shutdownNow();
		return new Attacked(attacked, attackSeconds, loadAtStart, loadAtEnd, live, ready, scrapes);
	}

	/** The probes' row: the seconds in which liveness or readiness missed; returns how many. */
	private int probeRow(boolean[] live, boolean[] ready) {
		int probeSeconds = live.length;
		int missed = 0;
		List<String> when = new ArrayList<>();
		for (int s = 0; s < probeSeconds; s++) {
			if (!live[s] || !ready[s]) {
				missed++;
				when.add(s + " s" + (live[s] ? "" : " liveness") + (ready[s] ? "" : " readiness"));
			}
		}
		if (!when.isEmpty()) {
			System.out.println("  probes missed at (seconds into the window): "
					+ String.join(", ", when.subList(0, Math.min(20, when.size()))));
		}
		this.bench.row("abuse: liveness and readiness on the management port every second: seconds missed",
				"%d of %d".formatted(missed, probeSeconds), "-",
				"liveness missed %d, readiness missed %d; slowest %s / %s".formatted(count(live, false),
						count(ready, false), Stats.ms(this.monitoring.slowest("/actuator/health/liveness") / 1e6),
						Stats.ms(this.monitoring.slowest("/actuator/health/readiness") / 1e6)),
				"each answers 200 within 1 s, every second", missed == 0);
		return missed;
	}

	/** The attack threads running: the rotating ones and the slow bodies'. */
	private record Attacks(ExecutorService threads, ExecutorService bursts, List<Future<?>> running) {

	}

	/** Starts the rotating threads and the slow bodies' thread. */
	private Attacks attack() {
		this.attacking = true;
		ExecutorService bursts = Executors.newFixedThreadPool(4 * this.attackThreads);
		ExecutorService threads = Executors.newFixedThreadPool(this.attackThreads + 1);
		List<Future<?>> running = new ArrayList<>();
		for (int t = 0; t < this.attackThreads; t++) {
			int offset = t;
			running.add(threads.submit(() -> {
				Kind[] kinds = rotating();
				for (int i = offset; this.attacking; i++) {
					this.attacker.step(kinds[i % kinds.length], bursts);
				}
				return null;
			}));
		}
		running.add(threads.submit(() -> {
			new SlowBodies(this.answers, this.port, () -> this.attacking).run();
			return null;
		}));
		return new Attacks(threads, bursts, running);
	}

	/** Stops the attacks once each has finished its step (the slow bodies' connections closed). */
	private void stop(Attacks attacks) throws Exception {
		this.attacking = false;
		for (Future<?> attacker : attacks.running) {
			attacker.get(90, TimeUnit.SECONDS);
		}
		attacks.bursts.shutdownNow();
		attacks.threads.shutdownNow();
	}

	/** Forgets the answers counted so far (the check's, the first round's). */
	private void clear() {
		this.answers.clear();
		this.bench.failures.clear();
	}

	/** The kinds the rotating threads take in turn: all but the slow bodies. */
	private static Kind[] rotating() {
		return Arrays.stream(Kind.values()).filter((kind) -> kind != Kind.SLOW).toArray(Kind[]::new);
	}

	/** {@value #NORMAL_CLIENTS} clients of normal pages for {@code duration}; {@code progress} sees their lists. */
	private Normal normal(List<byte[]> bodies, Duration duration, List<List<Double>> progress) throws Exception {
		List<List<Double>> latencies = new ArrayList<>();
		for (int c = 0; c < NORMAL_CLIENTS; c++) {
			latencies.add(new ArrayList<>());
		}
		if (progress != null) {
			synchronized (progress) {
				progress.addAll(latencies);
			}
		}
		int failed;
		try (Clients<Integer> clients = Clients.start(NORMAL_CLIENTS,
				(client) -> () -> this.bench.normalWindow(bodies, duration, latencies.get(client)))) {
			failed = clients.join().stream().mapToInt(Integer::intValue).sum();
		}
		return new Normal(latencies.stream().flatMap(List::stream).mapToDouble(Double::doubleValue).toArray(), failed);
	}

	/** Scrapes every 10 s through the window, and prints progress. */
	private void monitor(long start, int count, List<Monitoring.Scrape> scrapes, List<List<Double>> normal)
			throws InterruptedException {
		long every = Math.max(10, this.window.toSeconds() / 10);
		long end = start + count * 1_000_000_000L;
		for (int i = 1; start + i * Monitoring.SCRAPE_EVERY.toNanos() <= end; i++) {
			TimeUnit.NANOSECONDS.sleep(start + i * Monitoring.SCRAPE_EVERY.toNanos() - System.nanoTime());
			scrapes.add(this.monitoring.scrape());
			long elapsed = i * Monitoring.SCRAPE_EVERY.toSeconds();
			if (this.middle == null && elapsed >= count / 2) {
				try {
					this.middle = this.memory.resident();
				}
				catch (Exception ex) {
					System.out.println("  the heap at half the window could not be read: " + ex);
				}
			}
			if (elapsed % every == 0) {
				long pages;
				synchronized (normal) {
					pages = normal.stream().mapToLong(List::size).sum();
				}
				long sent = this.answers.total();
				System.out.printf("  %3d s: %,d normal pages, %,d attacks answered%n", elapsed, pages, sent);
			}
		}
	}

	private static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
		}
		catch (IOException ex) {
			return "?";
		}
	}

	private static List<String> lines(Path file) throws IOException {
		return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.ISO_8859_1) : List.of();
	}

	private static int count(boolean[] values, boolean value) {
		int count = 0;
		for (boolean each : values) {
			if (each == value) {
				count++;
			}
		}
		return count;
	}

	/** A duration the server was given in {@code BENCH_SERVER_ARGS}, or its default. */
	private static Duration serverDuration(String property, String defaultValue) {
		for (String argument : ServerProcess.arguments()) {
			if (argument.startsWith("--" + property + "=")) {
				return DurationStyle.detectAndParse(argument.substring(property.length() + 3));
			}
		}
		return DurationStyle.detectAndParse(defaultValue);
	}

	private static String env(String name, String defaultValue) {
		String value = System.getenv(name);
		return (value == null || value.isBlank()) ? defaultValue : value.trim();
	}

}
