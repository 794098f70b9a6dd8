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
		assertThat(DynamoRelayCommands.named("check")).isTrue();
		assertThat(DynamoRelayCommands.named("--help")).isTrue();
		assertThat(DynamoRelayCommands.named("-h")).isTrue();
		assertThat(DynamoRelayCommands.named("--version")).isTrue();
		assertThat(DynamoRelayCommands.named("-V")).isTrue();
		assertThat(DynamoRelayCommands.named("generat-schema")).as("refused as a command, not the server").isTrue();
		assertThat(DynamoRelayCommands.named()).as("the server").isFalse();
		assertThat(DynamoRelayCommands.named("--server.port=8081")).as("the server").isFalse();
		assertThat(DynamoRelayCommands.named("--server.port=8081", "--help")).as("the server's arguments").isFalse();
	}

	/** Issue 33: `generat-schema` started the whole server on 8080. */
	@Test
	void anUnknownCommandIsRefusedWithTheCommandItMostLikelyMeant() {
		assertUsage(run("generat-schema"), "dynamo-relay: `generat-schema` is not a command; did you mean `generate-schema`?");
		assertUsage(run("chek", "--dynamo-relay.dynamodb.endpoint=aws"), "dynamo-relay: `chek` is not a command; did you "
				+ "mean `check`?");
		assertUsage(run("serve"), "dynamo-relay: `serve` is not a command (the commands: export, generate-schema, "
				+ "generate-iam-policy, check, aot-cache, dynamodb, generate-completion).");
	}

	/** Issue 33: `generate-schema --dynamo-relay.dynamodb.endpiont=...` exited 0 with the embedded engine's empty schema. */
	@Test
	void anUnknownPropertyOrOptionOfACommandIsRefusedWithWhatItMostLikelyMeant() {
		assertUsage(run("generate-schema", "--dynamo-relay.dynamodb.endpiont=http://127.0.0.1:8000"),
				"generate-schema: `--dynamo-relay.dynamodb.endpiont` is not a property of dynamo-relay; did you mean "
						+ "`--dynamo-relay.dynamodb.endpoint`? Usage: java -jar dynamo-relay.jar generate-schema");
		assertUsage(run("check", "--dynamo-relay.schema.location=books.graphqls"), "check: "
				+ "`--dynamo-relay.schema.location` is not a property of dynamo-relay; did you mean "
				+ "`--dynamo-relay.schema.locations`?");
		assertUsage(run("export", "Query.users", "--out", "u.jsonl", "--dynamo-relay.tables.prefx=Shop_"), "export: "
				+ "`--dynamo-relay.tables.prefx` is not a property of dynamo-relay; did you mean `--dynamo-relay.tables.prefix`?");
		// Before the missing options it makes missing: the slip is what to fix.
		assertUsage(run("generate-iam-policy", "--acount=123456789012"), "generate-iam-policy: `--acount` is not an "
				+ "option of generate-iam-policy; did you mean `--account`?");
		assertUsage(run("generate-schema", "--verbose"), "generate-schema: `--verbose` is not an option of generate-schema.");
	}

	/** Issue 33: the server took `--dynamo-relay.dynamodb.endpiont=...` in silence and served the embedded engine. */
	@Test
	void theServersUnknownPropertiesAndOptionsAreRefusedBeforeItStarts() {
		assertServerRefusal("dynamo-relay: `--dynamo-relay.dynamodb.endpiont` is not a property of dynamo-relay; did you "
				+ "mean `--dynamo-relay.dynamodb.endpoint`?", "--server.port=0", "--dynamo-relay.dynamodb.endpiont=http://x");
		assertServerRefusal("dynamo-relay: `--dynamo-relay.live.enabld` is not a property of dynamo-relay; did you mean "
				+ "`--dynamo-relay.live.enabled`?", "--dynamo-relay.live.enabld=false");
		assertServerRefusal("dynamo-relay: `--port` is not an option of the server; did you mean `--server.port`?",
				"--port=8081");
		assertServerRefusal("dynamo-relay: `--versoin` is not an option of the server; did you mean `--version`?",
				"--versoin");
		assertServerRefusal("dynamo-relay: `--help` is not an option of the server: give it first, `java -jar "
				+ "dynamo-relay.jar --help`.", "--server.port=8081", "--help");
		assertServerRefusal("dynamo-relay: `books.graphqls` is not a property: the server's properties are given as "
				+ "`--name=value`", "--server.port=8081", "books.graphqls");
		// Every spelling Spring binds, list elements, Spring Boot's switches and other prefixes' properties pass.
		assertThat(DynamoRelayCommands.serverProblem("--server.port=0", "--dynamo-relay.dynamodb.maxConcurrency=300",
				"--dynamo-relay.dynamodb.max-concurrency=300", "--dynamo-relay.cursor.previous-secrets[0]=old",
				"--dynamo-relay.cursor.previous-secrets=a,b", "--dynamo-relay.dynamodb.fair-share.aging=20ms",
				"--DYNAMO-RELAY.TABLES.PREFIX=x", "--debug", "--logging.level.root=WARN", "--spring.main.banner-mode=off"))
			.isEmpty();
		assertThat(DynamoRelayCommands.serverProblem()).isEmpty();
	}

	/** A mistyped variable of the environment (a container's) was bound to nothing, as a mistyped argument. */
	@Test
	void anUnknownDynamoRelayEnvironmentVariableIsRefusedWithTheVariableItMostLikelyMeant() {
		assertThat(DynamoRelayCommands.environmentProblem(java.util.Map.of("DYNAMO_RELAY_DYNAMODB_ENDPIONT", "aws",
				"DYNAMO_RELAY_CURSOR_SECRET", "s", "PATH", "/bin")))
			.contains("environment variable `DYNAMO_RELAY_DYNAMODB_ENDPIONT` is not a property of dynamo-relay; did you "
					+ "mean `DYNAMO_RELAY_DYNAMODB_ENDPOINT`?");
		// Spring's spellings: dashes as underscores or left out, a list's element.
		assertThat(DynamoRelayCommands.environmentProblem(java.util.Map.of("DYNAMO_RELAY_DYNAMODB_ENDPOINT", "aws",
				"DYNAMO_RELAY_DYNAMODB_MAX_CONCURRENCY", "300", "DYNAMORELAY_DYNAMODB_MAXCONCURRENCYPERREQUEST", "4",
				"DYNAMO_RELAY_CURSOR_PREVIOUS_SECRETS_0", "old", "DYNAMO", "x"))).isEmpty();
		// Kubernetes' service links for a Service named dynamo-relay (they stopped the start before).
		assertThat(DynamoRelayCommands.environmentProblem(java.util.Map.of("DYNAMO_RELAY_SERVICE_HOST", "10.0.0.1",
				"DYNAMO_RELAY_SERVICE_PORT", "8080", "DYNAMO_RELAY_SERVICE_PORT_HTTP", "8080", "DYNAMO_RELAY_PORT",
				"tcp://10.0.0.1:8080", "DYNAMO_RELAY_PORT_8080_TCP", "tcp://10.0.0.1:8080", "DYNAMO_RELAY_PORT_8080_TCP_PROTO",
				"tcp", "DYNAMO_RELAY_PORT_8080_TCP_PORT", "8080", "DYNAMO_RELAY_PORT_8080_TCP_ADDR", "10.0.0.1"))).isEmpty();
		// A list's element with Spring's underscores around its index (refused before).
		assertThat(DynamoRelayCommands.environmentProblem(java.util.Map.of("DYNAMO_RELAY_CURSOR_PREVIOUS_SECRETS_0_", "old",
				"DYNAMORELAY_CURSOR_PREVIOUSSECRETS_1_", "older"))).isEmpty();
		assertThat(DynamoRelayCommands.environmentProblem(java.util.Map.of("DYNAMO_RELAY_CURSOR_PREVIOUS_SECRET_0_", "old")))
			.get()
			.asString()
			.contains("`DYNAMO_RELAY_CURSOR_PREVIOUS_SECRET_0_` is not a property of dynamo-relay");
	}

	@Test
	void theVersionIsTheProjects() throws Exception {
		String version = projectVersion();
		for (String option : new String[] { "--version", "-V" }) {
			CommandOutput output = run(option);
			assertThat(output.code()).isZero();
			assertThat(output.stdout()).isEqualTo("dynamo-relay " + version + System.lineSeparator());
			assertThat(output.stderr()).isEmpty();
		}
	}

	/**
	 * Issue 33: picocli's stock script completed a `dynamo-relay` program that does not exist and named picocli's
	 * version. The script defines the function that runs the jar, and bash completes the jar's commands with it.
	 */
	@Test
	void theCompletionScriptCompletesAFunctionThatRunsTheJar() throws Exception {
		CommandOutput output = run("generate-completion");
		assertThat(output.code()).isZero();
		assertThat(output.stderr()).isEmpty();
		String script = output.stdout();
		assertThat(script).startsWith("#!/usr/bin/env bash")
			.contains("# Completion of dynamo-relay " + projectVersion() + "'s commands and options",
					"\ndynamo-relay() { java -jar 'dynamo-relay.jar' \"$@\"; }\n",
					"complete -F _complete_dynamo-relay -o default dynamo-relay\n")
			.doesNotContain("picocli.info", "version " + picocli.CommandLine.VERSION, "dynamo-relay.sh");
		java.nio.file.Path file = java.nio.file.Files.createTempFile("completion", ".bash");
		try {
			java.nio.file.Files.writeString(file, script);
			assertThat(complete(file, "dynamo-relay gen")).containsExactlyInAnyOrder("generate-schema", "generate-iam-policy",
					"generate-completion");
			assertThat(complete(file, "dynamo-relay ch")).containsExactly("check");
			assertThat(complete(file, "dynamo-relay export --seg")).containsExactlyInAnyOrder("--segments", "--segment-range");
			ProcessBuilder defined = new ProcessBuilder("bash", "-c", ". " + file + " && type -t dynamo-relay");
			assertThat(new String(defined.start().getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip())
				.isEqualTo("function");
		}
		finally {
			java.nio.file.Files.delete(file);
		}
	}

	/** What bash offers for the last word of {@code line} with the script {@code file} sourced. */
	private static java.util.List<String> complete(java.nio.file.Path file, String line) throws Exception {
		String words = String.join(" ", java.util.Arrays.stream(line.split(" ")).map((word) -> "'" + word + "'").toList());
		String bash = ". %s; COMP_WORDS=(%s); COMP_CWORD=%d; COMP_LINE='%s'; COMP_POINT=${#COMP_LINE}; "
			.formatted(file, words, line.split(" ").length - 1, line)
				+ "_complete_dynamo-relay; printf '%s\\n' \"${COMPREPLY[@]}\"";
		// compopt, which the script calls, complains outside a completion bash runs itself: its standard error is left out.
		Process process = new ProcessBuilder("bash", "-c", bash).redirectError(ProcessBuilder.Redirect.DISCARD).start();
		String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor()).as(out).isZero();
		return out.lines().map(String::strip).filter((word) -> !word.isEmpty()).toList();
	}

	/** The version pom.xml gives the project. */
	private static String projectVersion() throws Exception {
		String pom = java.nio.file.Files.readString(java.nio.file.Path.of("pom.xml"));
		java.util.regex.Matcher version = java.util.regex.Pattern
			.compile("<artifactId>dynamo-relay</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
		assertThat(version.find()).isTrue();
		return version.group(1);
	}

	private static void assertServerRefusal(String line, String... args) {
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		assertThat(DynamoRelayCommands.refuseServer(new PrintStream(err, true, StandardCharsets.UTF_8), args))
			.contains(2);
		String stderr = err.toString(StandardCharsets.UTF_8);
		assertThat(stderr).startsWith(line).contains(" Usage: java -jar dynamo-relay.jar [--property=value ...]");
		assertThat(stderr.strip()).as("one line").doesNotContain("\n");
	}

	@Test
	void theHelpNamesEveryCommand() {
		CommandOutput output = run("--help");
		assertThat(output.code()).isZero();
		assertThat(output.stdout()).startsWith("Usage: java -jar dynamo-relay.jar [--property=value ...]")
			.contains("  export ", "  generate-schema ", "  generate-iam-policy ", "  aot-cache ", "  dynamodb ",
					"  generate-completion ", "Without a");
		assertThat(output.stderr()).isEmpty();
	}

	@Test
	void eachCommandsHelpDescribesItsOptionsAndExitCodes() {
		CommandOutput export = run("export", "--help");
		assertThat(export.code()).isZero();
		assertThat(export.stdout()).contains("Usage: java -jar dynamo-relay.jar export <Type.field>", "--arg=name=value",
				"--out=FILE", "--resume", "--force", "--segments=N", "--segment-range=A-B", "--page-size=N",
				"--concurrency=N", "--pause=MILLIS", "--dynamo-relay.cursor.secret", "Exit codes:");
		assertThat(export.stderr()).isEmpty();
		CommandOutput schema = run("generate-schema", "-h");
		assertThat(schema.code()).isZero();
		assertThat(schema.stdout()).contains("Usage: java -jar dynamo-relay.jar generate-schema",
				"--dynamo-relay.dynamodb.endpoint", "Exit codes:");
		CommandOutput iam = run("generate-iam-policy", "--help");
		assertThat(iam.code()).isZero();
		assertThat(iam.stdout()).contains("Usage: java -jar dynamo-relay.jar generate-iam-policy --account ID",
				"--account=ID", "--region=REGION", "Exit codes:");
		CommandOutput aot = run("aot-cache", "--help");
		assertThat(aot.code()).isZero();
		assertThat(aot.stdout()).contains("Usage: java -jar dynamo-relay.jar aot-cache [--destination=DIR] [--seconds=N]",
				"--destination=DIR", "--seconds=N", "a java older than 25", "Exit codes:");
		CommandOutput dynamodb = run("dynamodb", "--help");
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
		assertUsage(run("export", "Query.users", "--out", "u.jsonl", "--segmnts", "4"),
				"export: `--segmnts` is not an option of export; did you mean `--segments`?");
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

	private static void assertUsage(CommandOutput output, String line) {
		assertThat(output.code()).as(output.stderr()).isEqualTo(2);
		assertThat(output.stdout()).isEmpty();
		assertThat(output.stderr()).startsWith(line).contains(" Usage: java -jar dynamo-relay.jar ")
			.doesNotContain("\tat ", "Exception");
		assertThat(output.stderr().strip()).as("one line").doesNotContain("\n");
	}

	private static CommandOutput run(String... args) {
		return CommandOutput.run(DynamoRelayCommands::run, args);
	}

}
