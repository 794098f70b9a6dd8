package dev.dynamorelay.command.schemagen;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import graphql.language.AstPrinter;
import graphql.language.Directive;
import graphql.language.DirectivesContainer;
import graphql.language.EnumValue;
import graphql.language.FieldDefinition;
import graphql.language.InputObjectTypeDefinition;
import graphql.language.InputValueDefinition;
import graphql.language.ListType;
import graphql.language.NonNullType;
import graphql.language.ObjectTypeDefinition;
import graphql.language.StringValue;
import graphql.language.Type;
import graphql.language.TypeName;
import graphql.language.UnionTypeDefinition;
import graphql.schema.idl.SchemaParser;
import graphql.schema.idl.TypeDefinitionRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.graphql.test.tester.HttpGraphQlTester;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import dev.dynamorelay.DynamoRelayApplication;
import dev.dynamorelay.command.schemagen.SchemaIntrospectionIT.Output;
import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;
import dev.dynamorelay.it.Walker;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Generate, serve, walk: creates tables the project has never seen in an embedded DynamoDB engine, fills
 * them with several pages of items, generates their schema with {@code generate-schema}, serves the
 * generated file as it is, and walks every generated root connection over HTTP, forwards and backwards,
 * comparing the nodes' keys in order with the same reads made directly with the SDK.
 *
 * <p>The test knows the tables, not the schema: connections, argument names, types and key fields are
 * read from the generated file. Walks run a few at a time, to keep the test fast.
 */
class GeneratedSchemaRoundTripIT {

	private static final int[] PAGE_SIZES = { 1, 3, 50 };

	private static final String PAGE_INFO = "pageInfo { hasNextPage hasPreviousPage startCursor endCursor }";

	/** The tables the test creates; each is in the generated schema. */
	private static final List<String> TABLES = List.of("Gigs", "Blobs", "Chunks", "user-sessions", "AppData");

	@TempDir
	static Path directory;

	private static EmbeddedDynamoDb dynamoDbEngine;

	private static DynamoDbClient dynamoDb;

	private static ConfigurableApplicationContext server;

	private static Walker walker;

	private static HttpGraphQlTester graphQl;

	private static Generated generated;

	/** Where walks run. */
	private static final ExecutorService pool = Executors.newFixedThreadPool(3);

	/** GraphQL requests made, for the summary. */
	private static final AtomicLong requests = new AtomicLong();

	/** Mutations tested, to give each its own values. */
	private static final AtomicInteger writes = new AtomicInteger();

	/** Nodes walked per connection, for the summary. */
	private static final Map<String, AtomicLong> walked = new TreeMap<>();

