package dev.dynamorelay.it.reads;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.DynamoRelayApplication;
import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;
import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every number a client sends is kept exactly as sent, or refused: a JSON number of 25 or 38 significant digits
 * is written and compared with every digit, through variables (POST, GET's {@code variables}, Server-Sent Events,
 * WebSocket), literals and the REST view, into {@code Decimal}, {@code Float} and a scalar of the schema's own;
 * 39 digits, a fraction for a whole number and {@code 1e400} are {@code INVALID_ARGUMENT} with nothing written,
 * and say the number as sent. Before, a JSON number passed through a double: {@code 98765432109876543210.12345}
 * was answered and stored as {@code 98765432109876540000}.
 */
@SuppressWarnings("unchecked")
class ExactNumbersIT {

	private static final String SCHEMA = """
			"An amount of the schema's own: taken and stored as given."
			scalar Amount

			type Query {
			  node(id: ID!): Node
			  measure(name: String!): Measure @lookup
			  measures(first: Int, after: String,
			           exactAtLeast: Decimal @filter(attribute: "exact", op: GE),
			           floatAtLeast: Float @filter(attribute: "float", op: GE)): MeasureConnection! @scan
			}

			type Mutation {
			  createMeasure(input: CreateMeasureInput!): Measure! @create
			}

			type Measure implements Node @table(name: "Measures", partitionKey: "name") {
			  id: ID!
			  name: String!
			  exact: Decimal
			  float: Float
			  whole: Int
			  long: Long
			  amount: Amount
			}

			input CreateMeasureInput {
			  name: String!
			  exact: Decimal
			  float: Float
			  whole: Int
			  long: Long
			  amount: Amount
			}
			""";

	/** 25 significant digits: the number, which a double makes 98765432109876540000. */
	private static final String DIGITS_25 = "98765432109876543210.12345";

	/** Its neighbour one unit of the last digit below: the same double. */
	private static final String BELOW_25 = "98765432109876543210.12344";

	/** 38 significant digits, DynamoDB's most. */
	private static final String DIGITS_38 = "1234567890123456789012345678901234.5678";

	private static final String BELOW_38 = "1234567890123456789012345678901234.5677";

	/** 39 significant digits: more than DynamoDB holds. */
	private static final String DIGITS_39 = "1234567890123456789012345678901234.56789";

	/** The items the filters are tried on. */
	private static final List<String> FIXTURES = List.of("a25", "b25", "a38", "b38");

	/** The answers' numbers read as the server sent them. */
	private static final JsonMapper JSON = JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

	private static final String CREATE = "mutation($input: CreateMeasureInput!) { createMeasure(input: $input) "
			+ "{ name exact whole long amount } }";

	@TempDir
	static Path dir;

	private static EmbeddedDynamoDb embedded;

	private static ConfigurableApplicationContext server;

	private static DynamoDbClient dynamoDb;

	private static int port;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@BeforeAll
	static void start() throws IOException {
		embedded = EmbeddedDynamoDb.start();
		Path schema = Files.writeString(dir.resolve("measures.graphqls"), SCHEMA).toAbsolutePath().normalize();
		server = new SpringApplicationBuilder(DynamoRelayApplication.class).run("--server.port=0",
				"--dynamo-relay.schema.locations=file:" + schema,
				"--dynamo-relay.dynamodb.endpoint=" + embedded.endpoint(), "--dynamo-relay.cursor.secret=test",
				"--dynamo-relay.tables.create=true");
		port = Integer.parseInt(server.getEnvironment().getProperty("local.server.port"));
		dynamoDb = IntegrationTest.dynamoDbClient(embedded.endpoint());
		// Two pairs of neighbours a double cannot tell apart, for the filters.
		for (Map.Entry<String, String> item : Map.of("a25", DIGITS_25, "b25", BELOW_25, "a38", DIGITS_38, "b38", BELOW_38)
			.entrySet()) {
			dynamoDb.putItem((put) -> put.tableName("Measures")
				.item(Map.of("name", AttributeValue.fromS(item.getKey()), "exact", AttributeValue.fromN(item.getValue()),
						"float", AttributeValue.fromN(item.getValue()))));
		}
	}

