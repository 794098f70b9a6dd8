package dev.dynamorelay.it.guards;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Documents;
import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Walker;
import dev.dynamorelay.model.NodeIds;

import static org.assertj.core.api.Assertions.assertThat;

/** Every bad request and argument gets the contract's code and a message, never a stack trace. */
class RequestErrorsIT extends IntegrationTest {

	@Test
	void syntaxValidationAndVariableErrorsAreInvalidArgumentWithoutData() {
		Errors.assertRequestError(execute("{ users(first: 2 { edges { cursor } } }"));
		Errors.assertRequestError(execute("{ users { nope } }"));
		Errors.assertRequestError(execute("{ users(sideways: 1) { edges { cursor } } }"));
		Errors.assertRequestError(execute("{ movies { edges { cursor } } }"));
		Errors.assertRequestError(execute("query($n: Int) { users(first: $n) { edges { cursor } } }",
				Map.of("n", "three")));
		Errors.assertRequestError(execute("query($y: Int!) { movies(year: $y) { edges { cursor } } }"));
		Errors.assertRequestError(execute("{ users(first: 2147483648) { edges { cursor } } }"));
		Errors.assertRequestError(execute("subscription { users { edges { cursor } } }"));
	}

	@Test
	void badPageArgumentsAreInvalidArgument() {
		List<Map<String, Object>> bad = List.of(Map.of("first", -1), Map.of("first", 101), Map.of("last", -1),
				Map.of("last", 101), Map.of("first", 1, "last", 1), Map.of("after", "a", "before", "b"),
				Map.of("first", 1, "before", "b"), Map.of("last", 1, "after", "a"));
		for (Map<String, Object> arguments : bad) {
			Map<String, Object> variables = new HashMap<>(arguments);
			variables.put("category", "books");
			GraphQlResponse response = execute(Documents.BY_CATEGORY, variables);
			Errors.assertCode(response, "INVALID_ARGUMENT");
			assertThat(Errors.requests(response)).as("%s", arguments).isZero();
		}
		GraphQlResponse backwardScan = execute(Documents.USERS, Map.of("last", 2));
		Errors.assertCode(backwardScan, "INVALID_ARGUMENT");
		assertThat(backwardScan.getErrors().get(0).getMessage()).contains("Scan");
	}

	@Test
	void explicitNullArgumentsMeanTheSameAsLeavingThemOut() {
		Map<String, Object> nulls = new HashMap<>();
		nulls.put("category", "books");
		nulls.put("first", null);
		nulls.put("after", null);
		nulls.put("last", null);
		nulls.put("before", null);
		nulls.put("minAmount", null);
		nulls.put("order", null);
		Walker.Page page = this.walker.page(Documents.BY_CATEGORY, "purchasesByCategory", nulls);
		Walker.Page plain = this.walker.page(Documents.BY_CATEGORY, "purchasesByCategory", Map.of("category", "books"));
		assertThat(page.edges()).hasSize(20).isEqualTo(plain.edges());
	}

	@Test
	void keysDynamoDbWouldRefuseAreInvalidArgument() {
		Errors.assertCode(execute(Documents.BY_CATEGORY, Map.of("category", "")), "INVALID_ARGUMENT");
		Errors.assertCode(execute(Documents.BY_CATEGORY, Map.of("category", "x".repeat(3000))), "INVALID_ARGUMENT");
		Errors.assertCode(execute(Documents.BY_CATEGORY, Map.of("category", "books", "minAmount", 1e200)),
				"INVALID_ARGUMENT");
		Errors.assertCode(execute(Documents.MOVIES, Map.of("year", 2000, "titlePrefix", "t".repeat(1500))),
				"INVALID_ARGUMENT");
		Errors.assertCode(execute("{ user(userId: \"\") { name } }"), "INVALID_ARGUMENT");
	}

