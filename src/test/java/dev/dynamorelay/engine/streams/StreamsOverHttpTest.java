package dev.dynamorelay.engine.streams;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.crt.AwsCrtHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardFilterType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import dev.dynamorelay.engine.action.Action;
import dev.dynamorelay.engine.DynamoDbEngine;
import dev.dynamorelay.engine.EngineOptions;

import static dev.dynamorelay.engine.streams.StreamsFixture.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The streams through the AWS SDK's {@link DynamoDbStreamsClient} over HTTP, on the engine's wire: what the SDK
 * reads is what the streams answer, its exceptions are DynamoDB Streams' own classes, and a reader that follows
 * shards from parent to child sees every record once, in order.
 */
class StreamsOverHttpTest {

	private final StreamsFixture fixture = new StreamsFixture(StreamsOptions.defaults().withShards(4, Duration.ofHours(4)));

	/** The streams the engine serves: each test's own. */
	private static volatile Streams served;

	private static DynamoDbEngine engine;

	private static DynamoDbStreamsClient sdk;

	@BeforeAll
	static void start() {
		String prefix = "DynamoDBStreams_20120810.";
		List<Action<?, ?>> actions = List.of(
				new Action<>(prefix + "ListStreams", ListStreamsRequest::builder, (request) -> served.listStreams(request)),
				new Action<>(prefix + "DescribeStream", DescribeStreamRequest::builder, (request) -> served.describeStream(request)),
				new Action<>(prefix + "GetShardIterator", GetShardIteratorRequest::builder,
						(request) -> served.getShardIterator(request)),
				new Action<>(prefix + "GetRecords", GetRecordsRequest::builder, (request) -> served.getRecords(request)));
		engine = DynamoDbEngine.start(EngineOptions.defaults().withActions(actions));
		sdk = DynamoDbStreamsClient.builder()
			.endpointOverride(engine.endpoint())
			.region(Region.EU_WEST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("any", "any")))
			.httpClientBuilder(AwsCrtHttpClient.builder().connectionTimeout(Duration.ofSeconds(5)))
			.overrideConfiguration((override) -> override.apiCallTimeout(Duration.ofSeconds(20))
				.retryStrategy((retry) -> retry.maxAttempts(1)))
			.build();
	}

	@BeforeEach
	void serve() {
		served = this.fixture.streams;
		this.client = sdk;
	}

	private DynamoDbStreamsClient client;

	@AfterAll
	static void stop() {
		sdk.close();
		engine.close();
	}

	@Test
	void theSdkReadsWhatTheStreamsAnswer() {
		String arn = this.fixture.create("Orders", StreamViewType.NEW_AND_OLD_IMAGES);
		this.fixture.put("Orders", item("a", "n", 1));
		this.fixture.put("Orders", item("a", "n", 2));
		this.fixture.remove("Orders", "a");
		this.fixture.remove("Orders", "missing");

		String shard = this.client.describeStream((request) -> request.streamArn(arn)).streamDescription().shards().get(0).shardId();
		String iterator = this.client.getShardIterator((request) -> request.streamArn(arn)
			.shardId(shard)
			.shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
		List<Record> read = this.client.getRecords((request) -> request.shardIterator(iterator)).records();

		assertThat(this.client.listStreams((request) -> request.tableName("Orders")).streams())
			.isEqualTo(this.fixture.list((request) -> request.tableName("Orders")).streams());
		assertThat(this.client.describeStream((request) -> request.streamArn(arn)).streamDescription())
			.isEqualTo(this.fixture.describe(arn));
		assertThat(read).isEqualTo(this.fixture.readAll(arn));
		assertThat(read).extracting(Record::eventName)
			.containsExactly(OperationType.INSERT, OperationType.MODIFY, OperationType.REMOVE);
		assertThat(read.get(1).dynamodb().oldImage()).isEqualTo(item("a", "n", 1));
		assertThat(read.get(1).dynamodb().newImage()).isEqualTo(item("a", "n", 2));
	}

	@Test
	void aReaderFollowingShardsFromParentToChildSeesEveryRecordOnceInOrder() {
		String arn = this.fixture.create("Orders", StreamViewType.NEW_IMAGE);
		Shard first = this.client.describeStream((request) -> request.streamArn(arn)).streamDescription().shards().get(0);
		String latest = this.client.getShardIterator((request) -> request.streamArn(arn)
			.shardId(first.shardId())
			.shardIteratorType(ShardIteratorType.LATEST)).shardIterator();
		for (int i = 0; i < 30; i++) {
			this.fixture.put("Orders", item("k" + (i % 3), "n", i));
		}

		List<String> read = new ArrayList<>();
		Shard shard = first;
		String next = latest;
		int shards = 1;
		while (read.size() < 30) {
			String iterator = next;
			GetRecordsResponse page = this.client.getRecords((request) -> request.shardIterator(iterator).limit(3));
			page.records().forEach((record) -> read.add(record.dynamodb().newImage().get("n").n()));
			next = page.nextShardIterator();
			if (next == null) {
				String parent = shard.shardId();
				shard = this.client.describeStream((request) -> request.streamArn(arn)
					.shardFilter((filter) -> filter.type(ShardFilterType.CHILD_SHARDS).shardId(parent)))
					.streamDescription()
					.shards()
					.get(0);
				String child = shard.shardId();
				next = this.client.getShardIterator((request) -> request.streamArn(arn)
					.shardId(child)
					.shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
				shards++;
			}
		}

		assertThat(read).containsExactlyElementsOf(java.util.stream.IntStream.range(0, 30).mapToObj(Integer::toString).toList());
		// Four records a shard: the reader went through eight.
		assertThat(shards).isEqualTo(8);
	}

	@Test
	void theSdkRaisesDynamoDbStreamsOwnExceptions() {
		String arn = this.fixture.create("Orders", StreamViewType.KEYS_ONLY);
		this.fixture.put("Orders", item("a"));
		String shard = this.client.describeStream((request) -> request.streamArn(arn)).streamDescription().shards().get(0).shardId();
		String horizon = this.client.getShardIterator((request) -> request.streamArn(arn)
			.shardId(shard)
			.shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();

		DynamoDbException invalid = catchThrowableOfType(DynamoDbException.class,
				() -> this.client.getRecords((request) -> request.shardIterator(horizon + "x")));
		ResourceNotFoundException noShard = catchThrowableOfType(ResourceNotFoundException.class,
				() -> this.client.getShardIterator((request) -> request.streamArn(arn)
					.shardId("shardId-00000000000000000000-00000000")
					.shardIteratorType(ShardIteratorType.LATEST)));
		this.fixture.clock.advance(Duration.ofMinutes(15));
		ExpiredIteratorException expired = catchThrowableOfType(ExpiredIteratorException.class,
				() -> this.client.getRecords((request) -> request.shardIterator(horizon)));
		// An iterator handed out five minutes before its record's 24 hours are over, used after them.
		this.fixture.clock.advance(Duration.ofHours(24).minusMinutes(20));
		String stale = this.client.getShardIterator((request) -> request.streamArn(arn)
			.shardId(shard)
			.shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
		this.fixture.clock.advance(Duration.ofMinutes(5));
		TrimmedDataAccessException trimmed = catchThrowableOfType(TrimmedDataAccessException.class,
				() -> this.client.getRecords((request) -> request.shardIterator(stale)));

		assertThat(invalid.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
		assertThat(invalid.awsErrorDetails().errorMessage()).isEqualTo("Invalid ShardIterator");
		assertThat(invalid.statusCode()).isEqualTo(400);
		assertThat(noShard.awsErrorDetails().errorMessage()).isEqualTo("Requested resource not found: Shard does not exist");
		assertThat(expired.awsErrorDetails().errorMessage()).isEqualTo("The provided iterator exceeds the maximum age allowed.");
		assertThat(trimmed.awsErrorDetails().errorMessage()).isEqualTo("The data you are trying to access has been trimmed");
	}

	@Test
	void aDisabledStreamIsListedBesideItsSuccessorAndReadable() {
		String old = this.fixture.create("Orders", StreamViewType.KEYS_ONLY);
		this.fixture.put("Orders", item("a"));
		this.fixture.changeStream("Orders", null);
		String renewed = this.fixture.changeStream("Orders", StreamViewType.KEYS_ONLY);

		var listed = this.client.listStreams((request) -> request.tableName("Orders")).streams();
		var disabled = this.client.describeStream((request) -> request.streamArn(old)).streamDescription();
		String iterator = this.client.getShardIterator((request) -> request.streamArn(old)
			.shardId(disabled.shards().get(0).shardId())
			.shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
		GetRecordsResponse records = this.client.getRecords((request) -> request.shardIterator(iterator));

		assertThat(listed).extracting((stream) -> stream.streamArn()).containsExactly(old, renewed);
		assertThat(disabled.streamStatus()).isEqualTo(StreamStatus.DISABLED);
		assertThat(new BigInteger(disabled.shards().get(0).sequenceNumberRange().endingSequenceNumber()))
			.isGreaterThan(new BigInteger(disabled.shards().get(0).sequenceNumberRange().startingSequenceNumber()));
		assertThat(records.records()).hasSize(1);
		// "If set to null, the shard has been closed": absent on the wire, null to the SDK.
		assertThat(records.nextShardIterator()).isNull();
	}

}