	@BeforeAll
	static void generateAndServe() throws IOException {
		dynamoDbEngine = EmbeddedDynamoDb.start();
		dynamoDb = DynamoDbClient.builder()
			.httpClient(UrlConnectionHttpClient.create())
			.endpointOverride(dynamoDbEngine.endpoint())
			.region(Region.US_EAST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
			.build();
		createGigs();
		createBlobs();
		createChunks();
		createUserSessions();
		createAppData();
		String endpoint = dynamoDbEngine.endpoint().toString();
		Output output = SchemaIntrospectionIT
			.capture(() -> GenerateSchemaCommand.run("--dynamo-relay.dynamodb.endpoint=" + endpoint));
		assertThat(output.exitCode()).as(output.stderr()).isZero();
		Path file = directory.resolve("generated.graphqls");
		Files.writeString(file, output.stdout());
		generated = new Generated(output.stdout());
		server = new SpringApplicationBuilder(DynamoRelayApplication.class).run("--server.port=0",
				"--dynamo-relay.dynamodb.endpoint=" + endpoint,
				"--dynamo-relay.schema.locations=file:" + file.toAbsolutePath(), "--dynamo-relay.cursor.secret=test",
				"--dynamo-relay.tables.create=false");
		String port = server.getEnvironment().getProperty("local.server.port");
		WebTestClient client = WebTestClient.bindToServer(new JdkClientHttpConnector())
			.baseUrl("http://127.0.0.1:" + port + "/graphql")
			.responseTimeout(Duration.ofSeconds(30))
			.codecs((codecs) -> codecs.defaultCodecs().maxInMemorySize(16 * 1024 * 1024))
			.build();
		graphQl = HttpGraphQlTester.create(client);
		walker = new Walker(GeneratedSchemaRoundTripIT::execute);
	}

	@AfterAll
	static void stop() {
		pool.shutdownNow();
		if (!walked.isEmpty()) {
			System.out.println("GeneratedSchemaRoundTripIT: " + requests + " GraphQL requests; nodes walked per "
					+ "connection: " + walked);
		}
		if (server != null) {
			server.close();
		}
		if (dynamoDb != null) {
			dynamoDb.close();
		}
		if (dynamoDbEngine != null) {
			dynamoDbEngine.close();
		}
	}

	/** Each table has a Query connection over its key and each index, and a Scan; nothing else is generated. */
	@Test
	void everyTableAndIndexHasItsRootConnections() {
		List<String> expected = new ArrayList<>();
		for (String table : TABLES) {
			TableDescription description = dynamoDb.describeTable((describe) -> describe.tableName(table)).table();
			expected.add(table + " query");
			description.globalSecondaryIndexes()
				.forEach((index) -> expected.add(table + " query " + index.indexName()));
			description.localSecondaryIndexes()
				.forEach((index) -> expected.add(table + " query " + index.indexName()));
			expected.add(table + " scan");
		}
		assertThat(generated.connections().stream()
			.map((connection) -> connection.table() + (connection.scan() ? " scan" : " query")
					+ ((connection.index() != null) ? " " + connection.index() : ""))
			.toList()).containsExactlyInAnyOrderElementsOf(expected);
	}

	/** Every root connection, walked for a few partitions forwards and backwards at several page sizes. */
	@TestFactory
	Stream<DynamicTest> walksEqualDirectReads() {
		return generated.connections()
			.stream()
			.map((connection) -> DynamicTest.dynamicTest(connection.field(), () -> {
				if (connection.scan()) {
					walkScan(connection);
				}
				else {
					walkQuery(connection);
				}
			}));
	}

	/** Every sort-key argument the generator emitted, against the same key condition read directly. */
	@TestFactory
	Stream<DynamicTest> sortKeyConditionsEqualDirectReads() {
		return generated.connections()
			.stream()
			.flatMap((connection) -> connection.sortArguments()
				.stream()
				.map((argument) -> DynamicTest.dynamicTest(connection.field() + "(" + argument.name() + ")",
						() -> walkSortCondition(connection, argument))));
	}

	/**
	 * Every generated type's create, update and delete, made over HTTP and each compared with the item read
	 * directly with GetItem: the create stores what it was given, the update changes the fields it gives and
	 * removes the attribute of the one it gives null, and the delete answers the id and leaves no item.
	 */
	@TestFactory
	Stream<DynamicTest> mutationsWriteWhatGetItemReads() {
		return generated.kinds()
			.values()
			.stream()
			.map((kind) -> DynamicTest.dynamicTest(kind.type(), () -> createUpdateDelete(kind)));
	}

	/** {@code node(id)} and {@code nodes(ids)} give back the node of each type as its connection showed it. */
	@Test
	void nodeIdsRoundTrip() {
		Map<String, Map<String, Object>> byType = new TreeMap<>();
		for (Connection connection : generated.connections()) {
			if (connection.scan()) {
				for (Map<String, Object> node : walker.forward(scanDocument(connection), connection.field(), Map.of(),
						100, true)) {
					byType.putIfAbsent((String) node.get("__typename"), node);
				}
			}
		}
		assertThat(byType.keySet()).containsExactlyInAnyOrderElementsOf(generated.kinds().keySet());
		String selection = generated.selection(generated.kinds().keySet());
		for (Map<String, Object> node : byType.values()) {
			GraphQlResponse response = execute("query($id: ID!) { node(id: $id) { " + selection + " } }",
					Map.of("id", node.get("id")));
			assertThat(response.getErrors()).isEmpty();
			assertThat((Object) response.field("node").getValue()).isEqualTo(node);
		}
		List<Map<String, Object>> nodes = new ArrayList<>(byType.values());
		GraphQlResponse response = execute("query($ids: [ID!]!) { nodes(ids: $ids) { " + selection + " } }",
				Map.of("ids", nodes.stream().map((node) -> node.get("id")).toList()));
		assertThat(response.getErrors()).isEmpty();
		assertThat((Object) response.field("nodes").getValue()).isEqualTo(nodes);
	}

	/**
	 * The single-table design's union: every item of {@code AppData} comes back as the kind its key prefixes
	 * say, with the key's text after the prefixes as its fields.
	 */
	@Test
	void singleTableItemsComeBackAsTheirKinds() {
		Connection scan = generated.connections()
			.stream()
			.filter((connection) -> connection.table().equals("AppData") && connection.scan())
			.findFirst()
			.orElseThrow();
		assertThat(scan.kinds()).extracting(Kind::type).containsExactlyInAnyOrder("Customer", "Order", "Item");
		List<Map<String, Object>> nodes = walker.forward(scanDocument(scan), scan.field(), Map.of(), 100, true);
		List<Map<String, AttributeValue>> items = Direct.scan("AppData");
		assertThat(nodes).hasSize(items.size());
		Map<String, Integer> kinds = new TreeMap<>();
		for (int i = 0; i < items.size(); i++) {
			String pk = items.get(i).get("PK").s();
			String sk = items.get(i).get("SK").s();
			Map<String, Object> node = nodes.get(i);
			kinds.merge((String) node.get("__typename"), 1, Integer::sum);
			if (pk.startsWith("CUSTOMER#") && sk.equals("PROFILE")) {
				assertThat(node).containsEntry("__typename", "Customer")
					.containsEntry("customerId", pk.substring("CUSTOMER#".length()));
			}
			else if (pk.startsWith("CUSTOMER#") && sk.startsWith("ORDER#")) {
				assertThat(node).containsEntry("__typename", "Order")
					.containsEntry("customerId", pk.substring("CUSTOMER#".length()))
					.containsEntry("orderId", sk.substring("ORDER#".length()));
			}
			else {
				assertThat(pk).startsWith("ORDER#");
				assertThat(node).containsEntry("__typename", "Item")
					.containsEntry("orderId", pk.substring("ORDER#".length()))
					.containsEntry("itemId", sk.substring("ITEM#".length()));
			}
		}
		assertThat(kinds).containsOnlyKeys("Customer", "Order", "Item");
	}

	/**
	 * Every attribute field of the nodes of every root connection (of its chosen partitions, 100 a page) holds
	 * the value of the item's attribute in the table; over a global index that projects only keys, too (the
	 * server completes its items from the table).
	 */
	@TestFactory
	Stream<DynamicTest> fieldsEqualTheItems() {
		return generated.connections().stream().map((connection) -> DynamicTest.dynamicTest(connection.field(), () -> {
			List<Map<String, AttributeValue>> scanned = Direct.scan(connection.table());
			List<String> itemKeys = keysOf(connection.table(), scanned);
			Map<String, Map<String, AttributeValue>> items = new HashMap<>();
			for (int i = 0; i < scanned.size(); i++) {
				items.put(itemKeys.get(i), scanned.get(i));
			}
			List<Map<String, Object>> nodes = new ArrayList<>();
			if (connection.scan()) {
				nodes.addAll(walker.forward(scanDocument(connection, true), connection.field(), Map.of(), 100, true));
			}
			else {
				Keys keys = Direct.keys(connection.table(), connection.index());
				for (AttributeValue partition : partitions(connection.table(), keys.partition())) {
					nodes.addAll(walker.forward(connection.document(null, true), connection.field(),
							Map.of("partition", variable(partition, connection.partition().scalar())), 100, true));
				}
			}
			assertThat(nodes).isNotEmpty();
			List<String> nodeKeys = connection.keys(nodes);
			for (int i = 0; i < nodes.size(); i++) {
				Map<String, Object> node = nodes.get(i);
				Map<String, AttributeValue> item = items.get(nodeKeys.get(i));
				assertThat(item).as("item of %s", node).isNotNull();
				generated.kinds().get((String) node.get("__typename")).attributes().forEach((field, attribute) ->
					assertThat(canonical(node.get(field))).as("%s of %s (attribute %s: %s)", field, node.get("id"),
							attribute, item.get(attribute)).isEqualTo(canonical(item.get(attribute))));
			}
			count(connection.field(), nodes.size());
		}));
	}

	private static void createUpdateDelete(Kind kind) {
		String type = kind.type();
		String table = generated.table(type);
		String selection = generated.selection(List.of(type), true);
		int write = writes.incrementAndGet();
		Map<String, Object> input = new LinkedHashMap<>();
		generated.inputFields("create" + type).forEach((field, scalar) -> input.put(field,
				value(scalar, kind.fields().contains(field) ? "key" : "created", write)));
		assertThat(input).as("input of create%s", type).containsKeys(kind.fields().toArray(String[]::new));
		GraphQlResponse created = execute("mutation($input: %s!) { create%s(input: $input) { %s } }"
			.formatted(generated.inputType("create" + type), type, selection), Map.of("input", input));
		assertThat(created.getErrors()).as("errors of create%s(%s)", type, input).isEmpty();
		Map<String, Object> node = created.field("create" + type).getValue();
		Map<String, AttributeValue> key = Direct.key(table, kind, node);
		try {
			input.forEach((field, value) -> assertThat(canonical(node.get(field))).as("%s of create%s", field, type)
				.isEqualTo(canonical(value)));
			Map<String, AttributeValue> item = Direct.get(table, key);
			assertNodeIsItem(kind, node, item);
			input.forEach((field, value) -> assertThat(canonical(item.get(kind.attribute(field))))
				.as("attribute of %s after create%s", field, type).isEqualTo(canonical(value)));

			Map<String, String> updatable = generated.inputFields("update" + type);
			assertThat(updatable).as("input of update%s", type).containsKey("id").doesNotContainKeys(
					kind.fields().toArray(String[]::new));
			Map<String, Object> changes = new LinkedHashMap<>();
			changes.put("id", node.get("id"));
			updatable.forEach((field, scalar) -> {
				if (!field.equals("id")) {
					changes.put(field, (changes.size() == 1) ? null : value(scalar, "updated", write));
				}
			});
			GraphQlResponse updated = execute("mutation($input: %s!) { update%s(input: $input) { %s } }"
				.formatted(generated.inputType("update" + type), type, selection), Map.of("input", changes));
			assertThat(updated.getErrors()).as("errors of update%s(%s)", type, changes).isEmpty();
			Map<String, Object> updatedNode = updated.field("update" + type).getValue();
			assertThat(updatedNode.get("id")).isEqualTo(node.get("id"));
			Map<String, AttributeValue> updatedItem = Direct.get(table, key);
			assertNodeIsItem(kind, updatedNode, updatedItem);
			changes.forEach((field, value) -> {
				if (!field.equals("id")) {
					assertThat(canonical(updatedNode.get(field))).as("%s of update%s", field, type)
						.isEqualTo(canonical(value));
					assertThat(canonical(updatedItem.get(kind.attribute(field))))
						.as("attribute of %s after update%s", field, type).isEqualTo(canonical(value));
				}
			});
			assertThat(changes.containsValue(null)).as("update%s gives one field null", type).isTrue();

			GraphQlResponse deleted = execute("mutation($id: ID!) { delete%s(id: $id) }".formatted(type),
					Map.of("id", node.get("id")));
			assertThat(deleted.getErrors()).isEmpty();
			assertThat((Object) deleted.field("delete" + type).getValue()).isEqualTo(node.get("id"));
			assertThat(Direct.get(table, key)).as("item after delete%s", type).isEmpty();
			GraphQlResponse again = execute("mutation($id: ID!) { delete%s(id: $id) }".formatted(type),
					Map.of("id", node.get("id")));
			assertThat(again.getErrors()).isEmpty();
			assertThat((Object) again.field("delete" + type).getValue()).isNull();
		}
		finally {
			// The walks compare with direct reads: leave the tables as they were, whatever failed.
			dynamoDb.deleteItem((delete) -> delete.tableName(table).key(key));
		}
	}

	/** A node's key fields fill its type's key templates to the item's key, and its attribute fields are the item's. */
	private static void assertNodeIsItem(Kind kind, Map<String, Object> node, Map<String, AttributeValue> item) {
		assertThat(item).as("item of %s", node).isNotEmpty();
		Keys keys = Direct.keys(generated.table(kind.type()), null);
		assertThat(Generated.fill(kind.partitionTemplate(), node)).isEqualTo(text(item.get(keys.partition())));
		if (kind.sortTemplate() != null) {
			assertThat(Generated.fill(kind.sortTemplate(), node)).isEqualTo(text(item.get(keys.sort())));
		}
		kind.attributes().forEach((field, attribute) -> assertThat(canonical(node.get(field)))
			.as("%s of %s (attribute %s: %s)", field, node.get("id"), attribute, item.get(attribute))
			.isEqualTo(canonical(item.get(attribute))));
	}

	/**
	 * A value of a scalar for a mutation's input, distinct for each write and each {@code role} ({@code key},
	 * {@code created}, {@code updated}); a key's is in no partition the tables hold.
	 */
	private static Object value(String scalar, String role, int write) {
		int offset = switch (role) {
			case "key" -> 900_000;
			case "created" -> 40;
			default -> 70;
		};
		return switch (scalar) {
			case "Int" -> offset + write;
			case "Long" -> 5_000_000_000L + offset + write;
			case "Float" -> offset + write + 0.25;
			case "Decimal" -> "12345678901234567890" + (offset + write) + ".5";
			case "Boolean" -> !role.equals("updated");
			case "Bytes" -> Base64.getEncoder().encodeToString((role + "-" + write).getBytes(StandardCharsets.UTF_8));
			default -> "rt-" + role + "-" + write;
		};
	}

	/**
	 * Walks a Query connection: the largest partition at 3 and 50 items a page, and in descending order at
	 * 7; the others at 1, 3 and 50 items a page (one item a page costs a request per item).
	 */
	private static void walkQuery(Connection connection) {
		Keys keys = Direct.keys(connection.table(), connection.index());
		List<AttributeValue> partitions = partitions(connection.table(), keys.partition());
		assertThat(partitions).as("partitions of " + connection.field()).isNotEmpty();
		String document = connection.document(null);
		List<Runnable> walks = new ArrayList<>();
		for (AttributeValue partition : partitions) {
			boolean largest = partition.equals(partitions.get(0)) && partitions.size() > 1;
			Map<String, Object> arguments = new HashMap<>();
			arguments.put("partition", variable(partition, connection.partition().scalar()));
			List<String> ascending = keysOf(connection.table(),
					Direct.query(connection.table(), connection.index(), keys, partition, true, null, List.of()));
			for (int pageSize : PAGE_SIZES) {
				if (pageSize > 1 || !largest) {
					walks.addAll(bothWays(connection, document, arguments, pageSize, ascending));
				}
			}
			if (connection.ordered() && largest) {
				List<String> descending = keysOf(connection.table(),
						Direct.query(connection.table(), connection.index(), keys, partition, false, null, List.of()));
				arguments.put("order", "DESC");
				walks.addAll(bothWays(connection, document, arguments, 7, descending));
			}
		}
		inParallel(walks);
	}

	private static void walkScan(Connection connection) {
		List<String> expected = keysOf(connection.table(), Direct.scan(connection.table()));
		List<Runnable> walks = new ArrayList<>();
		for (int pageSize : PAGE_SIZES) {
			walks.add(() -> {
				List<Map<String, Object>> nodes = walker.forward(scanDocument(connection), connection.field(), Map.of(),
						pageSize, true);
				assertThat(connection.keys(nodes)).as("%s forwards by %d", connection.field(), pageSize)
					.isEqualTo(expected);
				count(connection.field(), nodes.size());
			});
		}
		inParallel(walks);
	}

	private static void walkSortCondition(Connection connection, SortArgument argument) {
		Keys keys = Direct.keys(connection.table(), connection.index());
		List<AttributeValue> partitions = partitions(connection.table(), keys.partition());
		AttributeValue partition = partitions.get(0);
		List<AttributeValue> sortValues = Direct
			.query(connection.table(), connection.index(), keys, partition, true, null, List.of())
			.stream()
			.map((item) -> item.get(keys.sort()))
			.distinct()
			.toList();
		assertThat(sortValues).as("sort keys of the largest partition of " + connection.field()).hasSizeGreaterThan(1);
		List<List<AttributeValue>> bounds = new ArrayList<>();
		if (argument.op().equals("BETWEEN")) {
			bounds.add(List.of(sortValues.get(sortValues.size() / 4), sortValues.get(sortValues.size() * 3 / 4)));
			bounds.add(List.of(sortValues.get(0), sortValues.get(0)));
		}
		else {
			assertThat(argument.op()).isEqualTo("BEGINS_WITH");
			for (String prefix : prefixes(sortValues.stream().map(AttributeValue::s).toList())) {
				bounds.add(List.of(AttributeValue.fromS(prefix)));
			}
		}
		String document = connection.document(argument);
		List<Runnable> walks = new ArrayList<>();
		for (List<AttributeValue> bound : bounds) {
			Map<String, Object> arguments = new HashMap<>();
			arguments.put("partition", variable(partition, connection.partition().scalar()));
			arguments.put("sort", argument.op().equals("BETWEEN")
					? bound.stream().map((value) -> variable(value, argument.scalar())).toList()
					: variable(bound.get(0), argument.scalar()));
			for (boolean ascending : List.of(true, false)) {
				arguments.put("order", ascending ? "ASC" : "DESC");
				List<String> expected = keysOf(connection.table(), Direct.query(connection.table(), connection.index(),
						keys, partition, ascending, argument.op(), bound));
				assertThat(expected).as("items of %s %s", argument.name(), bound).isNotEmpty();
				walks.addAll(bothWays(connection, document, arguments, ascending ? 3 : 50, expected));
			}
		}
		inParallel(walks);
	}

	/** Prefixes of the sorted string sort keys that some, but not all, items share. */
	private static List<String> prefixes(List<String> values) {
		List<String> prefixes = new ArrayList<>();
		String median = values.get(values.size() / 2);
		for (int length = 1; length < median.length(); length++) {
			String prefix = median.substring(0, length);
			long matching = values.stream().filter((value) -> value.startsWith(prefix)).count();
			if (matching >= 2 && matching <= values.size() / 2) {
				prefixes.add(prefix);
				break;
			}
		}
		int hash = median.indexOf('#');
		if (hash > 0) {
			prefixes.add(median.substring(0, hash + 1));
		}
		prefixes.add(median);
		return prefixes;
	}

	/** Walks forwards and backwards, each comparing the nodes' keys with {@code expected}. */
	private static List<Runnable> bothWays(Connection connection, String document, Map<String, Object> arguments,
			int pageSize, List<String> expected) {
		Map<String, Object> given = Map.copyOf(arguments);
		return List.of(() -> {
			List<Map<String, Object>> nodes = walker.forward(document, connection.field(), given, pageSize, true);
			assertThat(connection.keys(nodes)).as("%s%s forwards by %d", connection.field(), given, pageSize)
				.isEqualTo(expected);
			count(connection.field(), nodes.size());
		}, () -> {
			List<Map<String, Object>> nodes = walker.backward(document, connection.field(), given, pageSize, true);
			assertThat(connection.keys(nodes)).as("%s%s backwards by %d", connection.field(), given, pageSize)
				.isEqualTo(expected);
			count(connection.field(), nodes.size());
		});
	}

	/** Runs walks a few at a time (each waits on HTTP and DynamoDB most of its time); fails with the first failure. */
	private static void inParallel(List<Runnable> walks) {
		List<Future<?>> running = walks.stream().<Future<?>>map((walk) -> pool.submit(walk)).toList();
		for (Future<?> walk : running) {
			try {
				walk.get();
			}
			catch (ExecutionException ex) {
				if (ex.getCause() instanceof Error error) {
					throw error;
				}
				throw new IllegalStateException(ex.getCause());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
	}

	private static String scanDocument(Connection connection) {
		return scanDocument(connection, false);
	}

	private static String scanDocument(Connection connection, boolean attributes) {
		return """
				query($first: Int, $after: String) {
				  %s(first: $first, after: $after) { edges { cursor node { %s } } %s }
				}""".formatted(connection.field(), generated.selection(connection.types(), attributes), PAGE_INFO);
	}

	/**
	 * A few partition values of a table or index: the two largest partitions and the smallest, the
	 * largest first.
	 */
	private static List<AttributeValue> partitions(String table, String attribute) {
		Map<AttributeValue, Integer> sizes = new LinkedHashMap<>();
		for (Map<String, AttributeValue> item : Direct.scan(table)) {
			if (item.containsKey(attribute)) {
				sizes.merge(item.get(attribute), 1, Integer::sum);
			}
		}
		List<AttributeValue> bySize = sizes.entrySet()
			.stream()
			.sorted(Map.Entry.<AttributeValue, Integer>comparingByValue().reversed())
			.map(Map.Entry::getKey)
			.toList();
		Set<AttributeValue> chosen = new LinkedHashSet<>(bySize.subList(0, Math.min(2, bySize.size())));
		if (!bySize.isEmpty()) {
			chosen.add(bySize.get(bySize.size() - 1));
		}
		return List.copyOf(chosen);
	}

	private static void count(String connection, long nodes) {
		synchronized (walked) {
			walked.computeIfAbsent(connection, (key) -> new AtomicLong()).addAndGet(nodes);
		}
	}

	private static GraphQlResponse execute(String document, Map<String, Object> variables) {
		requests.incrementAndGet();
		return graphQl.document(document).variables(variables).execute().returnResponse();
	}

	/** The item keys of a direct read, as {@link Connection#keys} gives them for nodes. */
	private static List<String> keysOf(String table, List<Map<String, AttributeValue>> items) {
		Keys keys = Direct.keys(table, null);
		return items.stream()
			.map((item) -> text(item.get(keys.partition())) + "|"
					+ ((keys.sort() != null) ? text(item.get(keys.sort())) : ""))
			.toList();
	}

	/** A key value as text: strings as they are, numbers in their shortest form, bytes in base64. */
	static String text(AttributeValue value) {
		if (value.s() != null) {
			return value.s();
		}
		if (value.n() != null) {
			return number(value.n());
		}
		return Base64.getEncoder().encodeToString(value.b().asByteArray());
	}

	/** A value of a node's field as text, like {@link #text(AttributeValue)}. */
	static String text(Object value) {
		return (value instanceof Number) ? number(value.toString()) : String.valueOf(value);
	}

	private static String number(String number) {
		return new BigDecimal(number).stripTrailingZeros().toPlainString();
	}

	/** A field's value to compare: {@link #text(Object)} of a value, or the sorted texts of a list. */
	private static Object canonical(Object value) {
		if (value instanceof List<?> list) {
			return list.stream().map(GeneratedSchemaRoundTripIT::text).sorted().toList();
		}
		return (value != null) ? text(value) : null;
	}

	/** An attribute's value to compare like {@link #canonical(Object)}. */
	private static Object canonical(AttributeValue value) {
		if (value == null || Boolean.TRUE.equals(value.nul())) {
			return null;
		}
		if (value.bool() != null) {
			return value.bool().toString();
		}
		if (value.hasSs()) {
			return value.ss().stream().sorted().toList();
		}
		if (value.hasNs()) {
			return value.ns().stream().map(GeneratedSchemaRoundTripIT::number).sorted().toList();
		}
		if (value.hasBs()) {
			return value.bs().stream().map((bytes) -> Base64.getEncoder().encodeToString(bytes.asByteArray()))
				.sorted()
				.toList();
		}
		return text(value);
	}

	/** A key value as a GraphQL variable of a scalar type. */
	private static Object variable(AttributeValue value, String scalar) {
		return switch (scalar) {
			case "Int" -> Integer.valueOf(value.n());
			case "Long" -> Long.valueOf(value.n());
			case "Float" -> Double.valueOf(value.n());
			case "Decimal" -> value.n();
			case "Bytes" -> Base64.getEncoder().encodeToString(value.b().asByteArray());
			default -> value.s();
		};
	}

	// Tables the project has never seen.

	/**
	 * {@code Gigs}: {@code season} (N) / {@code slug} (S); a global index {@code ByArtist} whose keys many
	 * items share and some items lack, and a local index {@code byCapacity} (KEYS_ONLY) that some items are
	 * not in.
	 */
	private static void createGigs() {
		dynamoDb.createTable(CreateTableRequest.builder()
			.tableName("Gigs")
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
		String[] venues = { "arena", "club", "park", "hall" };
		String[] artists = { "The Tables", "Null Pointers", "Hash Keys" };
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int[] season : new int[][] { { 2023, 34 }, { 2024, 64 }, { 2025, 6 } }) {
			for (int i = 0; i < season[1]; i++) {
				Map<String, AttributeValue> item = new HashMap<>();
				item.put("season", n(season[0]));
				item.put("slug", s(venues[i % venues.length] + "-" + "%03d".formatted(i)));
				if (i % 7 != 3) {
					item.put("artist", s(artists[(i + season[0]) % artists.length]));
				}
				if (i % 11 != 5) {
					item.put("attendance", n((i % 4) * 250));
				}
				if (i % 3 != 0) {
					item.put("capacity", n(((i * 37) % 9) * 100));
				}
				item.put("rating", AttributeValue.fromN((i % 5) + "." + (i % 10)));
				item.put("tags", AttributeValue.fromSs(List.of("live", venues[i % venues.length])));
				items.add(item);
			}
		}
		write("Gigs", items);
	}

	/** {@code Blobs}: a binary partition key and no sort key. */
	private static void createBlobs() {
		dynamoDb.createTable(CreateTableRequest.builder()
			.tableName("Blobs")
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.attributeDefinitions(definition("digest", ScalarAttributeType.B))
			.keySchema(key("digest", KeyType.HASH))
			.build());
		Random random = new Random(7);
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			byte[] digest = new byte[16];
			random.nextBytes(digest);
			items.add(Map.of("digest", AttributeValue.fromB(SdkBytes.fromByteArray(digest)), "size", n(i * 1000)));
		}
		write("Blobs", items);
	}

	/**
	 * {@code Chunks}: binary partition and sort keys, the sort keys of one and two bytes, half of them
	 * above 0x7f (DynamoDB orders bytes unsigned).
	 */
	private static void createChunks() {
		dynamoDb.createTable(CreateTableRequest.builder()
			.tableName("Chunks")
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.attributeDefinitions(definition("file", ScalarAttributeType.B), definition("part", ScalarAttributeType.B))
			.keySchema(key("file", KeyType.HASH), key("part", KeyType.RANGE))
			.build());
		Random random = new Random(11);
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int parts : new int[] { 60, 12, 3 }) {
			byte[] file = new byte[8];
			random.nextBytes(file);
			for (int i = 0; i < parts; i++) {
				byte[] part = (i % 2 == 0) ? new byte[] { (byte) (i * 4) } : new byte[] { (byte) (i * 4), 1 };
				items.add(Map.of("file", AttributeValue.fromB(SdkBytes.fromByteArray(file)), "part",
						AttributeValue.fromB(SdkBytes.fromByteArray(part)), "length", n(part.length)));
			}
		}
		write("Chunks", items);
	}

	/**
	 * {@code user-sessions}: {@code user-id} (S) / {@code id} (S), a local index {@code by-start} on
	 * {@code started-at} (N, epoch milliseconds, shared by several sessions), a global index {@code by-device}
	 * of projection KEYS_ONLY with a partition key only (most sessions share one), attribute names GraphQL
	 * refuses, and a partition value with a space and a non-ASCII letter.
	 */
	private static void createUserSessions() {
		dynamoDb.createTable(CreateTableRequest.builder()
			.tableName("user-sessions")
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.attributeDefinitions(definition("user-id", ScalarAttributeType.S), definition("id", ScalarAttributeType.S),
					definition("started-at", ScalarAttributeType.N), definition("device", ScalarAttributeType.S))
			.keySchema(key("user-id", KeyType.HASH), key("id", KeyType.RANGE))
			.localSecondaryIndexes((index) -> index.indexName("by-start")
				.keySchema(key("user-id", KeyType.HASH), key("started-at", KeyType.RANGE))
				.projection((projection) -> projection.projectionType(ProjectionType.ALL)))
			.globalSecondaryIndexes((index) -> index.indexName("by-device")
				.keySchema(key("device", KeyType.HASH))
				.projection((projection) -> projection.projectionType(ProjectionType.KEYS_ONLY)))
			.build());
		Random random = new Random(13);
		Set<String> ids = new HashSet<>();
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		Map<String, Integer> users = new LinkedHashMap<>();
		users.put("u-1", 56);
		users.put("u-2", 31);
		users.put("\u00fc 3", 4);
		users.forEach((user, sessions) -> {
			for (int i = 0; i < sessions; i++) {
				String id;
				do {
					id = "s-%08x".formatted(random.nextInt());
				}
				while (!ids.add(id));
				Map<String, AttributeValue> item = new HashMap<>();
				item.put("user-id", s(user));
				item.put("id", s(id));
				if (i % 9 != 4) {
					item.put("started-at", n(1_735_689_600_000L + (i % 10) * 3_600_000L));
				}
				if (i % 5 != 2) {
					item.put("device", s((i % 3 == 0) ? "phone" : "laptop"));
				}
				item.put("first name", s("Ada"));
				item.put("2fa", AttributeValue.fromBool(i % 2 == 0));
				item.put("__meta", s("m" + i));
				items.add(item);
			}
		});
		write("user-sessions", items);
	}

	/**
	 * {@code AppData}: a single-table design of customers ({@code CUSTOMER#}/{@code PROFILE}), their orders
	 * ({@code CUSTOMER#}/{@code ORDER#}) and the orders' items ({@code ORDER#}/{@code ITEM#}); a global index
	 * {@code GSI1} of orders by status whose keys orders of different customers share, and that some orders
	 * are not in.
	 */
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
		String[] statuses = { "SHIPPED", "PENDING", "CANCELLED" };
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		Map<String, Integer> customers = new LinkedHashMap<>();
		customers.put("c1", 55);
		customers.put("c2", 25);
		customers.put("c3", 4);
		customers.forEach((customer, orders) -> {
			items.add(Map.of("PK", s("CUSTOMER#" + customer), "SK", s("PROFILE"), "name", s("Customer " + customer),
					"email", s(customer + "@example.com")));
			for (int j = 0; j < orders; j++) {
				String at = "2025-%02d-%02dT10:00:00Z".formatted(1 + j / 28, 1 + j % 28);
				Map<String, AttributeValue> order = new HashMap<>();
				order.put("PK", s("CUSTOMER#" + customer));
				order.put("SK", s("ORDER#" + at));
				order.put("status", s(statuses[j % statuses.length]));
				order.put("total", AttributeValue.fromN((j % 7) + ".5"));
				if (j % 8 != 7) {
					order.put("GSI1PK", s("STATUS#" + statuses[j % statuses.length]));
					order.put("GSI1SK", s(at));
				}
				items.add(order);
			}
		});
		Map<String, Integer> orderItems = new LinkedHashMap<>();
		orderItems.put("o-1", 30);
		orderItems.put("o-2", 8);
		orderItems.forEach((order, count) -> {
			for (int k = 0; k < count; k++) {
				items.add(Map.of("PK", s("ORDER#" + order), "SK", s("ITEM#%02d".formatted(k)), "sku", s("sku-" + k),
						"quantity", n(1 + k % 3)));
			}
		});
		write("AppData", items);
	}

