package dev.dynamorelay.it.start;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

import dev.dynamorelay.DynamoRelayApplication;
import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Tables;
import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.TableMismatch;
import dev.dynamorelay.schema.Problem.UnenforceableRule;
import dev.dynamorelay.schema.Problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * The real application started in-process against tables that differ from its declarations: the start
 * fails with every mismatch at its declaration's file and line; with {@code tables.create=true} what is
 * missing (a table, a global index) is created from the declarations instead.
 */
class DeclarationTablesIT {

	/** Declarations that each differ from the tables {@link #createMismatchedTables} makes in one way. */
	private static final String MISMATCHED = """
			type Query {
			  node(id: ID!): Node
			  nodes(ids: [ID!]!): [Node]!
			}

			type Account implements Node
			  @table(name: "Accounts", partitionKey: "accountId") {
			  id: ID!
			  accountId: String!
			}

			type Counter implements Node
			  @table(name: "Counters", partitionKey: "counterId") {
			  id: ID!
			  counterId: String!
			}

			type Visit implements Node
			  @table(name: "Visits", partitionKey: "page", sortKey: "at") {
			  id: ID!
			  page: String!
			  at: String!
			}

			type Tag implements Node
			  @table(name: "Tags", partitionKey: "tag") {
			  id: ID!
			  tag: String!
			}

			type Order implements Node
			  @table(name: "Orders", partitionKey: "customerId", sortKey: "orderId")
			  @globalIndex(name: "ByStatus", partitionKey: "status", sortKey: "orderId") {
			  id: ID!
			  customerId: String!
			  orderId: String!
			  status: String
			}

			type Post implements Node
			  @table(name: "Posts", partitionKey: "author", sortKey: "postedAt")
			  @globalIndex(name: "ByTitle", partitionKey: "author", sortKey: "title") {
			  id: ID!
			  author: String!
			  postedAt: String!
			  title: String
			}

			type Event implements Node
			  @table(name: "Events", partitionKey: "stream", sortKey: "seq")
			  @localIndex(name: "ByKind", sortKey: "kind") {
			  id: ID!
			  stream: String!
			  seq: Long!
			  kind: String
			}

			type Ghost implements Node
			  @table(name: "Ghosts", partitionKey: "ghostId") {
			  id: ID!
			  ghostId: String!
			}
			""";

	/** A table that does not exist yet (with a global and a local index) and one that lacks a global index. */
	private static final String MISSING = """
			type Query {
			  node(id: ID!): Node
			  nodes(ids: [ID!]!): [Node]!
			}

			type Fresh implements Node
			  @table(name: "Fresh", partitionKey: "freshId", sortKey: "at")
			  @globalIndex(name: "ByColour", partitionKey: "colour", sortKey: "at")
			  @localIndex(name: "BySize", sortKey: "size") {
			  id: ID!
			  freshId: String!
			  at: Long!
			  colour: String
			  size: Int
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

	/** A connection kept live: its table needs a stream of new and old images. */
	private static final String LIVE = """
			type Query {
			  node(id: ID!): Node
			}

			type Note implements Node
			  @table(name: "Notes", partitionKey: "bookId", sortKey: "noteId") {
			  id: ID!
			  bookId: String!
			  noteId: String!
			  notes(first: Int, after: String, last: Int, before: String): NoteConnection! @query(partitionKey: "{bookId}")
			}

			type NoteChange {
			  kind: ChangeKind!
			  edge: NoteEdge
			  deletedId: ID
			}