	@Test
	void malformedNodeIdsAreInvalidArgument() {
		for (String id : List.of("", "%%%", "bm9wZQ", "VQd1c2VyLTAx=", this.ids.user("user-01") + "A")) {
			Errors.assertCode(execute("query($id: ID!) { node(id: $id) { id } }", Map.of("id", id)), "INVALID_ARGUMENT");
		}
		String good = this.ids.user("user-01");
		GraphQlResponse mixed = execute("query($ids: [ID!]!) { nodes(ids: $ids) { id } }",
				Map.of("ids", List.of(good, "garbage!")));
		Errors.assertCode(mixed, "INVALID_ARGUMENT");
		GraphQlResponse tooMany = execute("query($ids: [ID!]!) { nodes(ids: $ids) { id } }",
				Map.of("ids", new ArrayList<>(Collections.nCopies(101, good))));
		Errors.assertCode(tooMany, "INVALID_ARGUMENT");
		assertThat(tooMany.getErrors().get(0).getMessage()).contains("100");
		GraphQlResponse hundred = execute("query($ids: [ID!]!) { nodes(ids: $ids) { id } }",
				Map.of("ids", new ArrayList<>(Collections.nCopies(100, good))));
		assertThat(hundred.getErrors()).isEmpty();
		assertThat(Errors.requests(hundred)).as("one BatchGetItem for 100 equal ids").isEqualTo(1);
	}

	/**
	 * Node ids are not signed: anyone can write one whose key DynamoDB could never hold (a number outside
	 * its Number range, a key longer than its key limits). Such an id names no item this server could
	 * have issued, so it is malformed like any other, refused before a read; in {@code nodes} it refuses
	 * the field, as the contract says of a malformed id anywhere.
	 */
	@Test
	void nodeIdsOfKeysDynamoDbCannotHoldAreInvalidArgument() {
		List<String> forged = new ArrayList<>();
		for (String year : List.of("1" + "23456789".repeat(5), "1" + "0".repeat(126), "-1" + "0".repeat(126),
				"0." + "0".repeat(130) + "1", "-0." + "0".repeat(130) + "1")) {
			forged.add(movieId(year, "Forged"));
		}
		forged.add(movieId("1999", "t".repeat(1025)));
		forged.add(this.ids.user("u".repeat(2049)));
		String good = this.ids.user("user-01");
		for (String id : forged) {
			GraphQlResponse node = execute("query($id: ID!) { node(id: $id) { id } }", Map.of("id", id));
			Errors.assertCode(node, "INVALID_ARGUMENT");
			assertThat(Errors.requests(node)).isZero();
			GraphQlResponse nodes = execute("query($ids: [ID!]!) { nodes(ids: $ids) { id } }",
					Map.of("ids", List.of(good, id)));
			Errors.assertCode(nodes, "INVALID_ARGUMENT");
			assertThat(Errors.requests(nodes)).isZero();
		}
		// An Int's own edges are whole and in range: no error, and no such movie (DynamoDB's edges: NodeIdsTest).
		for (String year : List.of("2147483647", "-2147483648", "0")) {
			GraphQlResponse node = execute("query($id: ID!) { node(id: $id) { id } }", Map.of("id", movieId(year, "Forged")));
			assertThat(node.getErrors()).as(year).isEmpty();
			assertThat((Object) node.field("node").getValue()).isNull();
		}
	}

	/**
	 * A Movie's {@code year} is an {@code Int}: an id whose year is {@code 1.5} (a number DynamoDB holds) or past
	 * 32 bits names no movie the server could serve, and is refused before a read, as a query by such a year is.
	 */
	@Test
	void nodeIdsWhoseIntKeyIsNoIntAreInvalidArgument() {
		for (String year : List.of("1.5", "1999.5", "2147483648", "1" + "0".repeat(38))) {
			String id = movieId(year, "Forged");
			GraphQlResponse node = execute("query($id: ID!) { node(id: $id) { id } }", Map.of("id", id));
			Errors.assertCode(node, "INVALID_ARGUMENT");
			assertThat(Errors.requests(node)).as(year).isZero();
			GraphQlResponse nodes = execute("query($ids: [ID!]!) { nodes(ids: $ids) { id } }", Map.of("ids", List.of(id)));
			Errors.assertCode(nodes, "INVALID_ARGUMENT");
			assertThat(Errors.requests(nodes)).as(year).isZero();
		}
	}