	@AfterAll
	static void stop() {
		if (dynamoDb != null) {
			dynamoDb.close();
		}
		if (server != null) {
			server.close();
		}
		if (embedded != null) {
			embedded.close();
		}
	}

	@Test
	void jsonNumbersInVariablesAreWrittenWithEveryDigit() throws Exception {
		for (String number : List.of(DIGITS_25, DIGITS_38)) {
			String name = "variables-" + number.length();
			Map<String, Object> answer = post(("{\"query\": \"%s\", \"variables\": {\"input\": {\"name\": \"%s\", "
					+ "\"exact\": %s, \"float\": %s, \"amount\": %s}}}").formatted(CREATE, name, number, number, number));
			assertThat(answer).as(number).doesNotContainKey("errors");
			assertThat(field(answer, "createMeasure", "exact")).as(number).isEqualTo(number);
			assertStored(name, number);
		}
	}

	@Test
	void literalsAreWrittenWithEveryDigit() throws Exception {
		for (String number : List.of(DIGITS_25, DIGITS_38)) {
			String name = "literals-" + number.length();
			Map<String, Object> answer = post(JSON.writeValueAsString(Map.of("query",
					"mutation { createMeasure(input: {name: \"%s\", exact: %s, float: %s, amount: %s}) { name exact } }"
						.formatted(name, number, number, number))));
			assertThat(answer).as(number).doesNotContainKey("errors");
			assertThat(field(answer, "createMeasure", "exact")).as(number).isEqualTo(number);
			assertStored(name, number);
		}
	}

	@Test
	void moreDigitsThanDynamoDbHoldsAreRefusedAndNothingIsWritten() throws Exception {
		for (String field : List.of("exact", "float", "amount")) {
			String name = "thirty-nine-" + field;
			String variables = "{\"input\": {\"name\": \"%s\", \"%s\": %s}}".formatted(name, field, DIGITS_39);
			Map<String, Object> answer = post("{\"query\": \"%s\", \"variables\": %s}".formatted(CREATE, variables));
			if (field.equals("amount")) {
				// A scalar of the schema's own is stored as text: its 39 digits are kept, as given.
				assertThat(answer).as(field).doesNotContainKey("errors");
				assertThat(stored(name).get("amount").s()).isEqualTo(DIGITS_39);
				continue;
			}
			assertRefused(answer, field, "38 significant digits", DIGITS_39);
			Map<String, Object> literal = post(JSON.writeValueAsString(Map.of("query",
					"mutation { createMeasure(input: {name: \"%s\", %s: %s}) { name } }".formatted(name, field, DIGITS_39))));
			assertRefused(literal, field, "38 significant digits", DIGITS_39);
			assertThat(stored(name)).as(field).isEmpty();
		}
	}

	@Test
	void aWholeNumberWithAFractionIsRefused() throws Exception {
		// A double made these 7 and 9007199254740992, and they were written so.
		for (Map.Entry<String, String> input : Map.of("whole", "7.0000000000000000000001", "long", "9007199254740993.5")
			.entrySet()) {
			String name = "fraction-" + input.getKey();
			Map<String, Object> answer = post("{\"query\": \"%s\", \"variables\": {\"input\": {\"name\": \"%s\", \"%s\": %s}}}"
				.formatted(CREATE, name, input.getKey(), input.getValue()));
			assertThat(code(answer)).as(input.getKey()).isEqualTo("INVALID_ARGUMENT");
			assertThat(stored(name)).as(input.getKey()).isEmpty();
		}
		Map<String, Object> exact = post(("{\"query\": \"%s\", \"variables\": {\"input\": {\"name\": \"whole\", \"whole\": 7.0, "
				+ "\"long\": 9007199254740993}}}").formatted(CREATE));
		assertThat(exact).doesNotContainKey("errors");
		assertThat(stored("whole").get("long").n()).isEqualTo("9007199254740993");
		assertThat(stored("whole").get("whole").n()).isEqualTo("7");
	}

