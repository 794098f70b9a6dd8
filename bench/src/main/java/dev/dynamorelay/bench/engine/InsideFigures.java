package dev.dynamorelay.bench.engine;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntUnaryOperator;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

import dev.dynamorelay.engine.store.Database;
import dev.dynamorelay.engine.store.DatabaseOptions;
import dev.dynamorelay.engine.value.ItemSize;

/**
 * How the engine section measures inside the engine ({@link EngineInside}): a call timed on one thread (the median
 * of runs), and the heap that 1,000,000 items of 200 bytes hold in a table of the store.
 */
final class InsideFigures {

	private InsideFigures() {
	}

	/**
	 * How long a call takes, in nanoseconds a call: the median, best and worst of {@code runs} runs.
	 * @param median the median run's time a call
	 * @param best the best run's
	 * @param worst the worst run's
	 * @param runs the runs
	 * @param callsPerRun the calls of each run
	 */
	record Timing(double median, double best, double worst, int runs, int callsPerRun) {
	}

	/**
	 * Times a call on one thread: {@code warmUp} calls for the JIT first, then {@code runs} runs of
	 * {@code callsPerRun} calls; the median run is the figure, so that a run a collection or the machine slowed
	 * does not decide it.
	 * @param call given the call's number, makes the call and answers its result's count
	 * @param expected the count every call must answer (a wrong answer fails the measurement)
	 */
	static Timing time(IntUnaryOperator call, int expected, int warmUp, int runs, int callsPerRun) {
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
	record Heap(int items, long itemBytes, long heapBytes) {
	}

	/**
	 * The heap that 1,000,000 items of 200 bytes (a key of 11 characters and a string of 183) hold in a table of the
	 * store: the heap in use after full collections with them, less the same before; best measured in a JVM of its
	 * own, first.
	 */
	static Heap millionItems() {
		long before = usedHeap();
		Database database = new Database(DatabaseOptions.defaults().withTimeToLiveSweep(Duration.ZERO));
		database.createTable(CreateTableRequest.builder()
			.tableName("million")
			.attributeDefinitions(AttributeDefinition.builder().attributeName("pk").attributeType("S").build())
			.keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build())
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.build());
		String data = "x".repeat(200 - 13 - 4);
		long size = 0;
		for (int i = 0; i < 1_000_000; i++) {
			Map<String, AttributeValue> item = new LinkedHashMap<>();
			item.put("pk", AttributeValue.fromS(String.format("item%07d", i)));
			item.put("data", AttributeValue.fromS(data));
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
