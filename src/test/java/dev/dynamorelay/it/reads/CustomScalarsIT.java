package dev.dynamorelay.it.reads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.graphql.test.tester.HttpGraphQlTester;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.DynamoRelayApplication;
import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;
import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schema files that declare scalars of their own (not the language's {@code Long}, {@code Decimal},
 * {@code Bytes} and {@code JSON}): the server starts and serves such fields as stored, and takes such
 * arguments as given, in a literal or a variable.
 */
class CustomScalarsIT {

	private static final String SCHEMA = """
			"An instant as ISO-8601 text."
			scalar DateTime

			scalar Money

			type Query {
			  node(id: ID!): Node
			  event(eventId: String!): Event @lookup
			  events(first: Int, after: String,
			         startsFrom: DateTime @filter(attribute: "startsAt", op: GE)): EventConnection! @scan
			}

			type Event implements Node @table(name: "Events", partitionKey: "eventId") {
			  id: ID!
			  eventId: String!
			  startsAt: DateTime
			  price: Money
			}
			""";

	@TempDir
	static Path dir;

	private static EmbeddedDynamoDb embedded;

	private static ConfigurableApplicationContext server;

	private static HttpGraphQlTester graphQl;

	@BeforeAll
	static void start() throws IOException {
		embedded = EmbeddedDynamoDb.start();
		Path schema = Files.writeString(dir.resolve("events.graphqls"), SCHEMA).toAbsolutePath().normalize();
		server = new SpringApplicationBuilder(DynamoRelayApplication.class).run("--server.port=0",
				"--dynamo-relay.schema.locations=file:" + schema,
				"--dynamo-relay.dynamodb.endpoint=" + embedded.endpoint(), "--dynamo-relay.cursor.secret=test",
				"--dynamo-relay.tables.create=true");
		String port = server.getEnvironment().getProperty("local.server.port");
		WebTestClient client = WebTestClient.bindToServer(new JdkClientHttpConnector())
			.baseUrl("http://127.0.0.1:" + port + "/graphql")
			.responseTimeout(Duration.ofSeconds(30))
			.build();
		graphQl = HttpGraphQlTester.create(client);
		try (DynamoDbClient dynamoDb = IntegrationTest.dynamoDbClient(embedded.endpoint())) {
			dynamoDb.putItem((put) -> put.tableName("Events")
				.item(Map.of("eventId", AttributeValue.fromS("e-1"), "startsAt",
						AttributeValue.fromS("2025-01-01T09:00:00.000Z"), "price", AttributeValue.fromN("12.50"))));
			dynamoDb.putItem((put) -> put.tableName("Events")
				.item(Map.of("eventId", AttributeValue.fromS("e-2"), "startsAt",
						AttributeValue.fromS("2024-06-01T09:00:00.000Z"))));
		}
	}

	@AfterAll
	static void stop() {
		if (server != null) {
			server.close();
		}
		if (embedded != null) {
			embedded.close();
		}
	}

	@Test
	void aFieldOfACustomScalarIsServedAsStored() {
		GraphQlResponse response = execute("{ event(eventId: \"e-1\") { eventId startsAt price } }", Map.of());
		assertThat(response.getErrors()).isEmpty();
		Map<String, Object> event = response.field("event").getValue();
		// A number (N) as its digits, which DynamoDB keeps without trailing zeros.
		assertThat(event).isEqualTo(Map.of("eventId", "e-1", "startsAt", "2025-01-01T09:00:00.000Z", "price", "12.5"));
	}

	@Test
	void anArgumentOfACustomScalarIsTakenAsGiven() {
		String literal = "{ events(first: 10, startsFrom: \"2025-01-01T00:00:00.000Z\") { edges { node { eventId } } } }";
		assertThat(eventIds(execute(literal, Map.of()))).containsExactly("e-1");
		String variable = "query($from: DateTime) { events(first: 10, startsFrom: $from) { edges { node { eventId } } } }";
		assertThat(eventIds(execute(variable, Map.of("from", "2024-01-01T00:00:00.000Z"))))
			.containsExactlyInAnyOrder("e-1", "e-2");
	}

	@Test
	void theSchemaDescribesTheScalarAsDeclared() {
		GraphQlResponse response = execute("{ __type(name: \"DateTime\") { kind description } }", Map.of());
		Map<String, Object> type = response.field("__type").getValue();
		assertThat(type).isEqualTo(Map.of("kind", "SCALAR", "description", "An instant as ISO-8601 text."));
	}

	private static List<String> eventIds(GraphQlResponse response) {
		assertThat(response.getErrors()).isEmpty();
		List<Map<String, Map<String, String>>> edges = response.field("events.edges").getValue();
		return edges.stream().map((edge) -> edge.get("node").get("eventId")).toList();
	}

	private static GraphQlResponse execute(String document, Map<String, Object> variables) {
		return graphQl.document(document).variables(variables).execute().returnResponse();
	}

}
