package dev.dynamorelay.engine.streams;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardFilterType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import static dev.dynamorelay.engine.streams.StreamsFixture.item;
import static org.assertj.core.api.Assertions.assertThat;

/** Shards that close at a size or an age and open a child, their lineage, and DescribeStream's pages of them. */
class ShardLineageTest {

	@Test
	void aShardClosesAtTheConfiguredRecordsAndItsChildTakesTheNext() {
		StreamsFixture fixture = new StreamsFixture(StreamsOptions.defaults().withShards(3, Duration.ofHours(4)));
		String arn = fixture.create("Orders", StreamViewType.KEYS_ONLY);
		for (int i = 0; i < 10; i++) {
			fixture.put("Orders", item("k" + i));
		}

		List<Shard> shards = fixture.shards(arn);

		assertThat(shards).hasSize(4);
		assertThat(shards.get(0).parentShardId()).isNull();
		for (int i = 1; i < shards.size(); i++) {
			assertThat(shards.get(i).parentShardId()).isEqualTo(shards.get(i - 1).shardId());
			BigInteger parentEnd = new BigInteger(shards.get(i - 1).sequenceNumberRange().endingSequenceNumber());
			BigInteger childStart = new BigInteger(shards.get(i).sequenceNumberRange().startingSequenceNumber());
			assertThat(childStart).isGreaterThan(parentEnd);
		}
		assertThat(shards.get(3).sequenceNumberRange().endingSequenceNumber()).as("the open shard").isNull();
		// DynamoDB's form, and in the order they opened whether compared as text or not.
		assertThat(shards).allSatisfy((shard) -> assertThat(shard.shardId()).matches("shardId-[0-9]{20}-[0-9a-f]{8}"));
		assertThat(shards).extracting(Shard::shardId).isSorted();
		List<Record> first = fixture.drain(fixture.iterator(arn, shards.get(0).shardId(), ShardIteratorType.TRIM_HORIZON, null));
		assertThat(first).extracting(StreamsFixture::pk).containsExactly("k0", "k1", "k2");
		assertThat(shards.get(0).sequenceNumberRange().endingSequenceNumber())
			.isEqualTo(first.get(2).dynamodb().sequenceNumber());
	}

	@Test
	void aShardClosesAtTheConfiguredAgeWithItsNextRecord() {
		StreamsFixture fixture = new StreamsFixture(StreamsOptions.defaults().withShards(1_000, Duration.ofMinutes(30)));
		String arn = fixture.create("Orders", StreamViewType.KEYS_ONLY);
		fixture.put("Orders", item("a"));
		fixture.clock.advance(Duration.ofMinutes(29));
		fixture.put("Orders", item("b"));
		fixture.clock.advance(Duration.ofMinutes(1));
		assertThat(fixture.shards(arn)).as("a shard closes only when a record comes").hasSize(1);
		fixture.put("Orders", item("c"));

		List<Shard> shards = fixture.shards(arn);

		assertThat(shards).hasSize(2);
		assertThat(fixture.drain(fixture.iterator(arn, shards.get(1).shardId(), ShardIteratorType.TRIM_HORIZON, null)))
			.extracting(StreamsFixture::pk)
			.containsExactly("c");
	}

	@Test
	void aReaderThatReadsParentsBeforeChildrenSeesEveryRecordOnceInOrder() {
		StreamsFixture fixture = new StreamsFixture(StreamsOptions.defaults().withShards(7, Duration.ofHours(4)));
		String arn = fixture.create("Orders", StreamViewType.NEW_IMAGE);
		List<String> written = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			String pk = "k" + (i % 9);
			fixture.put("Orders", item(pk, "n", i));
			written.add(pk + "=" + i);
		}

		List<String> read = fixture.readAll(arn)
			.stream()
			.map((record) -> StreamsFixture.pk(record) + "=" + record.dynamodb().newImage().get("n").n())
			.toList();

