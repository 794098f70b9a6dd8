package dev.dynamorelay.engine.store;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.function.IntUnaryOperator;

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
 * dev.dynamorelay.engine.store.StoreFigures}. The benchmark's engine section ({@code bench/}, {@code EngineSpeed})
 * times its own Query with {@link #time} and takes {@link #millionItems} for its heap figure.
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
			Timing timing = time((i) -> database.query(queries[i % 200]).count(), 50, 200_000, 20, 20_000);
			System.out.printf("50-item Query inside the store: median %.1f µs (best %.1f, worst %.1f) over %d runs of 20,000%n",
					timing.median() / 1000.0, timing.best() / 1000.0, timing.worst() / 1000.0, timing.runs());
		}
	}

	/**
	 * How long a call takes, in nanoseconds a call: the median, best and worst of {@code runs} runs.
	 * @param median the median run's time a call
	 * @param best the best run's
	 * @param worst the worst run's
	 * @param runs the runs
	 * @param callsPerRun the calls of each run
	 */
	public record Timing(double median, double best, double worst, int runs, int callsPerRun) {
	}

	/**
	 * Times a call on one thread: {@code warmUp} calls for the JIT first, then {@code runs} runs of
	 * {@code callsPerRun} calls; the median run is the figure, so that a run a collection or the machine slowed
	 * does not decide it.
	 * @param call given the call's number, makes the call and answers its result's count
	 * @param expected the count every call must answer (a wrong answer fails the measurement)
	 */
	public static Timing time(IntUnaryOperator call, int expected, int warmUp, int runs, int callsPerRun) {
		for (int i = 0; i < warmUp; i++) {
			check(call.applyAsInt(i), expected);
		}
		long[] perCall = new long[runs];
		for (int run = 0; run < runs; run++) {
			long start = System.nanoTime();
			for (int i = 0; i < callsPerRun; i++) {
				check(call.applyAsInt(i), expected);
			}
			perCall[run] = (System.nanoTime() - start) / callsPerRun;
		}
		Arrays.sort(perCall);
		return new Timing(perCall[runs / 2], perCall[0], perCall[runs - 1], runs, callsPerRun);
	}

	private static void check(int count, int expected) {
		if (count != expected) {
			throw new IllegalStateException("a page of " + count + ", not " + expected);
		}
	}

	/**
	 * The heap that items hold in the store.
	 * @param items the items
	 * @param itemBytes each item's size by DynamoDB's rules
	 * @param heapBytes the heap they hold, measured after full collections
	 */
	public record Heap(int items, long itemBytes, long heapBytes) {
	}

	private static void heap() {
		Heap heap = millionItems();
		System.out.printf("1,000,000 items of %d bytes: %.0f MB of heap (%.0f bytes an item)%n", heap.itemBytes(),
				heap.heapBytes() / 1048576.0, heap.heapBytes() / (double) heap.items());
	}

	/**
	 * The heap that 1,000,000 items of 200 bytes (a key of 11 characters and a string of 183) hold in a table of the
	 * store: the heap in use after full collections with them, less the same before; best measured in a JVM of its
	 * own, first.
	 */
	public static Heap millionItems() {
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
		// Closed after the measurement, so that the items are still reachable when it is taken.
		database.close();
		return new Heap(1_000_000, size, after - before);
	}

	private static long usedHeap() {
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

}