			type Subscription {
			  noteChanges(bookId: String!): NoteChange! @live(connection: "Note.notes")
			}
			""";

	@TempDir
	Path dir;

	private EmbeddedDynamoDb embedded;

	private DynamoDbClient dynamoDb;

	@BeforeEach
	void startDynamoDb() {
		this.embedded = EmbeddedDynamoDb.start();
		this.dynamoDb = IntegrationTest.dynamoDbClient(this.embedded.endpoint());
	}

	@AfterEach
	void stopDynamoDb() {
		this.dynamoDb.close();
		this.embedded.close();
	}

	@Test
	void everyMismatchBetweenTheDeclarationsAndTheTablesStopsTheStart() throws IOException {
		createMismatchedTables();
		Path schema = write("mismatched.graphqls", MISMATCHED);
		String at = this.embedded.endpoint().toString();
		DeclarationException failure = startFailure(schema, false);
		assertThat(failure.getMessage()).startsWith("The declarations do not match the tables at " + at + " (8 problems):");
		String file = schema.toString();
		assertThat(failure.problems()).containsExactlyInAnyOrder(
				problem(file, "@table(name: \"Accounts\"", "table `Accounts` has partition key `accountKey`, not "
						+ "`accountId`: declare `partitionKey: \"accountKey\"`."),
				problem(file, "@table(name: \"Counters\"", "table `Counters` stores partition key `counterId` as N, but "
						+ "the declarations make it S: declare its field with a type stored as N (String or ID: S; Int, "
						+ "Long, Float, Decimal or a timestamp: N; Bytes: B); a key template with constant text, or an "
						+ "index key that no field stores, is always S."),
				problem(file, "@table(name: \"Visits\"", "table `Visits` has no sort key, but `at` is declared: remove it."),
				problem(file, "@table(name: \"Tags\"", "table `Tags` has sort key `n`, not none: declare `sortKey: \"n\"`."),
				problem(file, "@globalIndex(name: \"ByStatus\"", "table `Orders` has no global index `ByStatus`: add it ("
						+ addByStatus(at) + "), or start with dynamo-relay.tables.create=true to have it added."),
				problem(file, "@globalIndex(name: \"ByTitle\"", "`ByTitle` of table `Posts` is a local index: declare it "
						+ "with `@localIndex`."),
				problem(file, "@localIndex(name: \"ByKind\"", "`ByKind` of table `Events` is a global index: declare it "
						+ "with `@globalIndex`."),
				problem(file, "@table(name: \"Ghosts\"", "table `Ghosts` does not exist at " + at + ": create it (aws "
						+ "dynamodb create-table --table-name Ghosts --attribute-definitions AttributeName=ghostId,AttributeType=S "
						+ "--key-schema AttributeName=ghostId,KeyType=HASH --billing-mode PAY_PER_REQUEST --endpoint-url " + at
						+ "), or start with dynamo-relay.tables.create=true to have it created from the declarations."));
		for (Problem problem : failure.problems()) {
			assertThat(failure.getMessage()).contains("\n  " + problem.location() + ": " + problem.message());
		}
	}

	@Test
	void missingTablesAndGlobalIndexesAreCreatedFromTheDeclarations() throws IOException {
		this.dynamoDb.createTable(table("Orders", key("customerId", ScalarAttributeType.S), key("orderId", ScalarAttributeType.S))
			.build());
		Path schema = write("missing.graphqls", MISSING);
		try (ConfigurableApplicationContext context = start(schema, true)) {
			assertThat(context.isRunning()).isTrue();
		}
		TableDescription fresh = describe("Fresh");
		assertThat(fresh.tableStatus()).isEqualTo(TableStatus.ACTIVE);
		assertThat(fresh.keySchema()).containsExactly(hash("freshId"), range("at"));
		assertThat(fresh.attributeDefinitions()).contains(attribute("freshId", ScalarAttributeType.S),
				attribute("at", ScalarAttributeType.N), attribute("colour", ScalarAttributeType.S),
				attribute("size", ScalarAttributeType.N));
		assertThat(fresh.globalSecondaryIndexes()).singleElement().satisfies((index) -> {
			assertThat(index.indexName()).isEqualTo("ByColour");
			assertThat(index.keySchema()).containsExactly(hash("colour"), range("at"));
			assertThat(index.projection().projectionType()).isEqualTo(ProjectionType.ALL);
		});
		assertThat(fresh.localSecondaryIndexes()).singleElement().satisfies((index) -> {
			assertThat(index.indexName()).isEqualTo("BySize");
			assertThat(index.keySchema()).containsExactly(hash("freshId"), range("size"));
		});
		TableDescription orders = describe("Orders");
		assertThat(orders.globalSecondaryIndexes()).singleElement().satisfies((index) -> {
			assertThat(index.indexName()).isEqualTo("ByStatus");
			assertThat(index.keySchema()).containsExactly(hash("status"), range("orderId"));
			assertThat(index.indexStatus()).isEqualTo(IndexStatus.ACTIVE);
		});
		assertThat(orders.attributeDefinitions()).contains(attribute("status", ScalarAttributeType.S));
	}

	@Test
	void whatIsMissingIsNotCreatedWithoutTablesCreate() throws IOException {
		this.dynamoDb.createTable(table("Orders", key("customerId", ScalarAttributeType.S), key("orderId", ScalarAttributeType.S))
			.build());
		Path schema = write("missing.graphqls", MISSING);
		DeclarationException failure = startFailure(schema, false);
		assertThat(failure.problems()).containsExactlyInAnyOrder(missingFreshAndByStatus(schema));
		assertThat(this.dynamoDb.listTables().tableNames()).containsExactly("Orders");
		assertThat(describe("Orders").globalSecondaryIndexes()).isEmpty();
	}

	/**
	 * Issue 33: a server pointed at an endpoint (here a standalone engine) with {@code dynamo-relay.tables.create}
	 * unset creates neither a missing table nor a missing global index: the start stops with the {@code aws
	 * dynamodb} command that makes each, and the tables are as they were. Before, the default created both.
	 */
	@Test
	void againstAnEndpointAMissingTableOrIndexStopsTheStartWithTheCommandToRunByDefault() throws IOException {
		this.dynamoDb.createTable(table("Orders", key("customerId", ScalarAttributeType.S), key("orderId", ScalarAttributeType.S))
			.build());
		TableDescription before = describe("Orders");
		Path schema = write("missing.graphqls", MISSING);
		DeclarationException failure = startFailure(schema, null);
		assertThat(failure.problems()).containsExactlyInAnyOrder(missingFreshAndByStatus(schema));
		assertThat(this.dynamoDb.listTables().tableNames()).containsExactly("Orders");
		TableDescription after = describe("Orders");
		assertThat(after.globalSecondaryIndexes()).isEmpty();
		assertThat(after.attributeDefinitions()).isEqualTo(before.attributeDefinitions());
		assertThat(after.streamSpecification()).isEqualTo(before.streamSpecification());
	}

	/**
	 * Issue 33: a server pointed at an endpoint with {@code dynamo-relay.tables.create} unset does not enable the
	 * stream a live connection needs on the user's table (it did, with one INFO line): it stops with the command.
	 */
	@Test
	void againstAnEndpointATableWithoutTheStreamALiveConnectionNeedsIsLeftAsItWasByDefault() throws IOException {
		this.dynamoDb.createTable(table("Notes", key("bookId", ScalarAttributeType.S), key("noteId", ScalarAttributeType.S))
			.build());
		Path schema = write("live.graphqls", LIVE);
		DeclarationException failure = startFailure(schema, null);
		assertThat(failure.problems()).singleElement()
			.extracting(Problem::message)
			.isEqualTo("table `Notes` has no stream, and `Subscription.noteChanges` keeps it live from a stream of new "
					+ "and old images: enable one (aws dynamodb update-table --table-name Notes --stream-specification "
					+ "StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES --endpoint-url " + this.embedded.endpoint()
					+ "), or start with dynamo-relay.tables.create=true to have it enabled.");
		TableDescription notes = describe("Notes");
		assertThat(notes.streamSpecification() == null || !Boolean.TRUE.equals(notes.streamSpecification().streamEnabled()))
			.as("no stream enabled: %s", notes.streamSpecification()).isTrue();
		assertThat(notes.latestStreamArn()).isNull();
	}

	/** {@link #MISSING}'s problems on a database with an {@code Orders} table without its index, nothing else. */
	private Problem[] missingFreshAndByStatus(Path schema) {
		String at = this.embedded.endpoint().toString();
		return new Problem[] { problem(schema.toString(), "@table(name: \"Fresh\"", "table `Fresh` does not exist at " + at
				+ ": create it (aws dynamodb create-table --table-name Fresh --attribute-definitions "
				+ "AttributeName=freshId,AttributeType=S AttributeName=at,AttributeType=N AttributeName=colour,AttributeType=S "
				+ "AttributeName=size,AttributeType=N --key-schema AttributeName=freshId,KeyType=HASH "
				+ "AttributeName=at,KeyType=RANGE --billing-mode PAY_PER_REQUEST --global-secondary-indexes "
				+ "'[{\"IndexName\":\"ByColour\",\"KeySchema\":[{\"AttributeName\":\"colour\",\"KeyType\":\"HASH\"},"
				+ "{\"AttributeName\":\"at\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}]' "
				+ "--local-secondary-indexes '[{\"IndexName\":\"BySize\",\"KeySchema\":[{\"AttributeName\":\"freshId\","
				+ "\"KeyType\":\"HASH\"},{\"AttributeName\":\"size\",\"KeyType\":\"RANGE\"}],\"Projection\":"
				+ "{\"ProjectionType\":\"ALL\"}}]' --endpoint-url " + at + "), or start with dynamo-relay.tables.create=true "
				+ "to have it created from the declarations."),
				problem(schema.toString(), "@globalIndex(name: \"ByStatus\"", "table `Orders` has no global index "
						+ "`ByStatus`: add it (" + addByStatus(at) + "), or start with dynamo-relay.tables.create=true to "
						+ "have it added.") };
	}

	/** The command that adds {@code ByStatus} to the on-demand {@code Orders} table. */
	private static String addByStatus(String at) {
		return "aws dynamodb update-table --table-name Orders --attribute-definitions AttributeName=status,AttributeType=S "
				+ "AttributeName=orderId,AttributeType=S --global-secondary-index-updates '[{\"Create\":{\"IndexName\":"
				+ "\"ByStatus\",\"KeySchema\":[{\"AttributeName\":\"status\",\"KeyType\":\"HASH\"},{\"AttributeName\":"
				+ "\"orderId\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}}]' --endpoint-url " + at;
	}

	@Test
	void aLiveConnectionsTableNeedsAStreamOfNewAndOldImages() throws IOException {
		this.dynamoDb.createTable(table("Notes", key("bookId", ScalarAttributeType.S), key("noteId", ScalarAttributeType.S))
			.streamSpecification((stream) -> stream.streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY))
			.build());
		Path schema = write("live.graphqls", LIVE);
		DeclarationException otherView = startFailure(schema, true);
		assertThat(otherView.problems()).singleElement()
			.extracting(Problem::message)
			.isEqualTo("table `Notes` has a stream of KEYS_ONLY, and `Subscription.noteChanges` keeps it live from a "
					+ "stream of new and old images: disable it and enable one of new and old images (aws dynamodb "
					+ "update-table --table-name Notes --stream-specification StreamEnabled=false, then "
					+ "StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES; whoever reads the present stream then reads "
					+ "the new one).");
		assertThat(describe("Notes").streamSpecification().streamViewType()).as("left as it was")
			.isEqualTo(StreamViewType.KEYS_ONLY);

		this.dynamoDb.updateTable((update) -> update.tableName("Notes")
			.streamSpecification((stream) -> stream.streamEnabled(false)));
		DeclarationException none = startFailure(schema, false);
		assertThat(none.problems()).singleElement()
			.extracting(Problem::message)
			.isEqualTo("table `Notes` has no stream, and `Subscription.noteChanges` keeps it live from a stream of new "
					+ "and old images: enable one (aws dynamodb update-table --table-name Notes --stream-specification "
					+ "StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES --endpoint-url " + this.embedded.endpoint()
					+ "), or start with dynamo-relay.tables.create=true to have it enabled.");
		try (ConfigurableApplicationContext context = start(schema, true)) {
			assertThat(context.isRunning()).isTrue();
		}
		assertThat(describe("Notes").streamSpecification().streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
	}

	// ---- the tables

	/** Tables that each differ from {@link #MISMATCHED} in one way; {@code Ghosts} is not created. */
	@Test
	void aFilterOnAnAttributeAPartialGlobalIndexDoesNotProjectStopsTheStart() throws IOException {
		this.dynamoDb.createTable(table("Notes", key("noteId", ScalarAttributeType.S), null, key("owner", ScalarAttributeType.S))
			.globalSecondaryIndexes(GlobalSecondaryIndex.builder()
				.indexName("ByOwner")
				.keySchema(hash("owner"))
				.projection(Projection.builder().projectionType(ProjectionType.INCLUDE).nonKeyAttributes("title").build())
				.build())
			.build());
		String text = """
				type Query {
				  node(id: ID!): Node
				  notes(owner: String!, first: Int, after: String, last: Int, before: String,
				        titled: String @filter(attribute: "title", op: BEGINS_WITH),
				        saying: String @filter(attribute: "text", op: CONTAINS)): NoteConnection! @query(index: "ByOwner")
				}

