package dev.dynamorelay.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.crt.AwsCrtHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.engine.NodePackages;
import dev.dynamorelay.engine.value.ItemSize;

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
final class EngineSpeed {

	static final String ITEMS = "Items";

	static final String PAGES = "Pages";

	/** Items of the {@link #ITEMS} table, the PutItem, GetItem, Scan and transaction's. */
	static final int ITEM_COUNT = 10_000;

	/** Partitions of the {@link #PAGES} table, the Query's, each of {@link #PAGE_ITEMS} items. */
	static final int PARTITIONS = 100;

	static final int PAGE_ITEMS = 100;

	/** Every item's size by DynamoDB's rules (the Developer Guide's "DynamoDB item sizes and formats"). */
	static final int ITEM_BYTES = 200;

	/** The page of a Query and of a Scan. */
	static final int PAGE = 50;

	/** A transaction's parts. */
	static final int TRANSACTION_PARTS = 10;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final int[] CLIENTS = { 1, 8 };

	private final Benchmark bench;

	private final Path out;

	/** The server's fat jar, whose {@code dynamodb} command runs the engine. */
	private final Path jar;

	/** Each side's time on each call and number of clients, split in {@link #rounds}. */
	private final Duration measured;

	private final int rounds;

	private final Duration warmUp;

	private final Map<String, Object> figures = new LinkedHashMap<>();

