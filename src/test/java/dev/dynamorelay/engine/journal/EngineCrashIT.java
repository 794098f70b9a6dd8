package dev.dynamorelay.engine.journal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

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
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import dev.dynamorelay.engine.EngineMain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * kill -9 of the standalone engine ({@code EngineMain --path DIR}) at any moment loses no write it answered: this
 * test writes to it over HTTP with the AWS SDK from four threads, each its own items one write at a time (version
 * v of an item deletes it when v is a multiple of 7, puts it with v otherwise, and shards roll over every 50
 * records), kills the process with SIGKILL after a random number of answered writes, starts it again on the
 * directory, and reads it back over HTTP: every item at the last version it answered or the one after (sent, its
 * answer lost), and its stream records its versions 1, 2, ... each once, in order, up to that one.
 *
 * <p>{@code -Dengine.crash.cycles=N} (default 10) and {@code -Dengine.crash.seed=S}.
 */
class EngineCrashIT {

	private static final int WRITERS = 4;

	private static final int ITEMS = 8;

	@TempDir
	Path directory;

	@Test
	void aKilledStandaloneEngineLosesNoWriteItAnswered() throws Exception {
		int cycles = Integer.getInteger("engine.crash.cycles", 10);
		long seed = Long.getLong("engine.crash.seed", System.nanoTime());
		Random random = new Random(seed);
		Map<String, Integer> answered = new ConcurrentHashMap<>();
		Path data = this.directory.resolve("data");
		long writes = 0;
		for (int cycle = 0; cycle <= cycles; cycle++) {
			String context = "seed " + seed + ", start " + cycle;
			Engine engine = new Engine(data, this.directory.resolve("engine-" + cycle + ".txt"));
			try (DynamoDbClient client = client(engine.endpoint); DynamoDbStreamsClient streams = streams(engine.endpoint)) {
				if (cycle == 0) {
					client.createTable((request) -> request.tableName("Items")
						.billingMode(BillingMode.PAY_PER_REQUEST)
						.attributeDefinitions((definition) -> definition.attributeName("pk").attributeType(ScalarAttributeType.S))
						.keySchema((key) -> key.attributeName("pk").keyType(KeyType.HASH))
						.streamSpecification((stream) -> stream.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
				}
				Map<String, Integer> versions = verify(context, client, streams, answered);
				// The writers go on from what was recovered: a write made but not answered before the kill is the
				// base of the next, so from now on it counts as answered.
				versions.forEach((pk, version) -> answered.merge(pk, version, Math::max));
				if (cycle == cycles) {
					break;
				}
				int kill = 20 + random.nextInt(400);
				Semaphore acknowledged = new Semaphore(0);
				AtomicBoolean killed = new AtomicBoolean();
				List<Thread> writers = new ArrayList<>();
				for (int w = 0; w < WRITERS; w++) {
					int writer = w;
					Thread thread = new Thread(() -> {
						for (long n = 0; !killed.get(); n++) {
							String pk = writer + "-" + (n % ITEMS);
							int version = versions.getOrDefault(pk, 0) + 1;
							try {
								if (version % 7 == 0) {
									client.deleteItem((request) -> request.tableName("Items").key(Map.of("pk", AttributeValue.fromS(pk))));
								}
								else {
									client.putItem((request) -> request.tableName("Items")
										.item(Map.of("pk", AttributeValue.fromS(pk), "v", AttributeValue.fromN(Integer.toString(version)))));
								}
							}
							catch (RuntimeException gone) {
								// The engine was killed under this write: it may or may not have been made.
								return;
							}
							versions.put(pk, version);
							answered.put(pk, version);
							acknowledged.release();
						}
					});
					thread.start();
					writers.add(thread);
				}
				assertThat(acknowledged.tryAcquire(kill, 120, TimeUnit.SECONDS)).as(context + ": writes answered").isTrue();
				writes += kill;
				killed.set(true);
				engine.kill();
				for (Thread writer : writers) {
					writer.join(TimeUnit.SECONDS.toMillis(60));
				}
				writes += acknowledged.availablePermits();
			}
			finally {
				engine.kill();
			}
		}
		System.out.println("EngineCrashIT: " + cycles + " kills, " + writes + " answered writes, seed " + seed);
	}

	/**
	 * Each item at its last answered version or the next; its stream records its versions in order, up to it.
	 * Returns each item's version, to go on from.
	 */
	private static Map<String, Integer> verify(String context, DynamoDbClient client, DynamoDbStreamsClient streams,
			Map<String, Integer> answered) {
		Map<String, Integer> items = new HashMap<>();
		Map<String, AttributeValue> after = null;
		do {
			Map<String, AttributeValue> start = after;
			ScanResponse page = client.scan((request) -> request.tableName("Items").exclusiveStartKey(start));
			page.items().forEach((item) -> items.put(item.get("pk").s(), Integer.parseInt(item.get("v").n())));
			after = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
		}
		while (after != null);
		String arn = client.describeTable((request) -> request.tableName("Items")).table().latestStreamArn();
		List<Shard> shards = new ArrayList<>();
		String last = null;
		do {
			String from = last;
			var page = streams.describeStream((request) -> request.streamArn(arn).exclusiveStartShardId(from)).streamDescription();
			shards.addAll(page.shards());
			last = page.lastEvaluatedShardId();
		}
		while (last != null);
		Map<String, Integer> streamed = new HashMap<>();
		for (Shard shard : shards) {
			String iterator;
			try {
				iterator = streams.getShardIterator((request) -> request.streamArn(arn)
					.shardId(shard.shardId())
					.shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
			}
			catch (ResourceNotFoundException gone) {
				continue;
			}
			while (iterator != null) {
				String current = iterator;
				var page = streams.getRecords((request) -> request.shardIterator(current));
				for (Record record : page.records()) {
					String pk = record.dynamodb().keys().get("pk").s();
					int version = (record.eventName() == OperationType.REMOVE)
							? Integer.parseInt(record.dynamodb().oldImage().get("v").n()) + 1
							: Integer.parseInt(record.dynamodb().newImage().get("v").n());
					assertThat(version).as(context + ": the record of " + pk + " after version " + streamed.get(pk))
						.isEqualTo(streamed.getOrDefault(pk, 0) + 1);
					streamed.put(pk, version);
				}
				iterator = page.records().isEmpty() ? null : page.nextShardIterator();
			}
		}
		List<String> keys = new ArrayList<>(answered.keySet());
		keys.addAll(streamed.keySet());
		for (String pk : keys) {
			int acknowledged = answered.getOrDefault(pk, 0);
			int version = streamed.getOrDefault(pk, 0);
			assertThat(version).as(context + ": the version of " + pk + " recovered, after " + acknowledged + " was answered")
				.isBetween(acknowledged, acknowledged + 1);
			Integer expected = (version == 0 || version % 7 == 0) ? null : version;
			assertThat(items.get(pk)).as(context + ": the item " + pk + " at version " + version).isEqualTo(expected);
		}
		return new ConcurrentHashMap<>(streamed);
	}

	private static DynamoDbClient client(URI endpoint) {
		return DynamoDbClient.builder()
			.endpointOverride(endpoint)
			.region(Region.EU_WEST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("any", "any")))
			.httpClientBuilder(AwsCrtHttpClient.builder().connectionTimeout(Duration.ofSeconds(5)))
			// A write is sent once: a retry could make it after the answer the test counts.
			.overrideConfiguration((override) -> override.apiCallTimeout(Duration.ofSeconds(20)).retryStrategy((retry) -> retry.maxAttempts(1)))
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

	/** The standalone engine in a JVM of its own, and its endpoint once it listens. */
	private static final class Engine {

		private final Process process;

		final URI endpoint;

		Engine(Path data, Path output) throws IOException, InterruptedException {
			String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
			this.process = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m", "-cp",
					System.getProperty("java.class.path"), EngineMain.class.getName(), "--port", "0", "--path",
					data.toString(), "--shard-rollover-records", "50")
				.redirectErrorStream(true)
				.start();
			BufferedReader lines = new BufferedReader(new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8));
			String first = lines.readLine();
			if (first == null || !first.startsWith("DynamoDB engine listening on ")) {
				this.process.destroyForcibly();
				this.process.waitFor(30, TimeUnit.SECONDS);
				Files.writeString(output, String.valueOf(first));
				fail("the engine did not start: " + first);
			}
			this.endpoint = URI.create(first.substring("DynamoDB engine listening on ".length(), first.indexOf(" (")));
			// Whatever else it prints goes to a file, so that its output never blocks it.
			Thread drain = new Thread(() -> {
				try {
					Files.write(output, lines.lines().toList());
				}
				catch (IOException | java.io.UncheckedIOException ex) {
					// It was killed.
				}
			});
			drain.setDaemon(true);
			drain.start();
		}

		void kill() throws InterruptedException {
			// SIGKILL on Unix: no shutdown hook runs, nothing is closed or flushed.
			this.process.destroyForcibly();
			this.process.waitFor(30, TimeUnit.SECONDS);
		}

	}

}
