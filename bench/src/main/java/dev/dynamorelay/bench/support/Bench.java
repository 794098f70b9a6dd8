package dev.dynamorelay.bench.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import tools.jackson.databind.JsonNode;

/**
 * What every section of one run shares: the table ({@link Report}), the load generator's client of the server
 * ({@link GraphQl}), the benchmark's SDK client of the engine and the engine's process; with the pages, the
 * warm-up and the normal client that more than one section measures with.
 */
public final class Bench {

	/** The main section's page: 50 edges. */
	public static final String PAGE = """
			query($c: String!, $a: String) { purchasesByCategory(category: $c, first: 50, after: $a) {
			  edges { cursor node { id userId purchasedAt product category amount } }
			  pageInfo { hasNextPage endCursor } } }""";

	/** 20 users with 10 purchases each: 21 requests. */
	public static final String NESTED = """
			{ users(first: 20) { edges { node { userId
			  purchases(first: 10) { edges { cursor node { id purchasedAt product amount } } } } } } }""";

	/** The fairness section's normal page: 20 edges, as a client's list shows them. */
	public static final String PAGE_20 = """
			query($c: String!, $a: String) { purchasesByCategory(category: $c, first: 20, after: $a) {
			  edges { cursor node { id userId purchasedAt product category amount } }
			  pageInfo { hasNextPage endCursor } } }""";

	/** The server's request budget ({@code dynamo-relay.request-budget}): a request that scanned it was cut. */
	public static final long REQUEST_BUDGET = ServerProcess.argument("dynamo-relay.request-budget", 12_000);

	private final Report report;

	private final GraphQl graphQl;

	private final DynamoDbAsyncClient dynamoDb;

	/** The engine's process, for its CPU time. */
	private final long dynamoDbPid;

	/** The named figures for {@code results.json}. */
	public final Map<String, Object> figures;

	/**
	 * The first few failures of the fairness and abuse sections' normal pages, as the server answered them
	 * (the abuse section's 16 clients add to it at once).
	 */
	public final List<String> failures = Collections.synchronizedList(new ArrayList<>());

	/** {@code graphQl} and {@code dynamoDb} null: a run without the server (the engine's section). */
	public Bench(Report report, GraphQl graphQl, DynamoDbAsyncClient dynamoDb, long dynamoDbPid) {
		this.report = report;
		this.graphQl = graphQl;
		this.dynamoDb = dynamoDb;
		this.dynamoDbPid = dynamoDbPid;
		this.figures = report.figures();
	}

	public Report report() {
		return this.report;
	}

	public GraphQl graphQl() {
		return this.graphQl;
	}

	public DynamoDbAsyncClient dynamoDb() {
		return this.dynamoDb;
	}

	public long dynamoDbPid() {
		return this.dynamoDbPid;
	}

	public void row(String measure, String relay, String baseline, String figure, String target, Boolean met) {
		this.report.row(measure, relay, baseline, figure, target, met);
	}

	public JsonNode post(String query, Map<String, Object> variables) {
		return this.graphQl.post(query, variables);
	}

	public <T> T send(byte[] body, Function<byte[], T> accept) {
		return this.graphQl.send(body, accept);
	}

	public void postPage(byte[] body) {
		this.graphQl.postPage(body);
	}

	/** The raw SDK Query of a 50-edge page of {@code category}: {@code Limit} 51, as the server sends it. */
	public static QueryRequest rawPage(String category) {
		return QueryRequest.builder()
			.tableName("UserPurchases")
			.indexName("ByCategory")
			.keyConditionExpression("category = :c")
			.expressionAttributeValues(Map.of(":c", AttributeValue.fromS(category)))
			.limit(51)
			.build();
	}

	/** The cursors of the first {@code count} 50-edge pages of {@code category}, null (page 1) first. */
	public List<String> walkCursors(String category, int count) {
		List<String> cursors = new ArrayList<>();
		cursors.add(null);
		String after = null;
		for (int i = 1; i < count; i++) {
			JsonNode connection = post(PAGE, GraphQl.vars("c", category, "a", after)).get("data").get("purchasesByCategory");
			after = connection.get("pageInfo").get("endCursor").asString();
			cursors.add(after);
		}
		return cursors;
	}

	/**
	 * 8 clients of pages and nested queries beside 2 of raw Queries, in 15 s rounds, until two rounds in a
	 * row rise less than 5% above the round before (at most 8 rounds).
	 */
	public void warmUp(List<String> cursors, String category, QueryRequest raw) throws Exception {
		double previous = 0;
		int settled = 0;
		for (int round = 1; round <= 8; round++) {
			long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
			int pages;
			try (Clients<Integer> running = Clients.start(10, (client) -> () -> {
					int paged = 0;
					ThreadLocalRandom random = ThreadLocalRandom.current();
					while (System.nanoTime() < end) {
						if (client >= 8) {
							this.dynamoDb.query(raw).join();
						}
						else if (random.nextInt(20) == 0) {
							post(NESTED, Map.of());
						}
						else {
							post(PAGE, GraphQl.vars("c", category, "a", cursors.get(random.nextInt(cursors.size()))));
							paged++;
						}
					}
					return paged;
				})) {
				pages = running.join().stream().mapToInt(Integer::intValue).sum();
			}
			double rate = pages / 15.0;
			System.out.printf("  round %d: %.0f pages/s%n", round, rate);
			settled = (rate <= previous * 1.05) ? settled + 1 : 0;
			if (settled == 2) {
				return;
			}
			previous = rate;
		}
	}

	/** The normal client for {@code duration}, on random cursors; returns how many pages failed. */
	public int normalWindow(List<byte[]> bodies, Duration duration, List<Double> latencies) {
		long end = System.nanoTime() + duration.toNanos();
		ThreadLocalRandom random = ThreadLocalRandom.current();
		int failed = 0;
		while (System.nanoTime() < end) {
			long start = System.nanoTime();
			try {
				postPage(bodies.get(random.nextInt(bodies.size())));
				latencies.add((System.nanoTime() - start) / 1e6);
			}
			catch (RuntimeException ex) {
				failed++;
				if (this.failures.size() < 5) {
					String message = String.valueOf(ex.getMessage());
					this.failures.add(message.substring(0, Math.min(message.length(), 400)));
				}
			}
		}
		return failed;
	}

}
