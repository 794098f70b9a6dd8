package dev.dynamorelay.engine.streams;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import dev.dynamorelay.engine.action.AwsError;

import static dev.dynamorelay.engine.streams.StreamsFixture.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Streams enabled, disabled and enabled again, tables deleted, and records trimmed by age, number and bytes. */
class StreamLifecycleTest {

	private final StreamsFixture fixture = new StreamsFixture();

	@Test
	void aStreamIsNamedByTheTimeItWasEnabled() {
		String arn = this.fixture.create("Orders", StreamViewType.NEW_AND_OLD_IMAGES);

		StreamDescription description = this.fixture.describe(arn);

		assertThat(arn).isEqualTo("arn:aws:dynamodb:eu-west-1:000000000000:table/Orders/stream/2025-03-01T10:15:30.123");
		assertThat(description.streamLabel()).isEqualTo("2025-03-01T10:15:30.123");
		assertThat(description.streamStatus()).isEqualTo(StreamStatus.ENABLED);
		assertThat(description.streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
		assertThat(description.tableName()).isEqualTo("Orders");
		assertThat(description.keySchema()).extracting((key) -> key.attributeName()).containsExactly("pk");
		assertThat(description.creationRequestDateTime()).isEqualTo(StreamsFixture.START);
	}

	@Test
	void takesTheStreamsNameFromTheTableDescriptionWhenTheStoreGivesIt() {
		String arn = "arn:aws:dynamodb:ap-south-1:123456789012:table/Named/stream/2024-12-31T23:59:59.999";
		TableDescription table = StreamsFixture.table("Named", StreamViewType.KEYS_ONLY)
			.toBuilder()
			.latestStreamArn(arn)
			.latestStreamLabel("2024-12-31T23:59:59.999")
			.build();
		this.fixture.streams.tableChanged(Instant.now(), table, false);
		// Another change of the table (its throughput, say) keeps the stream.
		this.fixture.streams.tableChanged(Instant.now(), table, false);

		assertThat(this.fixture.list((request) -> request.tableName("Named")).streams())
			.singleElement()
			.satisfies((stream) -> {
				assertThat(stream.streamArn()).isEqualTo(arn);
				assertThat(stream.streamLabel()).isEqualTo("2024-12-31T23:59:59.999");
			});
	}

	@Test
	void disablingClosesTheShardAndLeavesTheStreamReadableForTheRetention() {
		String arn = this.fixture.create("Orders", StreamViewType.KEYS_ONLY);
		this.fixture.put("Orders", item("a"));
		this.fixture.clock.advance(Duration.ofSeconds(1));
		this.fixture.changeStream("Orders", null);
		this.fixture.put("Orders", item("b"));

		StreamDescription disabled = this.fixture.describe(arn);

		assertThat(disabled.streamStatus()).isEqualTo(StreamStatus.DISABLED);
		assertThat(disabled.shards()).allSatisfy((shard) -> assertThat(shard.sequenceNumberRange().endingSequenceNumber()).isNotNull());
		assertThat(this.fixture.readAll(arn)).extracting(StreamsFixture::pk).containsExactly("a");
		this.fixture.clock.advance(Duration.ofHours(24).minusSeconds(1));
		assertThat(this.fixture.describe(arn).streamStatus()).isEqualTo(StreamStatus.DISABLED);
		this.fixture.clock.advance(Duration.ofSeconds(1));
		assertThatThrownBy(() -> this.fixture.describe(arn)).isInstanceOf(AwsError.class)
			.hasMessage("Requested resource not found: Stream: " + arn + " not found");
		assertThat(this.fixture.list((request) -> request.tableName("Orders")).streams()).isEmpty();
	}

	@Test
	void enablingAgainMakesANewStreamBesideTheOldOne() {
		String old = this.fixture.create("Orders", StreamViewType.KEYS_ONLY);
		this.fixture.put("Orders", item("a"));
		this.fixture.changeStream("Orders", null);
		this.fixture.put("Orders", item("b"));
		// Enabled again within the same millisecond: still another label.
		String renewed = this.fixture.changeStream("Orders", StreamViewType.NEW_IMAGE);
		this.fixture.put("Orders", item("c"));

		ListStreamsResponse listed = this.fixture.list((request) -> request.tableName("Orders"));

		assertThat(renewed).isNotEqualTo(old);
		assertThat(listed.streams()).extracting((stream) -> stream.streamArn()).containsExactly(old, renewed);
		assertThat(this.fixture.describe(renewed).streamStatus()).isEqualTo(StreamStatus.ENABLED);
		assertThat(this.fixture.describe(renewed).streamViewType()).isEqualTo(StreamViewType.NEW_IMAGE);
		assertThat(this.fixture.readAll(old)).extracting(StreamsFixture::pk).containsExactly("a");
		assertThat(this.fixture.readAll(renewed)).extracting(StreamsFixture::pk).containsExactly("c");
	}

	@Test
	void aStreamEnabledAgainUnderItsOwnNameGoesOnInANewShard() {
		String arn = "arn:aws:dynamodb:eu-west-1:000000000000:table/Orders/stream/2025-03-01T10:15:30.123";
		TableDescription enabled = StreamsFixture.table("Orders", StreamViewType.KEYS_ONLY).toBuilder().latestStreamArn(arn).build();
		TableDescription disabled = StreamsFixture.table("Orders", null).toBuilder().latestStreamArn(arn).build();
		this.fixture.streams.tableChanged(this.fixture.clock.instant(), enabled, false);
		this.fixture.put("Orders", item("a"));
		this.fixture.streams.tableChanged(this.fixture.clock.instant(), disabled, false);
		this.fixture.streams.tableChanged(this.fixture.clock.instant(), enabled, false);
		this.fixture.put("Orders", item("b"));

		List<Shard> shards = this.fixture.shards(arn);

		assertThat(this.fixture.describe(arn).streamStatus()).isEqualTo(StreamStatus.ENABLED);
		assertThat(shards).hasSize(2);
		assertThat(shards.get(1).parentShardId()).isEqualTo(shards.get(0).shardId());
		assertThat(this.fixture.readAll(arn)).extracting(StreamsFixture::pk).containsExactly("a", "b");
	}

	@Test
	void deletingTheTableDisablesItsStream() {
		String arn = this.fixture.create("Orders", StreamViewType.KEYS_ONLY);
		this.fixture.put("Orders", item("a"));
		this.fixture.delete("Orders");
		String recreated = this.fixture.create("Orders", StreamViewType.KEYS_ONLY);

		assertThat(this.fixture.describe(arn).streamStatus()).isEqualTo(StreamStatus.DISABLED);
		assertThat(this.fixture.readAll(arn)).extracting(StreamsFixture::pk).containsExactly("a");
		assertThat(recreated).isNotEqualTo(arn);
	}

	@Test
	void trimsRecordsOlderThanTheRetention() {
		StreamsFixture fixture = new StreamsFixture(StreamsOptions.defaults().withShards(1_000, Duration.ofDays(2)));
		String arn = fixture.create("Orders", StreamViewType.KEYS_ONLY);
		fixture.put("Orders", item("old"));
		List<Record> before = fixture.readAll(arn);
		String shard = fixture.shards(arn).get(0).shardId();
		fixture.clock.advance(Duration.ofHours(12));
		fixture.put("Orders", item("young"));
		fixture.clock.advance(Duration.ofHours(12).minusMinutes(10));
		String horizon = fixture.iterator(arn, shard, ShardIteratorType.TRIM_HORIZON, null);
		String atOld = fixture.iterator(arn, shard, ShardIteratorType.AT_SEQUENCE_NUMBER,
				before.get(0).dynamodb().sequenceNumber());
		fixture.clock.advance(Duration.ofMinutes(10));

		assertThat(fixture.readAll(arn)).extracting(StreamsFixture::pk).containsExactly("young");
		// An iterator handed out before the trim that points at what is gone (the API Reference's second case).
		for (String iterator : List.of(horizon, atOld)) {
			assertThatThrownBy(() -> fixture.records(iterator)).isInstanceOf(AwsError.class)
				.hasMessage("The data you are trying to access has been trimmed")
				.extracting((error) -> ((AwsError) error).type())
				.isEqualTo("TrimmedDataAccessException");
		}
		// A sequence number older than the trim point (the first case).
		assertThatThrownBy(() -> fixture.iterator(arn, shard, ShardIteratorType.AT_SEQUENCE_NUMBER,
				before.get(0).dynamodb().sequenceNumber()))
			.isInstanceOf(AwsError.class)
			.extracting((error) -> ((AwsError) error).type())
			.isEqualTo("TrimmedDataAccessException");
		// After the trimmed record is no loss: that one is readable.
		assertThat(fixture.drain(fixture.iterator(arn, shard, ShardIteratorType.AFTER_SEQUENCE_NUMBER,
				before.get(0).dynamodb().sequenceNumber())))
			.extracting(StreamsFixture::pk)
			.containsExactly("young");
	}

	@Test
	void boundsAStreamByRecordsTrimmingTheOldest() {
		StreamsFixture bounded = new StreamsFixture(StreamsOptions.defaults().withBounds(5, Long.MAX_VALUE));
		String arn = bounded.create("Orders", StreamViewType.KEYS_ONLY);
		for (int i = 0; i < 8; i++) {
			bounded.put("Orders", item("k" + i));
		}

		assertThat(bounded.readAll(arn)).extracting(StreamsFixture::pk).containsExactly("k3", "k4", "k5", "k6", "k7");
	}

	@Test
	void boundsAStreamByBytesTrimmingTheOldest() {
		StreamsFixture bounded = new StreamsFixture(StreamsOptions.defaults().withBounds(Long.MAX_VALUE, 2_500));
		String arn = bounded.create("Orders", StreamViewType.NEW_IMAGE);
		for (int i = 0; i < 4; i++) {
			// About 1,010 bytes a record: two fit in 2,500.
			bounded.put("Orders", item("k" + i, "v", "x".repeat(1_000)));
		}

		assertThat(bounded.readAll(arn)).extracting(StreamsFixture::pk).containsExactly("k2", "k3");
	}

	@Test
	void dropsTheClosedShardsWhoseRecordsWereAllTrimmed() {
		StreamsFixture bounded = new StreamsFixture(StreamsOptions.defaults().withShards(2, Duration.ofHours(4)).withBounds(3, Long.MAX_VALUE));
		String arn = bounded.create("Orders", StreamViewType.KEYS_ONLY);
		for (int i = 0; i < 7; i++) {
			bounded.put("Orders", item("k" + i));
		}

		List<Shard> shards = bounded.shards(arn);

		// k0 k1 | k2 k3 | k4 k5 | k6, the three newest kept: the first two shards are gone.
		assertThat(shards).hasSize(2);
		assertThat(shards.get(0).parentShardId()).as("the parent gone, as DynamoDB lists it after 24 hours").isNotNull();
		assertThat(bounded.readAll(arn)).extracting(StreamsFixture::pk).containsExactly("k4", "k5", "k6");
		assertThatThrownBy(() -> bounded.iterator(arn, shards.get(0).parentShardId(), ShardIteratorType.TRIM_HORIZON, null))
			.isInstanceOf(AwsError.class)
			.hasMessage("Requested resource not found: Shard does not exist");
	}

	@Test
	void listStreamsPagesByLimitAndExclusiveStartStreamArn() {
		for (String table : List.of("Alpha", "Beta", "Gamma", "Delta", "Epsilon")) {
			this.fixture.create(table, StreamViewType.KEYS_ONLY);
		}
		this.fixture.create("Plain", null);

		ListStreamsResponse first = this.fixture.list((request) -> request.limit(2));
		ListStreamsResponse second = this.fixture.list((request) -> request.limit(2).exclusiveStartStreamArn(first.lastEvaluatedStreamArn()));
		ListStreamsResponse third = this.fixture.list((request) -> request.limit(2).exclusiveStartStreamArn(second.lastEvaluatedStreamArn()));

		assertThat(first.streams()).extracting((stream) -> stream.tableName()).containsExactly("Alpha", "Beta");
		assertThat(second.streams()).extracting((stream) -> stream.tableName()).containsExactly("Delta", "Epsilon");
		assertThat(third.streams()).extracting((stream) -> stream.tableName()).containsExactly("Gamma");
		assertThat(third.lastEvaluatedStreamArn()).isNull();
		assertThat(this.fixture.list((request) -> request.tableName("Nothing")).streams()).isEmpty();
	}

	@Test
	void describesADisabledStreamOfADeletedTableUntilItExpires() {
		String arn = this.fixture.create("Orders", StreamViewType.KEYS_ONLY);
		this.fixture.delete("Orders");
		this.fixture.clock.advance(Duration.ofHours(25));

		assertThatThrownBy(() -> this.fixture.streams.describeStream(DescribeStreamRequest.builder().streamArn(arn).build()))
			.isInstanceOf(AwsError.class)
			.extracting((error) -> ((AwsError) error).type())
			.isEqualTo("ResourceNotFoundException");
	}

}
