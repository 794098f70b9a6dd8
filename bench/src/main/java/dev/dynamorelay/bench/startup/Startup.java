package dev.dynamorelay.bench.startup;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.bench.support.Processes;
import dev.dynamorelay.bench.support.Report;

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
 * serve from this engine on these cores. The runtimes ({@link Runtimes#RUNTIMES}) are the levers: Java 17
 * and 25, the fat jar, the AOT cache that {@code java -jar dynamo-relay.jar aot-cache} makes, the JIT and GC
 * settings, the AWS CRT HTTP client against Netty; {@code BENCH_RUNTIMES} picks some by key.
 *
 * <p>Then the metrics' cost: four servers of the AOT cache's runtime (else the last), two of them with
 * {@code dynamo-relay.metrics.enabled=false}, each warmed alone for 120 s, then loaded in turns (4 rounds of 10 s
 * each, in rotated order; the metered ones scraped every 10 s): server CPU per page of each; and the share of a
 * metered server's CPU samples in the meters' code.
 */
public final class Startup {

	/** A 20-edge page with a user lookup per edge, batched into one BatchGetItem. */
	static final String PAGE_20_USER = """
			query Page($c: String!, $a: String) { purchasesByCategory(category: $c, first: 20, after: $a) {
			  edges { cursor node { id purchasedAt product amount user { name } } }
			  pageInfo { hasNextPage endCursor } } }""";

	private static final String FIRST_QUERY = """
			{ user(userId: "user-01") { name purchases(first: 2, minAmount: 100) { totalCount
			  edges { cursor node { purchasedAt product amount } } pageInfo { hasNextPage endCursor } } } }""";

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	private static final Duration COLD = Duration.ofSeconds(30);

	/** 120 s, or {@code BENCH_WARMUP_SECONDS} (a short run, to check the section works). */
	private static final Duration WARM_UP = Duration.ofSeconds(Long.parseLong(
			System.getenv().getOrDefault("BENCH_WARMUP_SECONDS", "120")));

	static final Duration WARM = Duration.ofSeconds(20);

	/** The Node server's walk to its own cursors: the same positions as dynamo-relay's (every 50 items). */
	private static final String NODE_WALK = """
			query($c: String!, $a: String) { purchasesByCategory(category: $c, first: 50, after: $a) {
			  pageInfo { endCursor } } }""";

	private final PageLoad pageLoad = new PageLoad();

	private final Path jar;

	private final DynamoDbAsyncClient client;

	private final Path out;

	private final Report rows;

	private final Launcher launcher;

	/** dynamo-relay's page bodies over random categories and positions (its cursors, signed with the benchmark's secret). */
	private final List<byte[]> bodies;

	private final Map<String, List<String>> cursorsByCategory;

	public Startup(Path jar, URI dynamoDb, DynamoDbAsyncClient client, Path out, Report rows,
			Map<String, List<String>> cursorsByCategory) {
		this.jar = jar;
		this.client = client;
		this.out = out;
		this.rows = rows;
		this.cursorsByCategory = cursorsByCategory;
		this.bodies = bodies(cursorsByCategory);
		this.launcher = new Launcher(jar, dynamoDb, out, rows, this.pageLoad);
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

	/** Tomcat and Spring MVC against Reactor Netty and WebFlux ({@code BENCH_ONLY=transport}): {@link Transport}. */
	public void runTransportOnly(Path transportJar) throws Exception {
		new Transport(this.rows, this.out, this.pageLoad, this.bodies).run(transportJar);
	}

	/** Only the metrics' cost, on the fat jar of the benchmark's own Java ({@code BENCH_ONLY=metrics}). */
	public void runMetricsOnly() throws Exception {
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		new MetricsCost(this.rows, this.launcher, this.pageLoad, this.bodies).run(new ServerRuntime("Java " + Launcher.version(java) + ", fat jar", java, List.of(), List.of("-jar", this.jar.toString())));
	}

	public void run() throws Exception {
		List<ServerRuntime> runtimes = new Runtimes(this.launcher, this.jar, this.out, this.rows, this.bodies).selected();
		ServerRuntime nodeRuntime = runtimes.stream().filter(ServerRuntime::node).findFirst().orElse(null);
		List<byte[]> nodeBodies = (nodeRuntime != null) ? nodeBodies(nodeRuntime) : null;
		// The engine and this JVM's client serve 40 s of the pages' raw calls first, so that the first server
		// measured (the Node server) meets an engine as warm as the ones after it do.
		new Ceiling(this.client, this.cursorsByCategory).run();
		new Ceiling(this.client, this.cursorsByCategory).run();
		Phases node = null;
		Map<ServerRuntime, Phases> measured = new LinkedHashMap<>();
		for (ServerRuntime runtime : runtimes) {
			Phases phases = measure(runtime, runtime.node() ? nodeBodies : this.bodies, node);
			measured.put(runtime, phases);
			if (runtime.node()) {
				node = phases;
			}
		}
		// Last, once the engine and this JVM's client have served for minutes (measured first in a cold JVM, on
		// DynamoDB Local, it read 781 pages/s, which the warm servers then passed).
		Window ceiling = new Ceiling(this.client, this.cursorsByCategory).run();
		this.rows.row("ceiling: the same pages' raw calls (Query Limit 21, then BatchGetItem of its users), 8 clients of the "
				+ "benchmark's SDK client, 20 s after 20 s of the same", "%.0f pages/s".formatted(ceiling.perSecond()), "-",
				"p50 %.1f ms, p99 %.1f ms".formatted(ceiling.percentile(50), ceiling.percentile(99)),
				"the most any server can serve from this engine here", null);
		measured.forEach((runtime, phases) -> this.rows.row("... warm pages/s against the ceiling: " + runtime.name(),
				"%.0f pages/s".formatted(phases.warm().perSecond()), "%.0f pages/s".formatted(ceiling.perSecond()),
				"%.0f%%".formatted(100 * phases.warm().perSecond() / ceiling.perSecond()), "-", null));
		this.rows.figure("startupCeilingPagesPerSecond", ceiling.perSecond());
		// The metrics' cost on the AOT cache's runtime (else the last of Java's); BENCH_METRICS=0 leaves it out.
		List<ServerRuntime> java = runtimes.stream().filter((runtime) -> !runtime.node()).toList();
		if (!java.isEmpty() && !"0".equals(System.getenv("BENCH_METRICS"))) {
			new MetricsCost(this.rows, this.launcher, this.pageLoad, this.bodies).run(java.stream().filter((runtime) -> runtime.key().equals("25-aot")).findFirst()
				.orElse(java.get(java.size() - 1)));
		}
	}

	/** A server's cold and warm phases. */
	record Phases(Window cold, Window warm, long spawned) {
	}

	private Phases measure(ServerRuntime runtime, List<byte[]> pages, Phases node) throws Exception {
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
		int port = Processes.freePort();
		long spawned = System.nanoTime();
		Process server = this.launcher.start(runtime, List.of(), port, false);
		try {
			URI graphql = URI.create("http://127.0.0.1:" + port + "/graphql");
			Window cold = this.pageLoad.load(graphql, pages, spawned, spawned + COLD.toNanos(), server.pid(), true, PageLoad.CLIENTS);
			this.pageLoad.load(graphql, pages, System.nanoTime(), System.nanoTime() + WARM_UP.toNanos(), server.pid(), false, PageLoad.CLIENTS);
			URI prometheus = URI.create("http://127.0.0.1:" + port + "/actuator/prometheus");
			double allocatedBefore = runtime.node() ? 0 : allocated(prometheus);
			long warmStart = System.nanoTime();
			Window warm = this.pageLoad.load(graphql, pages, warmStart, warmStart + WARM.toNanos(), server.pid(), false, PageLoad.CLIENTS);
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
			figures(runtime, cold, warm, first, embedded, allocatedPerPage);
			return new Phases(cold, warm, spawned);
		}
		finally {
			Launcher.stop(server);
		}
	}

	/** A runtime's figures for results.json: its first answers, and its cold and warm phases. */
	private void figures(ServerRuntime runtime, Window cold, Window warm, double first, double embedded,
			double allocatedPerPage) {
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("firstAnswerSeconds", first);
		if (!runtime.node()) {
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
	}

	/** The server's {@code jvm_gc_memory_allocated_bytes_total} (bytes allocated in the young generation so far). */
	private double allocated(URI prometheus) {
		for (String line : this.pageLoad.get(prometheus).split("\n")) {
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
	private List<byte[]> nodeBodies(ServerRuntime node) throws Exception {
		System.out.println("Walking the Node server's cursors ...");
		int port = Processes.freePort();
		Process server = this.launcher.start(node, List.of(), port, false);
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
						answer = JSON.readTree(this.pageLoad.post(graphql, JSON.writeValueAsBytes(Map.of("query", NODE_WALK, "variables", variables))));
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
			Launcher.stop(server);
		}
	}

	/** Seconds from spawning {@code java -jar} with no endpoint to its first answer of README's first query. */
	private double embeddedFirstAnswer(ServerRuntime runtime) throws Exception {
		int port = Processes.freePort();
		long spawned = System.nanoTime();
		Process server = this.launcher.start(runtime, List.of(), port, true);
		try {
			URI graphql = URI.create("http://127.0.0.1:" + port + "/graphql");
			byte[] body = JSON.writeValueAsBytes(Map.of("query", FIRST_QUERY));
			long deadline = spawned + Duration.ofSeconds(120).toNanos();
			while (System.nanoTime() < deadline) {
				if (!server.isAlive()) {
					throw new IllegalStateException("the server exited; see " + this.out.resolve("startup-server.log"));
				}
				try {
					JsonNode answer = JSON.readTree(this.pageLoad.post(graphql, body));
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
			Launcher.stop(server);
		}
	}

}
