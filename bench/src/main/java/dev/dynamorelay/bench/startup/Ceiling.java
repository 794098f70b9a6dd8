package dev.dynamorelay.bench.startup;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The start-up section's ceiling: the same pages' raw DynamoDB calls from 8 clients of the benchmark's own SDK
 * client, the most pages/s any server can serve from this engine on these cores.
 */
final class Ceiling {

	private final DynamoDbAsyncClient client;

	private final Map<String, List<String>> cursorsByCategory;

	Ceiling(DynamoDbAsyncClient client, Map<String, List<String>> cursorsByCategory) {
		this.client = client;
		this.cursorsByCategory = cursorsByCategory;
	}

	/**
	 * The ceiling: the same pages' raw DynamoDB calls, 8 clients of the benchmark's SDK client over 20 s: each
	 * a Query of a random category at a random position (its sort key bounded by the position's, as
	 * dynamo-relay sends it) with Limit 21, then one BatchGetItem of its 20 items' users.
	 */
	Window run() throws Exception {
		System.out.println("Ceiling: raw Query + BatchGetItem, 20 s ...");
		List<QueryRequest> queries = queries();
		long from = System.nanoTime();
		long to = from + Startup.WARM.toNanos();
		ExecutorService pool = Executors.newFixedThreadPool(PageLoad.CLIENTS);
		try {
			List<Future<double[]>> results = new ArrayList<>();
			for (int c = 0; c < PageLoad.CLIENTS; c++) {
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

	/**
	 * The Query of each position of each category: Limit 21 from the position, its sort key bounded by the
	 * position's as dynamo-relay sends it; the positions found by walking the category with raw Queries of 50.
	 */
	private List<QueryRequest> queries() {
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
		return queries;
	}

}
