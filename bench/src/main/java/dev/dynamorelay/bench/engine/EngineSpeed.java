package dev.dynamorelay.bench.engine;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.crt.AwsCrtHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.bench.engine.Calls.Call;
import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.Processes;
import dev.dynamorelay.bench.support.Stats;

import static dev.dynamorelay.bench.engine.EngineData.ITEM_COUNT;
import static dev.dynamorelay.bench.engine.EngineData.PAGE_ITEMS;
import static dev.dynamorelay.bench.engine.EngineData.PARTITIONS;
import static dev.dynamorelay.bench.engine.EngineData.item;
import static dev.dynamorelay.bench.engine.EngineData.load;
import static dev.dynamorelay.bench.engine.EngineData.query;
import static dev.dynamorelay.bench.engine.EngineData.scanOrder;

/**
 * The engine's speed (issue 32, item 7): the project's own DynamoDB engine as a process of its own (its standalone
 * entry point through the jar's {@code dynamodb} command, in memory) beside dynalite (node, its CLI, in memory), each driven by one AWS SDK
 * v2 client of this JVM, side by side in one run: PutItem, GetItem, a 50-item Query page and a 50-item Scan page on
 * both, a 10-part TransactWriteItems on the engine alone (dynalite has no transactions), at 1 and 8 concurrent
 * clients; then, in a JVM of its own ({@link EngineInside}), a 50-item Query inside the engine without HTTP and the
 * heap of 1,000,000 items of 200 bytes. {@code BENCH_ONLY=engine} runs it alone; a full run runs it last.
 *
 * <p>Each side is measured in rounds of a few seconds, interleaved (engine, dynalite; then dynalite, engine), so
 * that both see the machine alike; every answer is checked (the item found, 50 items a page).
 */
public final class EngineSpeed {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final int[] CLIENTS = { 1, 8 };

	private final Bench bench;

	private final Path out;

	/** The server's fat jar, whose {@code dynamodb} command runs the engine. */
	private final Path jar;

	/** Each side's time on each call and number of clients, split in {@link #rounds}. */
	private final Duration measured;

	private final int rounds;

	private final Duration warmUp;

	private final Map<String, Object> figures = new LinkedHashMap<>();

	public EngineSpeed(Bench bench, Path jar, Path out) {
		this.jar = jar;
		this.bench = bench;
		this.out = out;
		this.measured = Duration.ofSeconds(seconds("BENCH_SECONDS", 9));
		this.rounds = 3;
		this.warmUp = Duration.ofSeconds(seconds("BENCH_WARMUP_SECONDS", 40));
	}

	private static int seconds(String variable, int otherwise) {
		String value = System.getenv(variable);
		return (value == null || value.isBlank()) ? otherwise : Integer.parseInt(value.trim());
	}

	public void run() throws Exception {
		long started = System.nanoTime();
		String loadBefore = loadAverage();
		System.out.printf("The engine beside dynalite (load average %s) ...%n", loadBefore);
		Map<String, Map<String, Measured>> results = new LinkedHashMap<>();
		try (EngineServer engine = EngineServer.engine(this.jar, this.out); EngineServer dynalite = EngineServer.dynalite();
				DynamoDbClient engineClient = client(engine.endpoint());
				DynamoDbClient dynaliteClient = client(dynalite.endpoint())) {
			this.figures.put("dynalite", dynalite.version());
			this.figures.put("engineJvm", engine.version());
			Side engineSide = new Side("engine", engine, engineClient);
			Side dynaliteSide = new Side("dynalite", dynalite, dynaliteClient);
			for (Side side : List.of(engineSide, dynaliteSide)) {
				long loading = System.nanoTime();
				load(side.client());
				side.scanFrom(scanOrder(side.client()));
				System.out.printf("  %s: %,d + %,d items loaded in %.1f s%n", side.name(), ITEM_COUNT, PARTITIONS * PAGE_ITEMS,
						(System.nanoTime() - loading) / 1e9);
			}
			boolean sameOrder = engineSide.scanFrom().equals(dynaliteSide.scanFrom());
			this.figures.put("sameScanOrder", sameOrder);
			Calls.compareAnswers(engineSide, dynaliteSide, sameOrder);
			List<Call> calls = Calls.all();
			warmUp(calls, engineSide, dynaliteSide);
			for (Call call : calls) {
				for (int clients : CLIENTS) {
					Map<String, Measured> byServer = measure(call, clients, engineSide, dynaliteSide);
					results.put(call.name() + " " + clients, byServer);
					rows(call, clients, byServer);
				}
			}
		}
		Map<String, Object> inside = inside();
		String loadAfter = loadAverage();
		double seconds = (System.nanoTime() - started) / 1e9;
		this.bench.row("engine section: machine load average (1 min) at its start / end; its length", loadBefore, loadAfter,
				"%.0f s".formatted(seconds), "-", null);
		figures(results, List.of(loadBefore, loadAfter), inside, seconds);
	}

