package dev.dynamorelay.bench.support;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The benchmark's fixed data set: 2,000 users with 100 purchases each (200,000 purchases in 8
 * categories of 25,000, 2 of a category per {@code purchasedAt}), one user whose 40 purchases of
 * 60 KB span DynamoDB's 1 MB response limit, and 1,000,000 movies of one year for the long walk.
 */
public final class BenchData {

	public static final int USERS = 2_000;

	public static final int PURCHASES_PER_USER = 100;

	public static final int CATEGORIES = 8;

	public static final int MOVIES = 1_000_000;

	/** Movies loaded for the fairness section alone: its hostile pages read the partition's first 12,000. */
	public static final int FAIRNESS_MOVIES = 50_000;

	public static final int MOVIE_YEAR = 1;

	public static final String BIG_USER = "bench-big";

	public static final long T0 = 1_700_000_000_000L;

	private static final int IN_FLIGHT = 16;

	private BenchData() {
	}

	public static String userId(int i) {
		return "bench-user-%04d".formatted(i);
	}

	public static String category(int i) {
		return "cat-" + i;
	}

	/** Loads the data set; {@code moviesTable} null leaves the movies out (the start-up section needs none). */
	public static void load(DynamoDbAsyncClient dynamoDb, String usersTable, String purchasesTable, String moviesTable,
			int movies) {
		Loader loader = new Loader(dynamoDb);
		for (int u = 0; u < USERS; u++) {
			loader.put(usersTable, Map.of("userId", AttributeValue.fromS(userId(u)), "name",
					AttributeValue.fromS("Bench User " + u), "email", AttributeValue.fromS("user" + u + "@example.com")));
		}
		loader.put(usersTable, Map.of("userId", AttributeValue.fromS(BIG_USER), "name", AttributeValue.fromS("Big")));
		for (int slot = 0; slot < PURCHASES_PER_USER; slot++) {
			for (int u = 0; u < USERS; u++) {
				Map<String, AttributeValue> item = new HashMap<>();
				item.put("userId", AttributeValue.fromS(userId(u)));
				// Each group of 16 users buys within the same second of the slot's hour: 2 purchases of a
				// category share a purchasedAt (the ByCategory keys are not unique), as in real data.
				long purchasedAt = T0 + slot * 3_600_000L + (u / 16) * 1_000L;
				item.put("purchasedAt", AttributeValue.fromN(Long.toString(purchasedAt)));
				item.put("category", AttributeValue.fromS(category((u + slot) % CATEGORIES)));
				item.put("product", AttributeValue.fromS("Product %d of user %d, a typical name".formatted(slot, u)));
				item.put("amount", AttributeValue.fromN(Long.toString(1 + (u * 31L + slot * 7L) % 500)));
				loader.put(purchasesTable, item);
			}
		}
		String filler = "x".repeat(60_000);
		for (int i = 0; i < 40; i++) {
			loader.put(purchasesTable, Map.of("userId", AttributeValue.fromS(BIG_USER), "purchasedAt",
					AttributeValue.fromN(Long.toString(T0 + i)), "category", AttributeValue.fromS("bulk"), "product",
					AttributeValue.fromS(filler), "amount", AttributeValue.fromN("1")));
		}
		for (int m = 0; moviesTable != null && m < movies; m++) {
			loader.put(moviesTable, Map.of("year", AttributeValue.fromN(Integer.toString(MOVIE_YEAR)), "title",
					AttributeValue.fromS("m%07d".formatted(m)), "rating", AttributeValue.fromN(Integer.toString(m % 10))));
		}
		loader.finish();
	}

	/** The users alone (the write and live sections write their own purchases). */
	public static void loadUsers(DynamoDbAsyncClient dynamoDb, String usersTable) {
		Loader loader = new Loader(dynamoDb);
		for (int u = 0; u < USERS; u++) {
			loader.put(usersTable, Map.of("userId", AttributeValue.fromS(userId(u)), "name",
					AttributeValue.fromS("Bench User " + u), "email", AttributeValue.fromS("user" + u + "@example.com")));
		}
		loader.finish();
	}