	private static void write(String table, List<Map<String, AttributeValue>> items) {
		for (int start = 0; start < items.size(); start += 25) {
			List<WriteRequest> batch = items.subList(start, Math.min(start + 25, items.size()))
				.stream()
				.map((item) -> WriteRequest.builder().putRequest((put) -> put.item(item)).build())
				.toList();
			Map<String, List<WriteRequest>> unprocessed = Map.of(table, batch);
			while (!unprocessed.isEmpty()) {
				Map<String, List<WriteRequest>> request = unprocessed;
				unprocessed = dynamoDb.batchWriteItem((write) -> write.requestItems(request)).unprocessedItems();
			}
		}
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

	private static AttributeValue n(long value) {
		return AttributeValue.fromN(Long.toString(value));
	}

	/** A table's or an index's key attributes. */
	record Keys(String partition, String sort) {
	}

	/** Reads made directly with the SDK, to compare the walks against. */
	private static final class Direct {

		private Direct() {
		}

		private static final Map<List<String>, Keys> KEYS = new ConcurrentHashMap<>();

		static Keys keys(String table, String index) {
			return KEYS.computeIfAbsent(Arrays.asList(table, index), (key) -> describe(table, index));
		}

		private static Keys describe(String table, String index) {
			TableDescription description = dynamoDb.describeTable((describe) -> describe.tableName(table)).table();
			List<KeySchemaElement> schema = (index == null) ? description.keySchema()
					: Stream
						.concat(description.globalSecondaryIndexes()
							.stream()
							.filter((each) -> each.indexName().equals(index))
							.map((each) -> each.keySchema()),
								description.localSecondaryIndexes()
									.stream()
									.filter((each) -> each.indexName().equals(index))
									.map((each) -> each.keySchema()))
						.findFirst()
						.orElseThrow();
			String partition = null;
			String sort = null;
			for (KeySchemaElement element : schema) {
				if (element.keyType() == KeyType.HASH) {
					partition = element.attributeName();
				}
				else {
					sort = element.attributeName();
				}
			}
			return new Keys(partition, sort);
		}

		/**
		 * A Query of one partition of a table or index, all pages, with an optional sort-key condition
		 * ({@code BETWEEN} with two values, {@code BEGINS_WITH} with one).
		 */
		static List<Map<String, AttributeValue>> query(String table, String index, Keys keys, AttributeValue partition,
				boolean ascending, String op, List<AttributeValue> values) {
			Map<String, String> names = new HashMap<>(Map.of("#p", keys.partition()));
			Map<String, AttributeValue> bound = new HashMap<>(Map.of(":p", partition));
			String condition = "#p = :p";
			if (op != null) {
				names.put("#s", keys.sort());
				if (op.equals("BETWEEN")) {
					condition += " AND #s BETWEEN :low AND :high";
					bound.put(":low", values.get(0));
					bound.put(":high", values.get(1));
				}
				else {
					condition += " AND begins_with(#s, :prefix)";
					bound.put(":prefix", values.get(0));
				}
			}
			String keyCondition = condition;
			return dynamoDb
				.queryPaginator((query) -> query.tableName(table)
					.indexName(index)
					.keyConditionExpression(keyCondition)
					.expressionAttributeNames(names)
					.expressionAttributeValues(bound)
					.scanIndexForward(ascending)
					.limit(7))
				.items()
				.stream()
				.toList();
		}

		/** The item of a key, read with GetItem (strongly consistent); empty when there is none. */
		static Map<String, AttributeValue> get(String table, Map<String, AttributeValue> key) {
			return dynamoDb.getItem((get) -> get.tableName(table).key(key).consistentRead(true)).item();
		}

		/** The key of the item of a node of {@code kind}: its key templates filled from its key fields. */
		static Map<String, AttributeValue> key(String table, Kind kind, Map<String, Object> node) {
			Keys keys = keys(table, null);
			Map<String, AttributeValue> key = new HashMap<>();
			key.put(keys.partition(), typed(table, keys.partition(), Generated.fill(kind.partitionTemplate(), node)));
			if (keys.sort() != null) {
				key.put(keys.sort(), typed(table, keys.sort(), Generated.fill(kind.sortTemplate(), node)));
			}
			return key;
		}

		/** A key attribute's value from its text (numbers as digits, bytes in base64), as the table defines it. */
		private static AttributeValue typed(String table, String attribute, String text) {
			ScalarAttributeType type = dynamoDb.describeTable((describe) -> describe.tableName(table))
				.table()
				.attributeDefinitions()
				.stream()
				.filter((definition) -> definition.attributeName().equals(attribute))
				.findFirst()
				.orElseThrow()
				.attributeType();
			return switch (type) {
				case N -> AttributeValue.fromN(text);
				case B -> AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode(text)));
				default -> AttributeValue.fromS(text);
			};
		}

