package dev.dynamorelay.engine.store;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

import dev.dynamorelay.engine.value.ItemSize;

/**
 * Measures, without asserting (issue 32's targets are measured, never asserted in tests): the time of a
 * 50-item Query inside the store (no HTTP), and the heap that 1,000,000 items of 200 bytes take. Not a test;
 * run it by hand: {@code java -Xmx2g -cp target/test-classes:target/classes:<dependencies>
 * dev.dynamorelay.engine.store.StoreFigures}.
 */
public final class StoreFigures {

	private StoreFigures() {
	}

	public static void main(String[] args) {
		query();
		items();
		heap();
	}

	/** PutItem and GetItem of a 200-byte item, one thread, inside the store. */
	private static void items() {
		try (Database database = new Database(DatabaseOptions.defaults().withTimeToLiveSweep(Duration.ZERO))) {
			Fixtures.hashTable(database, "items", "S");
			String data = "x".repeat(183);
			PutItemRequest[] puts = new PutItemRequest[10_000];
			software.amazon.awssdk.services.dynamodb.model.GetItemRequest[] gets = new software.amazon.awssdk.services.dynamodb.model.GetItemRequest[10_000];
			for (int i = 0; i < puts.length; i++) {
				AttributeValue key = AttributeValue.fromS(String.format("item%07d", i));
				puts[i] = PutItemRequest.builder().tableName("items").item(Fixtures.item("pk", key, "data", AttributeValue.fromS(data))).build();
				gets[i] = software.amazon.awssdk.services.dynamodb.model.GetItemRequest.builder().tableName("items").key(Map.of("pk", key)).build();
			}
			for (int i = 0; i < 300_000; i++) {
				database.putItem(puts[i % puts.length]);
				database.getItem(gets[i % gets.length]);
			}
			long start = System.nanoTime();
			for (int i = 0; i < 200_000; i++) {
				database.putItem(puts[i % puts.length]);
			}
			long putNanos = (System.nanoTime() - start) / 200_000;
			start = System.nanoTime();
			for (int i = 0; i < 200_000; i++) {
				database.getItem(gets[i % gets.length]);
			}
			long getNanos = (System.nanoTime() - start) / 200_000;
			System.out.printf("PutItem of a 200-byte item inside the store: %.1f µs; GetItem: %.1f µs%n", putNanos / 1000.0, getNanos / 1000.0);
		}
	}

	private static void query() {
		try (Database database = new Database(DatabaseOptions.defaults().withTimeToLiveSweep(Duration.ZERO))) {
			Fixtures.rangeTable(database, "pages", "S", "N");
			String data = "x".repeat(170);
			for (int partition = 0; partition < 200; partition++) {
				for (int i = 0; i < 50; i++) {
					database.putItem(PutItemRequest.builder().tableName("pages")
						.item(Fixtures.item("pk", AttributeValue.fromS("partition" + partition), "sk", AttributeValue.fromN(Integer.toString(i)),
								"data", AttributeValue.fromS(data)))
						.build());
				}
			}
			QueryRequest[] queries = new QueryRequest[200];
			for (int partition = 0; partition < 200; partition++) {
				queries[partition] = QueryRequest.builder().tableName("pages")
					.keyConditions(Map.of("pk", Condition.builder().comparisonOperator(ComparisonOperator.EQ)
						.attributeValueList(AttributeValue.fromS("partition" + partition)).build()))
					.build();
			}
			for (int i = 0; i < 200_000; i++) {
				check(database.query(queries[i % 200]).count());
			}
			int runs = 20;
			long[] perQuery = new long[runs];
			for (int run = 0; run < runs; run++) {
				int count = 20_000;
				long start = System.nanoTime();
				for (int i = 0; i < count; i++) {
					check(database.query(queries[i % 200]).count());
				}
				perQuery[run] = (System.nanoTime() - start) / count;
			}
			Arrays.sort(perQuery);
			System.out.printf("50-item Query inside the store: median %.1f µs (best %.1f, worst %.1f) over %d runs of 20,000%n",
					perQuery[runs / 2] / 1000.0, perQuery[0] / 1000.0, perQuery[runs - 1] / 1000.0, runs);
		}
	}

	private static void check(int count) {
		if (count != 50) {
			throw new IllegalStateException("a page of " + count);
		}
	}

	private static void heap() {
		long before = usedHeap();
		Database database = new Database(DatabaseOptions.defaults().withTimeToLiveSweep(Duration.ZERO));
		Fixtures.hashTable(database, "million", "S");
		String data = "x".repeat(200 - 13 - 4);
		long size = 0;
		for (int i = 0; i < 1_000_000; i++) {
			Map<String, AttributeValue> item = Fixtures.item("pk", AttributeValue.fromS(String.format("item%07d", i)), "data", AttributeValue.fromS(data));
			if (i == 0) {
				size = ItemSize.of(item);
			}
			database.putItem(PutItemRequest.builder().tableName("million").item(item).build());
		}
		long after = usedHeap();
		System.out.printf("1,000,000 items of %d bytes: %.0f MB of heap (%.0f bytes an item)%n", size, (after - before) / 1048576.0,
				(after - before) / 1_000_000.0);
		database.close();
	}

	private static long usedHeap() {
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

}