	EngineSpeed(Benchmark bench, Path jar, Path out) {
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

	void run() throws Exception {
		long started = System.nanoTime();
		String loadBefore = loadAverage();
		System.out.printf("The engine beside dynalite (load average %s) ...%n", loadBefore);
		Map<String, Map<String, Measured>> results = new LinkedHashMap<>();
		try (Server engine = Server.engine(this.jar, this.out); Server dynalite = Server.dynalite();
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
			compareAnswers(engineSide, dynaliteSide, sameOrder);
			List<Call> calls = calls();
			warmUp(calls, engineSide, dynaliteSide);
			for (Call call : calls) {
				for (int clients : CLIENTS) {
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
		this.figures.put("loadAverage", List.of(loadBefore, loadAfter));
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

	// The tables, their items and the calls: the same on both servers, and the Query's also inside the engine.

	static CreateTableRequest itemsTable() {
		return CreateTableRequest.builder()
			.tableName(ITEMS)
			.attributeDefinitions(AttributeDefinition.builder().attributeName("pk").attributeType("S").build())
			.keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build())
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.build();
	}

	static CreateTableRequest pagesTable() {
		return CreateTableRequest.builder()
			.tableName(PAGES)
			.attributeDefinitions(AttributeDefinition.builder().attributeName("pk").attributeType("S").build(),
					AttributeDefinition.builder().attributeName("sk").attributeType("N").build())
			.keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build(),
					KeySchemaElement.builder().attributeName("sk").keyType(KeyType.RANGE).build())
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.build();
	}

	static AttributeValue itemKey(int i) {
		return AttributeValue.fromS("item%05d".formatted(i));
	}

	/** An item of {@link #ITEMS}: its key, a number, and a string that makes it {@link #ITEM_BYTES} bytes. */
	static Map<String, AttributeValue> item(int i, char fill) {
		Map<String, AttributeValue> item = new LinkedHashMap<>();
		item.put("pk", itemKey(i));
		item.put("n", AttributeValue.fromN(Integer.toString(i)));
		return padded(item, fill);
	}

	static AttributeValue partition(int partition) {
		return AttributeValue.fromS("part%03d".formatted(partition));
	}

	/** An item of {@link #PAGES}. */
	static Map<String, AttributeValue> pageItem(int partition, int position) {
		Map<String, AttributeValue> item = new LinkedHashMap<>();
		item.put("pk", partition(partition));
		item.put("sk", AttributeValue.fromN(Integer.toString(position)));
		item.put("n", AttributeValue.fromN(Integer.toString(partition * PAGE_ITEMS + position)));
		return padded(item, 'q');
	}

	private static Map<String, AttributeValue> padded(Map<String, AttributeValue> item, char fill) {
		long size = ItemSize.of(item) + "data".length();
		item.put("data", AttributeValue.fromS(String.valueOf(fill).repeat((int) (ITEM_BYTES - size))));
		if (ItemSize.of(item) != ITEM_BYTES) {
			throw new IllegalStateException("an item of " + ItemSize.of(item) + " bytes");
		}
		return item;
	}

	/** The Query: the first 50 items of a partition of 100. */
	static QueryRequest query(int partition) {
		return QueryRequest.builder()
			.tableName(PAGES)
			.keyConditionExpression("pk = :pk")
			.expressionAttributeValues(Map.of(":pk", partition(partition)))
			.limit(PAGE)
			.build();
	}

	private static void load(DynamoDbClient client) {
		client.createTable(itemsTable());
		client.createTable(pagesTable());
		List<WriteRequest> items = new ArrayList<>();
		for (int i = 0; i < ITEM_COUNT; i++) {
			items.add(put(item(i, 'a')));
		}
		List<WriteRequest> pages = new ArrayList<>();
		for (int partition = 0; partition < PARTITIONS; partition++) {
			for (int position = 0; position < PAGE_ITEMS; position++) {
				pages.add(put(pageItem(partition, position)));
			}
		}
		write(client, ITEMS, items);
		write(client, PAGES, pages);
	}

	private static WriteRequest put(Map<String, AttributeValue> item) {
		return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
	}

	private static void write(DynamoDbClient client, String table, List<WriteRequest> requests) {
		for (int from = 0; from < requests.size(); from += 25) {
			Map<String, List<WriteRequest>> batch = Map.of(table, requests.subList(from, Math.min(requests.size(), from + 25)));
			while (!batch.isEmpty()) {
				BatchWriteItemResponse response = client.batchWriteItem(BatchWriteItemRequest.builder().requestItems(batch).build());
				batch = response.hasUnprocessedItems() ? response.unprocessedItems() : Map.of();
			}
		}
	}

	/** The {@link #ITEMS} table's keys in Scan order. */
	private static List<String> scanOrder(DynamoDbClient client) {
		List<String> keys = new ArrayList<>();
		Map<String, AttributeValue> from = null;
		do {
			ScanResponse page = client.scan(ScanRequest.builder().tableName(ITEMS).limit(1000).exclusiveStartKey(from).build());
			page.items().forEach((item) -> keys.add(item.get("pk").s()));
			from = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
		}
		while (from != null);
		if (keys.size() != ITEM_COUNT) {
			throw new IllegalStateException("a Scan found " + keys.size() + " items");
		}
		return keys;
	}

	/** The two servers answer the measured calls alike before they are measured. */
	private static void compareAnswers(Side engine, Side dynalite, boolean sameOrder) {
		for (int i = 0; i < 3; i++) {
			GetItemRequest get = GetItemRequest.builder().tableName(ITEMS).key(Map.of("pk", itemKey(i * 977))).build();
			same("GetItem", engine.client().getItem(get).item(), dynalite.client().getItem(get).item());
			QueryRequest query = query(i * 31);
			QueryResponse engineQuery = engine.client().query(query);
			QueryResponse dynaliteQuery = dynalite.client().query(query);
			same("Query", engineQuery.items(), dynaliteQuery.items());
			same("Query's LastEvaluatedKey", engineQuery.lastEvaluatedKey(), dynaliteQuery.lastEvaluatedKey());
			if (engineQuery.count() != PAGE) {
				throw new IllegalStateException("a Query page of " + engineQuery.count());
			}
			if (sameOrder) {
				ScanRequest scan = engine.scan(i * 1000);
				same("Scan", engine.client().scan(scan).items(), dynalite.client().scan(scan).items());
			}
		}
		System.out.println("  the same answers from both" + (sameOrder ? ", and the same Scan order" : "; the Scan orders DIFFER"));
	}

	private static void same(String what, Object engine, Object dynalite) {
		if (!engine.equals(dynalite)) {
			throw new IllegalStateException(what + " answered differently:\n  engine   " + engine + "\n  dynalite " + dynalite);
		}
	}

	/** The measured calls, each with its requests built beforehand so that the load generator only sends them. */
	private static List<Call> calls() {
		PutItemRequest[] puts = new PutItemRequest[2 * ITEM_COUNT];
		for (int i = 0; i < puts.length; i++) {
			// Another content than the item's (loaded with 'a'), so that most puts change the item.
			puts[i] = PutItemRequest.builder().tableName(ITEMS).item(item(i % ITEM_COUNT, (i < ITEM_COUNT) ? 'b' : 'c')).build();
		}
		GetItemRequest[] gets = new GetItemRequest[ITEM_COUNT];
		for (int i = 0; i < gets.length; i++) {
			gets[i] = GetItemRequest.builder().tableName(ITEMS).key(Map.of("pk", itemKey(i))).build();
		}
		QueryRequest[] queries = new QueryRequest[PARTITIONS];
		for (int i = 0; i < queries.length; i++) {
			queries[i] = query(i);
		}
		TransactWriteItemsRequest[] transactions = new TransactWriteItemsRequest[1000];
		for (int i = 0; i < transactions.length; i++) {
			List<TransactWriteItem> parts = new ArrayList<>();
			// Ten distinct items, spread over the table.
			for (int part = 0; part < TRANSACTION_PARTS; part++) {
				int item = (i * 7 + part * (ITEM_COUNT / TRANSACTION_PARTS)) % ITEM_COUNT;
				parts.add(TransactWriteItem.builder().put(Put.builder().tableName(ITEMS).item(item(item, 'd')).build()).build());
			}
			transactions[i] = TransactWriteItemsRequest.builder().transactItems(parts).build();
		}
		return List.of(
				new Call("PutItem", false, (side, random) -> side.client().putItem(puts[random.nextInt(puts.length)])),
				new Call("GetItem", false, (side, random) -> {
					if (!side.client().getItem(gets[random.nextInt(gets.length)]).hasItem()) {
						throw new IllegalStateException("GetItem found no item");
					}
				}),
				new Call("Query (50 items)", false, (side, random) -> {
					int count = side.client().query(queries[random.nextInt(queries.length)]).count();
					if (count != PAGE) {
						throw new IllegalStateException("a Query page of " + count);
					}
				}),
				new Call("Scan (50 items)", false, (side, random) -> {
					int count = side.client().scan(side.scan(random.nextInt(ITEM_COUNT - PAGE))).count();
					if (count != PAGE) {
						throw new IllegalStateException("a Scan page of " + count);
					}
				}),
				new Call("TransactWriteItems (10 puts)", true,
						(side, random) -> side.client().transactWriteItems(transactions[random.nextInt(transactions.length)])));
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
		long serverCpu = Benchmark.processCpuNanos(side.server().pid());
		long benchCpu = Benchmark.processCpuNanos(ProcessHandle.current().pid());
		long start = System.nanoTime();
		stop[0] = start + duration.toNanos();
		go.countDown();
		for (Thread thread : threads) {
			thread.join();
		}
		long elapsed = System.nanoTime() - start;
		serverCpu = Benchmark.processCpuNanos(side.server().pid()) - serverCpu;
		benchCpu = Benchmark.processCpuNanos(ProcessHandle.current().pid()) - benchCpu;
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
				Benchmark.mb(heap), "-", "%.0f bytes an item".formatted(heap / 1e6), "< 1 GB", heap < 1L << 30);
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

	/** A measured call: its name, whether dynalite lacks it, and one call of it. */
	private record Call(String name, boolean engineOnly, Action action) {
	}

	@FunctionalInterface
	private interface Action {

		void call(Side side, ThreadLocalRandom random);

	}

	/** A server with its client and, once loaded, its Scan's starting keys (the table's keys in its Scan order). */
	private static final class Side {

		private final String name;

		private final Server server;

		private final DynamoDbClient client;

		private List<String> scanFrom;

		private ScanRequest[] scans;

		Side(String name, Server server, DynamoDbClient client) {
			this.name = name;
			this.server = server;
			this.client = client;
		}

		String name() {
			return this.name;
		}

		Server server() {
			return this.server;
		}

		DynamoDbClient client() {
			return this.client;
		}

		List<String> scanFrom() {
			return this.scanFrom;
		}

		void scanFrom(List<String> order) {
			this.scanFrom = order;
			this.scans = new ScanRequest[order.size()];
			for (int i = 0; i < order.size(); i++) {
				this.scans[i] = ScanRequest.builder()
					.tableName(ITEMS)
					.limit(PAGE)
					.exclusiveStartKey(Map.of("pk", AttributeValue.fromS(order.get(i))))
					.build();
			}
		}

		/** The Scan page of 50 items after the item at {@code position} of the Scan order. */
		ScanRequest scan(int position) {
			return this.scans[position];
		}

	}

	/** A server's process: the engine's JVM or dynalite's node. */
	private record Server(Process process, URI endpoint, String version) implements AutoCloseable {

		long pid() {
			return this.process.pid();
		}

		/** The engine as a user runs it on its own: the jar's {@code dynamodb} command, in memory, the JVM's defaults. */
		static Server engine(Path jar, Path out) throws Exception {
			String flags = System.getenv("BENCH_ENGINE_JVM");
			List<String> given = (flags == null || flags.isBlank()) ? List.of() : List.of(flags.trim().split("\\s+"));
			BenchDynamoDb engine = BenchDynamoDb.start(jar, given, out.resolve("engine.log"));
			return new Server(engine.process(), engine.endpoint(), "Java " + System.getProperty("java.version")
					+ ", the JVM's defaults" + (given.isEmpty() ? "" : " and " + flags.trim()));
		}

		/** dynalite's command line in memory, its tables ACTIVE at once (as the engine's are). */
		static Server dynalite() throws IOException {
			Path folder = NodePackages.installed().resolve("node_modules").resolve("dynalite");
			int port = Benchmark.freePort();
			Process process = new ProcessBuilder("node", folder.resolve("cli.js").toString(), "--host", "127.0.0.1", "--port",
					Integer.toString(port), "--createTableMs", "0")
				.redirectErrorStream(true)
				.start();
			firstLine(process, "Dynalite listening");
			String version = JSON.readTree(folder.resolve("package.json").toFile()).get("version").asString();
			String node = new String(new ProcessBuilder("node", "--version").start().getInputStream().readAllBytes(),
					StandardCharsets.UTF_8).trim();
			System.out.printf("  dynalite %s: http://127.0.0.1:%d, pid %d, node %s%n", version, port, process.pid(), node);
			return new Server(process, URI.create("http://127.0.0.1:" + port), "dynalite " + version + ", node " + node);
		}

		/** Waits for the process's line that says it listens, then drains what it prints after. */
		private static String firstLine(Process process, String prefix) throws IOException {
			BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
			String line = output.readLine();
			while (line != null && !line.startsWith(prefix)) {
				line = output.readLine();
			}
			if (line == null) {
				process.destroyForcibly();
				throw new IllegalStateException("the process ended before saying: " + prefix);
			}
			Thread drain = new Thread(() -> output.lines().forEach((ignored) -> {
			}), "server-output");
			drain.setDaemon(true);
			drain.start();
			return line;
		}

		@Override
		public void close() throws InterruptedException {
			this.process.destroy();
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
			}
		}

	}

	/** One thread's latencies, in nanoseconds, growing as needed. */
	private static final class Latencies {

		private long[] values = new long[16_384];

		private int size;

		void add(long nanos) {
			if (this.size == this.values.length) {
				this.values = Arrays.copyOf(this.values, this.size * 2);
			}
			this.values[this.size++] = nanos;
		}

		static long[] merge(Latencies[] all) {
			int size = 0;
			for (Latencies each : all) {
				size += each.size;
			}
			long[] merged = new long[size];
			int at = 0;
			for (Latencies each : all) {
				System.arraycopy(each.values, 0, merged, at, each.size);
				at += each.size;
			}
			return merged;
		}

	}

	/**
	 * What a server did in one or more windows.
	 * @param ops the calls answered
	 * @param nanos the windows' time
	 * @param latencies every answered call's latency, nanoseconds
	 * @param serverCpu the server process's CPU time (user and system, from /proc/PID/stat)
	 * @param benchCpu this JVM's (the load generator's)
	 * @param errors the calls that failed
	 */
	private record Measured(long ops, long nanos, long[] latencies, long serverCpu, long benchCpu, long errors) {

		Measured plus(Measured other) {
			long[] both = Arrays.copyOf(this.latencies, this.latencies.length + other.latencies.length);
			System.arraycopy(other.latencies, 0, both, this.latencies.length, other.latencies.length);
			return new Measured(this.ops + other.ops, this.nanos + other.nanos, both, this.serverCpu + other.serverCpu,
					this.benchCpu + other.benchCpu, this.errors + other.errors);
		}

		double perSecond() {
			return this.ops / (this.nanos / 1e9);
		}

		double percentile(double percentile) {
			long[] sorted = this.latencies.clone();
			Arrays.sort(sorted);
			int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
			return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e6;
		}

		double serverCpuPerOp() {
			return this.serverCpu / 1e3 / this.ops;
		}

		String summary() {
			return "%,.0f ops/s, %.2f / %.2f ms%s".formatted(perSecond(), percentile(50), percentile(99),
					(this.errors == 0) ? "" : " (%d FAILED)".formatted(this.errors));
		}

		String cpuPerOp() {
			return "%.0f µs".formatted(serverCpuPerOp());
		}

		String benchCpuPerOp() {
			return "%.0f µs".formatted(this.benchCpu / 1e3 / this.ops);
		}

		Map<String, Object> figures() {
			Map<String, Object> figures = new LinkedHashMap<>();
			figures.put("ops", this.ops);
			figures.put("seconds", Math.round(this.nanos / 1e7) / 100.0);
			figures.put("opsPerSecond", Math.round(perSecond()));
			figures.put("p50Ms", Math.round(percentile(50) * 1000) / 1000.0);
			figures.put("p99Ms", Math.round(percentile(99) * 1000) / 1000.0);
			figures.put("serverCpuMicrosPerOp", Math.round(serverCpuPerOp() * 10) / 10.0);
			figures.put("serverCoresBusy", Math.round(this.serverCpu * 100.0 / this.nanos) / 100.0);
			figures.put("loadGeneratorCpuMicrosPerOp", Math.round(this.benchCpu / 1e2 / this.ops) / 10.0);
			figures.put("errors", this.errors);
			return figures;
		}

	}

}
