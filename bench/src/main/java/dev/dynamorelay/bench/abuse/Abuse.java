package dev.dynamorelay.bench.abuse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.util.Timeout;
import org.springframework.boot.convert.DurationStyle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.bench.fairness.Hostile;
import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.BenchData;
import dev.dynamorelay.bench.support.Clients;
import dev.dynamorelay.bench.support.GraphQl;
import dev.dynamorelay.bench.support.Processes;
import dev.dynamorelay.bench.support.ServerProcess;
import dev.dynamorelay.bench.support.Stats;
import dev.dynamorelay.bench.support.RawHttp;

/**
 * The benchmark's abuse section ({@code BENCH_ONLY=abuse}): the normal 20-edge page of the fairness section
 * on 16 connections, alone and then for {@code BENCH_ABUSE_SECONDS} (600) beside every kind of request in
 * "Limits every request respects" (docs/limits.md), sent from other threads, against the server in the
 * production set-up (docs/operating.md: the actuator on a management port of its own, health details there).
 *
 * <p>Beside the normal clients: {@code BENCH_ABUSE_THREADS} (4) threads rotating over the kinds that are
 * answered at once ({@link Kind}), one thread holding {@value #SLOW_CONNECTIONS} connections whose bodies
 * trickle in a byte every 5 s, a liveness and a readiness probe on the management port every second (each
 * must answer within 1 s), and a scrape of {@code /actuator/prometheus} there every 10 s, as a monitoring
 * system would. It reports the normal page against its figures alone, the server's heap after GC and RSS
 * at the start (after a first 20 s of the attacks, which fill what the server keeps for connections and
 * operation names; the figures before any attack are printed beside) and at the end, the probe seconds
 * missed, every attack's answers by kind, the longest answer of the requests that run into the deadline,
 * the server's own refusal and error counters and what it logged.
 */
public final class Abuse {

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	private static final int NORMAL_CLIENTS = 16;

	private static final Duration ALONE = Duration.ofSeconds(30);

	private static final Duration AFTER = Duration.ofSeconds(20);

	/** The attacks alone before the start's reading: long enough for every slow body to be refused once. */
	private static final Duration FIRST_ROUND = Duration.ofSeconds(20);

	/** Connections whose bodies trickle in, held all through the window (Tomcat has 200 workers). */
	private static final int SLOW_CONNECTIONS = 220;

	private static final Duration TRICKLE = Duration.ofSeconds(5);

	private static final Duration PROBE_WITHIN = Duration.ofSeconds(1);

	private static final Duration SCRAPE_EVERY = Duration.ofSeconds(10);

	private static final long HUNDRED_MB = 100L * 1024 * 1024;

	/** The deadline's margin: the answer's own serialization and travel, on 2 shared cores. */
	private static final Duration DEADLINE_MARGIN = Duration.ofSeconds(1);

	/** The body time's margin: Tomcat looks for timed-out asynchronous requests once a second. */
	private static final Duration BODY_MARGIN = Duration.ofSeconds(2);

	private static final byte[] UNAVAILABLE = "\"UNAVAILABLE\"".getBytes(StandardCharsets.UTF_8);

	private static final byte[] ERRORS = "\"errors\"".getBytes(StandardCharsets.UTF_8);

	private static final byte[] SCANNED = "\"scannedCount\":".getBytes(StandardCharsets.UTF_8);

	/** The user page the label bombs ask for: the name is the weight, not the query. */
	private static final String LABELLED = "{ users(first: 1) { edges { cursor } } }";

	/** Numbers DynamoDB cannot hold: 41 digits, 1E+126 and its negative, 1E-131 and its negative. */
	private static final List<String> FORGED_YEARS = List.of("1" + "23456789".repeat(5), "1" + "0".repeat(126),
			"-1" + "0".repeat(126), "0." + "0".repeat(130) + "1", "-0." + "0".repeat(130) + "1");

	private static final List<String> BAD_TARGETS = List.of("/api/users%00", "/api/users%FF", "/api/a%5Cb", "/graphql%00",
			"/x%5Cy");

	private static final List<String> WRONG_TYPES = List.of("{\"query\": 42}", "{\"query\": true}", "{\"query\": 4.2}",
			"{\"query\": \"{ __typename }\", \"operationName\": 7}");

	/** The kinds the rotating threads send, one step of each in turn; the slow bodies have their own thread. */
	enum Kind {

		LABELS("operation-name label bombs: a 500,000-char name (in the document and operationName, a 1 MB body), "
				+ "distinct names of 100 and of 150 chars", (answer) -> answer.equals("200 ok")),

		OVERSIZED("oversized bodies: a 100 MB `variables` string streamed chunked; Content-Length 100 MB, body "
				+ "streamed", (answer) -> answer.equals("413 INVALID_ARGUMENT")),

		SLOW("slow bodies: %d connections held, Content-Length: 1000, a byte every 5 s".formatted(SLOW_CONNECTIONS),
				(answer) -> answer.equals("408 INVALID_ARGUMENT")),

		DEADLINE("requests that reach the deadline, in bursts of 4: 100 users x 100 purchases x user (20,100 items), "
				+ "20 aliased filtered movies pages", (answer) -> answer.equals("200 served") || answer.equals("200 cut")
						|| answer.equals("200 UNAVAILABLE")),

		FORGED_IDS("forged node ids, numeric keys of 41 digits, 1E126, -1E126, 1E-131, -1E-131, in node and nodes",
				(answer) -> answer.equals("200 INVALID_ARGUMENT, no read")),

		URLS("URLs with %00, %FF, %5C; a 9,000-byte header", (answer) -> answer.equals("400 INVALID_ARGUMENT")),

		TYPES("wrong JSON types (query 42, true, 4.2; operationName 7); TRACE",
				(answer) -> answer.equals("400 INVALID_ARGUMENT") || answer.startsWith("405 INVALID_ARGUMENT Allow: GET, ")),

		PUBLIC_ACTUATOR("anonymous /actuator/health, /actuator/health/liveness, /actuator/prometheus on the public port",
				(answer) -> answer.equals("404 NOT_FOUND"));

		final String description;

		final Predicate<String> expected;

		Kind(String description, Predicate<String> expected) {
			this.description = description;
			this.expected = expected;
		}

	}

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

	/** The attacks' own client: a pool apart from the normal clients'. */
	private final CloseableHttpClient attacks = GraphQl.httpClient();

