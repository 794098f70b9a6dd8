package dev.dynamorelay.engine.streams;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardFilterType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import dev.dynamorelay.engine.store.ItemChange;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many writers at once, each item's writes serialized by its lock as the store holds it while it tells the
 * streams: every item's records come in the order of its writes, each once, while shards roll over and a reader
 * follows the stream as it grows.
 */
class StreamsConcurrencyTest {

	private static final int WRITERS = 8;

	private static final int WRITES = 2_000;

	private static final int ITEMS = 20;

	@Test
	void recordsEveryItemsWritesInCommitOrderUnderManyWriters() throws Exception {
		StreamsFixture fixture = new StreamsFixture(StreamsOptions.defaults().withShards(50, Duration.ofHours(4)));
		String arn = fixture.create("Orders", StreamViewType.NEW_AND_OLD_IMAGES);
		Streams streams = fixture.streams;
		ReentrantLock[] locks = new ReentrantLock[ITEMS];
		Map<String, AttributeValue>[] items = newItems();
		for (int i = 0; i < ITEMS; i++) {
			locks[i] = new ReentrantLock();
		}
		ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
		try {
			CompletableFuture<List<Record>> tail = CompletableFuture.supplyAsync(() -> follow(fixture, arn, WRITERS * WRITES), pool);
			List<CompletableFuture<Void>> writers = new ArrayList<>();
			for (int w = 0; w < WRITERS; w++) {
				writers.add(CompletableFuture.runAsync(() -> {
					for (int n = 0; n < WRITES; n++) {
						int i = ThreadLocalRandom.current().nextInt(ITEMS);
						locks[i].lock();
						try {
							Map<String, AttributeValue> old = items[i];
							int version = (old == null) ? 1 : Integer.parseInt(old.get("v").n()) + 1;
							Map<String, AttributeValue> next = Map.of("pk", AttributeValue.fromS("k" + i), "v",
									AttributeValue.fromN(Integer.toString(version)));
							items[i] = next;
							streams.committed(fixture.clock.instant(), List.of(new ItemChange("Orders", Map.of("pk", next.get("pk")), old, next, false)));
						}
						finally {
							locks[i].unlock();
						}
					}
				}, pool));
			}
			CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

			List<Record> all = fixture.readAll(arn);
			List<Record> followed = tail.get(60, TimeUnit.SECONDS);

			assertThat(all).hasSize(WRITERS * WRITES);
			assertEveryItemInOrder(all);
			assertThat(followed).extracting((record) -> record.dynamodb().sequenceNumber())
				.isEqualTo(all.stream().map((record) -> record.dynamodb().sequenceNumber()).toList());
			assertThat(fixture.shards(arn)).hasSize(WRITERS * WRITES / 50);
		}
		finally {
			pool.shutdownNow();
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, AttributeValue>[] newItems() {
		return new Map[ITEMS];
	}

	/** Each item's versions come 1, 2, 3 ... with each record's old image the version before. */
	private static void assertEveryItemInOrder(List<Record> records) {
		Map<String, Integer> last = new HashMap<>();
		String previous = null;
		for (Record record : records) {
			String pk = StreamsFixture.pk(record);
			int version = Integer.parseInt(record.dynamodb().newImage().get("v").n());
			int before = last.getOrDefault(pk, 0);
			assertThat(version).as(pk).isEqualTo(before + 1);
			if (before > 0) {
				assertThat(record.dynamodb().oldImage().get("v").n()).isEqualTo(Integer.toString(before));
			}
			last.put(pk, version);
			String sequence = record.dynamodb().sequenceNumber();
			if (previous != null) {
				assertThat(sequence).isGreaterThan(previous);
			}
			previous = sequence;
		}
	}

	/** Follows the stream from its first shard, to each child as its parent ends, until it read {@code count}. */
	private static List<Record> follow(StreamsFixture fixture, String arn, int count) {
		List<Record> read = new ArrayList<>();
		Shard shard = fixture.shards(arn).get(0);
		String iterator = fixture.iterator(arn, shard.shardId(), ShardIteratorType.TRIM_HORIZON, null);
		while (read.size() < count) {
			GetRecordsResponse page = fixture.records(iterator);
			read.addAll(page.records());
			iterator = page.nextShardIterator();
			if (iterator == null) {
				String parent = shard.shardId();
				List<Shard> children = fixture.streams
					.describeStream(DescribeStreamRequest.builder()
						.streamArn(arn)
						.shardFilter((filter) -> filter.type(ShardFilterType.CHILD_SHARDS).shardId(parent))
						.build())
					.streamDescription()
					.shards();
				assertThat(children).hasSize(1);
				shard = children.get(0);
				iterator = fixture.iterator(arn, shard.shardId(), ShardIteratorType.TRIM_HORIZON, null);
			}
			else if (page.records().isEmpty()) {
				Thread.onSpinWait();
			}
		}
		return read;
	}

}
