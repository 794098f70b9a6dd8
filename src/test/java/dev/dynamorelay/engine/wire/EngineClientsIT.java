package dev.dynamorelay.engine.wire;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.dynamorelay.engine.DynamoDbEngine;
import dev.dynamorelay.engine.EngineOptions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The clients other than Java's against the engine: the AWS SDK for JavaScript v3 ({@code src/test/js/engine},
 * its packages installed from its own package-lock.json) and the aws CLI (botocore, which checks the CRC32 of
 * DynamoDB's answers as the Java SDK does).
 */
class EngineClientsIT {

	private static final Path JS = Path.of("src", "test", "js", "engine");

	private static final Path OUT = Path.of("target", "engine-clients");

	private static final TestActions ACTIONS = new TestActions();

	private static DynamoDbEngine engine;

	@BeforeAll
	static void start() throws Exception {
		engine = DynamoDbEngine.start(EngineOptions.defaults().withActions(ACTIONS.actions()));
		Files.createDirectories(OUT);
	}

	@AfterAll
	static void stop() {
		engine.close();
	}

	@Test
	void theJavaScriptSdkV3ReadsEveryAnswerAndError() throws Exception {
		Run install = run(List.of("node", "install.mjs"), JS, Map.of(), "js-install.log");
		assertThat(install.exit()).as("npm ci in src/test/js/engine; see target/engine-clients/js-install.log").isZero();
		Run tests = run(List.of("node", "--test", "--test-concurrency=1", "wire.test.mjs"), JS,
				Map.of("ENDPOINT", engine.endpoint().toString()), "js.log");
		assertThat(tests.exit()).as("the JavaScript SDK's tests; see target/engine-clients/js.log\n" + tests.output())
			.isZero();
		assertThat(tests.output()).contains("# fail 0").doesNotContain("# pass 0");
	}

	@Test
	void theAwsCliReadsItemsTablesStreamsAndErrors() throws Exception {
		assumeAwsCli();
		RunResult put = aws("dynamodb", "put-item", "--table-name", "things", "--item",
				"{\"id\":{\"S\":\"cli\"},\"n\":{\"N\":\"1.50\"},\"b\":{\"B\":\"AQI=\"},\"ss\":{\"SS\":[\"x\",\"y\"]}}");
		assertThat(put.exit()).as(put.output()).isZero();
		RunResult get = aws("dynamodb", "get-item", "--table-name", "things", "--key", "{\"id\":{\"S\":\"cli\"}}");
		assertThat(get.exit()).as(get.output()).isZero();
		// The aws CLI v1 takes a blob's text on its command line as the bytes themselves ("AQI=" is 4 bytes),
		// and prints a blob as its base64.
		assertThat(get.output().replaceAll("\\s", "")).isEqualTo("{\"Item\":{\"id\":{\"S\":\"cli\"},\"n\":{\"N\":\"1.50\"},"
				+ "\"b\":{\"B\":\"QVFJPQ==\"},\"ss\":{\"SS\":[\"x\",\"y\"]}}}");
		assertThat(ACTIONS.items.get("cli").get("b").b().asUtf8String()).isEqualTo("AQI=");
		RunResult described = aws("dynamodb", "describe-table", "--table-name", "things");
		assertThat(described.exit()).as(described.output()).isZero();
		assertThat(described.output()).contains("\"TableArn\": \"arn:aws:dynamodb:eu-central-1:000000000000:table/things\"")
			.contains("\"CreationDateTime\": 1700000000.123");
		RunResult failed = aws("dynamodb", "put-item", "--table-name", "things", "--item", "{\"id\":{\"S\":\"cli\"}}",
				"--condition-expression", "attribute_not_exists(id)", "--return-values-on-condition-check-failure",
				"ALL_OLD");
		assertThat(failed.exit()).isNotZero();
		assertThat(failed.output()).contains("An error occurred (ConditionalCheckFailedException) when calling the "
				+ "PutItem operation: The conditional request failed");
		RunResult records = aws("dynamodbstreams", "get-records", "--shard-iterator", "it");
		assertThat(records.exit()).as(records.output()).isZero();
		assertThat(records.output()).contains("\"eventName\": \"INSERT\"").contains("\"NextShardIterator\": \"it-next\"")
			.contains("\"awsRegion\": \"eu-central-1\"");
		RunResult unknown = aws("dynamodb", "describe-backup", "--backup-arn",
				"arn:aws:dynamodb:eu-central-1:000000000000:table/things/backup/01234567890123-abcdefgh");
		assertThat(unknown.output()).contains("UnknownOperationException");
	}

	/**
	 * The aws CLI against the engine as a process of its own, streams included: a table with a stream, items
	 * written and read, the stream's records of them.
	 */
	@Test
	void theAwsCliDrivesAStandaloneEngineStreamsIncluded() throws Exception {
		assumeAwsCli();
		Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), "dev.dynamorelay.engine.EngineMain", "--port", "0")
			.redirectErrorStream(true)
			.start();
		try {
			String line = new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream(),
					StandardCharsets.UTF_8)).readLine();
			assertThat(line).startsWith("DynamoDB engine listening on http://");
			String endpoint = line.split(" ")[4];
			RunResult created = awsAt(endpoint, "dynamodb", "create-table", "--table-name", "Cli",
					"--attribute-definitions", "AttributeName=pk,AttributeType=S", "--key-schema",
					"AttributeName=pk,KeyType=HASH", "--billing-mode", "PAY_PER_REQUEST", "--stream-specification",
					"StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES");
			assertThat(created.exit()).as(created.output()).isZero();
			assertThat(created.output()).contains("\"TableArn\": \"arn:aws:dynamodb:us-east-1:000000000000:table/Cli\"");
			for (String pk : List.of("a", "b")) {
				RunResult put = awsAt(endpoint, "dynamodb", "put-item", "--table-name", "Cli", "--item",
						"{\"pk\":{\"S\":\"" + pk + "\"},\"n\":{\"N\":\"1\"}}");
				assertThat(put.exit()).as(put.output()).isZero();
			}
			RunResult scan = awsAt(endpoint, "dynamodb", "scan", "--table-name", "Cli");
			assertThat(scan.exit()).as(scan.output()).isZero();
			assertThat(scan.output()).contains("\"Count\": 2").contains("\"ScannedCount\": 2");
			RunResult streams = awsAt(endpoint, "dynamodbstreams", "list-streams", "--table-name", "Cli");
			assertThat(streams.exit()).as(streams.output()).isZero();
			String arn = streams.output().replaceAll("(?s).*\"StreamArn\": \"([^\"]+)\".*", "$1");
			RunResult described = awsAt(endpoint, "dynamodbstreams", "describe-stream", "--stream-arn", arn);
			assertThat(described.exit()).as(described.output()).isZero();
			String shard = described.output().replaceAll("(?s).*\"ShardId\": \"([^\"]+)\".*", "$1");
			RunResult iterator = awsAt(endpoint, "dynamodbstreams", "get-shard-iterator", "--stream-arn", arn, "--shard-id",
					shard, "--shard-iterator-type", "TRIM_HORIZON");
			assertThat(iterator.exit()).as(iterator.output()).isZero();
			String it = iterator.output().replaceAll("(?s).*\"ShardIterator\": \"([^\"]+)\".*", "$1");
			RunResult records = awsAt(endpoint, "dynamodbstreams", "get-records", "--shard-iterator", it);
			assertThat(records.exit()).as(records.output()).isZero();
			assertThat(records.output().split("\"eventName\": \"INSERT\"", -1)).hasSize(3);
			assertThat(records.output()).contains("\"NewImage\"").contains("\"pk\": {");
		}
		finally {
			process.destroy();
			process.waitFor(20, TimeUnit.SECONDS);
		}
	}

	private static void assumeAwsCli() {
		for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			if (new File(directory, "aws").canExecute()) {
				return;
			}
		}
		String message = "\n*** NO aws CLI ON THE PATH: the aws CLI test is SKIPPED, NOT PASSED. ***\n";
		System.err.println(message);
		Assumptions.abort(message);
	}

	private static RunResult aws(String... args) throws Exception {
		return awsAt(engine.endpoint().toString(), args);
	}

	private static RunResult awsAt(String endpoint, String... args) throws Exception {
		List<String> command = new ArrayList<>(List.of("aws"));
		command.addAll(List.of(args));
		command.addAll(List.of("--endpoint-url", endpoint, "--output", "json"));
		Path home = Files.createDirectories(OUT.resolve("aws-home"));
		// Nothing of the machine's own AWS configuration: any key, a region, one attempt.
		Run run = run(command, Path.of("."), Map.of("AWS_ACCESS_KEY_ID", "anyKey", "AWS_SECRET_ACCESS_KEY", "anySecret",
				"AWS_DEFAULT_REGION", "eu-central-1", "AWS_CONFIG_FILE", home.resolve("config").toString(),
				"AWS_SHARED_CREDENTIALS_FILE", home.resolve("credentials").toString(), "AWS_MAX_ATTEMPTS", "1",
				"AWS_PAGER", ""), "aws.log");
		return new RunResult(run.exit(), run.output());
	}

	private record RunResult(int exit, String output) {
	}

	private record Run(int exit, String output) {
	}

	private static Run run(List<String> command, Path directory, Map<String, String> environment, String log)
			throws Exception {
		Path output = OUT.resolve(log);
		ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(output.toFile());
		builder.environment().putAll(environment);
		Process process = builder.start();
		boolean finished = process.waitFor(5, TimeUnit.MINUTES);
		if (!finished) {
			process.destroyForcibly();
		}
		String text = Files.readString(output, StandardCharsets.UTF_8);
		return new Run(finished ? process.exitValue() : -1, text);
	}

}
