package dev.dynamorelay.bench.pages;

import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import tools.jackson.databind.JsonNode;

import dev.dynamorelay.bench.fairness.Fairness;
import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.BenchData;
import dev.dynamorelay.bench.support.Processes;

import static dev.dynamorelay.bench.support.GraphQl.vars;
import static dev.dynamorelay.bench.support.Stats.mb;

/**
 * The main section ({@code BENCH_ONLY=main}, and the start of a full run): the server's heap over a walk of
 * 1,000,000 movies, then, after a warm-up under load, a page's latency against raw calls ({@link Latency}),
 * throughput and CPU per page ({@link Throughput}), fairness ({@link Fairness}) and the DynamoDB requests and items
 * a page reads.
 */
public final class Pages {

	private static final String MOVIES = """
			query($a: String) { movies(year: 1, first: 100, after: $a) {
			  edges { cursor node { title rating } } pageInfo { hasNextPage endCursor } } }""";

	private static final String BIG = """
			{ user(userId: "bench-big") { purchases(first: 30) { edges { cursor node { id product } } } } }""";

	private static final String FILTERED = """
			{ purchasesByCategory(category: "cat-1", first: 50, minAmount: 400) { edges { cursor node { id amount } } } }""";

	private final Bench bench;

	private final long serverPid;

	public Pages(Bench bench, long serverPid) {
		this.bench = bench;
		this.serverPid = serverPid;
	}

	public void run() throws Exception {
		String category = BenchData.category(3);
		QueryRequest raw = Bench.rawPage(category);
		Map<String, Object> firstPage = Map.of("c", category);
		// The walk comes first: its 10,000 requests are also the first part of the warm-up.
		Walked walked = walk();

		// The JIT needs tens of thousands of requests on 2 busy cores before a page costs what it costs in
		// a long-running server; measured cold, a page costs about three times the CPU. Warm up under load until
		// throughput stops rising.
		System.out.println("Warming up under load ...");
		List<String> cursors = this.bench.walkCursors(BenchData.category(5), 100);
		this.bench.warmUp(cursors, BenchData.category(5), raw);
		for (int i = 0; i < 500; i++) {
			this.bench.post(Bench.PAGE, firstPage);
			this.bench.dynamoDb().query(raw).join();
		}

		Latency latency = new Latency(this.bench);
		latency.page(firstPage, raw);
		latency.rest(category);
		latency.depth(category, firstPage, raw);
		latency.nested(firstPage, raw);
		new Throughput(this.bench, this.serverPid).run(cursors, BenchData.category(5), raw);
		new Fairness(this.bench).run(cursors, BenchData.category(5));
		perPage(firstPage);

		this.bench.row(walked.row[0], walked.row[1], walked.row[2], walked.row[3], "<= 1.2x", walked.ratio <= 1.2);
		this.bench.figures.put("walkedItems", walked.items);
	}

	/** The heap's row after the walk (measure, after the walk, after page 1, ratio), its ratio and the items walked. */
	private record Walked(String[] row, double ratio, int items) {
	}

	/** Walks the 1,000,000 movies to the end, reading the server's heap after page 1 and after the walk. */
	private Walked walk() throws Exception {
		System.out.println("Walking 1,000,000 movies to the end ...");
		JsonNode movies = this.bench.post(MOVIES, vars("a", null)).get("data").get("movies");
		long heapAfterFirst = Processes.heapUsedAfterGc(this.serverPid);
		long walkStart = System.nanoTime();
		int pages = 1;
		int items = movies.get("edges").size();
		long lap = System.nanoTime();
		while (movies.get("pageInfo").get("hasNextPage").asBoolean()) {
			movies = this.bench.post(MOVIES, vars("a", movies.get("pageInfo").get("endCursor").asString()))
				.get("data")
				.get("movies");
			items += movies.get("edges").size();
			pages++;
			if (pages % 1000 == 0) {
				System.out.printf("  %,d items, last 1,000 pages in %.1f s%n", items, (System.nanoTime() - lap) / 1e9);
				lap = System.nanoTime();
			}
		}
		double walkSeconds = (System.nanoTime() - walkStart) / 1e9;
		long heapAfterWalk = Processes.heapUsedAfterGc(this.serverPid);
		double heapRatio = (double) heapAfterWalk / heapAfterFirst;
		String[] heapRow = { "server heap after a %,d-item walk (%,d pages, %.0f s) vs after page 1".formatted(items,
				pages, walkSeconds), mb(heapAfterWalk), mb(heapAfterFirst), "%.2fx".formatted(heapRatio) };
		return new Walked(heapRow, heapRatio, items);
	}

	/** The DynamoDB requests and items read of an unfiltered page, a filtered one, and one of 60 KB items. */
	private void perPage(Map<String, Object> firstPage) {
		JsonNode pageStats = this.bench.post(Bench.PAGE, firstPage).get("extensions").get("dynamodb");
		long requests = pageStats.get("requests").asLong();
		long scanned = pageStats.get("scannedCount").asLong();
		this.bench.row("DynamoDB requests / items read per unfiltered 50-edge page", requests + " / " + scanned, "-",
				"-", "1 / <= 51", requests == 1 && scanned <= 51);
		JsonNode filteredStats = this.bench.post(FILTERED, Map.of()).get("extensions").get("dynamodb");
		this.bench.row("... per 50-edge page with minAmount (about 1 in 5 match)",
				filteredStats.get("requests").asLong() + " / " + filteredStats.get("scannedCount").asLong(), "-", "-",
				"within the read budget (1000)", filteredStats.get("scannedCount").asLong() <= 1000);
		JsonNode bigStats = this.bench.post(BIG, Map.of()).get("extensions").get("dynamodb");
		this.bench.row("... per 30-edge page of 60 KB items (spans 1 MB)",
				bigStats.get("requests").asLong() + " / " + bigStats.get("scannedCount").asLong(), "-", "-", "-", null);
	}

}
