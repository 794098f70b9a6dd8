package dev.dynamorelay.command.dynamodb;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code java -jar dynamo-relay.jar dynamodb} as a user runs it (the packaged jar, a process of its own): the
 * engine on its own, without Spring, serving the SDK's DynamoDB and DynamoDB Streams clients; stopped by SIGTERM;
 * its usage mistakes as the jar's other commands answer them.
 */
class DynamoDbCommandIT {

	private static final Path JAR = Path.of("target/dynamo-relay-0.1.0-SNAPSHOT.jar");

	private static final Pattern LISTENING = Pattern.compile(
			"DynamoDB engine listening on (http://127\\.0\\.0\\.1:[0-9]+) \\(in memory\\)");

	@TempDir
	Path dir;

	@Test
	void theEngineRunsOnItsOwnWithoutSpringUntilItIsStopped() throws Exception {
		Path classes = this.dir.resolve("classes.log");
		Process engine = start(List.of("-Xlog:class+load=info:file=" + classes), "dynamodb", "--port=0");
		try {
			BufferedReader out = new BufferedReader(new InputStreamReader(engine.getInputStream(), StandardCharsets.UTF_8));
			CompletableFuture<String> stderr = CompletableFuture
				.supplyAsync(() -> new String(readAll(engine.getErrorStream()), StandardCharsets.UTF_8));
			CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> readLine(out));
			String first = line.get(120, TimeUnit.SECONDS);
			Matcher listening = LISTENING.matcher(String.valueOf(first));
			assertThat(listening.matches()).as("its one line: %s", first).isTrue();
			URI endpoint = URI.create(listening.group(1));

			try (DynamoDbClient dynamoDb = DynamoDbClient.builder()
				.httpClient(UrlConnectionHttpClient.create())
				.endpointOverride(endpoint)
				.region(Region.US_EAST_1)
				.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("any", "any")))
				.build();
					DynamoDbStreamsClient streams = DynamoDbStreamsClient.builder()
						.httpClient(UrlConnectionHttpClient.create())
						.endpointOverride(endpoint)
						.region(Region.US_EAST_1)
						.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("any", "any")))
						.build()) {
				dynamoDb.createTable((create) -> create.tableName("Notes")
					.keySchema((key) -> key.attributeName("id").keyType(KeyType.HASH))
					.attributeDefinitions((attribute) -> attribute.attributeName("id").attributeType(ScalarAttributeType.S))
					.billingMode(BillingMode.PAY_PER_REQUEST)
					.streamSpecification((stream) -> stream.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE)));
				dynamoDb.putItem((put) -> put.tableName("Notes")
					.item(Map.of("id", AttributeValue.fromS("n1"), "text", AttributeValue.fromS("hello"))));
				assertThat(dynamoDb.getItem((get) -> get.tableName("Notes").key(Map.of("id", AttributeValue.fromS("n1"))))
					.item()).containsEntry("text", AttributeValue.fromS("hello"));

				String arn = dynamoDb.describeTable((describe) -> describe.tableName("Notes")).table().latestStreamArn();
				String shard = streams.describeStream((describe) -> describe.streamArn(arn))
					.streamDescription()
					.shards()
					.get(0)
					.shardId();
				String iterator = streams.getShardIterator((get) -> get.streamArn(arn)
					.shardId(shard)
					.shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
				List<Record> records = streams.getRecords((get) -> get.shardIterator(iterator)).records();
				assertThat(records).singleElement().satisfies((record) -> {
					assertThat(record.eventName()).isEqualTo(OperationType.INSERT);
					assertThat(record.dynamodb().newImage()).containsEntry("text", AttributeValue.fromS("hello"));
				});
			}

			// SIGTERM, leaving the process's streams open to be read to their end (Process.destroy closes them)
			engine.toHandle().destroy();
			assertThat(engine.waitFor(30, TimeUnit.SECONDS)).as("stopped by SIGTERM").isTrue();
			assertThat(readLine(out)).as("nothing more on standard output").isNull();
			assertThat(stderr.get(30, TimeUnit.SECONDS)).as("standard error").isEmpty();
		}
		finally {
			engine.destroyForcibly();
		}
		List<String> loaded = Files.readAllLines(classes);
		assertThat(loaded).as("the engine ran").anyMatch((entry) -> entry.contains(" dev.dynamorelay.engine.DynamoDbEngine "));
		assertThat(loaded).as("no Spring context, no other command's classes")
			.noneMatch((entry) -> entry.contains(" org.springframework.context.") || entry.contains(" picocli."));
	}

	@Test
	void aUsageMistakeIsOneLineWithTheUsageAndExitCode2() throws Exception {
		Result port = run("dynamodb", "--port", "eighty");
		assertThat(port.code()).as(port.stderr()).isEqualTo(2);
		assertThat(port.stdout()).isEmpty();
		assertThat(port.stderr()).isEqualTo("dynamodb: --port takes a whole number, not eighty. Usage: java -jar "
				+ "dynamo-relay.jar dynamodb [--port PORT] [--path DIR] [OPTIONS]\n");
		Result unknown = run("dynamodb", "--sharedDb");
		assertThat(unknown.code()).isEqualTo(2);
		assertThat(unknown.stderr()).startsWith("dynamodb: ").contains(" Usage: java -jar dynamo-relay.jar dynamodb ");
		assertThat(unknown.stderr().strip()).as("one line").doesNotContain("\n", "Exception");
	}

	@Test
	void theHelpSaysWhatItRunsAndItsOptions() throws Exception {
		Result help = run("dynamodb", "--help");
		assertThat(help.code()).isZero();
		assertThat(help.stdout()).startsWith("Runs the project's own DynamoDB engine on its own")
			.contains("Usage: java -jar dynamo-relay.jar dynamodb [--port PORT] [--path DIR] [OPTIONS]", "--port PORT",
					"--path DIR", "--throttle SHARE", "Exit codes:");
		assertThat(help.stderr()).isEmpty();
	}

	private static String readLine(BufferedReader reader) {
		try {
			return reader.readLine();
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	private static Process start(List<String> jvm, String... args) throws Exception {
		assertThat(JAR).as("the jar, built by `package` before the integration tests").exists();
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(jvm);
		command.add("-jar");
		command.add(JAR.toString());
		command.addAll(List.of(args));
		return new ProcessBuilder(command).start();
	}

	private static Result run(String... args) throws Exception {
		Process process = start(List.of(), args);
		CompletableFuture<String> stderr = CompletableFuture
			.supplyAsync(() -> new String(readAll(process.getErrorStream()), StandardCharsets.UTF_8));
		String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		return new Result(process.exitValue(), stdout, stderr.get(60, TimeUnit.SECONDS));
	}

	private static byte[] readAll(java.io.InputStream in) {
		try {
			return in.readAllBytes();
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	private record Result(int code, String stdout, String stderr) {
	}

}
