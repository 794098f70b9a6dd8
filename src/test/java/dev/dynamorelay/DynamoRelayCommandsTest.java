package dev.dynamorelay;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jar's command line beside the server: which arguments name a command, each command's
 * {@code --help} (standard output, exit code 0), and usage mistakes, a wrong type included (one line on
 * standard error with the usage, exit code 2, never a stack trace). None of these starts a Spring context.
 */
class DynamoRelayCommandsTest {

	@Test
	void onlyACommandOrHelpFirstIsNotTheServer() {
		assertThat(DynamoRelayCommands.named("export", "Query.users")).isTrue();
		assertThat(DynamoRelayCommands.named("generate-schema")).isTrue();
		assertThat(DynamoRelayCommands.named("generate-iam-policy")).isTrue();
		assertThat(DynamoRelayCommands.named("generate-completion")).isTrue();
		assertThat(DynamoRelayCommands.named("aot-cache")).isTrue();
		assertThat(DynamoRelayCommands.named("dynamodb", "--port", "8000")).isTrue();
		assertThat(DynamoRelayCommands.named("--help")).isTrue();
		assertThat(DynamoRelayCommands.named("-h")).isTrue();
		assertThat(DynamoRelayCommands.named()).as("the server").isFalse();
		assertThat(DynamoRelayCommands.named("--server.port=8081")).as("the server").isFalse();
		assertThat(DynamoRelayCommands.named("--server.port=8081", "--help")).as("the server, as before").isFalse();
	}

	@Test
	void theHelpNamesEveryCommand() {
		Output output = run("--help");
		assertThat(output.code()).isZero();
		assertThat(output.stdout()).startsWith("Usage: java -jar dynamo-relay.jar [--property=value ...]")
			.contains("  export ", "  generate-schema ", "  generate-iam-policy ", "  aot-cache ", "  dynamodb ",
					"  generate-completion ", "Without a");
		assertThat(output.stderr()).isEmpty();
	}

	@Test
	void eachCommandsHelpDescribesItsOptionsAndExitCodes() {
		Output export = run("export", "--help");
		assertThat(export.code()).isZero();
		assertThat(export.stdout()).contains("Usage: java -jar dynamo-relay.jar export <Type.field>", "--arg=name=value",
				"--out=FILE", "--resume", "--force", "--segments=N", "--segment-range=A-B", "--page-size=N",
				"--concurrency=N", "--pause=MILLIS", "--dynamo-relay.cursor.secret", "Exit codes:");
		assertThat(export.stderr()).isEmpty();
		Output schema = run("generate-schema", "-h");
		assertThat(schema.code()).isZero();
		assertThat(schema.stdout()).contains("Usage: java -jar dynamo-relay.jar generate-schema",
				"--dynamo-relay.dynamodb.endpoint", "Exit codes:");
		Output iam = run("generate-iam-policy", "--help");
		assertThat(iam.code()).isZero();
		assertThat(iam.stdout()).contains("Usage: java -jar dynamo-relay.jar generate-iam-policy --account ID",
				"--account=ID", "--region=REGION", "Exit codes:");
		Output aot = run("aot-cache", "--help");
		assertThat(aot.code()).isZero();
		assertThat(aot.stdout()).contains("Usage: java -jar dynamo-relay.jar aot-cache [--destination=DIR] [--seconds=N]",
				"--destination=DIR", "--seconds=N", "a java older than 25", "Exit codes:");
		Output dynamodb = run("dynamodb", "--help");
		assertThat(dynamodb.code()).isZero();
		assertThat(dynamodb.stdout()).contains("Usage: java -jar dynamo-relay.jar dynamodb [--port PORT] [--path DIR]",
				"--port PORT", "--path DIR", "--region REGION", "--shard-rollover-seconds N", "--stall", "Exit codes:");
	}

	@Test
	void anAotCacheNeedsTheJarItRunsFromAndALengthInBounds() {
		assertUsage(run("aot-cache", "--seconds", "1"), "aot-cache: --seconds must be between 5 and 3600, got 1.");
		// The tests run from class directories, not from the jar (AotCacheCommandIT runs the jar itself).
		assertUsage(run("aot-cache"), "aot-cache: aot-cache extracts the jar it runs from: run it as "
				+ "`java -jar dynamo-relay.jar aot-cache`.");
	}

	@Test
	void anArgumentOfTheWrongTypeIsAUsageMistake() {
		assertUsage(run("export", "Query.users", "--out", "u.jsonl", "--segments", "abc"),
				"export: `--segments abc`: give a whole number from 1 to 2147483647. Usage: java -jar dynamo-relay.jar "
						+ "export <Type.field>");
		assertUsage(run("export", "Query.users", "--out", "u.jsonl", "--page-size=0"),
				"export: `--page-size 0`: give a whole number from 1 to 2147483647.");
		assertUsage(run("export", "Query.users", "--out", "u.jsonl", "--segments", "4", "--segment-range", "0-x"),
				"export: `--segment-range x`: give a whole number from 0 to 3.");
		assertUsage(run("export", "Query.users", "--out", "u.jsonl", "--arg", "year"),
				"export: `--arg year`: an argument is given as `--arg name=value`.");
	}

	@Test
	void aMissingOrUnknownArgumentIsAUsageMistake() {
		assertUsage(run("export", "Query.users"), "export: --out is missing.");
		assertUsage(run("export", "Query.users", "--out"), "export: `--out` needs a value.");
		assertUsage(run("export", "--out", "u.jsonl"), "export: <Type.field> is missing.");
		assertUsage(run("export", "Query.users", "--out", "u.jsonl", "--format", "csv"),
				"export: `--format` is not an option of export.");
		assertUsage(run("export", "Query.users", "--out", "u.jsonl", "--resume", "--force"),
				"export: Pass either `--resume` (continue the export) or `--force` (start it again), not both.");
		assertUsage(run("generate-schema", "books.graphqls"),
				"generate-schema: `books.graphqls` is not an option: properties are given as `--name=value`.");
		assertUsage(run("generate-iam-policy", "--account", "123456789012"), "generate-iam-policy: --region is missing.");
		assertUsage(run("dynamodb", "--port"), "dynamodb: --port needs a value.");
		assertUsage(run("dynamodb", "--port=80a"), "dynamodb: --port takes a whole number, not 80a.");
		assertUsage(run("dynamodb", "-sharedDb"), "dynamodb: unknown option -sharedDb.");
		assertUsage(run("dynamodb", "--throttle", "2"), "dynamodb: Shares must be between 0 and 1");
	}

	private static void assertUsage(Output output, String line) {
		assertThat(output.code()).as(output.stderr()).isEqualTo(2);
		assertThat(output.stdout()).isEmpty();
		assertThat(output.stderr()).startsWith(line).contains(" Usage: java -jar dynamo-relay.jar ")
			.doesNotContain("\tat ", "Exception");
		assertThat(output.stderr().strip()).as("one line").doesNotContain("\n");
	}

	private static Output run(String... args) {
		PrintStream out = System.out;
		PrintStream err = System.err;
		ByteArrayOutputStream stdout = new ByteArrayOutputStream();
		ByteArrayOutputStream stderr = new ByteArrayOutputStream();
		System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
		System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
		try {
			int code = DynamoRelayCommands.run(args);
			return new Output(code, stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
		}
		finally {
			System.setOut(out);
			System.setErr(err);
		}
	}

	private record Output(int code, String stdout, String stderr) {
	}

}