	/** Partitions of the export's table: a parallel Scan's segments split by partition key. */
	public static final int EXPORT_PARTITIONS = 10_000;

	/**
	 * The export's table: {@code count} items like the movies (a title and a rating) spread over
	 * {@link #EXPORT_PARTITIONS} partitions (partition key {@code part}, sort key {@code n}), so that a
	 * parallel Scan's segments share the work; the movies' one partition would put every item in one
	 * segment.
	 */
	public static void loadExportItems(DynamoDbAsyncClient dynamoDb, String table, int count) {
		dynamoDb.createTable((create) -> create.tableName(table)
			.keySchema(KeySchemaElement.builder().attributeName("part").keyType(KeyType.HASH).build(),
					KeySchemaElement.builder().attributeName("n").keyType(KeyType.RANGE).build())
			.attributeDefinitions(AttributeDefinition.builder().attributeName("part").attributeType(ScalarAttributeType.S).build(),
					AttributeDefinition.builder().attributeName("n").attributeType(ScalarAttributeType.N).build())
			.billingMode(BillingMode.PAY_PER_REQUEST)).join();
		Loader loader = new Loader(dynamoDb);
		for (int i = 0; i < count; i++) {
			loader.put(table, Map.of("part", AttributeValue.fromS("p%05d".formatted(i % EXPORT_PARTITIONS)), "n",
					AttributeValue.fromN(Integer.toString(i)), "title", AttributeValue.fromS("m%07d".formatted(i)), "rating",
					AttributeValue.fromN(Integer.toString(i % 10))));
		}
		loader.finish();
	}

	/** BatchWriteItem in batches of 25 with a bounded number in flight, retrying unprocessed items. */
	private static final class Loader {

		private final DynamoDbAsyncClient dynamoDb;

		private final Semaphore permits = new Semaphore(IN_FLIGHT);

		private final Map<String, List<WriteRequest>> pending = new HashMap<>();

		private final AtomicLong written = new AtomicLong();

		private volatile Throwable failure;

		Loader(DynamoDbAsyncClient dynamoDb) {
			this.dynamoDb = dynamoDb;
		}

		void put(String table, Map<String, AttributeValue> item) {
			List<WriteRequest> batch = this.pending.computeIfAbsent(table, (t) -> new ArrayList<>(25));
			batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build());
			if (batch.size() == 25) {
				send(Map.of(table, List.copyOf(batch)));
				batch.clear();
			}
		}

		void finish() {
			this.pending.forEach((table, batch) -> {
				if (!batch.isEmpty()) {
					send(Map.of(table, List.copyOf(batch)));
				}
			});
			this.permits.acquireUninterruptibly(IN_FLIGHT);
			this.permits.release(IN_FLIGHT);
			if (this.failure != null) {
				throw new IllegalStateException("loading the benchmark data failed", this.failure);
			}
		}

		private void send(Map<String, List<WriteRequest>> batch) {
			if (this.failure != null) {
				throw new IllegalStateException("loading the benchmark data failed", this.failure);
			}
			this.permits.acquireUninterruptibly();
			write(batch).whenComplete((done, failure) -> {
				if (failure != null) {
					this.failure = failure;
				}
				long total = this.written.addAndGet(batch.values().iterator().next().size());
				if (total % 100_000 < 25) {
					System.out.printf("  loaded %,d items%n", total);
				}
				this.permits.release();
			});
		}

		private CompletableFuture<Void> write(Map<String, List<WriteRequest>> batch) {
			return this.dynamoDb.batchWriteItem((request) -> request.requestItems(batch))
				.thenCompose((BatchWriteItemResponse response) -> (response.hasUnprocessedItems()
						&& !response.unprocessedItems().isEmpty()) ? write(response.unprocessedItems())
								: CompletableFuture.completedFuture(null));
		}

	}

}
