package dev.dynamorelay.command.check;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.CommandOutput;
import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code check} (issue 33): the schema files read as the server reads them, and with an endpoint (a standalone
 * engine here) compared with its tables as the start compares them, without a server; every problem on standard
 * output at its file, line and column, exit code 1; nothing created or changed.
 */
class CheckCommandIT {

	private static final String ORDERS = """
			type Query {
			  node(id: ID!): Node
			  ordersByStatus(status: String!, first: Int, after: String, last: Int, before: String): OrderConnection! @query(index: "ByStatus")
			}

			type Order implements Node
			  @table(name: "Orders", partitionKey: "customerId", sortKey: "orderId")
			  @globalIndex(name: "ByStatus", partitionKey: "status", sortKey: "orderId") {
			  id: ID!
			  customerId: String!
			  orderId: String!
			  status: String
			}
			""";

	@TempDir
	Path dir;

	private EmbeddedDynamoDb engine;

	private DynamoDbClient dynamoDb;

	@BeforeEach
	void startTheEngine() {
		this.engine = EmbeddedDynamoDb.start();
		this.dynamoDb = DynamoDbClient.builder()
			.httpClient(UrlConnectionHttpClient.create())
			.endpointOverride(this.engine.endpoint())
			.region(Region.US_EAST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
			.build();
	}

	@AfterEach
	void stopTheEngine() {
		this.dynamoDb.close();
		this.engine.close();
	}

	@Test
	void aGoodSchemaPassesAloneAndAgainstTablesThatMatchIt() throws Exception {
		CommandOutput sample = check();
		assertThat(sample.code()).as(sample.toString()).isZero();
		assertThat(sample.stdout()).contains("3 declared types in 3 tables from ",
				": no problem (tables not compared: dynamo-relay.dynamodb.endpoint is not set).");

		createOrders(true);
		Path schema = write("orders.graphqls", ORDERS);
		CommandOutput output = check("--dynamo-relay.schema.locations=file:" + schema,
				"--dynamo-relay.dynamodb.endpoint=" + this.engine.endpoint());
		assertThat(output.code()).as(output.toString()).isZero();
		assertThat(output.stdout()).isEqualTo("1 declared type in 1 table from " + schema + ": no problem; the tables at "
				+ this.engine.endpoint() + " match." + System.lineSeparator());
	}

	@Test
	void aSchemaWithAMistakeFailsWithTheProblemAtItsLine() throws Exception {
		String text = ORDERS.replace("  customerId: String!\n", "");
		Path schema = write("orders.graphqls", text);
		CommandOutput output = check("--dynamo-relay.schema.locations=file:" + schema);
		assertThat(output.code()).as(output.toString()).isEqualTo(1);
		Matcher problem = Pattern.compile(Pattern.quote(schema.toString()) + ":(\\d+):\\d+: (.*customerId.*)")
			.matcher(output.stdout());
		assertThat(problem.find()).as(output.stdout()).isTrue();
		int type = line(text, "type Order");
		int table = line(text, "@table(");
		assertThat(Integer.parseInt(problem.group(1))).as("the declaration's line").isBetween(type, table);
		assertThat(output.stderr()).doesNotContain("\tat ", "Exception");
	}

	@Test
	void aTableWithoutADeclaredIndexIsAProblemAndIsLeftAsItWas() throws Exception {
		createOrders(false);
		Path schema = write("orders.graphqls", ORDERS);
		CommandOutput output = check("--dynamo-relay.schema.locations=file:" + schema,
				"--dynamo-relay.dynamodb.endpoint=" + this.engine.endpoint());
		assertThat(output.code()).as(output.toString()).isEqualTo(1);
		assertThat(output.stdout()).contains("The declarations do not match the tables at " + this.engine.endpoint()
				+ " (1 problem):", schema + ":" + line(ORDERS, "@globalIndex") + ":" + column(ORDERS, "@globalIndex")
						+ ": table `Orders` has no global index "
						+ "`ByStatus`: add it (aws dynamodb update-table --table-name Orders");
		assertThat(this.dynamoDb.describeTable((describe) -> describe.tableName("Orders")).table().globalSecondaryIndexes())
			.as("nothing added").isEmpty();
		assertThat(this.dynamoDb.listTables().tableNames()).containsExactly("Orders");
	}

	/** {@code --watch} checks again when a schema file is saved, until it is stopped. */
	@Test
	void watchingChecksAgainEachTimeASchemaFileIsSaved() throws Exception {
		Path schema = write("orders.graphqls", ORDERS);
		ByteArrayOutputStream stdout = new ByteArrayOutputStream();
		PrintStream out = System.out;
		System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
		int[] code = { -1 };
		Thread watching = new Thread(() -> code[0] = CheckCommand.run("--watch",
				"--dynamo-relay.schema.locations=file:" + this.dir));
		try {
			watching.start();
			await(stdout, "Watching [" + this.dir + "]");
			Files.writeString(schema, ORDERS.replace("  customerId: String!\n", ""));
			await(stdout, "Changed: " + schema + ". Checking again.");
			await(stdout, "The schema's declarations cannot be served (1 problem):");
			Files.writeString(schema, ORDERS);
			String fixed = "Changed: " + schema + ". Checking again." + System.lineSeparator() + "1 declared type in 1 "
					+ "table from " + schema + ": no problem";
			await(stdout, fixed);
		}
		finally {
			watching.interrupt();
			watching.join(30_000);
			System.setOut(out);
		}
		assertThat(watching.isAlive()).isFalse();
		assertThat(code[0]).as("stopped").isZero();
	}

	/** Waits until {@code stdout} holds {@code text}, the watching thread writing it. */
	private static void await(ByteArrayOutputStream stdout, String text) {
		org.awaitility.Awaitility.await(text)
			.atMost(java.time.Duration.ofSeconds(60))
			.untilAsserted(() -> assertThat(stdout.toString(StandardCharsets.UTF_8)).contains(text));
	}

	private void createOrders(boolean withIndex) {
		this.dynamoDb.createTable((create) -> {
			create.tableName("Orders")
				.billingMode(BillingMode.PAY_PER_REQUEST)
				.attributeDefinitions((a) -> a.attributeName("customerId").attributeType(ScalarAttributeType.S),
						(a) -> a.attributeName("orderId").attributeType(ScalarAttributeType.S))
				.keySchema((k) -> k.attributeName("customerId").keyType(KeyType.HASH),
						(k) -> k.attributeName("orderId").keyType(KeyType.RANGE));
			if (withIndex) {
				create.attributeDefinitions((a) -> a.attributeName("customerId").attributeType(ScalarAttributeType.S),
						(a) -> a.attributeName("orderId").attributeType(ScalarAttributeType.S),
						(a) -> a.attributeName("status").attributeType(ScalarAttributeType.S));
				create.globalSecondaryIndexes((index) -> index.indexName("ByStatus")
					.keySchema((k) -> k.attributeName("status").keyType(KeyType.HASH),
							(k) -> k.attributeName("orderId").keyType(KeyType.RANGE))
					.projection((p) -> p.projectionType(ProjectionType.ALL)));
			}
		});
	}

	private Path write(String name, String text) throws Exception {
		return Files.writeString(this.dir.resolve(name), text).toAbsolutePath().normalize();
	}

	private static int line(String text, String snippet) {
		return (int) text.substring(0, text.indexOf(snippet)).chars().filter((c) -> c == '\n').count() + 1;
	}

	private static int column(String text, String snippet) {
		int at = text.indexOf(snippet);
		return at - text.lastIndexOf('\n', at);
	}

	private static CommandOutput check(String... args) {
		return CommandOutput.run(CheckCommand::run, args);
	}

}
