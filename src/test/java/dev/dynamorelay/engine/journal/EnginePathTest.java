package dev.dynamorelay.engine.journal;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.crt.AwsCrtHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import dev.dynamorelay.engine.DynamoDbEngine;
import dev.dynamorelay.engine.EngineMainAccess;
import dev.dynamorelay.engine.EngineOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The engine with {@code --path}, through the AWS SDK over HTTP: what it kept after a restart, and its refusals. */
class EnginePathTest {

	@TempDir
	Path directory;

	private static DynamoDbClient client(URI endpoint) {
		return DynamoDbClient.builder()
			.endpointOverride(endpoint)
			.region(Region.EU_WEST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("any", "any")))
			.httpClientBuilder(AwsCrtHttpClient.builder().connectionTimeout(Duration.ofSeconds(5)))
			.overrideConfiguration((override) -> override.apiCallTimeout(Duration.ofSeconds(20)))
			.build();
	}

	private static DynamoDbStreamsClient streams(URI endpoint) {
		return DynamoDbStreamsClient.builder()
			.endpointOverride(endpoint)
			.region(Region.EU_WEST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("any", "any")))
			.httpClientBuilder(AwsCrtHttpClient.builder().connectionTimeout(Duration.ofSeconds(5)))
			.overrideConfiguration((override) -> override.apiCallTimeout(Duration.ofSeconds(20)))
			.build();
	}

	/** What a client sees: the table, its Time to Live, its items, its stream's records. */
	private static List<Object> seen(URI endpoint) {
		try (DynamoDbClient client = client(endpoint); DynamoDbStreamsClient streams = streams(endpoint)) {
			List<Object> seen = new ArrayList<>();
			var table = client.describeTable((request) -> request.tableName("Orders")).table();
			seen.add(table);
			seen.add(client.describeTimeToLive((request) -> request.tableName("Orders")).timeToLiveDescription());
			seen.add(client.scan((request) -> request.tableName("Orders")).items());
			String arn = table.latestStreamArn();
			List<Record> records = new ArrayList<>();
			for (var shard : streams.describeStream((request) -> request.streamArn(arn)).streamDescription().shards()) {
				String iterator = streams.getShardIterator((request) -> request.streamArn(arn)
					.shardId(shard.shardId())
					.shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
				records.addAll(streams.getRecords((request) -> request.shardIterator(iterator)).records());
			}
			seen.add(records);
			return seen;
		}
	}

	private void write(URI endpoint) {
		try (DynamoDbClient client = client(endpoint)) {
			client.createTable((request) -> request.tableName("Orders")
				.billingMode(BillingMode.PAY_PER_REQUEST)
				.attributeDefinitions((definition) -> definition.attributeName("pk").attributeType(ScalarAttributeType.S))
				.keySchema((key) -> key.attributeName("pk").keyType(KeyType.HASH))
				.streamSpecification((stream) -> stream.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
			for (int i = 0; i < 20; i++) {
				int n = i;
				client.putItem((request) -> request.tableName("Orders")
					.item(Map.of("pk", AttributeValue.fromS("k" + (n % 6)), "n", AttributeValue.fromN(Integer.toString(n)))));
			}
			client.putItem((request) -> request.tableName("Orders")
				.item(Map.of("pk", AttributeValue.fromS("k1"), "n", AttributeValue.fromN("20"), "tag", AttributeValue.fromS("x"))));
			client.deleteItem((request) -> request.tableName("Orders").key(Map.of("pk", AttributeValue.fromS("k2"))));
			client.updateTimeToLive((request) -> request.tableName("Orders")
				.timeToLiveSpecification((ttl) -> ttl.enabled(true).attributeName("expires")));
		}
	}

	@Test
	void keepsTablesItemsTimeToLiveAndStreamRecordsAcrossARestart() {
		List<Object> before;
		try (DynamoDbEngine engine = DynamoDbEngine.start(EngineOptions.defaults().withPath(this.directory))) {
			write(engine.endpoint());
			before = seen(engine.endpoint());
		}

		try (DynamoDbEngine engine = DynamoDbEngine.start(EngineOptions.defaults().withPath(this.directory))) {
			assertThat(seen(engine.endpoint())).isEqualTo(before);
			assertThat((List<?>) before.get(2)).hasSize(5);
			assertThat((List<?>) before.get(3)).hasSize(22);
		}
	}

	@Test
	void aSecondEngineOnTheDirectoryIsRefused() {
		try (DynamoDbEngine engine = DynamoDbEngine.start(EngineOptions.defaults().withPath(this.directory))) {
			assertThatThrownBy(() -> DynamoDbEngine.start(EngineOptions.defaults().withPath(this.directory)))
				.isInstanceOf(JournalUnusableException.class)
				.hasMessage("Another engine uses " + this.directory + " (it holds " + this.directory.resolve("lock") + ")");
		}
	}

	@Test
	void aDamagedJournalStopsTheStandaloneEngineWithItsMessage() throws Exception {
		try (DynamoDbEngine engine = DynamoDbEngine.start(EngineOptions.defaults().withPath(this.directory))) {
			write(engine.endpoint());
		}
		Path log = JournalFiles.files(this.directory, Pattern.compile("log-(\\d{20})\\.log")).firstEntry().getValue();
		byte[] bytes = Files.readAllBytes(log);
		bytes[bytes.length / 2] ^= 0x10;
		Files.write(log, bytes);

		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int status = EngineMainAccess.run(new String[] { "--port", "0", "--path", this.directory.toString() },
				new PrintStream(out), new PrintStream(err));

		assertThat(status).isEqualTo(1);
		assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
		assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("dynamodb: The journal in " + this.directory + " is damaged: "
				+ log.getFileName() + " has a damaged record at byte ")
			.contains("Move " + this.directory + " aside");
	}

}
