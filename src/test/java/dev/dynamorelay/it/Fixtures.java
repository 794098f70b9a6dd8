package dev.dynamorelay.it;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** Writes test items straight to DynamoDB, with names no other test uses. */
public final class Fixtures {

	private final DynamoDbClient dynamoDb;

	private final Tables tables;

	public Fixtures(DynamoDbClient dynamoDb, Tables tables) {
		this.dynamoDb = dynamoDb;
		this.tables = tables;
	}

	public static String unique(String prefix) {
		return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	/** A year no sample movie and no other test uses. */
	public static int uniqueYear() {
		return 3000 + (int) (Math.abs(UUID.randomUUID().getLeastSignificantBits()) % 1_000_000);
	}

	/** A new user with a unique id, for a test's purchases. */
	public String buyer(String prefix) {
		String userId = unique(prefix);
		user(userId, "Buyer " + userId);
		return userId;
	}

	public void user(String userId, String name) {
		this.dynamoDb.putItem((put) -> put.tableName(this.tables.users())
			.item(Map.of("userId", AttributeValue.fromS(userId), "name", AttributeValue.fromS(name))));
	}

	public static Map<String, AttributeValue> purchase(String userId, long purchasedAt, String category, String amount,
			String product) {
		Map<String, AttributeValue> item = new HashMap<>();
		item.put("userId", AttributeValue.fromS(userId));
		item.put("purchasedAt", AttributeValue.fromN(Long.toString(purchasedAt)));
		item.put("category", AttributeValue.fromS(category));
		if (amount != null) {
			item.put("amount", AttributeValue.fromN(amount));
		}
		item.put("product", AttributeValue.fromS(product));
		return item;
	}

	public static Map<String, AttributeValue> purchase(String userId, long purchasedAt, String category, String amount) {
		return purchase(userId, purchasedAt, category, amount, "product " + purchasedAt);
	}

	public static Map<String, AttributeValue> movie(int year, String title, String rating) {
		Map<String, AttributeValue> item = new HashMap<>();
		item.put("year", AttributeValue.fromN(Integer.toString(year)));
		item.put("title", AttributeValue.fromS(title));
		if (rating != null) {
			item.put("rating", AttributeValue.fromN(new BigDecimal(rating).toPlainString()));
		}
		return item;
	}

	/** {@code count} purchases of one user, one a minute from {@code start}. */
	public List<Map<String, AttributeValue>> purchases(String userId, int count, long start, String category) {
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			items.add(purchase(userId, start + i * 60_000L, category, Integer.toString(i % 100)));
		}
		return items;
	}

	public void putPurchases(List<Map<String, AttributeValue>> items) {
		put(this.tables.purchases(), items);
	}

	public void putMovies(List<Map<String, AttributeValue>> items) {
		put(this.tables.movies(), items);
	}

	public void put(String table, List<Map<String, AttributeValue>> items) {
		for (int from = 0; from < items.size(); from += 25) {
			List<WriteRequest> writes = items.subList(from, Math.min(items.size(), from + 25))
				.stream()
				.map((item) -> WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build())
				.toList();
			Map<String, List<WriteRequest>> pending = Map.of(table, writes);
			while (!pending.isEmpty()) {
				Map<String, List<WriteRequest>> request = pending;
				BatchWriteItemResponse response = this.dynamoDb.batchWriteItem((batch) -> batch.requestItems(request));
				pending = response.hasUnprocessedItems() ? response.unprocessedItems() : Map.of();
			}
		}
	}

}