	private String movieId(String year, String title) {
		return NodeIds.encode(this.declarations.entity("Movie"),
				Map.of("year", AttributeValue.fromN(year), "title", AttributeValue.fromS(title)));
	}

	/**
	 * A path the server does not serve, and the error page itself, answer 404 with the contract's code in the
	 * path's shape: Boot's answers were {@code {"timestamp", "status":404, "error", "path"}} with no code, and, for
	 * {@code GET /error}, HTTP 500 with {@code {"status":999,"error":"None"}}.
	 */
	@Test
	void pathsTheServerDoesNotServeAreNotFoundWithACode() throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		for (String method : List.of("GET", "POST")) {
			for (String path : List.of("/nope", "/error", "/graphql/x", "/api/nope")) {
				HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
					.header("Content-Type", "application/json")
					.method(method, HttpRequest.BodyPublishers.ofString("{}"))
					.build(), HttpResponse.BodyHandlers.ofString());
				String as = method + " " + path;
				assertThat(response.statusCode()).as(as).isEqualTo(404);
				if (path.startsWith("/api/")) {
					assertThat(response.headers().firstValue("Content-Type")).as(as).get().asString()
						.startsWith("application/problem+json");
					assertThat(response.body()).as(as).contains("\"code\":\"NOT_FOUND\"");
				}
				else {
					assertThat(response.headers().firstValue("Content-Type")).as(as).get().asString().startsWith("application/json");
					assertThat(response.body()).as(as)
						.contains("\"errors\"", "\"code\":\"NOT_FOUND\"", path)
						.doesNotContain("999", "\"None\"", "timestamp");
				}
			}
		}
	}

	@Test
	void malformedHttpBodiesAreAnsweredWithoutAStackTrace() throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		for (String body : List.of("{", "not json", "{\"query\": 42}", "{}", "[]", "{\"query\": \"{ users { edges { cursor } } }\", \"variables\": 7}")) {
			HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/graphql"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).as(body).isIn(200, 400);
			assertThat(response.body()).as(body)
				.doesNotContain("Exception", "\tat ")
				.contains("\"errors\"", "\"code\":\"INVALID_ARGUMENT\"")
				.doesNotContain("\"data\"");
		}
	}

	@Test
	void bodiesThatAreNotJsonAreAGraphQlErrorToo() throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		String query = "{\"query\": \"{ users(first: 1) { edges { cursor } } }\"}";
		for (String contentType : List.of("text/plain", "application/x-www-form-urlencoded", "json", "application/",
				"application/graphql-response+json", "")) {
			HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/graphql"))
				.POST(HttpRequest.BodyPublishers.ofString(query));
			if (!contentType.isEmpty()) {
				request.header("Content-Type", contentType);
			}
			HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).as(contentType).isEqualTo(415);
			assertThat(response.body()).as(contentType)
				.contains("\"errors\"", "\"code\":\"INVALID_ARGUMENT\"", "application/json")
				.doesNotContain("Exception", "\"data\"");
		}
		// application/graphql with a JSON body is read as JSON, as Spring GraphQL does.
		HttpResponse<String> graphql = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/graphql"))
			.header("Content-Type", "application/graphql")
			.POST(HttpRequest.BodyPublishers.ofString(query))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(graphql.statusCode()).isEqualTo(200);
		assertThat(graphql.body()).contains("\"cursor\"").doesNotContain("\"errors\"");
	}

}
