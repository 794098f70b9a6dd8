package dev.dynamorelay.command.schemagen;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLUnionType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.CommandOutput;
import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Generates schemas for tables the project has never seen, created in an embedded DynamoDB engine: a
 * number/string key with a global and a local index, a binary key, awkward attribute names, a
 * single-table design, and a prefixed table; and runs the command as {@code java -jar} would.
 */
class SchemaIntrospectionIT {

	private static EmbeddedDynamoDb dynamoDbEngine;

	private static DynamoDbClient dynamoDb;

	private static DynamoDbAsyncClient asyncDynamoDb;

	@BeforeAll
	static void createTables() {
		dynamoDbEngine = EmbeddedDynamoDb.start();
		dynamoDb = DynamoDbClient.builder()
			.httpClient(UrlConnectionHttpClient.create())
			.endpointOverride(dynamoDbEngine.endpoint())
			.region(Region.US_EAST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
			.build();
		asyncDynamoDb = DynamoDbAsyncClient.builder()
			.endpointOverride(dynamoDbEngine.endpoint())
			.region(Region.US_EAST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
			.build();
		createConcerts();
		createBlobs();
		createUserSessions();
		createAppData();
		createStagingWidgets();
	}

	@AfterAll
	static void stop() {
		if (asyncDynamoDb != null) {
			asyncDynamoDb.close();
		}
		if (dynamoDb != null) {
			dynamoDb.close();
		}
		if (dynamoDbEngine != null) {
			dynamoDbEngine.close();
		}
	}

	/** {@code Concerts}: {@code season} (N) / {@code slug} (S), GSI {@code ByArtist}, LSI {@code byCapacity}. */
	private static void createConcerts() {
		dynamoDb.createTable(CreateTableRequest.builder()
			.tableName("Concerts")
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.attributeDefinitions(definition("season", ScalarAttributeType.N),
					definition("slug", ScalarAttributeType.S), definition("artist", ScalarAttributeType.S),
					definition("attendance", ScalarAttributeType.N), definition("capacity", ScalarAttributeType.N))
			.keySchema(key("season", KeyType.HASH), key("slug", KeyType.RANGE))
			.globalSecondaryIndexes((index) -> index.indexName("ByArtist")
				.keySchema(key("artist", KeyType.HASH), key("attendance", KeyType.RANGE))
				.projection((projection) -> projection.projectionType(ProjectionType.ALL)))
			.localSecondaryIndexes((index) -> index.indexName("byCapacity")
				.keySchema(key("season", KeyType.HASH), key("capacity", KeyType.RANGE))
				.projection((projection) -> projection.projectionType(ProjectionType.KEYS_ONLY)))
			.build());
		put("Concerts", Map.ofEntries(Map.entry("season", n("2024")), Map.entry("slug", s("opening-night")),
				Map.entry("artist", s("The Tables")), Map.entry("attendance", n("1200")),
				Map.entry("capacity", n("1500")), Map.entry("revenue", n("5000000000")),
				Map.entry("rating", n("4.5")), Map.entry("tags", AttributeValue.fromSs(List.of("rock", "live"))),
				Map.entry("setMinutes", AttributeValue.fromNs(List.of("45", "60"))),
				Map.entry("soldOut", AttributeValue.fromBool(true)),
				Map.entry("poster", AttributeValue.fromB(SdkBytes.fromUtf8String("png"))),
				Map.entry("lineup", AttributeValue.fromL(List.of(s("a"), s("b")))),
				Map.entry("venue", AttributeValue.fromM(Map.of("city", s("Lyon")))),
				Map.entry("notes", AttributeValue.fromNul(true)), Map.entry("misc", s("text"))));
		put("Concerts", Map.of("season", n("2025"), "slug", s("closing-night"), "capacity", n("900"), "rating",
				n("3"), "misc", n("7")));
	}

	/** {@code Blobs}: a binary partition key and no sort key. */
	private static void createBlobs() {
		dynamoDb.createTable(CreateTableRequest.builder()
			.tableName("Blobs")
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.attributeDefinitions(definition("digest", ScalarAttributeType.B))
			.keySchema(key("digest", KeyType.HASH))
			.build());
		put("Blobs", Map.of("digest", AttributeValue.fromB(SdkBytes.fromUtf8String("abc")), "size", n("3")));
	}

	/** {@code user-sessions}: {@code user-id} (S) / {@code id} (S), and attribute names GraphQL refuses. */
	private static void createUserSessions() {
		dynamoDb.createTable(CreateTableRequest.builder()
			.tableName("user-sessions")
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.attributeDefinitions(definition("user-id", ScalarAttributeType.S), definition("id", ScalarAttributeType.S))
			.keySchema(key("user-id", KeyType.HASH), key("id", KeyType.RANGE))
			.build());
		put("user-sessions", Map.of("user-id", s("u1"), "id", s("s1"), "first name", s("Ada"), "2fa",
				AttributeValue.fromBool(false), "userAgent", s("curl"), "user agent", s("dup"), "__meta", s("m"),
				"say \"hi\"", s("quoted")));
	}

	/** {@code AppData}: a single-table design of customers, their orders and the orders' items. */
	private static void createAppData() {
		dynamoDb.createTable(CreateTableRequest.builder()
			.tableName("AppData")
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.attributeDefinitions(definition("PK", ScalarAttributeType.S), definition("SK", ScalarAttributeType.S),
					definition("GSI1PK", ScalarAttributeType.S), definition("GSI1SK", ScalarAttributeType.S))
			.keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
			.globalSecondaryIndexes((index) -> index.indexName("GSI1")
				.keySchema(key("GSI1PK", KeyType.HASH), key("GSI1SK", KeyType.RANGE))
				.projection((projection) -> projection.projectionType(ProjectionType.ALL)))
			.build());
		put("AppData", Map.of("PK", s("CUSTOMER#c1"), "SK", s("PROFILE"), "name", s("Ada"), "email",
				s("ada@example.com")));
		put("AppData", Map.of("PK", s("CUSTOMER#c2"), "SK", s("PROFILE"), "name", s("Alan")));
		put("AppData", Map.of("PK", s("CUSTOMER#c1"), "SK", s("ORDER#2025-01-01T10:00:00Z"), "total", n("12.5"),
				"status", s("SHIPPED"), "GSI1PK", s("STATUS#SHIPPED"), "GSI1SK", s("2025-01-01T10:00:00Z")));
		put("AppData", Map.of("PK", s("CUSTOMER#c1"), "SK", s("ORDER#2025-02-01T10:00:00Z"), "total", n("3"),
				"status", s("PENDING"), "GSI1PK", s("STATUS#PENDING"), "GSI1SK", s("2025-02-01T10:00:00Z")));
		put("AppData", Map.of("PK", s("ORDER#o1"), "SK", s("ITEM#1"), "sku", s("pen"), "quantity", n("2")));
		put("AppData", Map.of("PK", s("ORDER#o1"), "SK", s("ITEM#2"), "sku", s("ink"), "quantity", n("1")));
	}

	/** {@code staging_Widgets}: the one table of prefix {@code staging_}. */
	private static void createStagingWidgets() {
		dynamoDb.createTable(CreateTableRequest.builder()
			.tableName("staging_Widgets")
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.attributeDefinitions(definition("widgetId", ScalarAttributeType.S))
			.keySchema(key("widgetId", KeyType.HASH))
			.build());
		put("staging_Widgets", Map.of("widgetId", s("w1"), "color", s("red")));
	}

	@Test
	void generatedSchemaBuildsWithTheDeclarationLanguage() {
		String generated = generate("");
		GraphQLSchema schema = DeclarationLanguage.build(generated);
		assertThat(schema.getQueryType().getFieldDefinitions()).extracting(GraphQLFieldDefinition::getName)
			.contains("node", "nodes", "concerts", "concertsByArtist", "concertsByCapacity", "allConcerts", "blobs",
					"allBlobs", "userSessions", "allUserSessions", "appData", "appDataByGSI1", "allAppData",
					"stagingWidgets");
		assertThat(schema.getObjectType("Concert").getInterfaces()).extracting((type) -> type.getName())
			.containsExactly("Node");
		assertThat(((GraphQLUnionType) schema.getType("AppDataItem")).getTypes())
			.extracting((type) -> type.getName())
			.containsExactly("Customer", "Item", "Order");
		assertThat(generated).startsWith("# Generated by `dynamo-relay generate-schema` from "
				+ dynamoDbEngine.endpoint() + ": every table (no table prefix).\n");
		assertThat(generated).contains("Introspect, then tune");
	}

	@Test
	void numberAndStringKeysWithIndexes() {
		String generated = generate("");
		assertThat(typeBlock(generated, "Concert")).startsWith("""
				"Table `Concerts`: partition key `season` (N), sort key `slug` (S); global index `ByArtist`: \
				partition key `artist` (S), sort key `attendance` (N); local index `byCapacity`: sort key \
				`capacity` (N) (2 sampled items)."
				type Concert implements Node
				  @table(name: "Concerts", partitionKey: "season", sortKey: "slug")
				  @globalIndex(name: "ByArtist", partitionKey: "artist", sortKey: "attendance")
				  @localIndex(name: "byCapacity", sortKey: "capacity") {
				  id: ID!
				  "Partition key (N)."
				  season: Int!
				  "Sort key (S)."
				  slug: String!
				  "Partition key of global index `ByArtist`."
				  artist: String
				  "Sort key of global index `ByArtist`."
				  attendance: Int
				  "Sort key of local index `byCapacity`."
				  capacity: Int
				  lineup: JSON
				  "Sampled as N, S."
				  misc: JSON
				  "Sampled only as NULL."
				  notes: JSON
				  poster: Bytes
				  rating: Float
				  revenue: Long
				  setMinutes: [Int!]
				  soldOut: Boolean
				  tags: [String!]
				  venue: JSON
				}
				""");
		assertThat(generated).contains("""
				  concerts(
				    season: Int!
				    first: Int
				    after: String
				    last: Int
				    before: String
				    order: SortOrder = ASC
				    slugBeginsWith: String @sortKey(op: BEGINS_WITH)
				    slugBetween: [String!] @sortKey(op: BETWEEN)
				  ): ConcertConnection! @query
				""");
		assertThat(generated).contains("""
				  concertsByArtist(
				    artist: String!
				    first: Int
				    after: String
				    last: Int
				    before: String
				    order: SortOrder = ASC
				    attendanceBetween: [Int!] @sortKey(op: BETWEEN)
				  ): ConcertConnection! @query(index: "ByArtist")
				""");
		assertThat(generated).contains("""
				  "Items of table `Concerts` in its local index `byCapacity` with the given `season`, in `capacity` \
				order. Only items that have `capacity` are in the index, and its projection is KEYS_ONLY."
				  concertsByCapacity(
				    season: Int!
				""", """
				    capacityBetween: [Int!] @sortKey(op: BETWEEN)
				  ): ConcertConnection! @query(index: "byCapacity")
				""", """
				  "Items of table `Concerts` in its global index `ByArtist` with the given `artist`, in `attendance` \
				order. Only items that have `artist` and `attendance` are in the index."
				""");
		assertThat(generated).contains("  allConcerts(first: Int, after: String): ConcertConnection! @scan\n");
		assertThat(generated).contains("""
				type ConcertConnection {
				  edges: [ConcertEdge!]!
				  pageInfo: PageInfo!
				""", """
				type ConcertEdge {
				  cursor: String!
				  node: Concert!
				}
				""");
	}

	@Test
	void binaryKey() {
		String generated = generate("");
		assertThat(typeBlock(generated, "Blob")).contains("""
				  @table(name: "Blobs", partitionKey: "digest") {
				  id: ID!
				  "Partition key (B)."
				  digest: Bytes!
				  size: Int
				}
				""");
		assertThat(generated).contains("""
				  blobs(
				    digest: Bytes!
				    first: Int
				    after: String
				    last: Int
				    before: String
				  ): BlobConnection! @query
				""");
	}

	@Test
	void awkwardAttributeNames() {
		String generated = generate("");
		String type = typeBlock(generated, "UserSession");
		assertThat(type).contains("""
				  @table(name: "user-sessions", partitionKey: "user-id", sortKey: "id") {
				  id: ID!
				  "Partition key (S)."
				  userId: String! @attribute(name: "user-id")
				  "Sort key (S)."
				  userSessionId: String! @attribute(name: "id")
				""");
		assertThat(type).contains("  _2fa: Boolean @attribute(name: \"2fa\")\n",
				"  firstName: String @attribute(name: \"first name\")\n",
				"  meta: String @attribute(name: \"__meta\")\n",
				"  sayHi: String @attribute(name: \"say \\\"hi\\\"\")\n", "  userAgent: String\n",
				"  userAgent2: String @attribute(name: \"user agent\")\n");
		assertThat(generated).contains("""
				  userSessions(
				    userId: String!
				    first: Int
				    after: String
				    last: Int
				    before: String
				    order: SortOrder = ASC
				    userSessionIdBeginsWith: String @sortKey(op: BEGINS_WITH)
				    userSessionIdBetween: [String!] @sortKey(op: BETWEEN)
				  ): UserSessionConnection! @query(partitionKey: "{userId}")
				""");
	}

	@Test
	void singleTableDesignBecomesOneTypePerKeyPrefix() {
		String generated = generate("");
		String table = "  @table(name: \"AppData\", partitionKey: \"PK\", sortKey: \"SK\")\n";
		String index = "  @globalIndex(name: \"GSI1\", partitionKey: \"GSI1PK\", sortKey: \"GSI1SK\") {\n";
		assertThat(typeBlock(generated, "Customer")).contains(table + """
				  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "PROFILE")
				""" + index + """
				  id: ID!
				  "The text after `CUSTOMER#` in the partition key `PK`."
				  customerId: String!
				  email: String
				  name: String
				}
				""");
		assertThat(typeBlock(generated, "Order")).contains(table + """
				  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "ORDER#{orderId}")
				""" + index + """
				  id: ID!
				  "The text after `CUSTOMER#` in the partition key `PK`."
				  customerId: String!
				  "The text after `ORDER#` in the sort key `SK`."
				  orderId: String!
				  status: String
				  total: Float
				}
				""");
		assertThat(typeBlock(generated, "Item")).contains("""
				  @key(partitionKey: "ORDER#{orderId}", sortKey: "ITEM#{itemId}")
				""", """
				  orderId: String!
				  "The text after `ITEM#` in the sort key `SK`."
				  itemId: String!
				  quantity: Int
				  sku: String
				}
				""");
		for (String type : List.of("Customer", "Order", "Item")) {
			assertThat(typeBlock(generated, type)).doesNotContain("  PK:", "  SK:", "  GSI1PK:", "  GSI1SK:");
		}
		assertThat(generated).contains("union AppDataItem = Customer | Item | Order\n");
		assertThat(generated).contains("""
				  appData(
				    PK: String!
				    first: Int
				    after: String
				    last: Int
				    before: String
				    order: SortOrder = ASC
				    SKBeginsWith: String @sortKey(op: BEGINS_WITH)
				    SKBetween: [String!] @sortKey(op: BETWEEN)
				  ): AppDataItemConnection! @query
				""");
		assertThat(generated).contains("""
				  appDataByGSI1(
				    GSI1PK: String!
				""", """
				  ): AppDataItemConnection! @query(index: "GSI1")
				""", "  allAppData(first: Int, after: String): AppDataItemConnection! @scan\n",
				"type AppDataItemEdge {\n  cursor: String!\n  node: AppDataItem!\n}\n");
	}

	@Test
	void prefixSelectsTablesAndIsLeftOutOfNames() {
		String withPrefix = generate("staging_");
		DeclarationLanguage.build(withPrefix);
		assertThat(withPrefix).contains("every table whose name starts with \"staging_\", named here without it.");
		assertThat(withPrefix).contains("  @table(name: \"Widgets\", partitionKey: \"widgetId\") {\n");
		assertThat(withPrefix).contains("  widgets(\n", "  allWidgets(first: Int, after: String): WidgetConnection! @scan\n");
		assertThat(withPrefix).doesNotContain("Concert", "AppData", "Blob", "UserSession", "staging_Widgets");
		assertThat(generate("")).contains("  @table(name: \"staging_Widgets\", partitionKey: \"widgetId\") {\n");
		String none = generate("nothing_");
		DeclarationLanguage.build(none);
		assertThat(none).contains("# No tables were found there whose names start with \"nothing_\".\n")
			.doesNotContain("@table(");
	}

	@Test
	void sameTablesGiveTheSameSchema() {
		assertThat(generate("")).isEqualTo(generate(""));
	}

	@Test
	void commandPrintsTheSchemaAndNothingElse() {
		Output output = capture(() -> GenerateSchemaCommand
			.run("--dynamo-relay.dynamodb.endpoint=" + dynamoDbEngine.endpoint()));
		assertThat(output.exitCode()).isZero();
		assertThat(output.stdout()).isEqualTo(generate(""));
		assertThat(output.stderr()).doesNotContain("# Generated");
	}

	@Test
	void commandTakesThePrefixProperty() {
		Output output = capture(() -> GenerateSchemaCommand.run(
				"--dynamo-relay.dynamodb.endpoint=" + dynamoDbEngine.endpoint(), "--dynamo-relay.tables.prefix=staging_"));
		assertThat(output.exitCode()).isZero();
		assertThat(output.stdout()).isEqualTo(generate("staging_"));
	}

	@Test
	void commandWithoutEndpointFindsTheEmptyEmbeddedDynamoDb() {
		Output output = capture(GenerateSchemaCommand::run);
		assertThat(output.exitCode()).isZero();
		assertThat(output.stdout()).startsWith("# Generated by `dynamo-relay generate-schema` from the embedded "
				+ "DynamoDB engine").contains("\n# No tables were found there.\n").doesNotContain("@table(");
		DeclarationLanguage.build(output.stdout());
	}

	@Test
	void unreachableEndpointFailsInOneParagraph() {
		Output output = capture(() -> GenerateSchemaCommand.run("--dynamo-relay.dynamodb.endpoint=http://127.0.0.1:1",
				"--dynamo-relay.dynamodb.timeout=3s"));
		assertThat(output.exitCode()).isEqualTo(1);
		assertThat(output.stdout()).isEmpty();
		assertThat(output.stderr()).startsWith("generate-schema failed: could not read the tables at http://127.0.0.1:1 (")
			.contains("dynamo-relay.dynamodb.endpoint")
			.doesNotContain("\tat ")
			.hasLineCount(1);
	}

	@Test
	void malformedEndpointFailsInOneParagraph() {
		Output output = capture(() -> GenerateSchemaCommand.run("--dynamo-relay.dynamodb.endpoint=localhost:8000"));
		assertThat(output.exitCode()).isEqualTo(1);
		assertThat(output.stdout()).isEmpty();
		assertThat(output.stderr()).startsWith("generate-schema failed: could not set up the DynamoDB client (")
			.contains("dynamo-relay.dynamodb.endpoint must be unset, `aws` or a URL such as http://127.0.0.1:8000, "
					+ "got `localhost:8000`")
			.doesNotContain("\tat ")
			.hasLineCount(1);
	}

	private static String generate(String prefix) {
		return new SchemaGenerator(asyncDynamoDb, prefix).generate(dynamoDbEngine.endpoint().toString());
	}

	/** A type's declaration, from its description to its closing brace. */
	private static String typeBlock(String schema, String type) {
		int declaration = schema.indexOf("\ntype " + type + " implements Node\n");
		assertThat(declaration).as("type " + type).isPositive();
		int start = schema.lastIndexOf("\n\"", declaration - 1) + 1;
		return schema.substring(start, schema.indexOf("\n}\n", declaration) + 3);
	}

	static Output capture(Supplier<Integer> command) {
		CommandOutput output = CommandOutput.run((args) -> command.get());
		return new Output(output.code(), output.stdout(), output.stderr());
	}

	private static void put(String table, Map<String, AttributeValue> item) {
		dynamoDb.putItem((put) -> put.tableName(table).item(item));
	}

	private static AttributeDefinition definition(String name, ScalarAttributeType type) {
		return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
	}

	private static KeySchemaElement key(String name, KeyType type) {
		return KeySchemaElement.builder().attributeName(name).keyType(type).build();
	}

	private static AttributeValue s(String value) {
		return AttributeValue.fromS(value);
	}

	private static AttributeValue n(String value) {
		return AttributeValue.fromN(value);
	}

	record Output(int exitCode, String stdout, String stderr) {
	}

}
