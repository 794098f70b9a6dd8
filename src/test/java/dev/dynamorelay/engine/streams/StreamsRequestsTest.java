package dev.dynamorelay.engine.streams;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import dev.dynamorelay.engine.action.AwsError;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every request member checked as the DynamoDB Streams API Reference constrains it, with the message AWS's
 * services give a failed constraint; and the refusals of streams and shards that are not there.
 */
class StreamsRequestsTest {

	private final StreamsFixture fixture = new StreamsFixture();

	private Streams streams;

	private String arn;

	private String shard;

	@BeforeEach
	void stream() {
		this.streams = this.fixture.streams;
		this.arn = this.fixture.create("Orders", StreamViewType.KEYS_ONLY);
		this.shard = this.fixture.shards(this.arn).get(0).shardId();
	}

	private static void refused(ThrowingCallable call, String type, String message) {
		assertThatThrownBy(call).isInstanceOf(AwsError.class)
			.hasMessage(message)
			.satisfies((error) -> {
				assertThat(((AwsError) error).type()).isEqualTo(type);
				assertThat(((AwsError) error).status()).isEqualTo(400);
			});
	}

	private static void invalid(ThrowingCallable call, String message) {
		refused(call, "ValidationException", message);
	}

	@Test
	void listStreamsChecksItsMembers() {
		invalid(() -> this.streams.listStreams(ListStreamsRequest.builder().limit(0).build()),
				"1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1");
		invalid(() -> this.streams.listStreams(ListStreamsRequest.builder().limit(101).build()),
				"1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100");
		invalid(() -> this.streams.listStreams(ListStreamsRequest.builder().tableName("a b").limit(-1).build()),
				"2 validation errors detected: Value 'a b' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; "
						+ "Value '-1' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1");
		invalid(() -> this.streams.listStreams(ListStreamsRequest.builder().tableName("ab").build()),
				"1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3");
		invalid(() -> this.streams.listStreams(ListStreamsRequest.builder().exclusiveStartStreamArn("short").build()),
				"1 validation error detected: Value 'short' at 'exclusiveStartStreamArn' failed to satisfy constraint: Member must have length greater than or equal to 37");
		invalid(() -> this.streams.listStreams(
				ListStreamsRequest.builder().exclusiveStartStreamArn("kossaapaaasdafsdaasdasdasdasasdasfadfadfasdasdas").build()),
				"Invalid ExclusiveStartStreamArn");
	}

	@Test
	void describeStreamChecksItsMembers() {
		invalid(() -> this.streams.describeStream(DescribeStreamRequest.builder().build()),
				"1 validation error detected: Value null at 'streamArn' failed to satisfy constraint: Member must not be null");
		invalid(() -> this.streams.describeStream(DescribeStreamRequest.builder().streamArn(this.arn).limit(0).exclusiveStartShardId("short").build()),
				"2 validation errors detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1; "
						+ "Value 'short' at 'exclusiveStartShardId' failed to satisfy constraint: Member must have length greater than or equal to 28");
		invalid(() -> this.streams.describeStream(DescribeStreamRequest.builder()
			.streamArn(this.arn)
			.shardFilter((filter) -> filter.type("PARENT_SHARDS").shardId(this.shard))
			.build()),
				"1 validation error detected: Value 'PARENT_SHARDS' at 'shardFilter.type' failed to satisfy constraint: Member must satisfy enum value set: [CHILD_SHARDS]");
		invalid(() -> this.streams.describeStream(DescribeStreamRequest.builder()
			.streamArn(this.arn)
			.shardFilter((filter) -> filter.type("CHILD_SHARDS"))
			.build()), "A ShardFilter of type CHILD_SHARDS needs a ShardId");
		// DynamoDB answers a malformed ARN with a ValidationException.
		invalid(() -> this.streams.describeStream(
				DescribeStreamRequest.builder().streamArn("sdfadfsdfnlfkajakfgjalksfgklasjklasdjfklasdfasdfgasf").build()),
				"Invalid StreamArn");
		String missing = "arn:aws:dynamodb:eu-west-1:000000000000:table/Orders/stream/2000-01-01T00:00:00.000";
		refused(() -> this.streams.describeStream(DescribeStreamRequest.builder().streamArn(missing).build()),
				"ResourceNotFoundException", "Requested resource not found: Stream: " + missing + " not found");
	}

	@Test
	void getShardIteratorChecksItsMembers() {
		invalid(() -> this.streams.getShardIterator(GetShardIteratorRequest.builder().build()),
				"3 validation errors detected: Value null at 'streamArn' failed to satisfy constraint: Member must not be null; "
						+ "Value null at 'shardId' failed to satisfy constraint: Member must not be null; "
						+ "Value null at 'shardIteratorType' failed to satisfy constraint: Member must not be null");
		invalid(() -> this.streams.getShardIterator(GetShardIteratorRequest.builder()
			.streamArn(this.arn)
			.shardId(this.shard)
			.shardIteratorType("bulle")
			.sequenceNumber("123")
			.build()),
				"2 validation errors detected: Value 'bulle' at 'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: [TRIM_HORIZON, LATEST, AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER]; "
						+ "Value '123' at 'sequenceNumber' failed to satisfy constraint: Member must have length greater than or equal to 21");
		invalid(() -> this.streams.getShardIterator(GetShardIteratorRequest.builder()
			.streamArn("sdfadsfsdfsdgdfsgsfdabadfbabdadsfsdfsdfsdfsdfsdfsdfdfdssdffbdfdf")
			.shardId(this.shard)
			.shardIteratorType(ShardIteratorType.LATEST)
			.build()), "Invalid StreamArn");
		invalid(() -> this.streams.getShardIterator(GetShardIteratorRequest.builder()
			.streamArn(this.arn)
			.shardId(this.shard)
			.shardIteratorType(ShardIteratorType.LATEST)
			.sequenceNumber("sdfsafglldfngjdafnasdflgnaldklkafdsgklnasdlv")
			.build()),
				"1 validation error detected: Value 'sdfsafglldfngjdafnasdflgnaldklkafdsgklnasdlv' at 'sequenceNumber' failed to satisfy constraint: Member must have length less than or equal to 40");
		refused(() -> this.streams.getShardIterator(GetShardIteratorRequest.builder()
			.streamArn(this.arn)
			.shardId("semprinidfaasdasfsdvacsdcfsdsvsdvsdvsdvsdvsdv")
			.shardIteratorType(ShardIteratorType.LATEST)
			.build()), "ResourceNotFoundException", "Requested resource not found: Shard does not exist");
	}

	@Test
	void getRecordsChecksItsMembers() {
		String iterator = this.fixture.iterator(this.arn, this.shard, ShardIteratorType.LATEST, null);

		invalid(() -> this.streams.getRecords(GetRecordsRequest.builder().build()),
				"1 validation error detected: Value null at 'shardIterator' failed to satisfy constraint: Member must not be null");
		invalid(() -> this.streams.getRecords(GetRecordsRequest.builder().shardIterator(iterator).limit(1001).build()),
				"1 validation error detected: Value '1001' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 1000");
		invalid(() -> this.streams.getRecords(GetRecordsRequest.builder().shardIterator(iterator).limit(0).build()),
				"1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1");
		invalid(() -> this.streams.getRecords(GetRecordsRequest.builder().shardIterator("").build()),
				"1 validation error detected: Value '' at 'shardIterator' failed to satisfy constraint: Member must have length greater than or equal to 1");
		assertThat(this.streams.getRecords(GetRecordsRequest.builder().shardIterator(iterator).limit(1000).build()).records())
			.isEmpty();
	}

}