				type Note implements Node
				  @table(name: "Notes", partitionKey: "noteId")
				  @globalIndex(name: "ByOwner", partitionKey: "owner") {
				  id: ID!
				  noteId: String!
				  owner: String
				  title: String
				  text: String
				}
				""";
		Path schema = write("notes.graphqls", text);
		DeclarationException failure = startFailure(schema, false);
		assertThat(failure.problems()).containsExactly(new TableMismatch(location(schema.toString(), text, "@globalIndex"),
				"`Query.notes(saying:)` filters on `text`, which global index `ByOwner` of `Notes` does not project "
						+ "(INCLUDE), so it would match nothing: add `text` to the index's projection, or make it ALL."));
	}

	@Test
	void anOwnerFilterOnAnAttributeAPartialGlobalIndexDoesNotProjectStopsTheStart() throws Exception {
		this.dynamoDb.createTable(table("Notes", key("noteId", ScalarAttributeType.S), null, key("tag", ScalarAttributeType.S))
			.globalSecondaryIndexes(GlobalSecondaryIndex.builder()
				.indexName("ByTag")
				.keySchema(hash("tag"))
				.projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build())
				.build())
			.build());
		String text = """
				type Query {
				  node(id: ID!): Node
				  notes(tag: String!, first: Int, after: String, last: Int, before: String): NoteConnection!
				    @query(index: "ByTag")
				}

