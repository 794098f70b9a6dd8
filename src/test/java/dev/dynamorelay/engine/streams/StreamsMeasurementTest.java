package dev.dynamorelay.engine.streams;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import dev.dynamorelay.engine.store.ItemChange;

/**
 * Measures, does not assert: what appending a record and GetRecords of 1,000 records cost inside the engine (no
 * HTTP), and the memory a record takes. Run with {@code -Dengine.measure=true}.
 */
@EnabledIfSystemProperty(named = "engine.measure", matches = "true")
class StreamsMeasurementTest {

	private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

	@Test
	void measuresAppendsAndGetRecords() {
		StreamsFixture fixture = new StreamsFixture(StreamsOptions.defaults().withShards(1_000_000, Duration.ofDays(2)));
		String arn = fixture.create("Orders", StreamViewType.NEW_AND_OLD_IMAGES);
		Streams streams = fixture.streams;
		int records = 200_000;
		// Items of about 200 bytes, as the issue's memory target counts them.
		Map<String, AttributeValue>[] items = items(1_000);
		for (int round = 0; round < 3; round++) {
			long cpu = THREADS.getCurrentThreadCpuTime();
			long start = System.nanoTime();
			for (int i = 0; i < records; i++) {
				Map<String, AttributeValue> old = items[(i + 999) % 1_000];
				Map<String, AttributeValue> next = items[i % 1_000];
				streams.committed(fixture.clock.instant(), List.of(new ItemChange("Orders", Map.of("pk", next.get("pk")), old, next, false)));
			}
			long elapsed = System.nanoTime() - start;
			cpu = THREADS.getCurrentThreadCpuTime() - cpu;
			System.out.printf("append: %,d records, %.2f us a record (%.2f us of CPU)%n", records, elapsed / 1e3 / records,
					cpu / 1e3 / records);
		}
		System.gc();
		Runtime runtime = Runtime.getRuntime();
		long used = runtime.totalMemory() - runtime.freeMemory();
		System.out.printf("heap after %,d records kept: %,d MB (%,d bytes a record, old and new image of ~200 bytes each)%n",
				3 * records, used >> 20, used / (3L * records));
		String shard = fixture.shards(arn).get(0).shardId();
		for (int round = 0; round < 5; round++) {
			String iterator = fixture.iterator(arn, shard, ShardIteratorType.TRIM_HORIZON, null);
			int calls = 0;
			long read = 0;
			long cpu = THREADS.getCurrentThreadCpuTime();
			long start = System.nanoTime();
			while (read < 100_000) {
				GetRecordsResponse page = streams.getRecords(GetRecordsRequest.builder().shardIterator(iterator).build());
				read += page.records().size();
				iterator = page.nextShardIterator();
				calls++;
			}
			long elapsed = System.nanoTime() - start;
			cpu = THREADS.getCurrentThreadCpuTime() - cpu;
			System.out.printf("GetRecords: %d calls of 1,000 records, %.3f ms a call (%.3f ms of CPU), %.2f us a record%n",
					calls, elapsed / 1e6 / calls, cpu / 1e6 / calls, elapsed / 1e3 / read);
		}
		long start = System.nanoTime();
		for (int i = 0; i < 10_000; i++) {
			String iterator = fixture.iterator(arn, shard, ShardIteratorType.LATEST, null);
			streams.getRecords(GetRecordsRequest.builder().shardIterator(iterator).build());
		}
		System.out.printf("GetShardIterator LATEST then an empty GetRecords: %.2f us%n", (System.nanoTime() - start) / 1e3 / 10_000);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, AttributeValue>[] items(int count) {
		Map<String, AttributeValue>[] items = new Map[count];
		for (int i = 0; i < count; i++) {
			items[i] = Map.of("pk", AttributeValue.fromS("customer#" + i), "name", AttributeValue.fromS("x".repeat(120)),
					"amount", AttributeValue.fromN(Integer.toString(i * 7)), "category", AttributeValue.fromS("books"),
					"when", AttributeValue.fromN("1700000000000"));
		}
		return items;
	}

}