	@Test
	void aNumberOutOfRangeIsRefusedWithTheNumberAsSent() throws Exception {
		for (String field : List.of("exact", "float")) {
			String name = "huge-" + field;
			Map<String, Object> answer = post("{\"query\": \"%s\", \"variables\": {\"input\": {\"name\": \"%s\", \"%s\": 1e400}}}"
				.formatted(CREATE, name, field));
			assertRefused(answer, field, "", "1E+400");
			assertThat(message(answer)).as(field).doesNotContain("Infinity");
			assertThat(stored(name)).as(field).isEmpty();
		}
	}

	@Test
	void filtersCompareTheNumberAsSentOverEveryTransport() throws Exception {
		for (String argument : List.of("exactAtLeast", "floatAtLeast")) {
			String type = argument.startsWith("exact") ? "Decimal" : "Float";
			String query = "query($m: %s) { measures(first: 10, %s: $m) { edges { node { name } } } }".formatted(type, argument);
			Map<String, List<String>> expected = Map.of(DIGITS_25, List.of("a25", "a38", "b38"), DIGITS_38, List.of("a38"));
			for (Map.Entry<String, List<String>> bound : expected.entrySet()) {
				String variables = "{\"m\": " + bound.getKey() + "}";
				String body = "{\"query\": \"%s\", \"variables\": %s}".formatted(query, variables);
				String as = argument + " >= " + bound.getKey();
				assertThat(names(post(body))).as("POST, " + as).containsExactlyInAnyOrderElementsOf(bound.getValue());
				assertThat(names(get(query, variables))).as("GET, " + as).containsExactlyInAnyOrderElementsOf(bound.getValue());
				assertThat(names(serverSentEvents(body))).as("SSE, " + as)
					.containsExactlyInAnyOrderElementsOf(bound.getValue());
				assertThat(names(webSocket(body))).as("WebSocket, " + as)
					.containsExactlyInAnyOrderElementsOf(bound.getValue());
				assertThat(names(post(JSON.writeValueAsString(Map.of("query",
						"{ measures(first: 10, %s: %s) { edges { node { name } } } }".formatted(argument, bound.getKey()))))))
					.as("a literal, " + as).containsExactlyInAnyOrderElementsOf(bound.getValue());
				Map<String, Object> page = rest("/api/measures?" + argument + "=" + bound.getKey());
				assertThat(((List<Map<String, Object>>) page.get("measures")).stream()
					.map((node) -> (String) node.get("name"))
					.filter(FIXTURES::contains))
					.as("REST, " + as).containsExactlyInAnyOrderElementsOf(bound.getValue());
			}
		}
		Map<String, Object> refused = rest("/api/measures?floatAtLeast=" + DIGITS_39);
		assertThat(refused.get("code")).isEqualTo("INVALID_ARGUMENT");
		assertThat((String) refused.get("detail")).contains("38 significant digits", DIGITS_39);
	}

	private static void assertStored(String name, String number) {
		Map<String, AttributeValue> item = stored(name);
		assertThat(item.get("exact").n()).as(name + ".exact").isEqualTo(number);
		assertThat(item.get("float").n()).as(name + ".float").isEqualTo(number);
		assertThat(item.get("amount").s()).as(name + ".amount").isEqualTo(number);
	}

	private static void assertRefused(Map<String, Object> answer, String field, String reason, String number) {
		assertThat(code(answer)).as(field).isEqualTo("INVALID_ARGUMENT");
		assertThat(message(answer)).as(field).contains(reason, number);
	}

	private static Map<String, AttributeValue> stored(String name) {
		return dynamoDb.getItem((get) -> get.tableName("Measures").key(Map.of("name", AttributeValue.fromS(name))).consistentRead(true))
			.item();
	}