		/** A Scan of a whole table, all pages. */
		static List<Map<String, AttributeValue>> scan(String table) {
			return dynamoDb.scanPaginator((scan) -> scan.tableName(table).limit(11)).items().stream().toList();
		}

	}

	/** What the test reads from the generated schema. */
	static final class Generated {

		private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}]+)}");

		/** The scalars whose values the test compares with attribute values (not {@code JSON}). */
		private static final Set<String> SCALARS = Set.of("String", "Int", "Long", "Float", "Decimal", "Boolean",
				"Bytes");

		private final TypeDefinitionRegistry registry;

		private final Map<String, Kind> kinds = new TreeMap<>();

		private final List<Connection> connections = new ArrayList<>();

		Generated(String sdl) {
			this.registry = new SchemaParser().parse(sdl);
			for (ObjectTypeDefinition type : this.registry.getTypes(ObjectTypeDefinition.class)) {
				if (!type.getDirectives("table").isEmpty()) {
					this.kinds.put(type.getName(), kind(type));
				}
			}
			ObjectTypeDefinition query = this.registry.getType("Query", ObjectTypeDefinition.class).orElseThrow();
			for (FieldDefinition field : query.getFieldDefinitions()) {
				boolean scan = !field.getDirectives("scan").isEmpty();
				if (scan || !field.getDirectives("query").isEmpty()) {
					this.connections.add(connection(field, scan));
				}
			}
		}

		Map<String, Kind> kinds() {
			return this.kinds;
		}

		/** The table of a generated type, as its {@code @table} names it. */
		String table(String type) {
			return string(this.registry.getType(type, ObjectTypeDefinition.class).orElseThrow(), "table", "name")
				.orElseThrow();
		}

		/** The input object type that the {@code input} argument of a field of {@code Mutation} takes. */
		String inputType(String mutationField) {
			ObjectTypeDefinition mutation = this.registry.getType("Mutation", ObjectTypeDefinition.class)
				.orElseThrow();
			FieldDefinition field = field(mutation, mutationField);
			return name(field.getInputValueDefinitions()
				.stream()
				.filter((argument) -> argument.getName().equals("input"))
				.findFirst()
				.orElseThrow()
				.getType());
		}

		/** The fields of {@link #inputType}, in order, each with the scalar it takes. */
		Map<String, String> inputFields(String mutationField) {
			Map<String, String> fields = new LinkedHashMap<>();
			this.registry.getType(inputType(mutationField), InputObjectTypeDefinition.class)
				.orElseThrow()
				.getInputValueDefinitions()
				.forEach((field) -> fields.put(field.getName(), name(field.getType())));
			return fields;
		}

		List<Connection> connections() {
			return this.connections;
		}

		/** A selection of the key fields of these types, with {@code __typename}. */
		String selection(Collection<String> types) {
			return selection(types, false);
		}

		/** A selection of the key fields of these types, and with {@code attributes} their attribute fields. */
		String selection(Collection<String> types, boolean attributes) {
			return "__typename " + types.stream().map((type) -> {
				Kind kind = this.kinds.get(type);
				Set<String> fields = new LinkedHashSet<>(kind.fields());
				if (attributes) {
					fields.addAll(kind.attributes().keySet());
				}
				return "... on " + type + " { id " + String.join(" ", fields) + " }";
			}).collect(Collectors.joining(" "));
		}

		private Connection connection(FieldDefinition field, boolean scan) {
			String nodeType = nodeType(name(field.getType()));
			List<String> types = this.registry.getType(nodeType, UnionTypeDefinition.class)
				.map((union) -> union.getMemberTypes().stream().map(Generated::name).toList())
				.orElse(List.of(nodeType));
			String table = string(this.registry.getType(types.get(0), ObjectTypeDefinition.class).orElseThrow(),
					"table", "name").orElseThrow();
			Directive directive = field.getDirectives(scan ? "scan" : "query").get(0);
			String index = (directive.getArgument("index") != null)
					? ((StringValue) directive.getArgument("index").getValue()).getValue() : null;
			Argument partition = null;
			List<SortArgument> sortArguments = new ArrayList<>();
			boolean ordered = false;
			for (InputValueDefinition argument : field.getInputValueDefinitions()) {
				if (argument.getName().equals("order")) {
					ordered = true;
				}
				else if (!argument.getDirectives("sortKey").isEmpty()) {
					String op = ((EnumValue) argument.getDirectives("sortKey").get(0).getArgument("op").getValue())
						.getName();
					sortArguments.add(new SortArgument(argument.getName(), AstPrinter.printAst(argument.getType()),
							name(argument.getType()), op));
				}
				else if (partition == null && argument.getType() instanceof NonNullType) {
					partition = new Argument(argument.getName(), AstPrinter.printAst(argument.getType()),
							name(argument.getType()));
				}
			}
			assertThat(scan || partition != null).as("the partition argument of " + field.getName()).isTrue();
			return new Connection(field.getName(), scan, table, index, partition, List.copyOf(sortArguments), ordered,
					types.stream().map(this.kinds::get).toList());
		}

		/** The node type of a connection type: its edges' node field's type. */
		private String nodeType(String connectionType) {
			ObjectTypeDefinition connection = this.registry.getType(connectionType, ObjectTypeDefinition.class)
				.orElseThrow();
			ObjectTypeDefinition edge = this.registry
				.getType(name(field(connection, "edges").getType()), ObjectTypeDefinition.class)
				.orElseThrow();
			return name(field(edge, "node").getType());
		}

		/**
		 * A type's key templates: its {@code @key} templates, or a template of the one field that each key
		 * attribute of its {@code @table} is.
		 */
		private static Kind kind(ObjectTypeDefinition type) {
			String partitionKey = string(type, "table", "partitionKey").orElseThrow();
			Optional<String> sortKey = string(type, "table", "sortKey");
			String partitionTemplate;
			String sortTemplate;
			if (!type.getDirectives("key").isEmpty()) {
				partitionTemplate = string(type, "key", "partitionKey").orElseThrow();
				sortTemplate = string(type, "key", "sortKey").orElse(null);
			}
			else {
				partitionTemplate = "{" + fieldOf(type, partitionKey) + "}";
				sortTemplate = sortKey.map((attribute) -> "{" + fieldOf(type, attribute) + "}").orElse(null);
			}
			List<String> fields = new ArrayList<>();
			for (String template : new String[] { partitionTemplate, sortTemplate }) {
				if (template != null) {
					Matcher matcher = PLACEHOLDER.matcher(template);
					while (matcher.find()) {
						fields.add(matcher.group(1));
					}
				}
			}
			boolean templated = !type.getDirectives("key").isEmpty();
			Map<String, String> attributes = new LinkedHashMap<>();
			for (FieldDefinition field : type.getFieldDefinitions()) {
				boolean placeholder = templated && fields.contains(field.getName());
				if (!field.getName().equals("id") && !placeholder && SCALARS.contains(name(field.getType()))) {
					attributes.put(field.getName(), string(field, "attribute", "name").orElse(field.getName()));
				}
			}
			return new Kind(type.getName(), partitionTemplate, sortTemplate, List.copyOf(fields), attributes);
		}

		/**
		 * The field of an attribute: the one whose {@code @attribute} names it, else the one named like it
		 * (never {@code id}, the Relay id).
		 */
		private static String fieldOf(ObjectTypeDefinition type, String attribute) {
			for (FieldDefinition field : type.getFieldDefinitions()) {
				if (string(field, "attribute", "name").filter(attribute::equals).isPresent()) {
					return field.getName();
				}
			}
			for (FieldDefinition field : type.getFieldDefinitions()) {
				if (field.getName().equals(attribute) && !attribute.equals("id")
						&& field.getDirectives("attribute").isEmpty()) {
					return field.getName();
				}
			}
			throw new AssertionError("no field of " + type.getName() + " reads attribute " + attribute);
		}

		private static FieldDefinition field(ObjectTypeDefinition type, String name) {
			return type.getFieldDefinitions()
				.stream()
				.filter((field) -> field.getName().equals(name))
				.findFirst()
				.orElseThrow();
		}

		private static Optional<String> string(DirectivesContainer<?> container, String directive, String argument) {
			List<Directive> directives = container.getDirectives(directive);
			if (directives.isEmpty() || directives.get(0).getArgument(argument) == null) {
				return Optional.empty();
			}
			return Optional.of(((StringValue) directives.get(0).getArgument(argument).getValue()).getValue());
		}

		/** The named type inside non-null and list wrappers. */
		@SuppressWarnings("rawtypes")
		private static String name(Type type) {
			if (type instanceof NonNullType nonNull) {
				return name(nonNull.getType());
			}
			if (type instanceof ListType list) {
				return name(list.getType());
			}
			return ((TypeName) type).getName();
		}

		static String fill(String template, Map<String, Object> node) {
			Matcher matcher = PLACEHOLDER.matcher(template);
			StringBuilder filled = new StringBuilder();
			while (matcher.find()) {
				assertThat(node).as("node of %s", template).containsKey(matcher.group(1));
				matcher.appendReplacement(filled, Matcher.quoteReplacement(text(node.get(matcher.group(1)))));
			}
			return matcher.appendTail(filled).toString();
		}

	}

	/** A generated type of items and its key templates; {@code fields} are the templates' placeholders. */
	record Kind(String type, String partitionTemplate, String sortTemplate, List<String> fields,
			Map<String, String> attributes) {

		/** The attribute a field reads: its {@code @attribute}, else its own name (a key field's too). */
		String attribute(String field) {
			return this.attributes.getOrDefault(field, field);
		}

	}

	/** An argument: its name, its GraphQL type as declared, and the scalar inside it. */
	record Argument(String name, String type, String scalar) {
	}

	/** A {@code @sortKey} argument. */
	record SortArgument(String name, String type, String scalar, String op) {
	}

	/** A generated root connection. */
	record Connection(String field, boolean scan, String table, String index, Argument partition,
			List<SortArgument> sortArguments, boolean ordered, List<Kind> kinds) {

		List<String> types() {
			return this.kinds.stream().map(Kind::type).toList();
		}

		/** The keys of walked nodes as {@code partition|sort} text, filled in from the key fields. */
		List<String> keys(List<Map<String, Object>> nodes) {
			Map<String, Kind> byType = new HashMap<>();
			this.kinds.forEach((kind) -> byType.put(kind.type(), kind));
			return nodes.stream().map((node) -> {
				Kind kind = byType.get((String) node.get("__typename"));
				assertThat(kind).as("kind of %s", node).isNotNull();
				return Generated.fill(kind.partitionTemplate(), node) + "|"
						+ ((kind.sortTemplate() != null) ? Generated.fill(kind.sortTemplate(), node) : "");
			}).toList();
		}

		/** The document of a Query connection, with the variables {@code partition}, {@code order} and {@code sort}. */
		String document(SortArgument sortArgument) {
			return document(sortArgument, false);
		}

		/** {@link #document(SortArgument)}, selecting the nodes' attribute fields too with {@code attributes}. */
		String document(SortArgument sortArgument, boolean attributes) {
			StringBuilder variables = new StringBuilder("$partition: " + this.partition.type()
					+ ", $first: Int, $after: String, $last: Int, $before: String");
			StringBuilder arguments = new StringBuilder(this.partition.name()
					+ ": $partition, first: $first, after: $after, last: $last, before: $before");
			if (this.ordered) {
				variables.append(", $order: SortOrder");
				arguments.append(", order: $order");
			}
			if (sortArgument != null) {
				variables.append(", $sort: ").append(sortArgument.type());
				arguments.append(", ").append(sortArgument.name()).append(": $sort");
			}
			return """
					query(%s) {
					  %s(%s) { edges { cursor node { %s } } %s }
					}""".formatted(variables, this.field, arguments, generated.selection(types(), attributes),
					PAGE_INFO);
		}

	}

}
