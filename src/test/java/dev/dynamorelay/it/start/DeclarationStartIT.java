package dev.dynamorelay.it.start;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.dynamorelay.DynamoRelayApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The server started as a command (its main class in a JVM of its own) with broken schema files: it
 * exits with a non-zero status after one readable report of every problem, each at its file, line and
 * column, and no stack trace, before its web server and engine have started.
 */
class DeclarationStartIT {

	private static final long TIMEOUT_SECONDS = 60;

	@TempDir
	Path dir;

	@Test
	void brokenDeclarationsEndTheProcessWithAReportOfEveryProblem() throws Exception {
		Path schema = write("broken.graphqls", """
				type Query {
				  node(id: ID!): Node
				  users(first: Int, after: String, order: SortOrder): UserConnection! @scan
				  user(id: String!): User @lookup
				}

				type User implements Node @table(name: "Users", partitionKey: "userId") {
				  id: ID!
				  userId: String!
				  name: String
				  posts(first: Int, after: String, last: Int, before: String,
				        since: String @sortKey(op: GE)): PostConnection! @query
				}

				type Post implements Node @table(name: "Posts", partitionKey: "userId", sortKey: "postedAt") {
				  id: ID!
				  userId: String!
				  postedAt: Long!
				}
				""");
		Run run = run("--dynamo-relay.schema.locations=file:" + schema);
		assertThat(run.exitCode()).as(run.output()).isNotZero();
		assertThat(run.output()).contains("APPLICATION FAILED TO START",
				"The schema's declarations cannot be served (3 problems):",
				"\n  " + schema + ":3:36: `Query.users` is a Scan, which reads in DynamoDB's order only: remove `order`.\n",
				"\n  " + schema + ":4:27: `Query.user` fills key `userId` from `{userId}`, but `userId` is no argument of "
						+ "`user`: add the argument, or give `@lookup(partitionKey: ...)` a template such as "
						+ "`\"CUSTOMER#{customerId}\"`.\n",
				"\n  " + schema + ":12:9: `User.posts(since:)` is `String`, but sort key `postedAt` is N: declare it as "
						+ "`Int`, `Long`, `Float` or `Decimal`.\n",
				"Change the schema files (dynamo-relay.schema.locations) or the tables as each line says, then start again.");
		// Reported before the web server and the embedded engine are made: neither has said a word.
		assertThat(run.output()).as(run.output()).doesNotContain("Tomcat", "Embedded DynamoDB engine");
		assertNoStackTrace(run);
	}

	@Test
	void aSyntaxErrorEndsTheProcessWithItsFileLineAndColumnInWords() throws Exception {
		Path schema = write("syntax.graphqls", """
				type Query {
				  node(id: ID!): Node
				}

				type User implements Node @table(name: "Users", partitionKey: "userId") {
				  id: ID!
				  userId: String!
				  name: String = "x"
				}
				""");
		Run run = run("--dynamo-relay.schema.locations=file:" + schema);
		assertThat(run.exitCode()).as(run.output()).isNotZero();
		assertThat(run.output()).contains("APPLICATION FAILED TO START",
				"The schema files are not a valid GraphQL schema (1 problem):",
				"\n  " + schema + ":8:16: syntax error: expected `}`, a name or a string, found `=`.\n");
		assertThat(run.output()).doesNotContain("offending token");
		assertNoStackTrace(run);
	}

	@Test
	void aMisspeltDirectiveEndsTheProcessWithWhereItIsWrittenAndTheOneMeant() throws Exception {
		Path schema = write("misspelt.graphqls", """
				type Query {
				  node(id: ID!): Node
				  users(first: Int, after: String): UserConnection!
				    @qurey
				}

				type User implements Node @table(name: "Users", partitionKey: "userId") {
				  id: ID!
				  userId: String!
				}
				""");
		Run run = run("--dynamo-relay.schema.locations=file:" + schema);
		assertThat(run.exitCode()).as(run.output()).isNotZero();
		assertThat(run.output()).contains("APPLICATION FAILED TO START",
				"The schema files are not a valid GraphQL schema (1 problem):", "\n  " + schema + ":4:5: `@qurey` is no "
						+ "directive of the declaration language or of the schema. Did you mean `@query`?\n");
		assertNoStackTrace(run);
	}

	@Test
	void aLocationWithoutSchemaFilesEndsTheProcess() throws Exception {
		Path missing = this.dir.resolve("missing.graphqls");
		Run run = run("--dynamo-relay.schema.locations=file:" + missing);
		assertThat(run.exitCode()).as(run.output()).isNotZero();
		assertThat(run.output()).contains("APPLICATION FAILED TO START",
				"The schema files cannot be found (1 problem):", "\n  file:" + missing + ": holds no schema file "
						+ "(.graphqls or .gqls): check dynamo-relay.schema.locations.");
		assertNoStackTrace(run);
	}

	/** Before, a stack trace of "Application run failed" from the cursor codec's bean. */
	@Test
	void aServerAgainstAnEndpointWithoutACursorSecretEndsSayingWhichPropertyToSet() throws Exception {
		try (dev.dynamorelay.dynamodb.EmbeddedDynamoDb dynamoDb = dev.dynamorelay.dynamodb.EmbeddedDynamoDb.start()) {
			Run run = run("--dynamo-relay.dynamodb.endpoint=" + dynamoDb.endpoint(), "--dynamo-relay.tables.create=true");
			assertThat(run.exitCode()).as(run.output()).isNotZero();
			assertThat(run.output()).contains("APPLICATION FAILED TO START",
					"dynamo-relay.cursor.secret is required: DynamoDB is not the embedded engine",
					"Set dynamo-relay.cursor.secret (--dynamo-relay.cursor.secret=..., or the environment variable "
							+ "DYNAMO_RELAY_CURSOR_SECRET)");
			assertNoStackTrace(run);
		}
	}

	/** No stack trace, and the report once: not repeated inside a bean creation failure's message. */
	private static void assertNoStackTrace(Run run) {
		assertThat(run.output().lines().filter((line) -> line.startsWith("\tat ") || line.startsWith("Caused by: ")))
			.as(run.output())
			.isEmpty();
		assertThat(run.output()).as(run.output())
			.doesNotContain("Exception encountered during context initialization", "Error creating bean");
		run.output().lines().filter((line) -> line.startsWith("  /") || line.startsWith("  file:")).forEach((problem) ->
				assertThat(run.output().split(java.util.regex.Pattern.quote(problem + "\n"), -1)).as(problem).hasSize(2));
	}

	/** The output and exit code of the server's main class run with {@code arguments}. */
	private Run run(String... arguments) throws IOException, InterruptedException {
		String java = ProcessHandle.current().info().command().orElse(
				Path.of(System.getProperty("java.home"), "bin", "java").toString());
		List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
				DynamoRelayApplication.class.getName(), "--server.port=0"));
		command.addAll(List.of(arguments));
		File output = this.dir.resolve("output.txt").toFile();
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(output)
			.directory(new File(System.getProperty("user.dir")))
			.start();
		if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
			process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			return fail("the server did not end within %d s:%n%s", TIMEOUT_SECONDS,
					Files.readString(output.toPath(), StandardCharsets.UTF_8));
		}
		return new Run(process.exitValue(), Files.readString(output.toPath(), StandardCharsets.UTF_8));
	}

	private Path write(String name, String schema) throws IOException {
		return Files.writeString(this.dir.resolve(name), schema).toAbsolutePath().normalize();
	}

	private record Run(int exitCode, String output) {
	}

}