	/** {@code call} at {@code clients} on each side, in rounds: engine first in even rounds, dynalite first in odd ones. */
	private Map<String, Measured> measure(Call call, int clients, Side engineSide, Side dynaliteSide)
			throws InterruptedException {
		Map<String, Measured> byServer = new LinkedHashMap<>();
		List<Side> sides = call.engineOnly() ? List.of(engineSide) : List.of(engineSide, dynaliteSide);
		for (int round = 0; round < this.rounds; round++) {
			Duration window = this.measured.dividedBy(this.rounds);
			for (int i = 0; i < sides.size(); i++) {
				// Engine first in even rounds, dynalite first in odd ones.
				Side side = sides.get((round % 2 == 0) ? i : sides.size() - 1 - i);
				byServer.merge(side.name(), window(side, call, clients, window), Measured::plus);
			}
		}
		return byServer;
	}

	/** The section's figures for results.json, under {@code engine}. */
	private void figures(Map<String, Map<String, Measured>> results, List<String> loadAverage, Map<String, Object> inside,
			double seconds) {
		Map<String, Object> calls = new LinkedHashMap<>();
		results.forEach((name, byServer) -> {
			Map<String, Object> each = new LinkedHashMap<>();
			byServer.forEach((server, measured) -> each.put(server, measured.figures()));
			calls.put(name, each);
		});
		this.figures.put("client", "one synchronous DynamoDbClient per server, AwsCrtHttpClient (maxConcurrency 16), "
				+ "one attempt a call (retries off)");
		this.figures.put("measuredSecondsPerSide", this.measured.toSeconds());
		this.figures.put("rounds", this.rounds);
		this.figures.put("warmUpSeconds", this.warmUp.toSeconds());
		this.figures.put("loadAverage", loadAverage);
		this.figures.put("calls", calls);
		this.figures.put("inside", inside);
		this.figures.put("seconds", Math.round(seconds));
		this.bench.figures.put("engine", this.figures);
	}

	/** One AWS SDK v2 client, the same kind and settings for both servers. */
	private static DynamoDbClient client(URI endpoint) {
		return DynamoDbClient.builder()
			.endpointOverride(endpoint)
			.region(Region.US_EAST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench")))
			.httpClientBuilder(AwsCrtHttpClient.builder().maxConcurrency(16).connectionTimeout(Duration.ofSeconds(5)))
			.overrideConfiguration((o) -> o.retryStrategy((r) -> r.maxAttempts(1)).apiCallTimeout(Duration.ofSeconds(30)))
			.build();
	}

	/** Every call at 8 clients on both servers, in two passes, before anything is measured (the JIT, V8's too). */
	private void warmUp(List<Call> calls, Side engine, Side dynalite) throws InterruptedException {
		int windows = 0;
		for (Call call : calls) {
			windows += call.engineOnly() ? 1 : 2;
		}
		Duration window = this.warmUp.dividedBy(2L * windows);
		System.out.printf("  warming up: %d s (every call at 8 clients on each, %d ms at a time, twice)%n",
				this.warmUp.toSeconds(), window.toMillis());
		for (int pass = 0; pass < 2; pass++) {
			for (Call call : calls) {
				window(engine, call, 8, window);
				if (!call.engineOnly()) {
					window(dynalite, call, 8, window);
				}
			}
		}
	}

	/** {@code clients} threads calling back to back for {@code duration}, with each call's latency. */
	private static Measured window(Side side, Call call, int clients, Duration duration) throws InterruptedException {
		Latencies[] latencies = new Latencies[clients];
		LongAdder errors = new LongAdder();
		AtomicReference<String> firstError = new AtomicReference<>();
		CountDownLatch ready = new CountDownLatch(clients);
		CountDownLatch go = new CountDownLatch(1);
		long[] stop = new long[1];
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < clients; t++) {
			Latencies own = new Latencies();
			latencies[t] = own;
			Thread thread = new Thread(() -> {
				ThreadLocalRandom random = ThreadLocalRandom.current();
				ready.countDown();
				try {
					go.await();
				}
				catch (InterruptedException ex) {
					return;
				}
				long end = stop[0];
				long now = System.nanoTime();
				while (now < end) {
					try {
						call.action().call(side, random);
						long done = System.nanoTime();
						own.add(done - now);
						now = done;
					}
					catch (RuntimeException failed) {
						errors.increment();
						firstError.compareAndSet(null, failed.toString());
						now = System.nanoTime();
					}
				}
			}, "engine-bench-" + t);
			thread.start();
			threads.add(thread);
		}
		ready.await();
		long serverCpu = Processes.processCpuNanos(side.server().pid());
		long benchCpu = Processes.processCpuNanos(ProcessHandle.current().pid());
		long start = System.nanoTime();
		stop[0] = start + duration.toNanos();
		go.countDown();
		for (Thread thread : threads) {
			thread.join();
		}
		long elapsed = System.nanoTime() - start;
		serverCpu = Processes.processCpuNanos(side.server().pid()) - serverCpu;
		benchCpu = Processes.processCpuNanos(ProcessHandle.current().pid()) - benchCpu;
		if (firstError.get() != null) {
			System.out.printf("  %s on %s: %d calls failed, the first with %s%n", call.name(), side.name(), errors.sum(), firstError.get());
		}
		long[] all = Latencies.merge(latencies);
		return new Measured(all.length, elapsed, all, serverCpu, benchCpu, errors.sum());
	}