	private Map<String, Object> post(String body) throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(URI.create(url("/graphql")))
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(20))
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString());
		return JSON.readValue(response.body(), Map.class);
	}

	private Map<String, Object> get(String query, String variables) throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(URI.create(url("/graphql?query="
				+ URLEncoder.encode(query, StandardCharsets.UTF_8) + "&variables=" + URLEncoder.encode(variables, StandardCharsets.UTF_8))))
			.timeout(Duration.ofSeconds(20))
			.GET()
			.build(), HttpResponse.BodyHandlers.ofString());
		return JSON.readValue(response.body(), Map.class);
	}

	private Map<String, Object> rest(String path) throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(URI.create(url(path)))
			.timeout(Duration.ofSeconds(20))
			.GET()
			.build(), HttpResponse.BodyHandlers.ofString());
		return JSON.readValue(response.body(), Map.class);
	}

	/** A query over Server-Sent Events: the data of its {@code next} event. */
	private Map<String, Object> serverSentEvents(String body) throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(URI.create(url("/graphql")))
			.header("Content-Type", "application/json")
			.header("Accept", "text/event-stream")
			.timeout(Duration.ofSeconds(20))
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString());
		String data = response.body()
			.lines()
			.filter((line) -> line.startsWith("data:"))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no event in " + response.body()));
		return JSON.readValue(data.substring(5), Map.class);
	}

	/** A query in a {@code graphql-transport-ws} subscribe message: the payload of its {@code next}. */
	private Map<String, Object> webSocket(String payload) throws Exception {
		BlockingQueue<String> messages = new LinkedBlockingQueue<>();
		WebSocket socket = this.http.newWebSocketBuilder()
			.subprotocols("graphql-transport-ws")
			.buildAsync(URI.create("ws://127.0.0.1:" + port + "/graphql"), new WebSocket.Listener() {

				@Override
				public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
					messages.add(data.toString());
					webSocket.request(1);
					return null;
				}

			})
			.get(10, TimeUnit.SECONDS);
		try {
			socket.sendText("{\"type\":\"connection_init\"}", true).get(5, TimeUnit.SECONDS);
			assertThat(messages.poll(5, TimeUnit.SECONDS)).contains("connection_ack");
			socket.sendText("{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":" + payload + "}", true).get(5, TimeUnit.SECONDS);
			String next = messages.poll(10, TimeUnit.SECONDS);
			assertThat(next).as("a next message").isNotNull().contains("\"next\"");
			return (Map<String, Object>) JSON.readValue(next, Map.class).get("payload");
		}
		finally {
			socket.abort();
		}
	}

	/** The names of the page's items among the fixtures' (the other tests write items too). */
	private static List<String> names(Map<String, Object> answer) {
		assertThat(answer).doesNotContainKey("errors");
		List<Map<String, Map<String, Object>>> edges = (List<Map<String, Map<String, Object>>>) ((Map<String, Object>) ((Map<String, Object>) answer
			.get("data")).get("measures")).get("edges");
		return edges.stream().map((edge) -> (String) edge.get("node").get("name")).filter(FIXTURES::contains).toList();
	}

	private static Object field(Map<String, Object> answer, String field, String member) {
		return ((Map<String, Object>) ((Map<String, Object>) answer.get("data")).get(field)).get(member);
	}

	private static Map<String, Object> firstError(Map<String, Object> answer) {
		List<Map<String, Object>> errors = (List<Map<String, Object>>) answer.get("errors");
		assertThat(errors).as("errors of %s", answer).isNotEmpty();
		return errors.get(0);
	}

	private static String code(Map<String, Object> answer) {
		return (String) ((Map<String, Object>) firstError(answer).get("extensions")).get("code");
	}

	private static String message(Map<String, Object> answer) {
		return (String) firstError(answer).get("message");
	}

	private static String url(String path) {
		return "http://127.0.0.1:" + port + path;
	}

}
