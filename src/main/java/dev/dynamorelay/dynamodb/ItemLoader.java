package dev.dynamorelay.dynamodb;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.error.UnavailableException;

/**
 * Loads items by key with {@code BatchGetItem}, across tables, 100 keys a request, retrying
 * unprocessed keys with backoff. Each request waits for its place among the GraphQL request's calls in
 * flight ({@link ReadStats#calls()}).
 */
public final class ItemLoader {

	private static final int MAX_KEYS = 100;

	private static final int MAX_ATTEMPTS = 8;

	private final DynamoDbAsyncClient dynamoDb;

	private final Duration timeout;

	public ItemLoader(DynamoDbAsyncClient dynamoDb, Duration timeout) {
		this.dynamoDb = dynamoDb;
		this.timeout = timeout;
	}

	/**
	 * The items found for {@code keys}; a key with no item is absent from the map.
	 */
	public CompletableFuture<Map<ItemKey, Map<String, AttributeValue>>> load(Collection<ItemKey> keys,
			ReadStats stats) {
		List<ItemKey> distinct = new ArrayList<>(new LinkedHashSet<>(keys));
		Map<ItemKey, Map<String, AttributeValue>> found = new ConcurrentHashMap<>();
		List<CompletableFuture<Void>> requests = new ArrayList<>();
		for (int from = 0; from < distinct.size(); from += MAX_KEYS) {
			Map<String, List<Map<String, AttributeValue>>> keysByTable = new HashMap<>();
			for (ItemKey key : distinct.subList(from, Math.min(distinct.size(), from + MAX_KEYS))) {
				keysByTable.computeIfAbsent(key.table(), (table) -> new ArrayList<>()).add(key.key());
			}
			Map<String, KeysAndAttributes> batch = new HashMap<>();
			keysByTable.forEach((table, tableKeys) -> batch.put(table, KeysAndAttributes.builder().keys(tableKeys).build()));
			requests.add(get(batch, found, stats, 0));
		}
		return CompletableFuture.allOf(requests.toArray(CompletableFuture[]::new)).thenApply((done) -> found);
	}

	private CompletableFuture<Void> get(Map<String, KeysAndAttributes> batch,
			Map<ItemKey, Map<String, AttributeValue>> found, ReadStats stats, int attempt) {
		return stats.budget().calls().call(() -> {
			// What is left of the request's time when the call is sent, not when it was queued.
			Optional<Duration> remaining = CallTimeout.of(stats.budget().remaining(this.timeout));
			if (remaining.isEmpty()) {
				return CompletableFuture.<BatchGetItemResponse>failedFuture(
						new UnavailableException("DynamoDB did not serve the request within " + this.timeout + ".", null));
			}
			return stats.costs().sent(this.dynamoDb.batchGetItem((request) -> request.requestItems(batch)
				.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
				.overrideConfiguration((override) -> override.apiCallTimeout(remaining.get()))));
		}).thenCompose((response) -> {
				int returned = 0;
				for (Map.Entry<String, List<Map<String, AttributeValue>>> table : response.responses().entrySet()) {
					List<String> keyNames = List.copyOf(batch.get(table.getKey()).keys().get(0).keySet());
					for (Map<String, AttributeValue> item : table.getValue()) {
						Map<String, AttributeValue> key = new HashMap<>();
						keyNames.forEach((name) -> key.put(name, item.get(name)));
						found.put(new ItemKey(table.getKey(), key), item);
						returned++;
					}
				}
				double capacity = response.hasConsumedCapacity()
						? response.consumedCapacity().stream().mapToDouble(ItemLoader::units).sum() : 0;
				stats.costs().record(returned, returned, capacity);
				Map<String, KeysAndAttributes> unprocessed = response.unprocessedKeys();
				if (unprocessed == null || unprocessed.isEmpty()) {
					return CompletableFuture.completedFuture(null);
				}
				if (attempt + 1 >= MAX_ATTEMPTS) {
					throw new UnavailableException("DynamoDB left keys unprocessed after " + MAX_ATTEMPTS
							+ " BatchGetItem attempts (throttled).", null);
				}
				long backOff = 10L << attempt;
				if (stats.budget().remaining(this.timeout).toMillis() <= backOff) {
					// The retry would start after the request's time has run out: answer now, not then.
					throw new UnavailableException("DynamoDB left keys unprocessed (throttled) and the request's "
							+ "time ran out before another BatchGetItem attempt.", null);
				}
				Map<String, KeysAndAttributes> retry = new HashMap<>();
				unprocessed.forEach((table, keys) -> retry.put(table, KeysAndAttributes.builder().keys(keys.keys()).build()));
				return CompletableFuture
					.supplyAsync(() -> null, CompletableFuture.delayedExecutor(backOff, TimeUnit.MILLISECONDS))
					.thenCompose((ignored) -> get(retry, found, stats, attempt + 1));
			});
	}

	private static double units(ConsumedCapacity capacity) {
		return (capacity.capacityUnits() != null) ? capacity.capacityUnits() : 0;
	}

	/**
	 * The primary key of one item of one table.
	 *
	 * @param table the table name
	 * @param key every key attribute of the table
	 */
	public record ItemKey(String table, Map<String, AttributeValue> key) {

		public ItemKey {
			Objects.requireNonNull(table, "table");
			key = Map.copyOf(key);
		}

	}

}