	private void rows(Call call, int clients, Map<String, Measured> byServer) {
		Measured engine = byServer.get("engine");
		Measured dynalite = byServer.get("dynalite");
		String label = "engine vs dynalite, %s, %d client%s".formatted(call.name(), clients, (clients == 1) ? "" : "s");
		if (dynalite == null) {
			this.bench.row("engine alone, %s, %d client%s: ops/s, p50 / p99; server CPU per op".formatted(call.name(), clients,
					(clients == 1) ? "" : "s"), engine.summary() + "; " + engine.cpuPerOp(), "(dynalite has no transactions)",
					"-", "-", null);
			return;
		}
		double throughput = engine.perSecond() / dynalite.perSecond();
		double cpu = engine.serverCpuPerOp() / dynalite.serverCpuPerOp();
		if (clients < 8) {
			this.bench.row(label + ": ops/s, p50 / p99; server CPU per op", engine.summary() + "; " + engine.cpuPerOp(),
					dynalite.summary() + "; " + dynalite.cpuPerOp(), "%.2fx ops/s, p50 %.2fx, CPU %.2fx".formatted(throughput,
							engine.percentile(50) / dynalite.percentile(50), cpu), "-", null);
			return;
		}
		this.bench.row(label + ": ops/s, p50 / p99", engine.summary(), dynalite.summary(),
				"%.2fx (p50 %.2fx)".formatted(throughput, engine.percentile(50) / dynalite.percentile(50)),
				">= 2x dynalite's ops/s", throughput >= 2);
		this.bench.row(label + ": server CPU per op (load generator's)", "%s (%s)".formatted(engine.cpuPerOp(), engine.benchCpuPerOp()),
				"%s (%s)".formatted(dynalite.cpuPerOp(), dynalite.benchCpuPerOp()), "%.2fx".formatted(cpu),
				"<= 0.5x dynalite's", cpu <= 0.5);
	}

	/** The figures inside the engine, from a JVM of its own ({@link EngineInside}). */
	private Map<String, Object> inside() throws Exception {
		System.out.println("  inside the engine, in a JVM of its own: a 50-item Query, the heap of 1,000,000 items ...");
		List<String> command = new ArrayList<>(List.of(java(), "-Xmx2g", "-cp", System.getProperty("java.class.path"),
				EngineInside.class.getName()));
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		String last = null;
		try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			for (String line = lines.readLine(); line != null; line = lines.readLine()) {
				last = line;
			}
		}
		if (process.waitFor() != 0 || last == null) {
			throw new IllegalStateException("EngineInside ended with status " + process.exitValue());
		}
		JsonNode figures = JSON.readTree(last);
		double query = figures.get("queryMedianNanos").asDouble() / 1000;
		this.bench.row("50-item Query inside the engine, no HTTP (Database.query, one thread): median of %d runs of %,d (best, worst)"
			.formatted(figures.get("queryRuns").asInt(), figures.get("queryCallsPerRun").asInt()),
				"%.1f µs".formatted(query), "-", "best %.1f, worst %.1f µs".formatted(figures.get("queryBestNanos").asDouble() / 1000,
						figures.get("queryWorstNanos").asDouble() / 1000),
				"< 100 µs", query < 100);
		long heap = figures.get("heapBytes").asLong();
		this.bench.row("heap of 1,000,000 items of %d bytes in the engine, after full collections".formatted(figures.get("itemBytes").asLong()),
				Stats.mb(heap), "-", "%.0f bytes an item".formatted(heap / 1e6), "< 1 GB", heap < 1L << 30);
		return JSON.convertValue(figures, Map.class);
	}

	static String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	private static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
		}
		catch (IOException ex) {
			return "?";
		}
	}

}