				type Note implements Node
				  @table(name: "Notes", partitionKey: "noteId")
				  @globalIndex(name: "ByTag", partitionKey: "tag")
				  @auth(rules: [{allow: OWNER, ownerField: "author"}]) {
				  id: ID!
				  noteId: String!
				  tag: String
				  author: String
				}
				""";
		Path schema = write("owned-notes.graphqls", text);
		Path key = Files.writeString(this.dir.resolve("key.pem"), "-----BEGIN PUBLIC KEY-----\n"
				+ java.util.Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(java.security.KeyPairGenerator
					.getInstance("RSA").generateKeyPair().getPublic().getEncoded())
				+ "\n-----END PUBLIC KEY-----\n");
		DeclarationException failure = startFailure(schema, false,
				"--spring.security.oauth2.resourceserver.jwt.public-key-location=file:" + key);
		assertThat(failure.problems()).containsExactly(new UnenforceableRule(location(schema.toString(), text, "type Note"),
				"`Query.notes` must serve only the caller's `Note` items by a filter on `author`, which global index "
						+ "`ByTag` does not project, so it would match nothing: add `author` to the index's projection, or "
						+ "make it ALL."));
		try (ConfigurableApplicationContext open = start(schema, false)) {
			assertThat(open.getBean(dev.dynamorelay.access.Access.class).enforced())
				.as("without a key nothing filters, and the start succeeds").isFalse();
		}
	}

	private void createMismatchedTables() {
		this.dynamoDb.createTable(table("Accounts", key("accountKey", ScalarAttributeType.S), null).build());
		this.dynamoDb.createTable(table("Counters", key("counterId", ScalarAttributeType.N), null).build());
		this.dynamoDb.createTable(table("Visits", key("page", ScalarAttributeType.S), null).build());
		this.dynamoDb.createTable(table("Tags", key("tag", ScalarAttributeType.S), key("n", ScalarAttributeType.N)).build());
		this.dynamoDb.createTable(table("Orders", key("customerId", ScalarAttributeType.S), key("orderId", ScalarAttributeType.S))
			.build());
		this.dynamoDb.createTable(table("Posts", key("author", ScalarAttributeType.S), key("postedAt", ScalarAttributeType.S),
				key("title", ScalarAttributeType.S))
			.localSecondaryIndexes(LocalSecondaryIndex.builder()
				.indexName("ByTitle")
				.keySchema(hash("author"), range("title"))
				.projection(Projection.builder().projectionType(ProjectionType.ALL).build())
				.build())
			.build());
		this.dynamoDb.createTable(table("Events", key("stream", ScalarAttributeType.S), key("seq", ScalarAttributeType.N),
				key("kind", ScalarAttributeType.S))
			.globalSecondaryIndexes(GlobalSecondaryIndex.builder()
				.indexName("ByKind")
				.keySchema(hash("kind"), range("seq"))
				.projection(Projection.builder().projectionType(ProjectionType.ALL).build())
				.build())
			.build());
	}

	private record Key(String name, ScalarAttributeType type) {
	}

	private static Key key(String name, ScalarAttributeType type) {
		return new Key(name, type);
	}

	private static CreateTableRequest.Builder table(String name, Key partition, Key sort, Key... others) {
		List<AttributeDefinition> attributes = new ArrayList<>();
		List<KeySchemaElement> keys = new ArrayList<>();
		attributes.add(attribute(partition.name(), partition.type()));
		keys.add(hash(partition.name()));
		if (sort != null) {
			attributes.add(attribute(sort.name(), sort.type()));
			keys.add(range(sort.name()));
		}
		for (Key other : others) {
			attributes.add(attribute(other.name(), other.type()));
		}
		return CreateTableRequest.builder()
			.tableName(name)
			.attributeDefinitions(attributes)
			.keySchema(keys)
			.billingMode(BillingMode.PAY_PER_REQUEST);
	}

	private TableDescription describe(String table) {
		return this.dynamoDb.describeTable((describe) -> describe.tableName(table)).table();
	}

	private static AttributeDefinition attribute(String name, ScalarAttributeType type) {
		return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
	}

	private static KeySchemaElement hash(String name) {
		return KeySchemaElement.builder().attributeName(name).keyType(KeyType.HASH).build();
	}

	private static KeySchemaElement range(String name) {
		return KeySchemaElement.builder().attributeName(name).keyType(KeyType.RANGE).build();
	}

	// ---- the application

	/** Starts the server on the test's engine, {@code dynamo-relay.tables.create} as {@code create} says (null: unset). */
	private ConfigurableApplicationContext start(Path schema, Boolean create, String... more) {
		List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--dynamo-relay.schema.locations=file:" + schema,
				"--dynamo-relay.dynamodb.endpoint=" + this.embedded.endpoint(), "--dynamo-relay.cursor.secret=x"));
		if (create != null) {
			arguments.add("--dynamo-relay.tables.create=" + create);
		}
		arguments.addAll(List.of(more));
		return new SpringApplicationBuilder(DynamoRelayApplication.class).run(arguments.toArray(String[]::new));
	}

	/** The declaration failure a start with {@code schema} ends with. */
	private DeclarationException startFailure(Path schema, Boolean create, String... more) {
		List<Throwable> thrown = new ArrayList<>();
		assertThatThrownBy(() -> start(schema, create, more).close()).satisfies(thrown::add);
		for (Throwable cause = thrown.get(0); cause != null; cause = cause.getCause()) {
			if (cause instanceof DeclarationException declaration) {
				return declaration;
			}
		}
		return fail("the start failed otherwise", thrown.get(0));
	}

	private Path write(String name, String schema) throws IOException {
		return Files.writeString(this.dir.resolve(name), schema).toAbsolutePath().normalize();
	}

	private static Problem problem(String file, String snippet, String message) {
		String schema = file.endsWith("mismatched.graphqls") ? MISMATCHED : MISSING;
		int at = schema.indexOf(snippet);
		assertThat(at).as(snippet).isNotNegative();
		assertThat(schema.indexOf(snippet, at + 1)).as(snippet).isNegative();
		return new TableMismatch(location(file, schema, snippet), message);
	}

	/** Where {@code snippet} starts in {@code schema}, the text of {@code file}: its line and column. */
	private static Location location(String file, String schema, String snippet) {
		int at = schema.indexOf(snippet);
		assertThat(at).as(snippet).isNotNegative();
		return new Location(file, (int) schema.substring(0, at).chars().filter((c) -> c == '\n').count() + 1,
				at - schema.lastIndexOf('\n', at - 1));
	}

}
