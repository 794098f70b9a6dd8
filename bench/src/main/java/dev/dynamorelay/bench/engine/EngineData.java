package dev.dynamorelay.bench.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import dev.dynamorelay.engine.value.ItemSize;

/**
 * The engine section's tables and items, the same on both servers and inside the engine: {@value #ITEM_COUNT} items
 * of {@value #ITEM_BYTES} bytes (the PutItem, GetItem, Scan and transaction's) and {@value #PARTITIONS} partitions of
 * {@value #PAGE_ITEMS} (the Query's), loaded with BatchWriteItem.
 */
final class EngineData {

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

	private EngineData() {
	}

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

	static void load(DynamoDbClient client) {
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
	static List<String> scanOrder(DynamoDbClient client) {
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

}
