package dev.dynamorelay.sample;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.dynamodb.StartupCalls;

/**
 * The deterministic sample data loaded into empty tables: 50 users, 5,000 purchases over 10
 * categories, 1,000 movies over 20 years.
 *
 * <p>Purchases come in 100 hourly slots; in each slot all 50 users buy at the same instant, so many
 * purchases of one category share one {@code purchasedAt} (the {@code ByCategory} index keys are not
 * unique), while {@code purchasedAt} stays unique per user.
 */
public final class SampleData {

	private static final Logger logger = LoggerFactory.getLogger(SampleData.class);

	static final int USERS = 50;

	static final int PURCHASES = 5_000;

	static final int MOVIES = 1_000;

	static final long FIRST_PURCHASE = Instant.parse("2025-01-01T09:00:00Z").toEpochMilli();

	static final List<String> CATEGORIES = List.of("books", "games", "garden", "grocery", "health", "kitchen",
			"music", "outdoor", "tools", "toys");

	private static final List<String> FIRST_NAMES = List.of("Ada", "Alan", "Barbara", "Claude", "Donald", "Edsger",
			"Frances", "Grace", "Hedy", "John");

	private static final List<String> LAST_NAMES = List.of("Lovelace", "Turing", "Liskov", "Shannon", "Knuth");

	private static final List<String> ADJECTIVES = List.of("The Silent", "The Last", "The Hidden", "A Distant",
			"A Quiet", "Broken", "Crimson", "Golden", "Midnight", "Northern");

	private static final List<String> NOUNS = List.of("River", "Harbor", "Garden", "Machine", "Summer");

	private static final List<String> GENRES = List.of("Action", "Comedy", "Drama", "Horror", "Romance", "Sci-Fi",
			"Thriller");

	private static final int BATCH = 25;

	private static final int LANES = 4;

	/** How often a load that lasts says how far it is. */
	private static final Duration PROGRESS = Duration.ofSeconds(10);

	private SampleData() {
	}

