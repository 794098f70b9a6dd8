package dev.dynamorelay.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The benchmark's start-up section: how a fresh server process serves from its first seconds, side by side
 * with a Node GraphQL server of the same pages ({@code bench/node/server.mjs}), per runtime lever; and what
 * the metrics cost.
 *
 * <p>Each server is measured alone, on the benchmark's DynamoDB (the engine on its own), the others stopped:
 * <ul>
 * <li>the first answer of the embedded default ({@code java -jar}, no endpoint: the engine in the process and
 * the sample seeded) to README's first query, from the process's spawn; median of three
 * (dynamo-relay only: the Node server has no embedded DynamoDB);</li>
 * <li>the cold phase: 8 clients of random 20-edge pages with a user lookup (one BatchGetItem) from the
 * moment the process is spawned; its first answer, and pages/s, p50, p99 and server CPU per page over the
 * first 30 s (the start-up's seconds and CPU included: what a new instance gives);</li>
 * <li>the warm phase: the same after 120 s more of that load, over 20 s; with the bytes the server
 * allocated per page (its {@code jvm_gc_memory_allocated_bytes_total}).</li>
 * </ul>
 * After them, the ceiling: the same pages' raw DynamoDB calls (the Query and the BatchGetItem) from 8
 * clients of the benchmark's own SDK client, 20 s after 20 s of the same: the most pages/s any server could
 * serve from this engine on these cores. The runtimes ({@link #RUNTIMES}) are the levers: Java 17
 * and 25, the fat jar, the AOT cache that {@code java -jar dynamo-relay.jar aot-cache} makes, the JIT and GC
 * settings, the AWS CRT HTTP client against Netty; {@code BENCH_RUNTIMES} picks some by key.
 *
 * <p>Then the metrics' cost: four servers of the AOT cache's runtime (else the last), two of them with
 * {@code dynamo-relay.metrics.enabled=false}, each warmed alone for 120 s, then loaded in turns (4 rounds of 10 s
 * each, in rotated order; the metered ones scraped every 10 s): server CPU per page of each; and the share of a
 * metered server's CPU samples in the meters' code.
 */
final class Startup {

	/** Where rows go: the benchmark's table. */
	interface Rows {

		void row(String measure, String relay, String baseline, String figure, String target, Boolean met);

		void figure(String name, Object value);

	}

	/** A 20-edge page with a user lookup per edge, batched into one BatchGetItem. */
	static final String PAGE_20_USER = """
			query Page($c: String!, $a: String) { purchasesByCategory(category: $c, first: 20, after: $a) {
			  edges { cursor node { id purchasedAt product amount user { name } } }
			  pageInfo { hasNextPage endCursor } } }""";

	private static final String FIRST_QUERY = """
			{ user(userId: "user-01") { name purchases(first: 2, minAmount: 100) { totalCount
			  edges { cursor node { purchasedAt product amount } } pageInfo { hasNextPage endCursor } } } }""";

	private static final byte[] PAGE_START = "{\"data\":{\"purchasesByCategory\":{\"edges\":[{\"cursor\":\""
		.getBytes(StandardCharsets.UTF_8);

	private static final byte[] ERRORS = "\"errors\"".getBytes(StandardCharsets.UTF_8);

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	private static final int CLIENTS = 8;

	private static final Duration COLD = Duration.ofSeconds(30);

	/** 120 s, or {@code BENCH_WARMUP_SECONDS} (a short run, to check the section works). */
	private static final Duration WARM_UP = Duration.ofSeconds(Long.parseLong(
			System.getenv().getOrDefault("BENCH_WARMUP_SECONDS", "120")));

	private static final Duration WARM = Duration.ofSeconds(20);

	/** The Node server's walk to its own cursors: the same positions as dynamo-relay's (every 50 items). */
	private static final String NODE_WALK = """
			query($c: String!, $a: String) { purchasesByCategory(category: $c, first: 50, after: $a) {
			  pageInfo { endCursor } } }""";

	/**
	 * The runtimes measured, by key ({@code BENCH_RUNTIMES=node,25-aot,...} picks some, in this order): the
	 * Node server, then dynamo-relay's levers.
	 */
	static final List<String> RUNTIMES = List.of("node", "17", "25-netty", "25", "25-aot", "25-aot-x1", "25-aot-sooner",
			"25-aot-c1", "25-aot-serial");

	/** Every runtime key there is: {@link #RUNTIMES} and Java 17's class archive (AppCDS). */
	private static final List<String> ALL = List.of("node", "17", "17-cds", "25-netty", "25", "25-aot", "25-aot-x1",
			"25-aot-sooner", "25-aot-c1", "25-aot-serial");

	private final CloseableHttpClient http = Benchmark.httpClient();

	private final Path jar;

	private final URI dynamoDb;

	private final DynamoDbAsyncClient client;

	private final Path out;

	private final Rows rows;

	/** dynamo-relay's page bodies over random categories and positions (its cursors, signed with the benchmark's secret). */
	private final List<byte[]> bodies;

	private final Map<String, List<String>> cursorsByCategory;

	Startup(Path jar, URI dynamoDb, DynamoDbAsyncClient client, Path out, Rows rows,
			Map<String, List<String>> cursorsByCategory) {
		this.jar = jar;
		this.dynamoDb = dynamoDb;
		this.client = client;
		this.out = out;
		this.rows = rows;
		this.cursorsByCategory = cursorsByCategory;
		this.bodies = bodies(cursorsByCategory);
	}

	private static List<byte[]> bodies(Map<String, List<String>> cursorsByCategory) {
		List<byte[]> pages = new ArrayList<>();
		cursorsByCategory.forEach((category, cursors) -> {
			for (String cursor : cursors) {
				Map<String, Object> variables = new LinkedHashMap<>();
				variables.put("c", category);
				variables.put("a", cursor);
				pages.add(JSON.writeValueAsBytes(Map.of("query", PAGE_20_USER, "variables", variables)));
			}
		});
		return List.copyOf(pages);
	}

	/**
	 * A way to run a server: dynamo-relay's java command and flags and how it is launched, or the Node server
	 * ({@code java} null); {@code arguments} are more of the server's own (a lever that is a setting).
	 */
	record Runtime(String key, String name, Path java, List<String> flags, List<String> launch, List<String> arguments) {

		Runtime(String name, Path java, List<String> flags, List<String> launch) {
			this("", name, java, flags, launch, List.of());
		}

		boolean node() {
			return this.java == null;
		}

		List<String> command(List<String> more, List<String> serverArguments) {
			if (node()) {
				return List.of("node", this.launch.get(0));
			}
			List<String> command = new ArrayList<>();
			command.add(this.java.toString());
			command.addAll(List.of("-Xms1g", "-Xmx1g"));
			command.addAll(this.flags);
			command.addAll(more);
			command.addAll(this.launch);
			command.addAll(serverArguments);
			command.addAll(this.arguments);
			return command;
		}

	}

	/**
	 * Tomcat and Spring MVC against Reactor Netty and WebFlux ({@code BENCH_ONLY=transport}), on
	 * {@code bench/transport}: one small Spring GraphQL application that serves this section's page from memory
	 * (two waits of DynamoDB's length standing for its two calls) on either stack, so that only the transport
	 * differs. Each stack from spawn (first answer, first 30 s), then two servers of each, warmed and loaded in
	 * turns (server CPU per page). dynamo-relay itself runs on Tomcat only.
	 */
	void runTransportOnly(Path transportJar) throws Exception {
		if (!Files.isRegularFile(transportJar)) {
			throw new IllegalStateException(transportJar + " is missing: ./bench/run builds it");
		}
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		List<String> stacks = List.of("servlet", "reactive", "servlet", "reactive");
		Map<String, String> names = Map.of("servlet", "Tomcat + Spring MVC", "reactive", "Reactor Netty + WebFlux");
		System.out.printf("Transport: %s against %s, Java %s ...%n", names.get("servlet"), names.get("reactive"), version(java));
		List<Process> processes = new ArrayList<>();
		List<URI> servers = new ArrayList<>();
		try {
			// Each stack alone from its spawn, as the start-up phases measure dynamo-relay, then stopped.
			for (String stack : List.of("servlet", "reactive")) {
				int port = Benchmark.freePort();
				long spawned = System.nanoTime();
				Process process = startTransport(java, transportJar, stack, port, "cold");
				try {
					Window first = load(URI.create("http://127.0.0.1:" + port + "/graphql"), this.bodies, spawned,
							spawned + Duration.ofSeconds(30).toNanos(), process.pid(), true, CLIENTS);
					this.rows.row("transport, first 30 s after spawn: " + names.get(stack), first.describe(), "-",
							"first answer %.2f s".formatted(first.firstSeconds(spawned)), "-", null);
				}
				finally {
					stop(process);
				}
			}
			for (int i = 0; i < stacks.size(); i++) {
				int port = Benchmark.freePort();
				processes.add(startTransport(java, transportJar, stacks.get(i), port, Integer.toString(i + 1)));
				servers.add(URI.create("http://127.0.0.1:" + port + "/graphql"));
			}
			long[] pids = processes.stream().mapToLong(Process::pid).toArray();
			Window[] sums = inTurns(servers, pids, this.bodies, Duration.ofSeconds(60), 4, (i) -> {
			});
			Window servlet = sums[0].plus(sums[2]);
			Window reactive = sums[1].plus(sums[3]);
			double noise = alike(sums);
			this.rows.row("transport, warm server CPU per page: " + names.get("reactive") + " vs " + names.get("servlet")
					+ ", two servers of each, 8 clients, 4 x 10 s each in turns",
					"%.3f ms (%.3f, %.3f), %.0f pages/s".formatted(reactive.cpuPerPage(), sums[1].cpuPerPage(), sums[3].cpuPerPage(),
							reactive.perSecond()),
					"%.3f ms (%.3f, %.3f), %.0f pages/s".formatted(servlet.cpuPerPage(), sums[0].cpuPerPage(), sums[2].cpuPerPage(),
							servlet.perSecond()),
					"%+.3f ms a page (%.3fx); two servers alike differ by up to %.3fx".formatted(
							reactive.cpuPerPage() - servlet.cpuPerPage(), reactive.cpuPerPage() / servlet.cpuPerPage(), noise),
					"-", null);
			this.rows.figure("transportReactiveMinusServletMs", reactive.cpuPerPage() - servlet.cpuPerPage());
		}
		finally {
			for (Process process : processes) {
				stop(process);
			}
		}
	}

	/** Starts bench/transport on one stack; its output goes to {@code transport-<stack>-<name>.log}. */
	private Process startTransport(Path java, Path transportJar, String stack, int port, String name) throws IOException {
		return new ProcessBuilder(java.toString(), "-jar", transportJar.toAbsolutePath().toString(), "--server.port=" + port,
				"--spring.main.web-application-type=" + stack)
			.redirectErrorStream(true)
			.redirectOutput(this.out.resolve("transport-" + stack + "-" + name + ".log").toFile())
			.start();
	}

	/** Only the metrics' cost, on the fat jar of the benchmark's own Java ({@code BENCH_ONLY=metrics}). */
	void runMetricsOnly() throws Exception {
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		metricsCost(new Runtime("Java " + version(java) + ", fat jar", java, List.of(), List.of("-jar", this.jar.toString())));
	}

	void run() throws Exception {
		List<String> keys = selected();
		Path java17 = Path.of(System.getProperty("java.home"), "bin", "java");
		Path java25 = java25();
		if (java25 == null && keys.stream().anyMatch((key) -> key.startsWith("25"))) {
			this.rows.row("Java 25 levers", "not measured: no JDK 25 (set BENCH_JAVA25)", "-", "-", "-", null);
			keys = keys.stream().filter((key) -> !key.startsWith("25")).toList();
		}
		Path extracted = keys.contains("17-cds") ? extract(java17) : null;
		List<String> fatJar = List.of("-jar", this.jar.toString());
		List<String> thinJar = (extracted != null)
				? List.of("-jar", extracted.resolve("dynamo-relay-0.1.0-SNAPSHOT.jar").toString()) : null;
		Path startup = this.out.resolve("startup");
		List<Runtime> runtimes = new ArrayList<>();
		List<String> aotCache = null;
		for (String key : keys) {
			runtimes.add(switch (key) {
				case "node" -> new Runtime(key, "Node " + nodeVersion() + " server (graphql-http, AWS SDK v3)", null, List.of(),
						List.of(nodeServer().toString()), List.of());
				case "17" -> new Runtime(key, "Java " + version(java17) + ", fat jar", java17, List.of(), fatJar, List.of());
				case "17-cds" -> {
					Path cds = startup.resolve("app.jsa");
					train("Java 17 AppCDS", new Runtime("", java17, List.of(), thinJar), List.of("-XX:ArchiveClassesAtExit=" + cds),
							cds, List.of());
					yield new Runtime(key, "Java " + version(java17) + ", extracted + AppCDS", java17,
							List.of("-XX:SharedArchiveFile=" + cds), thinJar, List.of());
				}
				case "25" -> new Runtime(key, "Java " + version(java25) + ", fat jar", java25, List.of(), fatJar, List.of());
				case "25-netty" -> new Runtime(key, "Java " + version(java25) + ", fat jar, Netty HTTP client", java25, List.of(),
						fatJar, List.of("--dynamo-relay.dynamodb.http-client=netty"));
				case "25-aot", "25-aot-x1", "25-aot-sooner", "25-aot-c1", "25-aot-serial" -> {
					List<String> aot = (aotCache != null) ? aotCache : (aotCache = aotCache(java25, startup.resolve("aot")));
					// As printed: the cache and the command's JIT setting (AotCacheCommand.RUN_FLAGS), then -jar.
					int jar = aot.indexOf("-jar");
					List<String> flags = new ArrayList<>(aot.subList(1, jar));
					String name = "Java " + version(java25) + ", AOT cache (`aot-cache` command"
							+ ((flags.size() > 1) ? ", its " + String.join(" ", flags.subList(1, flags.size())) : "") + ")";
					// The JIT variants replace the printed thresholds (C1 only as it was measured before them); the
					// Serial GC row keeps them.
					if (!key.equals("25-aot") && !key.endsWith("-serial")) {
						flags.removeIf((flag) -> flag.startsWith("-XX:CompileThresholdScaling="));
						name = "Java " + version(java25) + ", AOT cache";
					}
					if (key.endsWith("-x1")) {
						// The JVM's own tiered thresholds (invocations and loops before each compilation tier).
						name += ", the JVM's own tiered thresholds (x1)";
					}
					else if (key.endsWith("-sooner")) {
						// At a quarter: methods leave the interpreter sooner, and more of them are compiled.
						flags.add("-XX:CompileThresholdScaling=0.25");
						name += ", tiered thresholds x0.25 (-XX:CompileThresholdScaling=0.25)";
					}
					else if (key.endsWith("-c1")) {
						flags.add("-XX:TieredStopAtLevel=1");
						name += ", C1 only (-XX:TieredStopAtLevel=1)";
					}
					else if (key.endsWith("-serial")) {
						flags.add("-XX:+UseSerialGC");
						name += ", Serial GC";
					}
					yield new Runtime(key, name, java25, flags, aot.subList(jar, aot.size()), List.of());
				}
				default -> throw new IllegalArgumentException("no runtime " + key + " (BENCH_RUNTIMES takes " + ALL + ")");
			});
		}
		List<byte[]> nodeBodies = keys.contains("node") ? nodeBodies(runtimes.get(keys.indexOf("node"))) : null;
		// The engine and this JVM's client serve 40 s of the pages' raw calls first, so that the first server
		// measured (the Node server) meets an engine as warm as the ones after it do.
		ceiling();
		ceiling();
		Phases node = null;
		Map<Runtime, Phases> measured = new LinkedHashMap<>();
		for (Runtime runtime : runtimes) {
			Phases phases = measure(runtime, runtime.node() ? nodeBodies : this.bodies, node);
			measured.put(runtime, phases);
			if (runtime.node()) {
				node = phases;
			}
		}
		// Last, once the engine and this JVM's client have served for minutes (measured first in a cold JVM, on
		// DynamoDB Local, it read 781 pages/s, which the warm servers then passed).
		Window ceiling = ceiling();
		this.rows.row("ceiling: the same pages' raw calls (Query Limit 21, then BatchGetItem of its users), 8 clients of the "
				+ "benchmark's SDK client, 20 s after 20 s of the same", "%.0f pages/s".formatted(ceiling.perSecond()), "-",
				"p50 %.1f ms, p99 %.1f ms".formatted(ceiling.percentile(50), ceiling.percentile(99)),
				"the most any server can serve from this engine here", null);
		measured.forEach((runtime, phases) -> this.rows.row("... warm pages/s against the ceiling: " + runtime.name(),
				"%.0f pages/s".formatted(phases.warm().perSecond()), "%.0f pages/s".formatted(ceiling.perSecond()),
				"%.0f%%".formatted(100 * phases.warm().perSecond() / ceiling.perSecond()), "-", null));
		this.rows.figure("startupCeilingPagesPerSecond", ceiling.perSecond());
		// The metrics' cost on the AOT cache's runtime (else the last of Java's); BENCH_METRICS=0 leaves it out.
		List<Runtime> java = runtimes.stream().filter((runtime) -> !runtime.node()).toList();
		if (!java.isEmpty() && !"0".equals(System.getenv("BENCH_METRICS"))) {
			metricsCost(java.stream().filter((runtime) -> runtime.key().equals("25-aot")).findFirst()
				.orElse(java.get(java.size() - 1)));
		}
	}

	private static List<String> selected() {
		String given = System.getenv("BENCH_RUNTIMES");
		if (given == null || given.isBlank()) {
			return RUNTIMES;
		}
		return Arrays.stream(given.split(",")).map(String::trim).filter((key) -> !key.isEmpty()).toList();
	}

	/** A server's cold and warm phases. */
	record Phases(Window cold, Window warm, long spawned) {
	}

	private Phases measure(Runtime runtime, List<byte[]> pages, Phases node) throws Exception {
		System.out.printf("Start-up: %s ...%n", runtime.name());
		double embedded = Double.NaN;
		if (!runtime.node()) {
			double[] firsts = new double[3];
			for (int i = 0; i < firsts.length; i++) {
				firsts[i] = embeddedFirstAnswer(runtime);
			}
			Arrays.sort(firsts);
			embedded = firsts[1];
			this.rows.row("first answer of the embedded default after spawn (median of 3): " + runtime.name(),
					"%.2f s".formatted(embedded), "-", "%.2f / %.2f / %.2f s".formatted(firsts[0], firsts[1], firsts[2]),
					"<= 4 s", embedded <= 4);
		}
		int port = Benchmark.freePort();
		long spawned = System.nanoTime();
		Process server = start(runtime, List.of(), port, false);
		try {
			URI graphql = URI.create("http://127.0.0.1:" + port + "/graphql");
			Window cold = load(graphql, pages, spawned, spawned + COLD.toNanos(), server.pid(), true, CLIENTS);
			load(graphql, pages, System.nanoTime(), System.nanoTime() + WARM_UP.toNanos(), server.pid(), false, CLIENTS);
			URI prometheus = URI.create("http://127.0.0.1:" + port + "/actuator/prometheus");
			double allocatedBefore = runtime.node() ? 0 : allocated(prometheus);
			long warmStart = System.nanoTime();
			Window warm = load(graphql, pages, warmStart, warmStart + WARM.toNanos(), server.pid(), false, CLIENTS);
			double allocatedPerPage = runtime.node() ? Double.NaN : (allocated(prometheus) - allocatedBefore) / warm.pages();
			double first = cold.firstSeconds(spawned);
			boolean relay = !runtime.node();
			String versus = (node == null || !relay) ? "-"
					: "%.2fx its pages/s; p99 %.1f vs %.1f ms".formatted(cold.perSecond() / node.cold().perSecond(),
							cold.percentile(99), node.cold().percentile(99));
			this.rows.row("cold, first 30 s after spawn, 8 clients, 20-edge page + user lookup: " + runtime.name(),
					relay ? cold.describe() : cold.describe().replace(" (JIT compilers 0%, GC 0%)", ""), "first answer %.2f s after spawn".formatted(first), versus,
					relay ? ">= 1.0x the Node server's pages/s, p99 <= its p99; first answer <= 2 s" : "-",
					(relay && node != null) ? cold.perSecond() >= node.cold().perSecond()
							&& cold.percentile(99) <= node.cold().percentile(99) && first <= 2 : null);
			String warmVersus = (node == null || !relay) ? "-"
					: "%.2fx its pages/s; p99 %.1f vs %.1f ms".formatted(warm.perSecond() / node.warm().perSecond(),
							warm.percentile(99), node.warm().percentile(99));
			this.rows.row("warm, 20 s after %d s of load: ".formatted(COLD.plus(WARM_UP).toSeconds()) + runtime.name(),
					relay ? warm.describe() + ", %.0f KB allocated/page".formatted(allocatedPerPage / 1024)
							: warm.describe().replace(" (JIT compilers 0%, GC 0%)", ""),
					"cold/warm %.0f%%".formatted(100 * cold.perSecond() / warm.perSecond()), warmVersus,
					relay ? ">= 3x the Node server's pages/s; CPU <= 0.45 ms/page" : "-",
					(relay && node != null) ? warm.perSecond() >= 3 * node.warm().perSecond() && warm.cpuPerPage() <= 0.45 : null);
			Map<String, Object> figures = new LinkedHashMap<>();
			figures.put("firstAnswerSeconds", first);
			if (relay) {
				figures.put("embeddedFirstAnswerSeconds", embedded);
				figures.put("warmAllocatedBytesPerPage", allocatedPerPage);
			}
			figures.put("coldPagesPerSecond", cold.perSecond());
			figures.put("coldP99Ms", cold.percentile(99));
			figures.put("coldCpuMsPerPage", cold.cpuPerPage());
			figures.put("warmPagesPerSecond", warm.perSecond());
			figures.put("warmP99Ms", warm.percentile(99));
			figures.put("warmCpuMsPerPage", warm.cpuPerPage());
			this.rows.figure("startup_" + runtime.key().replaceAll("[^A-Za-z0-9]+", "_"), figures);
			return new Phases(cold, warm, spawned);
		}
		finally {
			stop(server);
		}
	}

	/** The server's {@code jvm_gc_memory_allocated_bytes_total} (bytes allocated in the young generation so far). */
	private double allocated(URI prometheus) {
		for (String line : get(prometheus).split("\n")) {
			if (line.startsWith("jvm_gc_memory_allocated_bytes_total")) {
				return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		return Double.NaN;
	}

	/**
	 * The Node server's page bodies: the same categories and positions as dynamo-relay's, with the Node
	 * server's own cursors (signed by it), from a walk of a process started for that alone.
	 */
	private List<byte[]> nodeBodies(Runtime node) throws Exception {
		System.out.println("Walking the Node server's cursors ...");
		int port = Benchmark.freePort();
		Process server = start(node, List.of(), port, false);
		try {
			URI graphql = URI.create("http://127.0.0.1:" + port + "/graphql");
			Map<String, List<String>> cursors = new LinkedHashMap<>();
			long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			for (Map.Entry<String, List<String>> category : this.cursorsByCategory.entrySet()) {
				List<String> walked = new ArrayList<>();
				walked.add(null);
				String after = null;
				while (walked.size() < category.getValue().size()) {
					Map<String, Object> variables = new LinkedHashMap<>();
					variables.put("c", category.getKey());
					variables.put("a", after);
					JsonNode answer;
					try {
						answer = JSON.readTree(post(graphql, JSON.writeValueAsBytes(Map.of("query", NODE_WALK, "variables", variables))));
					}
					catch (RuntimeException ex) {
						if (System.nanoTime() > deadline || after != null) {
							throw ex;
						}
						Thread.sleep(50); // not listening yet
						continue;
					}
					after = answer.path("data").path("purchasesByCategory").path("pageInfo").path("endCursor").asString();
					walked.add(after);
				}
				cursors.put(category.getKey(), walked);
			}
			return bodies(cursors);
		}
		finally {
			stop(server);
		}
	}

	/**
	 * The ceiling: the same pages' raw DynamoDB calls, 8 clients of the benchmark's SDK client over 20 s: each
	 * a Query of a random category at a random position (its sort key bounded by the position's, as
	 * dynamo-relay sends it) with Limit 21, then one BatchGetItem of its 20 items' users.
	 */
	private Window ceiling() throws Exception {
		System.out.println("Ceiling: raw Query + BatchGetItem, 20 s ...");
		List<QueryRequest> queries = new ArrayList<>();
		for (String category : this.cursorsByCategory.keySet()) {
			Map<String, AttributeValue> position = null;
			for (int page = 0; page < this.cursorsByCategory.get(category).size(); page++) {
				QueryRequest.Builder query = QueryRequest.builder().tableName("UserPurchases").indexName("ByCategory").limit(21);
				if (position == null) {
					query.keyConditionExpression("category = :c").expressionAttributeValues(Map.of(":c", AttributeValue.fromS(category)));
				}
				else {
					query.keyConditionExpression("category = :c AND purchasedAt >= :from")
						.expressionAttributeValues(Map.of(":c", AttributeValue.fromS(category), ":from", position.get("purchasedAt")))
						.exclusiveStartKey(position);
				}
				queries.add(query.build());
				QueryResponse walked = this.client.query(QueryRequest.builder().tableName("UserPurchases").indexName("ByCategory")
					.keyConditionExpression("category = :c").expressionAttributeValues(Map.of(":c", AttributeValue.fromS(category)))
					.limit(50).exclusiveStartKey(position).build()).join();
				position = walked.lastEvaluatedKey();
			}
		}
		long from = System.nanoTime();
		long to = from + WARM.toNanos();
		ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
		try {
			List<Future<double[]>> results = new ArrayList<>();
			for (int c = 0; c < CLIENTS; c++) {
				results.add(pool.submit(() -> {
					double[] latencies = new double[1024];
					int count = 0;
					ThreadLocalRandom random = ThreadLocalRandom.current();
					while (System.nanoTime() < to) {
						long now = System.nanoTime();
						QueryResponse page = this.client.query(queries.get(random.nextInt(queries.size()))).join();
						List<Map<String, AttributeValue>> keys = page.items().stream().limit(20)
							.map((item) -> Map.of("userId", item.get("userId"))).distinct().toList();
						if (!keys.isEmpty()) {
							BatchGetItemResponse users = this.client.batchGetItem(BatchGetItemRequest.builder()
								.requestItems(Map.of("Users", KeysAndAttributes.builder().keys(keys).build())).build()).join();
							if (users.hasUnprocessedKeys() && !users.unprocessedKeys().isEmpty()) {
								throw new IllegalStateException("unprocessed keys");
							}
						}
						if (count == latencies.length) {
							latencies = Arrays.copyOf(latencies, count * 2);
						}
						latencies[count++] = (System.nanoTime() - now) / 1e6;
					}
					return Arrays.copyOf(latencies, count);
				}));
			}
			List<double[]> all = new ArrayList<>();
			for (Future<double[]> result : results) {
				all.add(result.get());
			}
			double[] latencies = all.stream().flatMapToDouble(Arrays::stream).toArray();
			return new Window(latencies.length, latencies, to - from, 0, 0, 0, 0);
		}
		finally {
			pool.shutdownNow();
		}
	}

	/** Seconds from spawning {@code java -jar} with no endpoint to its first answer of README's first query. */
	private double embeddedFirstAnswer(Runtime runtime) throws Exception {
		int port = Benchmark.freePort();
		long spawned = System.nanoTime();
		Process server = start(runtime, List.of(), port, true);
		try {
			URI graphql = URI.create("http://127.0.0.1:" + port + "/graphql");
			byte[] body = JSON.writeValueAsBytes(Map.of("query", FIRST_QUERY));
			long deadline = spawned + Duration.ofSeconds(120).toNanos();
			while (System.nanoTime() < deadline) {
				if (!server.isAlive()) {
					throw new IllegalStateException("the server exited; see " + this.out.resolve("startup-server.log"));
				}
				try {
					JsonNode answer = JSON.readTree(post(graphql, body));
					if (answer.path("data").path("user").path("name").isString()) {
						return (System.nanoTime() - spawned) / 1e9;
					}
				}
				catch (RuntimeException ex) {
					// not up yet
				}
				Thread.sleep(10);
			}
			throw new IllegalStateException("no first answer within 120 s");
		}
		finally {
			stop(server);
		}
	}

	/**
	 * Trains a class archive: runs the server against the benchmark's engine under 40 s of load, then
	 * stops it (SIGTERM), at which the JVM writes {@code archive}.
	 */
	private void train(String name, Runtime runtime, List<String> flags, Path archive, List<String> arguments)
			throws Exception {
		System.out.printf("Training %s ...%n", name);
		Files.createDirectories(archive.getParent());
		Files.deleteIfExists(archive);
		int port = Benchmark.freePort();
		long spawned = System.nanoTime();
		Process server = start(runtime, flags, port, false, arguments.toArray(String[]::new));
		try {
			URI graphql = URI.create("http://127.0.0.1:" + port + "/graphql");
			load(graphql, this.bodies, spawned, spawned + Duration.ofSeconds(40).toNanos(), server.pid(), true, CLIENTS);
		}
		finally {
			server.destroy();
			if (!server.waitFor(180, TimeUnit.SECONDS)) {
				server.destroyForcibly();
			}
		}
		if (!Files.isRegularFile(archive)) {
			throw new IllegalStateException("training wrote no " + archive + "; see " + this.out.resolve("startup-server.log"));
		}
		System.out.printf("  %s: %.0f MB%n", archive.getFileName(), Files.size(archive) / 1e6);
	}

	/**
	 * The metrics' cost, two ways. Across processes: server CPU per page of two servers with the meters and two
	 * without, loaded in turns, the metered ones scraped every 10 s as Prometheus would; the two of each kind
	 * show the noise between processes alike, which is of the size of the target (a few per cent). Inside one
	 * process: the share of a metered server's CPU samples (async-profiler) in the meters' code, ours and
	 * Micrometer's, scrapes included; the JIT, the heap and the machine are then the same for both sides.
	 */
	private void metricsCost(Runtime runtime) throws Exception {
		System.out.printf("Metrics on vs off (%s) ...%n", runtime.name());
		List<Process> processes = new ArrayList<>();
		List<URI> servers = new ArrayList<>();
		try {
			for (int i = 0; i < 4; i++) {
				int port = Benchmark.freePort();
				boolean metered = i % 2 == 0;
				processes.add(metered ? start(runtime, List.of(), port, false)
						: start(runtime, List.of(), port, false, "--dynamo-relay.metrics.enabled=false"));
				servers.add(URI.create("http://127.0.0.1:" + port + "/graphql"));
			}
			long[] pids = processes.stream().mapToLong(Process::pid).toArray();
			URI[] scrapes = servers.stream().map((server) -> server.resolve("/actuator/prometheus")).toArray(URI[]::new);
			Window[] sums = inTurns(servers, pids, this.bodies, Duration.ofSeconds(120), 4, (i) -> {
				if (i % 2 == 0) {
					get(scrapes[i]);
				}
			});
			String scraped = get(scrapes[0]);
			if (!scraped.contains("dynamorelay_connection_pages_total{connection=\"Query.purchasesByCategory\"")) {
				throw new IllegalStateException("the metered server's scrape has no page counts");
			}
			Window on = sums[0].plus(sums[2]);
			Window off = sums[1].plus(sums[3]);
			double ratio = on.cpuPerPage() / off.cpuPerPage();
			double noise = alike(sums);
			this.rows.row("server CPU per page, metrics on (scraped every 10 s) vs off, two servers of each, 8 clients, "
					+ "4 x 10 s each in turns", "%.3f ms (%.3f, %.3f)".formatted(on.cpuPerPage(), sums[0].cpuPerPage(), sums[2].cpuPerPage()),
					"%.3f ms (%.3f, %.3f)".formatted(off.cpuPerPage(), sums[1].cpuPerPage(), sums[3].cpuPerPage()),
					"%.3fx (%.0f vs %.0f pages/s); two servers alike differ by up to %.3fx".formatted(ratio, on.perSecond(),
							off.perSecond(), noise), "-", null);
			this.rows.figure("metricsCpuRatio", ratio);
			this.rows.figure("metricsProcessNoise", noise);
			String measure = "... the meters' share of a metered server's CPU (async-profiler, 20 s of the same load, "
					+ "scraped every 10 s): samples in dev.dynamorelay.metrics and Micrometer's meters";
			if (!Benchmark.profilerAvailable()) {
				this.rows.row(measure, "not measured: no async-profiler (Linux x86-64 only)", "-", "-", "<= 3%", null);
			}
			else {
				try {
					double share = meterShare(pids[0], servers.get(0), scrapes[0]);
					this.rows.row(measure, "%.2f%%".formatted(share), "-", "of the server's CPU", "<= 3%", share <= 3);
					this.rows.figure("metricsProfileShare", share);
				}
				catch (Exception ex) {
					this.rows.row(measure, "not measured: " + ex.getMessage(), "-", "-", "<= 3%", null);
				}
			}
			// What the meters record per page, timed alone in this JVM once the servers are idle.
			double recording = dev.dynamorelay.metrics.RecordingCost.nanosPerPage();
			this.rows.row("... what the meters record per page (1 request timer, 2 DynamoDB call timers, 5 counters), "
					+ "timed in one JVM with a scrape every 5,000 pages", "%.0f ns".formatted(recording), "-",
					"%.3f%% of the server's CPU per page".formatted(100 * recording / 1e6 / off.cpuPerPage()), "<= 3%",
					recording / 1e6 <= 0.03 * off.cpuPerPage());
		}
		finally {
			for (Process process : processes) {
				stop(process);
			}
		}
	}

	/**
	 * Samples a metered server's CPU for 20 s under the section's load (scraped every 10 s) and returns the per
	 * cent of samples with a meter's frame on the stack: dynamo-relay's meters and Micrometer's meters and
	 * registry. Micrometer's context propagation is not counted: it runs the same with the meters off.
	 */
	private double meterShare(long pid, URI server, URI scrape) throws Exception {
		Path collapsed = Path.of("target", "bench", "metrics-profile.collapsed").toAbsolutePath();
		Files.deleteIfExists(collapsed);
		Benchmark.profiler(pid, "start,event=itimer,interval=1ms");
		for (int i = 0; i < 2; i++) {
			get(scrape);
			long start = System.nanoTime();
			load(server, this.bodies, start, start + Duration.ofSeconds(10).toNanos(), pid, false, CLIENTS);
		}
		Benchmark.profiler(pid, "stop,file=" + collapsed + ",collapsed");
		long all = 0;
		long meters = 0;
		for (String line : Files.readAllLines(collapsed)) {
			int space = line.lastIndexOf(' ');
			long samples = Long.parseLong(line.substring(space + 1));
			String stack = line.substring(0, space);
			all += samples;
			if (stack.contains("dev/dynamorelay/metrics/") || stack.contains("io/micrometer/core/")
					|| stack.contains("io/micrometer/prometheusmetrics/") || stack.contains("io/prometheus/")) {
				meters += samples;
			}
		}
		if (all == 0) {
			throw new IllegalStateException("no samples in " + collapsed);
		}
		return 100.0 * meters / all;
	}

	/**
	 * For four servers of two kinds, A B A B, loaded in turns: how far apart two servers of one kind are, the
	 * larger CPU per page over the smaller, the larger of the two kinds.
	 */
	private static double alike(Window[] sums) {
		double a = Math.max(sums[0].cpuPerPage(), sums[2].cpuPerPage()) / Math.min(sums[0].cpuPerPage(), sums[2].cpuPerPage());
		double b = Math.max(sums[1].cpuPerPage(), sums[3].cpuPerPage()) / Math.min(sums[1].cpuPerPage(), sums[3].cpuPerPage());
		return Math.max(a, b);
	}

	/**
	 * Loads each server alone for {@code warmUp}, then all of them in turns: {@code rounds} rounds of 10 s each,
	 * each round in a rotated order, {@code before} run ahead of a server's window. Returns each server's windows
	 * summed.
	 */
	private Window[] inTurns(List<URI> servers, long[] pids, List<byte[]> bodies, Duration warmUp, int rounds,
			java.util.function.IntConsumer before) throws Exception {
		for (int i = 0; i < servers.size(); i++) {
			load(servers.get(i), bodies, System.nanoTime(), System.nanoTime() + warmUp.toNanos(), pids[i], true, CLIENTS);
		}
		Window[] sums = new Window[servers.size()];
		Arrays.fill(sums, Window.NONE);
		for (int round = 0; round < rounds; round++) {
			for (int k = 0; k < servers.size(); k++) {
				int i = (round + k) % servers.size();
				before.accept(i);
				long start = System.nanoTime();
				sums[i] = sums[i].plus(load(servers.get(i), bodies, start, start + Duration.ofSeconds(10).toNanos(), pids[i],
						false, CLIENTS));
			}
		}
		return sums;
	}

	/** Pages served between {@code from} and {@code to} (nanoTime), their latencies, and the server's CPU. */
	record Window(long pages, double[] latencies, long nanos, long cpuNanos, long firstAnswerNanos, long jitNanos,
			long gcNanos) {

		static final Window NONE = new Window(0, new double[0], 0, 0, 0, 0, 0);

		double perSecond() {
			return this.pages / (this.nanos / 1e9);
		}

		double cpuPerPage() {
			return this.cpuNanos / 1e6 / this.pages;
		}

		double percentile(double percentile) {
			double[] sorted = this.latencies.clone();
			Arrays.sort(sorted);
			int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
			return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
		}

		double firstSeconds(long spawned) {
			return (this.firstAnswerNanos - spawned) / 1e9;
		}

		String describe() {
			return "%.0f pages/s, p50 %.1f ms, p99 %.1f ms, CPU %.2f ms/page (JIT compilers %.0f%%, GC %.0f%%)".formatted(
					perSecond(), percentile(50), percentile(99), cpuPerPage(), 100.0 * this.jitNanos / this.cpuNanos,
					100.0 * this.gcNanos / this.cpuNanos);
		}

		Window plus(Window other) {
			double[] all = Arrays.copyOf(this.latencies, this.latencies.length + other.latencies.length);
			System.arraycopy(other.latencies, 0, all, this.latencies.length, other.latencies.length);
			return new Window(this.pages + other.pages, all, this.nanos + other.nanos, this.cpuNanos + other.cpuNanos, 0,
					this.jitNanos + other.jitNanos, this.gcNanos + other.gcNanos);
		}

	}

	/**
	 * {@code clients} clients of random pages until {@code to}; with {@code untilUp}, a failed request (the
	 * server not listening yet) is retried after 10 ms rather than failing the run.
	 */
	private Window load(URI graphql, List<byte[]> pages, long from, long to, long pid, boolean untilUp, int clients)
			throws Exception {
		long cpuAtStart = cpu(pid);
		long[] kindsAtStart = cpuByKind(pid);
		ExecutorService pool = Executors.newFixedThreadPool(clients);
		List<Future<double[]>> results = new ArrayList<>();
		long[] first = { Long.MAX_VALUE };
		try {
			for (int c = 0; c < clients; c++) {
				results.add(pool.submit(() -> {
					double[] latencies = new double[1024];
					int count = 0;
					ThreadLocalRandom random = ThreadLocalRandom.current();
					while (true) {
						long now = System.nanoTime();
						if (now >= to) {
							return Arrays.copyOf(latencies, count);
						}
						byte[] body = pages.get(random.nextInt(pages.size()));
						try {
							byte[] answer = post(graphql, body);
							if (!Benchmark.startsWith(answer, PAGE_START) || Benchmark.indexOf(answer, ERRORS) >= 0) {
								throw new IllegalStateException("not a page: " + new String(answer, StandardCharsets.UTF_8));
							}
						}
						catch (RuntimeException ex) {
							if (!untilUp || count > 0) {
								throw ex;
							}
							Thread.sleep(10);
							continue;
						}
						long done = System.nanoTime();
						if (done <= to) {
							synchronized (first) {
								first[0] = Math.min(first[0], done);
							}
							if (count == latencies.length) {
								latencies = Arrays.copyOf(latencies, count * 2);
							}
							latencies[count++] = (done - now) / 1e6;
						}
					}
				}));
			}
			List<double[]> all = new ArrayList<>();
			for (Future<double[]> result : results) {
				all.add(result.get());
			}
			long cpuUsed = cpu(pid) - cpuAtStart;
			long[] kinds = cpuByKind(pid);
			double[] latencies = all.stream().flatMapToDouble(Arrays::stream).toArray();
			if (latencies.length == 0) {
				throw new IllegalStateException("no page in the window");
			}
			return new Window(latencies.length, latencies, to - from, cpuUsed, first[0], kinds[0] - kindsAtStart[0],
					kinds[1] - kindsAtStart[1]);
		}
		finally {
			pool.shutdownNow();
		}
	}

	private Process start(Runtime runtime, List<String> flags, int port, boolean embedded, String... more)
			throws IOException {
		ProcessBuilder process;
		if (runtime.node()) {
			process = new ProcessBuilder(runtime.command(flags, List.of()));
			process.environment().putAll(Map.of("PORT", Integer.toString(port), "DYNAMODB_ENDPOINT", this.dynamoDb.toString(),
					"CURSOR_SECRET", "benchmark", "NODE_NO_WARNINGS", "1"));
		}
		else {
			List<String> arguments = new ArrayList<>(List.of("--server.port=" + port, "--logging.level.root=WARN"));
			if (!embedded) {
				arguments.addAll(List.of("--dynamo-relay.dynamodb.endpoint=" + this.dynamoDb,
						"--dynamo-relay.cursor.secret=benchmark", "--dynamo-relay.tables.create=true",
						"--dynamo-relay.sample-data.enabled=false"));
			}
			arguments.addAll(List.of(more));
			process = new ProcessBuilder(runtime.command(flags, arguments));
		}
		return process.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(this.out.resolve("startup-server.log").toFile()))
			.start();
	}

	/**
	 * Makes the AOT cache as a {@code java -jar} user does, with the jar's own command ({@code java -jar
	 * dynamo-relay.jar aot-cache}, docs/deploying.md): extracted into {@code destination}, trained there on the
	 * embedded default.
	 * @return the java command it prints, split: java, its flags ({@code -XX:AOTCache} first), {@code -jar} and the jar
	 */
	private List<String> aotCache(Path java25, Path destination) throws Exception {
		System.out.println("Making the AOT cache with `java -jar dynamo-relay.jar aot-cache` ...");
		long started = System.nanoTime();
		Process command = new ProcessBuilder(java25.toString(), "-jar", this.jar.toString(), "aot-cache", "--destination",
				destination.toString())
			.redirectError(ProcessBuilder.Redirect.appendTo(this.out.resolve("startup-server.log").toFile()))
			.start();
		String printed = new String(command.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		if (command.waitFor() != 0) {
			throw new IllegalStateException("aot-cache failed; see " + this.out.resolve("startup-server.log"));
		}
		List<String> run = List.of(printed.split(" "));
		System.out.printf("  %s (%.0f s)%n", printed, (System.nanoTime() - started) / 1e9);
		this.rows.row("AOT cache made by `java -jar dynamo-relay.jar aot-cache` (extract, 40 s of training on the embedded default)",
				"%.0f s".formatted((System.nanoTime() - started) / 1e9), "-",
				"%.0f MB".formatted(Files.size(Path.of(run.get(1).substring("-XX:AOTCache=".length()))) / 1e6), "-", null);
		return run;
	}

	/** bench/node/server.mjs, its packages installed by bench/run ({@code npm ci}). */
	private static Path nodeServer() {
		Path server = Path.of("bench", "node", "server.mjs").toAbsolutePath();
		if (!Files.isDirectory(server.resolveSibling("node_modules"))) {
			throw new IllegalStateException("bench/node has no node_modules: bench/run installs them (npm ci)");
		}
		return server;
	}

	private static String nodeVersion() throws Exception {
		Process process = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		process.waitFor();
		return output.startsWith("v") ? output.substring(1) : output;
	}

	private static void stop(Process server) throws InterruptedException {
		server.destroy();
		if (!server.waitFor(30, TimeUnit.SECONDS)) {
			server.destroyForcibly();
			server.waitFor(10, TimeUnit.SECONDS);
		}
	}

	/** The fat jar extracted by Spring Boot's own tool: an application jar with its libraries beside it. */
	private Path extract(Path java) throws Exception {
		Path destination = this.out.resolve("startup").resolve("extracted");
		if (Files.exists(destination)) {
			try (var paths = Files.walk(destination)) {
				paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
			}
		}
		Process extract = new ProcessBuilder(java.toString(), "-Djarmode=tools", "-jar", this.jar.toString(), "extract",
				"--destination", destination.toString())
			.redirectErrorStream(true)
			.start();
		String output = new String(extract.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (extract.waitFor() != 0) {
			throw new IllegalStateException("extract failed: " + output);
		}
		// No library names a directory in its manifest's Class-Path, which a class archive refuses (JarContentsIT).
		return destination;
	}

	/** {@code BENCH_JAVA25}, else Temurin 25 where Debian-style machines have it, else null. */
	private static Path java25() {
		String given = System.getenv("BENCH_JAVA25");
		Path home = (given != null && !given.isBlank()) ? Path.of(given) : Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");
		Path java = home.resolve("bin").resolve("java");
		return Files.isExecutable(java) ? java : null;
	}

	private static String version(Path java) throws Exception {
		Process process = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		process.waitFor();
		Matcher matcher = Pattern.compile("version \"([0-9.]+)").matcher(output);
		return matcher.find() ? matcher.group(1) : "?";
	}

	private static long cpu(long pid) {
		return ProcessHandle.of(pid).flatMap((process) -> process.info().totalCpuDuration()).map(Duration::toNanos)
			.orElse(0L);
	}

	/**
	 * CPU nanoseconds of the process's JIT compiler threads and of its GC and VM threads, from
	 * {@code /proc/PID/task} (Linux; zeros elsewhere). Threads that ended are not counted: compiler threads
	 * the JVM stops when idle lose their time, so the JIT's share is a lower bound.
	 */
	private static long[] cpuByKind(long pid) {
		long[] kinds = new long[2];
		Path tasks = Path.of("/proc", Long.toString(pid), "task");
		if (!Files.isDirectory(tasks)) {
			return kinds;
		}
		long tick = 10_000_000L; // USER_HZ is 100 on Linux
		try (var threads = Files.list(tasks)) {
			for (Path thread : threads.toList()) {
				try {
					String name = Files.readString(thread.resolve("comm")).trim();
					String stat = Files.readString(thread.resolve("stat"));
					String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
					long nanos = (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * tick;
					if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
						kinds[0] += nanos;
					}
					else if (name.startsWith("GC ") || name.startsWith("G1 ") || name.equals("VM Thread")) {
						kinds[1] += nanos;
					}
				}
				catch (IOException | RuntimeException ex) {
					// the thread ended meanwhile
				}
			}
		}
		catch (IOException ex) {
			return kinds;
		}
		return kinds;
	}

	private byte[] post(URI uri, byte[] body) {
		HttpPost request = new HttpPost(uri);
		request.setEntity(new ByteArrayEntity(body, ContentType.APPLICATION_JSON));
		try {
			return this.http.execute(request, (response) -> {
				byte[] bytes = EntityUtils.toByteArray(response.getEntity());
				if (response.getCode() != 200) {
					throw new IllegalStateException("HTTP " + response.getCode());
				}
				return bytes;
			});
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private String get(URI uri) {
		try {
			return this.http.execute(new HttpGet(uri), (response) -> EntityUtils.toString(response.getEntity()));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