	/** The probes' client: a new connection for every probe, as a platform's health checker opens. */
	private final CloseableHttpClient probes = HttpClients.custom()
		.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
			.setDefaultConnectionConfig(ConnectionConfig.custom()
				.setConnectTimeout(Timeout.of(PROBE_WITHIN))
				.setSocketTimeout(Timeout.of(PROBE_WITHIN))
				.build())
			.build())
		.setDefaultRequestConfig(RequestConfig.custom()
			.setConnectionRequestTimeout(Timeout.of(PROBE_WITHIN))
			.setResponseTimeout(Timeout.of(PROBE_WITHIN))
			.build())
		.setConnectionReuseStrategy((request, response, context) -> false)
		.disableAutomaticRetries()
		.build();

	/** Answers by kind: "what was sent -> how it was answered", counted. */
	private final Map<Kind, Map<String, LongAdder>> answers = new ConcurrentHashMap<>();

	/** Seconds from sending to the answer, of the deadline requests and of the slow bodies' refusals. */
	private final Map<Kind, ConcurrentLinkedQueue<Double>> seconds = new ConcurrentHashMap<>();

	/** The most of a 100 MB body the client had sent when the refusal came, by variant. */
	private final Map<String, AtomicLong> sentBeforeRefusal = new ConcurrentHashMap<>();

	/** Distinct operation names: a counter. */
	private final AtomicLong names = new AtomicLong();

	/** The Content-Length bodies sent, taking /graphql and /api/users in turn. */
	private final AtomicLong lengths = new AtomicLong();

	private volatile boolean attacking;

	/** When the measured window's attacks started. */
	private volatile long windowStart;

	/** The deadline requests answered later than the timeout and its margin: time, when, how. */
	private final ConcurrentLinkedQueue<String> late = new ConcurrentLinkedQueue<>();

	public Abuse(Bench bench, long pid, int port, int managementPort) {
		this.bench = bench;
		this.pid = pid;
		this.port = port;
		this.managementPort = managementPort;
	}

	/** The server's arguments for the production set-up (docs/operating.md): the actuator on its own port. */
	public static List<String> productionSetUp(int managementPort) {
		return List.of("--management.server.port=" + managementPort, "--management.server.address=127.0.0.1",
				"--management.endpoint.health.show-details=always");
	}

	public void run() throws Exception {
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
				step(kind, null);
			}
		}
		for (Kind kind : rotating()) {
			System.out.printf("  %s: %s%n", kind.name().toLowerCase(Locale.ROOT), answers(kind));
		}
		clear();
		Exchange health = exchange(new HttpGet("http://127.0.0.1:" + this.managementPort + "/actuator/health"));
		String details = (health.body == null) ? "" : new String(health.body, StandardCharsets.UTF_8);
		boolean detailed = health.status == 200 && details.contains("\"dynamoDb\"") && details.contains("\"details\"");
		this.bench.row("abuse: the production set-up: /actuator/health on the management port",
				"%d%s".formatted(health.status, detailed ? ", with DynamoDB's details" : ", no details"), "-", "-",
				"200 with details (the public port: 404 NOT_FOUND, below)", detailed);
		// What the server holds for its connections (Tomcat keeps up to 200 processors with their buffers) and
		// its operation names (up to 100, with their timers) fills within seconds of the first attacks and stays:
		// read before them, and again after a first round of them, so that start and end compare what a server
		// that has met such traffic holds.
		// The live attacks' own set-up (issue 31: a client that stops reading, resumes), kept apart: LiveAbuse.
		LiveAbuse liveAbuse = new LiveAbuse(this.bench, this.pid, this.port, this.managementPort);
		liveAbuse.prepare();
		Memory before = memory("before");
		System.out.printf("Abuse: a first round of the attacks, %d s ...%n", FIRST_ROUND.toSeconds());
		Attacks first = attack();
		Thread.sleep(FIRST_ROUND.toMillis());
		stop(first);
		System.out.println("  " + answers(Kind.SLOW));
		clear();
		Memory start = memory("start");
		System.out.printf("Abuse: the normal page alone, %d clients, %d s ...%n", NORMAL_CLIENTS, ALONE.toSeconds());
		Normal alone = normal(bodies, ALONE, null);
		MultiCalls multiCalls = multiCalls(bodies);
		Scrape scrapeBefore = scrape();
		Path log = Path.of("target", "bench", "server.log");
		long logLines = lines(log).size();

		System.out.printf("Abuse: the normal page beside the attacks for %d s (%d rotating threads, %d slow bodies, "
				+ "probes every second, a scrape every 10 s) ...%n", this.window.toSeconds(), this.attackThreads,
				SLOW_CONNECTIONS);
		String loadAtStart = loadAverage();
		long started = System.nanoTime();
		this.windowStart = started;
		Attacks attacks = attack();
		LiveAbuse.Running liveAttacks = liveAbuse.start(true, true);
		ExecutorService side = Executors.newFixedThreadPool(3);
		long probeStart = System.nanoTime();
		int probeSeconds = (int) this.window.toSeconds() + 2;
		Future<boolean[]> liveness = side.submit(() -> probe("/actuator/health/liveness", probeStart, probeSeconds));
		Future<boolean[]> readiness = side.submit(() -> probe("/actuator/health/readiness", probeStart, probeSeconds));
		List<Scrape> scrapes = Collections.synchronizedList(new ArrayList<>());
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
		Scrape scrapeAfter = scrape();
		List<String> logged = lines(log);
		logged = logged.subList((int) Math.min(logLines, logged.size()), logged.size());
		Thread.sleep(2_000);
		Memory end = memory("end");
		System.out.printf("Abuse: the normal page alone again, %d s ...%n", AFTER.toSeconds());
		Normal again = normal(bodies, AFTER, null);

		report(alone, attacked, again, attackSeconds);
		report(multiCalls, alone);
		liveAbuse.report();
		liveAbuse.resumesAlone((duration) -> {
			Normal resuming = normal(bodies, duration, null);
			return new double[] { resuming.p(50), resuming.p(99), resuming.failed() };
		}, alone.p(50), this.resumeWindow);
		memory(before, start, this.middle, end);
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
						count(ready, false), Stats.ms(this.slowestProbe.get("/actuator/health/liveness").get() / 1e6),
						Stats.ms(this.slowestProbe.get("/actuator/health/readiness").get() / 1e6)),
				"each answers 200 within 1 s, every second", missed == 0);
		scrapes(scrapes, scrapeBefore, scrapeAfter);
		refusals(scrapeBefore, scrapeAfter);
		logLines(logged);
		// Everything here shares the machine's cores: the server, the engine, the load and whatever else runs.
		this.bench.row("abuse: the machine's load average (1 min) at the window's start / end", loadAtStart + " / "
				+ loadAtEnd, "-", "%d cores".formatted(Runtime.getRuntime().availableProcessors()), "-", null);
		this.figures(alone, attacked, start, end, missed);
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
					step(kinds[i % kinds.length], bursts);
				}
				return null;
			}));
		}
		running.add(threads.submit(() -> {
			slowBodies();
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
		this.seconds.clear();
		this.late.clear();
		this.sentBeforeRefusal.clear();
		this.bench.failures.clear();
	}

	/** The kinds the rotating threads take in turn: all but the slow bodies. */
	private static Kind[] rotating() {
		return java.util.Arrays.stream(Kind.values()).filter((kind) -> kind != Kind.SLOW).toArray(Kind[]::new);
	}

	// ---------------------------------------------------------------------------------------------
	// The normal clients

	/** The normal page's latencies and failures over a window of the 16 clients. */
	private record Normal(double[] latencies, int failed) {

		double p(double percentile) {
			return Stats.percentile(this.latencies, percentile);
		}

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

	// ---------------------------------------------------------------------------------------------
	// The attacks

	/** One step of {@code kind}; every answer is counted under the kind. {@code burst} is null in the check. */
	private void step(Kind kind, ExecutorService burst) {
		try {
			switch (kind) {
				case LABELS -> labels();
				case OVERSIZED -> oversized();
				case DEADLINE -> deadline(burst);
				case FORGED_IDS -> forgedIds();
				case URLS -> urls();
				case TYPES -> types();
				case PUBLIC_ACTUATOR -> publicActuator();
				case SLOW -> throw new IllegalArgumentException("the slow bodies have their own thread");
			}
		}
		catch (RuntimeException ex) {
			count(kind, "step", "client failure: " + ex);
		}
	}

	private void labels() {
		long n = this.names.incrementAndGet();
		String huge = ("Q" + n + "_").concat("x".repeat(500_000));
		post(Kind.LABELS, "500,000-char name", Map.of("query", "query " + huge + " " + LABELLED, "operationName", huge));
		for (int length : new int[] { 100, 150 }) {
			for (int i = 0; i < 5; i++) {
				String name = "N" + this.names.incrementAndGet() + "_";
				name = name + "n".repeat(length - name.length());
				post(Kind.LABELS, "distinct %d-char names".formatted(length),
						Map.of("query", "query " + name + " " + LABELLED, "operationName", name));
			}
		}
	}

	private void post(Kind kind, String what, Map<String, Object> body) {
		Exchange answer = exchange(post("/graphql", JSON.writeValueAsBytes(body)));
		count(kind, what, answer.describe());
	}

	private void oversized() {
		count(Kind.OVERSIZED, "100 MB chunked to /graphql", stream("/graphql", true));
		String path = (this.lengths.getAndIncrement() % 2 == 0) ? "/graphql" : "/api/users";
		count(Kind.OVERSIZED, "Content-Length 100 MB to " + path, stream(path, false));
	}

	/**
	 * A POST of a 100 MB body ({@code {"query": ..., "variables": {"pad": "xxx...}}}) streamed from a 64 KB
	 * buffer, chunked or with its length, until the server answers or closes; then its answer.
	 */
	private String stream(String path, boolean chunked) {
		String variant = (chunked ? "chunked" : "Content-Length");
		try (RawHttp http = new RawHttp(this.port)) {
			byte[] start = "{\"query\": \"{ __typename }\", \"variables\": {\"pad\": \"".getBytes(StandardCharsets.UTF_8);
			byte[] end = "\"}}".getBytes(StandardCharsets.UTF_8);
			http.send(RawHttp.request("POST", path, "Content-Type: application/json",
					chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + HUNDRED_MB));
			long sent = 0;
			try {
				sent += frame(http, start, chunked);
				byte[] pad = "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
				while (sent + pad.length + end.length <= HUNDRED_MB && !http.answering()) {
					sent += frame(http, pad, chunked);
				}
				if (!http.answering()) {
					byte[] last = "x".repeat((int) (HUNDRED_MB - sent - end.length)).getBytes(StandardCharsets.US_ASCII);
					sent += frame(http, last, chunked);
					sent += frame(http, end, chunked);
					if (chunked) {
						http.send("0\r\n\r\n");
					}
				}
			}
			catch (UncheckedIOException ex) {
				// Refused and closed while the body was on its way: the answer may still be there to read.
			}
			this.sentBeforeRefusal.computeIfAbsent(variant, (v) -> new AtomicLong()).accumulateAndGet(sent, Math::max);
			return describe(http.read());
		}
		catch (UncheckedIOException ex) {
			return "no answer: " + ex.getCause();
		}
	}

	private static int frame(RawHttp http, byte[] bytes, boolean chunked) {
		if (chunked) {
			http.send(Integer.toHexString(bytes.length) + "\r\n");
			http.send(bytes);
			http.send("\r\n");
		}
		else {
			http.send(bytes);
		}
		return bytes.length;
	}

	/** A burst of 4 heavy requests at once (2 of each kind), or one after another in the check. */
	private void deadline(ExecutorService pool) {
		List<Runnable> requests = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			requests.add(() -> heavy("100 users x 100 purchases x user", Hostile.NESTED.body));
			requests.add(() -> heavy("20 aliased filtered movies pages", Hostile.ALIASES_20.body));
		}
		if (pool == null) {
			requests.forEach(Runnable::run);
			return;
		}
		List<Future<?>> sent = requests.stream().<Future<?>>map(pool::submit).toList();
		for (Future<?> each : sent) {
			try {
				each.get(60, TimeUnit.SECONDS);
			}
			catch (Exception ex) {
				count(Kind.DEADLINE, "burst", "client failure: " + ex);
			}
		}
	}

	/** A heavy request: served, cut (it scanned the whole request budget) or UNAVAILABLE, and its time. */
	private void heavy(String what, byte[] body) {
		Exchange answer = exchange(post("/graphql", body));
		String described;
		if (answer.status != 200 || answer.body == null) {
			described = answer.describe();
		}
		else if (GraphQl.indexOf(answer.body, UNAVAILABLE) >= 0) {
			described = "200 UNAVAILABLE";
		}
		else if (GraphQl.indexOf(answer.body, ERRORS) >= 0) {
			described = answer.describe();
		}
		else {
			described = (scanned(answer.body) >= Bench.REQUEST_BUDGET) ? "200 cut" : "200 served";
		}
		count(Kind.DEADLINE, what, described);
		this.seconds.computeIfAbsent(Kind.DEADLINE, (k) -> new ConcurrentLinkedQueue<>()).add(answer.seconds);
		if (answer.seconds > this.deadline.plus(DEADLINE_MARGIN).toMillis() / 1000.0) {
			this.late.add("%.2f s (sent %.0f s into the window, %s)".formatted(answer.seconds,
					(System.nanoTime() - this.windowStart) / 1e9 - answer.seconds, described));
		}
	}

	private static long scanned(byte[] body) {
		int at = GraphQl.indexOf(java.util.Arrays.copyOfRange(body, Math.max(0, body.length - 400), body.length), SCANNED);
		if (at < 0) {
			return -1;
		}
		long scanned = 0;
		for (int i = Math.max(0, body.length - 400) + at + SCANNED.length; i < body.length
				&& Character.isDigit(body[i]); i++) {
			scanned = scanned * 10 + (body[i] - '0');
		}
		return scanned;
	}

	private void forgedIds() {
		String good = movieId("1", "m0000000");
		for (String year : FORGED_YEARS) {
			String forged = movieId(year, "Forged");
			forged(Kind.FORGED_IDS, "node", Map.of("query", "query($id: ID!) { node(id: $id) { id } }", "variables",
					Map.of("id", forged)));
			forged(Kind.FORGED_IDS, "nodes", Map.of("query", "query($ids: [ID!]!) { nodes(ids: $ids) { id } }",
					"variables", Map.of("ids", List.of(good, forged))));
		}
	}

	private void forged(Kind kind, String what, Map<String, Object> body) {
		Exchange answer = exchange(post("/graphql", JSON.writeValueAsBytes(body)));
		String described = answer.describe();
		if (answer.status == 200 && answer.body != null) {
			JsonNode json = JSON.readTree(answer.body);
			long requests = json.path("extensions").path("dynamodb").path("requests").asLong(-1);
			described += (requests == 0) ? ", no read" : ", %d reads".formatted(requests);
		}
		count(kind, what, described);
	}

	/** A node id as the server writes one: each part's length (7 bits a byte) and bytes, in base64url. */
	static String movieId(String year, String title) {
		java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
		for (String part : List.of("Movie", year, title)) {
			byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
			int length = bytes.length;
			while ((length & ~0x7F) != 0) {
				out.write((length & 0x7F) | 0x80);
				length >>>= 7;
			}
			out.write(length);
			out.writeBytes(bytes);
		}
		return Base64.getUrlEncoder().withoutPadding().encodeToString(out.toByteArray());
	}

	private void urls() {
		for (String target : BAD_TARGETS) {
			count(Kind.URLS, "GET " + target, raw(RawHttp.request("GET", target)));
		}
		for (String target : List.of("/graphql?query=%7B__typename%7D", "/api/users")) {
			count(Kind.URLS, "9,000-byte header",
					raw(RawHttp.request("GET", target, "X-Large: " + "a".repeat(9_000))));
		}
	}

	private void types() {
		for (String body : WRONG_TYPES) {
			count(Kind.TYPES, body.contains("operationName") ? "operationName 7" : "query not a string",
					exchange(post("/graphql", body.getBytes(StandardCharsets.UTF_8))).describe());
		}
		for (String path : List.of("/graphql", "/api/users")) {
			count(Kind.TYPES, "TRACE " + path, raw(RawHttp.request("TRACE", path)));
		}
	}

	private void publicActuator() {
		for (String path : List.of("/actuator/health", "/actuator/health/liveness", "/actuator/prometheus")) {
			count(Kind.PUBLIC_ACTUATOR, "GET " + path,
					exchange(new HttpGet("http://127.0.0.1:" + this.port + path)).describe());
		}
	}

	/** One request on a connection of its own; its answer described. */
	private String raw(String request) {
		try (RawHttp http = new RawHttp(this.port)) {
			return describe(http.send(request).read());
		}
		catch (UncheckedIOException ex) {
			return "no answer: " + ex.getCause();
		}
	}

	/**
	 * {@value #SLOW_CONNECTIONS} connections, each sending a POST's headers with {@code Content-Length: 1000}
	 * and then a byte every 5 s, held until the server answers them (a new one takes the place of each) and
	 * closed when the window ends.
	 */
	private void slowBodies() throws InterruptedException {
		String headers = RawHttp.request("POST", "/graphql", "Content-Type: application/json", "Content-Length: 1000");
		List<Slow> open = new ArrayList<>();
		// Opened over the first 5 s (25 rounds of 200 ms), so that their bytes and refusals are spread in time.
		int perRound = (SLOW_CONNECTIONS + 24) / 25;
		try {
			while (this.attacking) {
				for (int i = 0; i < perRound && open.size() < SLOW_CONNECTIONS; i++) {
					Slow slow = Slow.open(this.port, headers);
					if (slow == null) {
						count(Kind.SLOW, "connect", "no connection");
						break;
					}
					open.add(slow);
				}
				long now = System.nanoTime();
				for (java.util.Iterator<Slow> each = open.iterator(); each.hasNext();) {
					Slow slow = each.next();
					String answer = slow.poll(now);
					if (answer != null) {
						count(Kind.SLOW, "byte every 5 s", answer);
						if (answer.startsWith("408")) {
							this.seconds.computeIfAbsent(Kind.SLOW, (k) -> new ConcurrentLinkedQueue<>())
								.add((System.nanoTime() - slow.opened) / 1e9);
						}
						slow.http.close();
						// Its place is taken by a new connection in the next round.
						each.remove();
					}
				}
				Thread.sleep(200);
			}
		}
		finally {
			for (Slow slow : open) {
				slow.http.close();
			}
			count(Kind.SLOW, "open at the end", "closed by the client: " + open.size());
		}
	}

	/** A connection whose body trickles in. */
	private static final class Slow {

		final RawHttp http;

		final long opened;

		long lastByte;

		private Slow(RawHttp http, long opened) {
			this.http = http;
			this.opened = opened;
			this.lastByte = opened;
		}

		/** A new connection that has sent its headers and the body's first byte; null if it could not connect. */
		static Slow open(int port, String headers) {
			RawHttp http = null;
			try {
				http = new RawHttp(port);
				long now = System.nanoTime();
				http.send(headers + "{");
				return new Slow(http, now);
			}
			catch (UncheckedIOException ex) {
				if (http != null) {
					http.close();
				}
				return null;
			}
		}

		/** The answer, if one came; else sends the next byte when it is due. */
		String poll(long now) {
			try {
				if (this.http.answering()) {
					return describe(this.http.read());
				}
				if (now - this.lastByte >= TRICKLE.toNanos()) {
					this.http.send(" ");
					this.lastByte = now;
				}
				return null;
			}
			catch (UncheckedIOException ex) {
				try {
					return describe(this.http.read());
				}
				catch (UncheckedIOException none) {
					return "closed without an answer";
				}
			}
		}

	}

	// ---------------------------------------------------------------------------------------------
	// Probes, scrapes, progress

	/** The slowest answer of each probe, in nanoseconds. */
	private final Map<String, AtomicLong> slowestProbe = new ConcurrentHashMap<>();

	/** A probe of {@code path} on the management port every second: whether each answered 200 within 1 s. */
	private boolean[] probe(String path, long start, int count) throws InterruptedException {
		boolean[] answered = new boolean[count];
		AtomicLong slowest = this.slowestProbe.computeIfAbsent(path, (p) -> new AtomicLong());
		for (int s = 0; s < count; s++) {
			TimeUnit.NANOSECONDS.sleep(start + s * 1_000_000_000L - System.nanoTime());
			long sent = System.nanoTime();
			try {
				int status = this.probes.execute(new HttpGet("http://127.0.0.1:" + this.managementPort + path),
						(response) -> {
							EntityUtils.consume(response.getEntity());
							return response.getCode();
						});
				long took = System.nanoTime() - sent;
				slowest.accumulateAndGet(took, Math::max);
				answered[s] = status == 200 && took <= PROBE_WITHIN.toNanos();
			}
			catch (IOException ex) {
				slowest.accumulateAndGet(System.nanoTime() - sent, Math::max);
				answered[s] = false;
			}
		}
		return answered;
	}

	/** A scrape of the management port's /actuator/prometheus: status, time and text. */
	private record Scrape(int status, double millis, String text) {

		boolean answered() {
			return this.status == 200 && this.millis <= SCRAPE_EVERY.toMillis();
		}

	}

	private Scrape scrape() {
		long sent = System.nanoTime();
		try {
			return this.attacks.execute(
					new HttpGet("http://127.0.0.1:" + this.managementPort + "/actuator/prometheus"),
					(response) -> new Scrape(response.getCode(), (System.nanoTime() - sent) / 1e6,
							EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8)));
		}
		catch (IOException ex) {
			return new Scrape(-1, (System.nanoTime() - sent) / 1e6, "");
		}
	}

	/** Scrapes every 10 s through the window, and prints progress. */
	private void monitor(long start, int count, List<Scrape> scrapes, List<List<Double>> normal)
			throws InterruptedException {
		long every = Math.max(10, this.window.toSeconds() / 10);
		long end = start + count * 1_000_000_000L;
		for (int i = 1; start + i * SCRAPE_EVERY.toNanos() <= end; i++) {
			TimeUnit.NANOSECONDS.sleep(start + i * SCRAPE_EVERY.toNanos() - System.nanoTime());
			scrapes.add(scrape());
			long elapsed = i * SCRAPE_EVERY.toSeconds();
			if (this.middle == null && elapsed >= count / 2) {
				try {
					this.middle = resident();
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
				long sent = this.answers.values().stream().flatMap((m) -> m.values().stream()).mapToLong(LongAdder::sum).sum();
				System.out.printf("  %3d s: %,d normal pages, %,d attacks answered%n", elapsed, pages, sent);
			}
		}
	}

	// ---------------------------------------------------------------------------------------------
	// Memory

	/** The server's heap after a full GC, its resident set and its threads at one moment. */
	private record Memory(long heap, long rss, long threads, Map<String, long[]> histogram) {

	}

	/**
	 * The resident set and threads at half the window. Not the heap: a full GC there would pause the server
	 * under the load being measured, and under load the heap's figure after it is mostly what was allocated
	 * since (the class histogram of the live objects is not).
	 */
	private volatile Memory middle;

	/**
	 * The server's memory now, after a full GC; {@code name} non-null also keeps its class histogram in
	 * {@code target/bench/abuse-histogram-<name>.txt}.
	 */
	private Memory memory(String name) throws Exception {
		long heap = Processes.heapUsedAfterGc(this.pid);
		Memory resident = resident();
		Map<String, long[]> histogram = new LinkedHashMap<>();
		String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
		String text = Processes.run(jcmd, Long.toString(this.pid), "GC.class_histogram");
		Files.writeString(Path.of("target", "bench", "abuse-histogram-" + name + ".txt"), text);
		Matcher line = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)", Pattern.MULTILINE).matcher(text);
		while (line.find()) {
			histogram.put(line.group(3), new long[] { Long.parseLong(line.group(1)), Long.parseLong(line.group(2)) });
		}
		return new Memory(heap, resident.rss, resident.threads, histogram);
	}

	/** The server's resident set and threads now, from /proc/PID/status; no heap figure. */
	private Memory resident() throws IOException {
		Map<String, String> status = status(this.pid);
		return new Memory(-1, Long.parseLong(status.get("VmRSS").replaceAll("[^0-9]", "")) * 1024,
				Long.parseLong(status.get("Threads").trim()), Map.of());
	}

	/** The server's heap and RSS rows, with what grew most from the start to half the window and to the end. */
	private void memory(Memory before, Memory start, Memory middle, Memory end) {
		double heapRatio = (double) end.heap / start.heap;
		this.bench.row("abuse: server heap after GC at the end vs at the start (after a first %d s of attacks)"
			.formatted(FIRST_ROUND.toSeconds()), Stats.mb(end.heap), Stats.mb(start.heap),
				"%.2fx; %s before any attack".formatted(heapRatio, Stats.mb(before.heap)),
				"<= 1.10x", heapRatio <= 1.10);
		double rssRatio = (double) end.rss / start.rss;
		this.bench.row("abuse: server RSS (VmRSS) at the end vs at the start", Stats.mb(end.rss), Stats.mb(start.rss),
				"%.2fx; %s before any attack, %s at half the window; threads %d, %d, %s, %d".formatted(rssRatio,
						Stats.mb(before.rss), (middle == null) ? "not read" : Stats.mb(middle.rss), before.threads,
						start.threads, (middle == null) ? "-" : Long.toString(middle.threads), end.threads),
				"<= 1.10x", rssRatio <= 1.10);
		grown("before any attack to the start", before, start);
		grown("the start to the end", start, end);
	}

	/** Prints the classes whose instances after GC grew most in bytes from {@code from} to {@code to}. */
	private static void grown(String between, Memory from, Memory to) {
		List<Map.Entry<String, Long>> grown = new ArrayList<>();
		to.histogram.forEach((type, counts) -> grown
			.add(Map.entry(type, counts[1] - from.histogram.getOrDefault(type, new long[2])[1])));
		grown.sort(Map.Entry.<String, Long>comparingByValue().reversed());
		System.out.printf("  heap after GC, what grew most from %s (target/bench/abuse-histogram-*.txt):%n", between);
		for (Map.Entry<String, Long> each : grown.subList(0, Math.min(6, grown.size()))) {
			System.out.printf("    %+,.1f KB  %s (%,d -> %,d instances)%n", each.getValue() / 1024.0, each.getKey(),
					from.histogram.getOrDefault(each.getKey(), new long[2])[0], to.histogram.get(each.getKey())[0]);
		}
	}

	private static Map<String, String> status(long pid) throws IOException {
		Map<String, String> status = new LinkedHashMap<>();
		for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
			int colon = line.indexOf(':');
			if (colon > 0) {
				status.put(line.substring(0, colon), line.substring(colon + 1).trim());
			}
		}
		return status;
	}

	// ---------------------------------------------------------------------------------------------
	// Attack 3 of issue 31: requests of many calls beside steady one-page traffic

	/** Rounds of the four multi-call requests, alone and beside the normal connections (at most). */
	private static final int MULTI_CALL_ROUNDS = 10;

	/** The most the four multi-call requests' rounds beside the normal connections may take. */
	private static final Duration MULTI_CALL_WINDOW = Duration.ofSeconds(90);

	/**
	 * The four requests of issue 31's finding 3, on the benchmark's data: legitimate requests of several to a
	 * couple of hundred DynamoDB calls, which the order by calls started alone starved beside steady one-page
	 * requests.
	 */
	enum MultiCall {

		USERS_PURCHASES("users(first: 20) -> purchases(first: 10): a Scan and 20 Queries", """
				{ users(first: 20) { edges { node { userId name purchases(first: 10) { edges { node { id product amount } } } } } } }"""),

		INFINITE_SCROLL("the infinite-scroll page's first request: a user, 20 of their 100 purchases, totalCount", """
				{ user(userId: "%s") { id userId name purchases(first: 20, order: ASC) { totalCount
				  edges { cursor node { id purchasedAt product category amount } } pageInfo { hasNextPage endCursor } } } }"""
			.formatted(BenchData.userId(7))),

		COUNTED_PAGE("a page of 20 movies with totalCount (the 100 titles of a prefix)", """
				{ movies(year: %d, titlePrefix: "m00012", first: 20) { totalCount edges { cursor node { title rating } }
				  pageInfo { hasNextPage endCursor } } }""".formatted(BenchData.MOVIE_YEAR)),

		/** The fairness section's "100 users x 100 purchases x user", which the cost limits let through. */
		README_EXAMPLE("README's 20,100-item example (docs/limits.md): 100 users x 100 purchases x their user",
				Hostile.NESTED.body);

		final String description;

		final byte[] body;

		MultiCall(String description, String document) {
			this(description, GraphQl.body(document, Map.of()));
		}

		MultiCall(String description, byte[] body) {
			this.description = description;
			this.body = body;
		}

	}

	/** One multi-call request's answers: seconds each took, and how each failed (none if served). */
	private record MultiCallAnswers(List<Double> seconds, List<String> failures) {

		MultiCallAnswers() {
			this(Collections.synchronizedList(new ArrayList<>()), Collections.synchronizedList(new ArrayList<>()));
		}

		double p50Millis() {
			return Stats.percentile(this.seconds.stream().mapToDouble(Double::doubleValue).toArray(), 50) * 1000;
		}

		double longest() {
			return this.seconds.stream().mapToDouble(Double::doubleValue).max().orElse(0);
		}

	}

	/** Attack 3's figures: each request alone and beside the normal page's connections, and those pages. */
	private record MultiCalls(Map<MultiCall, MultiCallAnswers> alone, Map<MultiCall, MultiCallAnswers> beside,
			Normal pages) {

	}

	/**
	 * Attack 3: each of the four multi-call requests {@value #MULTI_CALL_ROUNDS} times alone, in turns, then in
	 * turns again while the normal page runs on {@value #NORMAL_CLIENTS} connections (for at most
	 * {@link #MULTI_CALL_WINDOW}); the one-page requests keep calls of requests that have started none waiting
	 * for DynamoDB's places all the while.
	 */
	private MultiCalls multiCalls(List<byte[]> bodies) throws Exception {
		System.out.printf("Abuse: attack 3, %d requests of many calls, %d rounds alone ...%n", MultiCall.values().length,
				MULTI_CALL_ROUNDS);
		Map<MultiCall, MultiCallAnswers> alone = new EnumMap<>(MultiCall.class);
		Map<MultiCall, MultiCallAnswers> beside = new EnumMap<>(MultiCall.class);
		for (MultiCall request : MultiCall.values()) {
			alone.put(request, new MultiCallAnswers());
			beside.put(request, new MultiCallAnswers());
		}
		for (int round = 0; round < MULTI_CALL_ROUNDS; round++) {
			for (MultiCall request : MultiCall.values()) {
				multiCall(request, alone.get(request));
			}
		}
		System.out.printf("Abuse: attack 3, the same beside the normal page on %d connections ...%n", NORMAL_CLIENTS);
		AtomicBoolean stop = new AtomicBoolean();
		List<List<Double>> latencies = new ArrayList<>();
		for (int c = 0; c < NORMAL_CLIENTS; c++) {
			latencies.add(new ArrayList<>());
		}
		int failed;
		try (Clients<Integer> clients = Clients.start(NORMAL_CLIENTS,
				(client) -> () -> pagesUntil(stop, bodies, latencies.get(client)))) {
			// The connections reach their pace, then the four go in turns beside them.
			Thread.sleep(2_000);
			long end = System.nanoTime() + MULTI_CALL_WINDOW.toNanos();
			for (int round = 0; round < MULTI_CALL_ROUNDS && System.nanoTime() < end; round++) {
				for (MultiCall request : MultiCall.values()) {
					multiCall(request, beside.get(request));
				}
			}
			stop.set(true);
			failed = clients.join().stream().mapToInt(Integer::intValue).sum();
		}
		return new MultiCalls(alone, beside,
				new Normal(latencies.stream().flatMap(List::stream).mapToDouble(Double::doubleValue).toArray(), failed));
	}

	/** One multi-call request on the attacks' client: served is 200 with no error in it. */
	private void multiCall(MultiCall request, MultiCallAnswers answers) {
		Exchange answer = exchange(post("/graphql", request.body));
		answers.seconds.add(answer.seconds);
		if (answer.status != 200 || answer.body == null || GraphQl.indexOf(answer.body, ERRORS) >= 0) {
			answers.failures.add((answer.body != null && GraphQl.indexOf(answer.body, UNAVAILABLE) >= 0)
					? "%d UNAVAILABLE".formatted(answer.status) : answer.describe());
		}
	}

	/** A normal client until {@code stop}: the page's latencies; returns how many pages failed. */
	private int pagesUntil(AtomicBoolean stop, List<byte[]> bodies, List<Double> latencies) {
		java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
		int failed = 0;
		while (!stop.get()) {
			long start = System.nanoTime();
			try {
				this.bench.postPage(bodies.get(random.nextInt(bodies.size())));
				latencies.add((System.nanoTime() - start) / 1e6);
			}
			catch (RuntimeException ex) {
				failed++;
				if (this.bench.failures.size() < 5) {
					String message = String.valueOf(ex.getMessage());
					this.bench.failures.add(message.substring(0, Math.min(message.length(), 400)));
				}
			}
		}
		return failed;
	}

	/**
	 * Attack 3's rows: each request's p50 beside the normal connections against alone, its failures, its longest
	 * answer; and the normal page's p50 beside the four against the normal page alone.
	 */
	private void report(MultiCalls multiCalls, Normal pagesAlone) {
		double limit = this.deadline.plus(DEADLINE_MARGIN).toMillis() / 1000.0;
		Map<String, Map<String, Object>> figures = new LinkedHashMap<>();
		for (MultiCall request : MultiCall.values()) {
			MultiCallAnswers alone = multiCalls.alone.get(request);
			MultiCallAnswers beside = multiCalls.beside.get(request);
			double longest = beside.longest();
			Map<String, Long> how = new TreeMap<>();
			beside.failures.forEach((failure) -> how.merge(failure, 1L, Long::sum));
			this.bench.row("abuse: attack 3: %s, beside the normal page on %d connections vs alone: p50"
				.formatted(request.description, NORMAL_CLIENTS), Stats.ms(beside.p50Millis()),
					Stats.ms(alone.p50Millis()),
					"%.1fx; failed %d of %d beside%s, %d of %d alone; longest %.2f s".formatted(
							beside.p50Millis() / alone.p50Millis(), beside.failures.size(), beside.seconds.size(),
							how.isEmpty() ? "" : " " + how, alone.failures.size(), alone.seconds.size(), longest),
					"0 failed; within the timeout + %d s".formatted(DEADLINE_MARGIN.toSeconds()),
					beside.failures.isEmpty() && alone.failures.isEmpty() && !beside.seconds.isEmpty() && longest <= limit);
			Map<String, Object> each = new LinkedHashMap<>();
			each.put("aloneP50Ms", alone.p50Millis());
			each.put("besideP50Ms", beside.p50Millis());
			each.put("aloneFailed", alone.failures.size());
			each.put("aloneSent", alone.seconds.size());
			each.put("besideFailed", beside.failures.size());
			each.put("besideSent", beside.seconds.size());
			each.put("besideLongestSeconds", longest);
			figures.put(request.name(), each);
		}
		Normal pages = multiCalls.pages;
		this.bench.row("... attack 3: the normal page on %d connections beside the four vs alone: p50".formatted(
				NORMAL_CLIENTS), Stats.ms(pages.p(50)), Stats.ms(pagesAlone.p(50)),
				"%.2fx; p99 %s; %,d served, %d failed".formatted(pages.p(50) / pagesAlone.p(50), Stats.ms(pages.p(99)),
						pages.latencies.length, pages.failed),
				"0 failed", pages.failed == 0);
		figures.put("normalPage", Map.of("besideP50Ms", pages.p(50), "aloneP50Ms", pagesAlone.p(50), "failed",
				pages.failed));
		this.bench.figures.put("abuseMultiCall", figures);
	}

	// ---------------------------------------------------------------------------------------------
	// The report

	private void report(Normal alone, Normal attacked, Normal again, double attackSeconds) {
		double ratio = attacked.p(50) / alone.p(50);
		this.bench.row("abuse: normal 20-edge page, %d clients, beside the attacks vs alone: p50".formatted(NORMAL_CLIENTS),
				Stats.ms(attacked.p(50)), Stats.ms(alone.p(50)), "%.2fx".formatted(ratio), "<= 2x", ratio <= 2);
		this.bench.row("... p99", Stats.ms(attacked.p(99)), Stats.ms(alone.p(99)),
				"%.2fx".formatted(attacked.p(99) / alone.p(99)), "-", null);
		this.bench.row("... normal pages served / failed (beside | alone)",
				"%,d / %d".formatted(attacked.latencies.length, attacked.failed),
				"%,d / %d".formatted(alone.latencies.length, alone.failed),
				"%.0f | %.0f pages/s".formatted(attacked.latencies.length / (double) this.window.toSeconds(),
						alone.latencies.length / (double) ALONE.toSeconds()),
				"0 failed", attacked.failed == 0 && alone.failed == 0);
		List<String> failures;
		synchronized (this.bench.failures) {
			failures = List.copyOf(this.bench.failures);
		}
		for (String failure : failures.subList(0, Math.min(5, failures.size()))) {
			System.out.println("  a normal page failed: " + failure);
		}
		this.bench.row("... alone again after the attacks vs alone before: p50", Stats.ms(again.p(50)),
				Stats.ms(alone.p(50)), "%.2fx (p99 %s, %d failed)".formatted(again.p(50) / alone.p(50),
						Stats.ms(again.p(99)), again.failed),
				"-", null);
		for (Kind kind : Kind.values()) {
			Map<String, LongAdder> counts = this.answers.getOrDefault(kind, Map.of());
			long sent = 0;
			boolean expected = !counts.isEmpty();
			for (Map.Entry<String, LongAdder> each : counts.entrySet()) {
				String answer = each.getKey().substring(each.getKey().indexOf(" -> ") + 4);
				if (kind == Kind.SLOW && each.getKey().startsWith("open at the end")) {
					continue;
				}
				sent += each.getValue().sum();
				expected &= kind.expected.test(answer);
			}
			String relay = "%,d answered (%.1f/s)".formatted(sent, sent / attackSeconds);
			String figure = answers(kind);
			String target = switch (kind) {
				case LABELS -> "200 with data";
				case OVERSIZED -> "413 INVALID_ARGUMENT";
				case SLOW -> "408 INVALID_ARGUMENT within %d s + %d s".formatted(this.bodyTimeout.toSeconds(),
						BODY_MARGIN.toSeconds());
				case DEADLINE -> "200 (served, cut or UNAVAILABLE)";
				case FORGED_IDS -> "200 INVALID_ARGUMENT before any read";
				case URLS -> "400 INVALID_ARGUMENT";
				case TYPES -> "400 INVALID_ARGUMENT; 405 with the path's Allow";
				case PUBLIC_ACTUATOR -> "404 NOT_FOUND";
			};
			boolean met = expected;
			if (kind == Kind.SLOW) {
				double longest = longest(Kind.SLOW);
				figure += "; refused after %.1f s at most".formatted(longest);
				met &= longest <= (this.bodyTimeout.plus(BODY_MARGIN).toMillis() / 1000.0);
			}
			if (kind == Kind.OVERSIZED) {
				figure += "; the client had sent at most " + this.sentBeforeRefusal.entrySet()
					.stream()
					.map((e) -> "%s %.1f MB".formatted(e.getKey(), e.getValue().get() / 1024.0 / 1024.0))
					.sorted()
					.reduce((a, b) -> a + ", " + b)
					.orElse("-");
			}
			this.bench.row("... attack: " + kind.description, relay, "-", figure, target, met);
		}
		double longest = longest(Kind.DEADLINE);
		double limit = this.deadline.plus(DEADLINE_MARGIN).toMillis() / 1000.0;
		ConcurrentLinkedQueue<Double> times = this.seconds.getOrDefault(Kind.DEADLINE, new ConcurrentLinkedQueue<>());
		double[] sorted = times.stream().mapToDouble(Double::doubleValue).toArray();
		this.bench.row("... deadline attacks: longest answer", "%.2f s".formatted(longest), "-",
				(sorted.length == 0) ? "-" : "p50 %.2f s, p99 %.2f s, timeout %s".formatted(Stats.percentile(sorted, 50),
						Stats.percentile(sorted, 99), this.deadline.toSeconds() + " s"),
				"<= timeout + %d s (%.0f s)".formatted(DEADLINE_MARGIN.toSeconds(), limit),
				sorted.length > 0 && longest <= limit);
		this.late.stream().limit(10).forEach((late) -> System.out.println("  a deadline attack answered late: " + late));
	}

	private double longest(Kind kind) {
		return this.seconds.getOrDefault(kind, new ConcurrentLinkedQueue<>())
			.stream()
			.mapToDouble(Double::doubleValue)
			.max()
			.orElse(0);
	}

	private void scrapes(List<Scrape> scrapes, Scrape first, Scrape last) {
		long answered = scrapes.stream().filter(Scrape::answered).count();
		double slowest = scrapes.stream().mapToDouble(Scrape::millis).max().orElse(0);
		int largest = scrapes.stream().mapToInt((scrape) -> scrape.text.length()).max().orElse(0);
		Set<String> operations = new HashSet<>();
		int longestLabel = 0;
		Matcher labels = Pattern.compile("operation=\"([^\"]*)\"").matcher(last.text);
		while (labels.find()) {
			operations.add(labels.group(1));
			longestLabel = Math.max(longestLabel, labels.group(1).length());
		}
		this.bench.row("abuse: /actuator/prometheus on the management port every 10 s",
				"%d of %d answered".formatted(answered, scrapes.size()), "-",
				"slowest %s, largest %,d chars (%,d before the attacks); %d operation labels, the longest %d chars"
					.formatted(Stats.ms(slowest), largest, first.text.length(), operations.size(), longestLabel),
				"each answers 200 within 10 s; labels <= 100 chars", answered == scrapes.size() && !scrapes.isEmpty()
						&& longestLabel <= 100);
	}

	/** The server's own count of its refusals over the window (docs/limits.md's "the operator sees"). */
	private void refusals(Scrape before, Scrape after) {
		Map<String, Double> start = counters(before.text);
		Map<String, Double> end = counters(after.text);
		StringBuilder figure = new StringBuilder();
		double unexpected = 0;
		for (Map.Entry<String, Double> each : end.entrySet()) {
			double delta = each.getValue() - start.getOrDefault(each.getKey(), 0.0);
			if (delta > 0) {
				figure.append((figure.length() == 0) ? "" : ", ").append(each.getKey()).append(" +%,.0f".formatted(delta));
				if (each.getKey().equals("errors{INTERNAL}") || each.getKey().equals("errors{OTHER}")) {
					unexpected += delta;
				}
			}
		}
		// Every attack is the client's fault: an operator alerting on INTERNAL should not hear of it.
		this.bench.row("... the server's counters over the window (dynamorelay_http_refusals_total, _errors_total, "
				+ "_cost_limit_refusals_total)", figure.toString(), "-", "-", "no errors{INTERNAL} or {OTHER}",
				unexpected == 0);
	}

	private static Map<String, Double> counters(String scrape) {
		Map<String, Double> counters = new TreeMap<>();
		Matcher line = Pattern
			.compile("^(dynamorelay_(?:http_refusals|errors|cost_limit_refusals)_total)\\{([^}]*)\\} (\\S+)$",
					Pattern.MULTILINE)
			.matcher(scrape);
		while (line.find()) {
			String name = line.group(1).replace("dynamorelay_", "").replace("_total", "");
			Matcher label = Pattern.compile("(reason|code|limit)=\"([^\"]*)\"").matcher(line.group(2));
			String key = label.find() ? name + "{" + label.group(2) + "}" : name;
			counters.merge(key, Double.parseDouble(line.group(3)), Double::sum);
		}
		return counters;
	}

	/** What the server logged while attacked: one WARN per request answered UNAVAILABLE, and nothing else. */
	private void logLines(List<String> logged) {
		long unavailable = logged.stream().filter((line) -> line.contains("DynamoDB unavailable for request")).count();
		long backstop = logged.stream().filter((line) -> line.contains("was not answered within")).count();
		List<String> others = logged.stream()
			.filter((line) -> !line.contains("DynamoDB unavailable for request") && !line.contains("was not answered within"))
			.toList();
		this.bench.row("... server.log lines written during the attacks",
				"%,d".formatted(logged.size()), "-",
				"%,d 'DynamoDB unavailable for request', %d backstop, %d other".formatted(unavailable, backstop,
						others.size()),
				"none per refused request", others.isEmpty());
		for (String line : others.subList(0, Math.min(5, others.size()))) {
			System.out.println("  logged: " + line.substring(0, Math.min(line.length(), 300)));
		}
	}

	private void figures(Normal alone, Normal attacked, Memory start, Memory end, int missed) {
		this.bench.figures.put("abuseSeconds", this.window.toSeconds());
		this.bench.figures.put("abuseP50AloneMs", alone.p(50));
		this.bench.figures.put("abuseP50BesideMs", attacked.p(50));
		this.bench.figures.put("abuseP99AloneMs", alone.p(99));
		this.bench.figures.put("abuseP99BesideMs", attacked.p(99));
		this.bench.figures.put("abuseNormalFailed", attacked.failed + alone.failed);
		this.bench.figures.put("abuseHeapStartBytes", start.heap);
		this.bench.figures.put("abuseHeapEndBytes", end.heap);
		this.bench.figures.put("abuseRssStartBytes", start.rss);
		this.bench.figures.put("abuseRssEndBytes", end.rss);
		this.bench.figures.put("abuseProbeSecondsMissed", missed);
		this.bench.figures.put("abuseDeadlineLongestSeconds", longest(Kind.DEADLINE));
		Map<String, Map<String, Long>> answers = new LinkedHashMap<>();
		for (Kind kind : Kind.values()) {
			Map<String, Long> counts = new TreeMap<>();
			this.answers.getOrDefault(kind, Map.of()).forEach((key, count) -> counts.put(key, count.sum()));
			answers.put(kind.name(), counts);
		}
		this.bench.figures.put("abuseAnswers", answers);
	}

	// ---------------------------------------------------------------------------------------------
	// Helpers

	private void count(Kind kind, String what, String answer) {
		this.answers.computeIfAbsent(kind, (k) -> new ConcurrentHashMap<>())
			.computeIfAbsent(what + " -> " + answer, (k) -> new LongAdder())
			.increment();
	}

	/** A kind's answers so far: "what -> answer xN; ...", sorted. */
	private String answers(Kind kind) {
		Map<String, Long> counts = new TreeMap<>();
		this.answers.getOrDefault(kind, Map.of()).forEach((key, count) -> counts.put(key, count.sum()));
		return counts.entrySet()
			.stream()
			.map((e) -> "%s x%,d".formatted(e.getKey(), e.getValue()))
			.reduce((a, b) -> a + "; " + b)
			.orElse("none");
	}

	private HttpPost post(String path, byte[] body) {
		HttpPost request = new HttpPost("http://127.0.0.1:" + this.port + path);
		request.setEntity(new ByteArrayEntity(body, ContentType.APPLICATION_JSON));
		return request;
	}

	/** A request on the attacks' client: status (-1 when none came), body and seconds. */
	private record Exchange(int status, byte[] body, double seconds, String failure, String allow) {

		String describe() {
			if (this.status < 0) {
				return "no answer: " + this.failure;
			}
			return Abuse.describe(this.status, (this.body == null) ? "" : new String(this.body, StandardCharsets.UTF_8),
					this.allow);
		}

	}

	private Exchange exchange(ClassicHttpRequest request) {
		long sent = System.nanoTime();
		try {
			return this.attacks.execute(request, (response) -> {
				byte[] body = EntityUtils.toByteArray(response.getEntity());
				var allow = response.getFirstHeader("Allow");
				return new Exchange(response.getCode(), body, (System.nanoTime() - sent) / 1e9, null,
						(allow == null) ? null : allow.getValue());
			});
		}
		catch (IOException ex) {
			return new Exchange(-1, null, (System.nanoTime() - sent) / 1e9, ex.toString(), null);
		}
	}

	private static String describe(RawHttp.Answer answer) {
		return describe(answer.status(), answer.body(), answer.headers().get("allow"));
	}

	/**
	 * An answer as status and code: {@code 200 ok} for data without errors, {@code 413 INVALID_ARGUMENT} (a
	 * GraphQL error body's first code, or a problem's), {@code 405 Allow: GET, POST}, {@code 400 HTML} for an
	 * HTML page.
	 */
	static String describe(int status, String body, String allow) {
		String code = null;
		if (body.length() <= 256 * 1024 && !body.isBlank()) {
			try {
				JsonNode json = JSON.readTree(body);
				JsonNode errors = json.path("errors");
				if (errors.isArray() && !errors.isEmpty()) {
					code = errors.path(0).path("extensions").path("code").asString("(no code)");
				}
				else if (json.has("code")) {
					code = json.path("code").asString();
				}
				else if (status == 200 && json.has("data")) {
					code = "ok";
				}
			}
			catch (RuntimeException ex) {
				code = body.contains("<html") ? "HTML" : "not JSON";
			}
		}
		StringBuilder answer = new StringBuilder().append(status);
		if (code != null) {
			answer.append(' ').append(code);
		}
		if (status == 405) {
			answer.append(" Allow: ").append(allow);
		}
		return answer.toString();
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