	/**
	 * Loads every table that is empty; leaves tables with any item alone. The calls are the start's own
	 * ({@link StartupCalls}): one that DynamoDB does not answer is made again (a put of whole items, so
	 * repeating it changes nothing) until the start-up bound. One line says when loading starts, one more
	 * every {@link #PROGRESS} while it lasts, and one when it is done.
	 * @throws StartupCalls.StartupException when DynamoDB did not take the items within the start-up bound
	 */
	public static void loadIntoEmptyTables(DynamoDbAsyncClient dynamoDb, StartupCalls calls, String users,
			String purchases, String movies) throws Exception {
		Map<String, List<Map<String, AttributeValue>>> tables = new LinkedHashMap<>();
		tables.put(users, users());
		tables.put(purchases, purchases());
		tables.put(movies, movies());
		Map<String, List<Map<String, AttributeValue>>> empty = new LinkedHashMap<>();
		for (Map.Entry<String, List<Map<String, AttributeValue>>> table : tables.entrySet()) {
			if (await(calls, isEmpty(dynamoDb, calls, table.getKey()))) {
				empty.put(table.getKey(), table.getValue());
			}
		}
		if (empty.isEmpty()) {
			return;
		}
		int total = empty.values().stream().mapToInt(List::size).sum();
		logger.info("Loading the sample data into its empty tables at {}: {}", calls.endpoint(), empty.entrySet()
			.stream()
			.map((table) -> table.getValue().size() + " items into " + table.getKey())
			.collect(Collectors.joining(", ")));
		long started = System.nanoTime();
		AtomicInteger written = new AtomicInteger();
		ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "sample-data-progress");
			thread.setDaemon(true);
			return thread;
		});
		progress.scheduleAtFixedRate(() -> logger.info("Loading the sample data into {}: {} of {} items written after {} s",
				calls.endpoint(), written.get(), total, seconds(started)), PROGRESS.toMillis(), PROGRESS.toMillis(),
				TimeUnit.MILLISECONDS);
		try {
			List<CompletableFuture<Void>> loads = new ArrayList<>();
			empty.forEach((table, items) -> loads.add(load(dynamoDb, calls, table, items, written)));
			await(calls, CompletableFuture.allOf(loads.toArray(CompletableFuture[]::new)));
		}
		finally {
			progress.shutdownNow();
		}
		logger.info("Loaded the sample data ({} items) in {} s", total, seconds(started));
	}

	static List<Map<String, AttributeValue>> users() {
		List<Map<String, AttributeValue>> users = new ArrayList<>(USERS);
		for (int i = 1; i <= USERS; i++) {
			Map<String, AttributeValue> user = new HashMap<>();
			String first = FIRST_NAMES.get(i % FIRST_NAMES.size());
			String last = LAST_NAMES.get((i / FIRST_NAMES.size()) % LAST_NAMES.size());
			user.put("userId", AttributeValue.fromS(userId(i)));
			user.put("name", AttributeValue.fromS(first + " " + last));
			if (i % 5 != 0) {
				user.put("email", AttributeValue.fromS((first + "." + last).toLowerCase() + i + "@example.com"));
			}
			users.add(user);
		}
		return users;
	}

	static List<Map<String, AttributeValue>> purchases() {
		List<Map<String, AttributeValue>> purchases = new ArrayList<>(PURCHASES);
		for (int k = 0; k < PURCHASES; k++) {
			int user = k % USERS + 1;
			int slot = k / USERS;
			String category = CATEGORIES.get((k * 7 + slot * 3) % CATEGORIES.size());
			long cents = (k * 7919L) % 50_000 + 100;
			Map<String, AttributeValue> purchase = new HashMap<>();
			purchase.put("userId", AttributeValue.fromS(userId(user)));
			purchase.put("purchasedAt", AttributeValue.fromN(Long.toString(FIRST_PURCHASE + slot * 3_600_000L)));
			purchase.put("category", AttributeValue.fromS(category));
			purchase.put("product", AttributeValue.fromS(capitalize(category) + " item " + (k % 97 + 1)));
			purchase.put("amount", AttributeValue.fromN(BigDecimal.valueOf(cents, 2).toPlainString()));
			purchases.add(purchase);
		}
		return purchases;
	}

	static List<Map<String, AttributeValue>> movies() {
		List<Map<String, AttributeValue>> movies = new ArrayList<>(MOVIES);
		for (int i = 0; i < MOVIES; i++) {
			int year = 1995 + i % 20;
			int j = i / 20;
			Map<String, AttributeValue> movie = new HashMap<>();
			movie.put("year", AttributeValue.fromN(Integer.toString(year)));
			movie.put("title", AttributeValue.fromS(ADJECTIVES.get(j % 10) + " " + NOUNS.get(j / 10)));
			if (i % 7 != 0) {
				movie.put("rating", AttributeValue.fromN(BigDecimal.valueOf(10 + (i * 37L) % 90, 1).toPlainString()));
			}
			if (j % 5 != 0) {
				List<String> genres = new ArrayList<>();
				for (int g = 0; g <= j % 3; g++) {
					genres.add(GENRES.get((i + g * 3) % GENRES.size()));
				}
				movie.put("genres", AttributeValue.fromSs(genres));
			}
			if (i % 3 != 0) {
				movie.put("plot", AttributeValue.fromS("A story of " + NOUNS.get(i % NOUNS.size()).toLowerCase()
						+ " and " + GENRES.get(i % GENRES.size()).toLowerCase() + ", told in " + year + "."));
			}
			movies.add(movie);
		}
		return movies;
	}

	static String userId(int i) {
		return "user-%02d".formatted(i);
	}

	private static String capitalize(String word) {
		return Character.toUpperCase(word.charAt(0)) + word.substring(1);
	}

	private static CompletableFuture<Boolean> isEmpty(DynamoDbAsyncClient dynamoDb, StartupCalls calls, String table) {
		return calls.call("Scan " + table,
				(override) -> dynamoDb.scan((scan) -> scan.tableName(table).limit(1).overrideConfiguration(override)))
			.thenApply((response) -> response.count() == 0);
	}

	private static CompletableFuture<Void> load(DynamoDbAsyncClient dynamoDb, StartupCalls calls, String table,
			List<Map<String, AttributeValue>> items, AtomicInteger written) {
		// A few lanes of sequential batches: fast, without flooding a small DynamoDB with requests.
		List<CompletableFuture<Void>> batches = new ArrayList<>();
		for (int lane = 0; lane < LANES; lane++) {
			CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
			for (int from = lane * BATCH; from < items.size(); from += LANES * BATCH) {
				List<WriteRequest> writes = items.subList(from, Math.min(items.size(), from + BATCH))
					.stream()
					.map((item) -> WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build())
					.toList();
				chain = chain.thenCompose((done) -> write(dynamoDb, calls, table, writes, written, 0));
			}
			batches.add(chain);
		}
		return CompletableFuture.allOf(batches.toArray(CompletableFuture[]::new));
	}

	private static CompletableFuture<Void> write(DynamoDbAsyncClient dynamoDb, StartupCalls calls, String table,
			List<WriteRequest> writes, AtomicInteger written, int attempt) {
		return calls.call("BatchWriteItem " + table, (override) -> dynamoDb
			.batchWriteItem((batch) -> batch.requestItems(Map.of(table, writes)).overrideConfiguration(override)))
			.thenCompose((BatchWriteItemResponse response) -> {
				List<WriteRequest> unprocessed = response.hasUnprocessedItems()
						? response.unprocessedItems().getOrDefault(table, List.of()) : List.of();
				written.addAndGet(writes.size() - unprocessed.size());
				if (unprocessed.isEmpty()) {
					return CompletableFuture.completedFuture(null);
				}
				if (attempt >= 10) {
					throw new IllegalStateException("DynamoDB at %s kept sample items of %s unprocessed after 10 attempts"
						.formatted(calls.endpoint(), table));
				}
				return CompletableFuture
					.supplyAsync(() -> null, CompletableFuture.delayedExecutor(50L << attempt, TimeUnit.MILLISECONDS))
					.thenCompose((ignored) -> write(dynamoDb, calls, table, unprocessed, written, attempt + 1));
			});
	}

	/** The result of start-up calls, which end within the start-up bound: a failure as they failed. */
	private static <T> T await(StartupCalls calls, CompletableFuture<T> future) throws Exception {
		try {
			return future.get(calls.left().plus(Duration.ofMinutes(1)).toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			Throwable cause = DynamoDbFailures.unwrap(ex);
			if (cause instanceof Exception exception) {
				throw exception;
			}
			throw ex;
		}
	}

	private static long seconds(long started) {
		return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
	}

}