		assertThat(fixture.shards(arn)).hasSize(15);
		assertThat(read).isEqualTo(written);
	}

	@Test
	void aReaderAtTheTipOfAShardThatClosesFollowsItToItsChild() {
		StreamsFixture fixture = new StreamsFixture(StreamsOptions.defaults().withShards(2, Duration.ofHours(4)));
		String arn = fixture.create("Orders", StreamViewType.KEYS_ONLY);
		fixture.put("Orders", item("a"));
		Shard first = fixture.shards(arn).get(0);
		String latest = fixture.iterator(arn, first.shardId(), ShardIteratorType.LATEST, null);
		fixture.put("Orders", item("b"));
		fixture.put("Orders", item("c"));

		GetRecordsResponse rest = fixture.records(latest);
		List<Shard> children = fixture.streams
			.describeStream(DescribeStreamRequest.builder()
				.streamArn(arn)
				.shardFilter((filter) -> filter.type(ShardFilterType.CHILD_SHARDS).shardId(first.shardId()))
				.build())
			.streamDescription()
			.shards();

		assertThat(rest.records()).extracting(StreamsFixture::pk).containsExactly("b");
		assertThat(rest.nextShardIterator()).as("the shard closed and is read to its end").isNull();
		assertThat(children).hasSize(1);
		assertThat(fixture.drain(fixture.iterator(arn, children.get(0).shardId(), ShardIteratorType.TRIM_HORIZON, null)))
			.extracting(StreamsFixture::pk)
			.containsExactly("c");
	}

	@Test
	void describeStreamPagesShardsByLimitAndExclusiveStartShardId() {
		StreamsFixture fixture = new StreamsFixture(StreamsOptions.defaults().withShards(1, Duration.ofHours(4)));
		String arn = fixture.create("Orders", StreamViewType.KEYS_ONLY);
		for (int i = 0; i < 11; i++) {
			fixture.put("Orders", item("k" + i));
		}

		StreamDescription first = fixture.streams
			.describeStream(DescribeStreamRequest.builder().streamArn(arn).limit(5).build())
			.streamDescription();
		StreamDescription last = fixture.streams
			.describeStream(DescribeStreamRequest.builder()
				.streamArn(arn)
				.exclusiveStartShardId(fixture.shards(arn).get(9).shardId())
				.build())
			.streamDescription();
		StreamDescription afterLast = fixture.streams
			.describeStream(DescribeStreamRequest.builder()
				.streamArn(arn)
				.exclusiveStartShardId(last.shards().get(0).shardId())
				.build())
			.streamDescription();
		StreamDescription afterAnything = fixture.streams
			.describeStream(DescribeStreamRequest.builder()
				.streamArn(arn)
				.exclusiveStartShardId("zzzzzzzzzzzzzzzzzzzzzzzzsfasdgagadfadfgagkjsdfsfsdjfjks")
				.build())
			.streamDescription();

		assertThat(fixture.shards(arn)).hasSize(11).extracting(Shard::shardId).doesNotHaveDuplicates();
		assertThat(first.shards()).hasSize(5);
		assertThat(first.lastEvaluatedShardId()).isEqualTo(first.shards().get(4).shardId());
		assertThat(last.shards()).hasSize(1);
		assertThat(last.lastEvaluatedShardId()).isNull();
		assertThat(afterLast.shards()).isEmpty();
		assertThat(afterAnything.shards()).isEmpty();
	}

	@Test
	void childShardsOfAShardWithoutChildrenAreNone() {
		StreamsFixture fixture = new StreamsFixture();
		String arn = fixture.create("Orders", StreamViewType.KEYS_ONLY);
		String only = fixture.shards(arn).get(0).shardId();

		List<Shard> children = fixture.streams
			.describeStream(DescribeStreamRequest.builder()
				.streamArn(arn)
				.shardFilter((filter) -> filter.type(ShardFilterType.CHILD_SHARDS).shardId(only))
				.build())
			.streamDescription()
			.shards();

		assertThat(children).isEmpty();
	}

}
