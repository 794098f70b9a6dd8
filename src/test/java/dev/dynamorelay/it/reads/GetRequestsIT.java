package dev.dynamorelay.it.reads;

import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.it.Direct;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * GraphQL over GET (queries in the URL, mutations refused with 405), Apollo's automatic persisted
 * queries over GET and POST, and a GraphQL error body with a code on every answer of the endpoint
 * that is not 200.
 */
class GetRequestsIT extends IntegrationTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String APOLLO_ACCEPT = "application/graphql-response+json,application/json;q=0.9";

	private static final String TWO_OPERATIONS = """
			query Purchases($userId: String!, $first: Int) {
			  user(userId: $userId) { purchases(first: $first) { edges { node { id amount } } } }
			}
			query Name($userId: String!) { user(userId: $userId) { name } }""";

	private final HttpClient http = HttpClient.newHttpClient();

	private String userId;

	@BeforeEach
	void buyer() {
		this.userId = this.fixtures.buyer("get");
		this.fixtures.putPurchases(this.fixtures.purchases(this.userId, 5, 1_700_000_000_000L, Fixtures.unique("getcat")));
	}

	@Test
	void aQueryOverGetTakesVariablesAndOperationNameAndAnswersAsPostDoes() throws Exception {
		Map<String, Object> variables = Map.of("userId", this.userId, "first", 3);
		Answer get = get(Map.of("query", TWO_OPERATIONS, "variables", json(variables), "operationName", "Purchases"));
		assertThat(get.status()).isEqualTo(200);
		assertThat(get.contentType()).startsWith("application/json");
		assertThat(get.body()).doesNotContainKey("errors");
		List<?> edges = (List<?>) get.at("data", "user", "purchases", "edges");
		assertThat(edges).hasSize(3);
		Answer post = post(Map.of("query", TWO_OPERATIONS, "variables", variables, "operationName", "Purchases"), null);
		assertThat(get.body().get("data")).isEqualTo(post.body().get("data"));
		assertThat(get.at("extensions", "dynamodb", "requests")).isEqualTo(post.at("extensions", "dynamodb", "requests"))
			.isEqualTo(2); // the user's GetItem and its purchases' Query
		assertThat(get.at("extensions", "dynamodb")).isInstanceOf(Map.class)
			.asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
			.containsKeys("requests", "scannedCount", "count", "consumedCapacity");

		Answer name = get(Map.of("query", TWO_OPERATIONS, "variables", json(Map.of("userId", this.userId)),
				"operationName", "Name"));
		assertThat(name.at("data", "user", "name")).isEqualTo("Buyer " + this.userId);

		// The media type the request prefers, as for POST.
		Answer graphQlResponse = get(Map.of("query", "{ __typename }"), "application/graphql-response+json");
		assertThat(graphQlResponse.status()).isEqualTo(200);
		assertThat(graphQlResponse.contentType()).startsWith("application/graphql-response+json");
	}

	@Test
	void requestErrorsOverGetHaveTheirCodesAsOverPost() throws Exception {
		Answer syntax = get(Map.of("query", "{ users(first: 2 { edges { cursor } } }"), null);
		assertThat(syntax.status()).isEqualTo(200);
		assertCode(syntax, "INVALID_ARGUMENT");
		assertThat(syntax.body()).doesNotContainKey("data");
		Answer strict = get(Map.of("query", "{ users(first: 2 { edges { cursor } } }"), APOLLO_ACCEPT);
		assertThat(strict.status()).isEqualTo(400);
		assertCode(strict, "INVALID_ARGUMENT");
		Answer cursor = get(Map.of("query", "{ users(first: 2, after: \"garbage\") { edges { cursor } } }"), null);
		assertCode(cursor, "INVALID_CURSOR");
		assertThat(((Number) cursor.at("extensions", "dynamodb", "requests")).intValue()).isZero();
	}

	@Test
	void aMutationOverGetIsRefusedWith405BeforeItRuns() throws Exception {
		long at = 1_700_000_000_000L;
		String id = this.ids.purchase(this.userId, at);
		String delete = "mutation Delete($id: ID!) { deletePurchase(id: $id) }";
		for (Map<String, String> parameters : List.of(Map.of("query", delete, "variables", json(Map.of("id", id))),
				Map.of("query", delete + "\nquery Name { __typename }", "variables", json(Map.of("id", id)),
						"operationName", "Delete"))) {
			Answer refused = get(parameters);
			assertThat(refused.status()).isEqualTo(405);
			assertThat(refused.allow()).isEqualTo("POST");
			assertCode(refused, "INVALID_ARGUMENT");
			assertThat((String) ((Map<?, ?>) errors(refused).get(0)).get("message")).contains("POST");
			assertThat(refused.body()).doesNotContainKey("data");
		}
		assertThat(Direct.userPurchases(this.dynamoDb, this.tables.purchases(), this.userId, true)).as("nothing deleted")
			.hasSize(5);
		// The query of the same document runs over GET.
		Answer query = get(Map.of("query", delete + "\nquery Name { __typename }", "operationName", "Name"));
		assertThat(query.status()).isEqualTo(200);
		assertThat(query.at("data", "__typename")).isEqualTo("Query");
		// And the mutation runs over POST.
		Answer deleted = post(Map.of("query", delete, "variables", Map.of("id", id)), null);
		assertThat(deleted.at("data", "deletePurchase")).isEqualTo(id);
	}

	@Test
	void persistedQueriesOverGetNotFoundThenRegisteredThenByHashAlone() throws Exception {
		String query = uniqueQuery();
		String hash = sha256(query);
		String variables = json(Map.of("userId", this.userId, "first", 2));
		String extensions = persistedQuery(hash);

		Answer unknown = get(Map.of("extensions", extensions, "variables", variables), APOLLO_ACCEPT);
		assertThat(unknown.status()).as("Apollo's link retries on 200").isEqualTo(200);
		assertThat(errors(unknown)).hasSize(1);
		assertThat(((Map<?, ?>) errors(unknown).get(0)).get("message")).isEqualTo("PersistedQueryNotFound");
		assertCode(unknown, "PERSISTED_QUERY_NOT_FOUND");
		assertThat(unknown.body()).doesNotContainKey("data");

		Answer registered = get(Map.of("query", query, "extensions", extensions, "variables", variables), APOLLO_ACCEPT);
		assertThat(registered.status()).isEqualTo(200);
		assertThat(registered.body()).doesNotContainKey("errors");
		assertThat((List<?>) registered.at("data", "user", "purchases", "edges")).hasSize(2);

		Answer byHash = get(Map.of("extensions", extensions, "variables", variables), APOLLO_ACCEPT);
		assertThat(byHash.status()).isEqualTo(200);
		assertThat(byHash.body()).doesNotContainKey("errors");
		assertThat(byHash.body().get("data")).isEqualTo(registered.body().get("data"));
		assertThat(byHash.at("extensions", "dynamodb", "requests")).isEqualTo(2);

		// One registry for GET and POST.
		Map<String, Object> postBody = new LinkedHashMap<>();
		postBody.put("variables", Map.of("userId", this.userId, "first", 2));
		postBody.put("extensions", Map.of("persistedQuery", Map.of("version", 1, "sha256Hash", hash)));
		Answer overPost = post(postBody, APOLLO_ACCEPT);
		assertThat(overPost.status()).isEqualTo(200);
		assertThat(overPost.body().get("data")).isEqualTo(registered.body().get("data"));
	}

	@Test
	void persistedQueriesOverPostRegisterToo() throws Exception {
		String query = uniqueQuery();
		Map<String, Object> extensions = Map.of("persistedQuery", Map.of("version", 1, "sha256Hash", sha256(query)));
		Map<String, Object> variables = Map.of("userId", this.userId, "first", 1);
		Answer unknown = post(Map.of("extensions", extensions, "variables", variables), APOLLO_ACCEPT);
		assertThat(unknown.status()).isEqualTo(200);
		assertCode(unknown, "PERSISTED_QUERY_NOT_FOUND");
		Answer registered = post(Map.of("query", query, "extensions", extensions, "variables", variables), APOLLO_ACCEPT);
		assertThat(registered.body()).doesNotContainKey("errors");
		Answer byHash = get(Map.of("extensions", json(extensions), "variables", json(variables)), APOLLO_ACCEPT);
		assertThat(byHash.body().get("data")).isEqualTo(registered.body().get("data"));
	}

	@Test
	void aQueryWhoseHashIsNotItsSha256IsRefusedAndNotRegistered() throws Exception {
		String query = uniqueQuery();
		String other = sha256(query + " ");
		Map<String, String> variables = Map.of("variables", json(Map.of("userId", this.userId)));
		Answer mismatch = get(with(variables, "query", query, "extensions", persistedQuery(other)));
		assertCode(mismatch, "INVALID_ARGUMENT");
		assertThat((String) ((Map<?, ?>) errors(mismatch).get(0)).get("message")).contains("SHA-256");
		assertThat(mismatch.body()).doesNotContainKey("data");
		assertCode(get(with(variables, "extensions", persistedQuery(other))), "PERSISTED_QUERY_NOT_FOUND");
		// Upper-case hex is the same hash.
		Answer upper = get(with(variables, "query", query, "extensions", persistedQuery(sha256(query).toUpperCase())));
		assertThat(upper.body()).doesNotContainKey("errors");
		// A malformed persistedQuery extension.
		for (String malformed : List.of("{\"persistedQuery\": \"abc\"}",
				"{\"persistedQuery\": {\"version\": 2, \"sha256Hash\": \"" + sha256(query) + "\"}}",
				"{\"persistedQuery\": {\"version\": 1, \"sha256Hash\": \"abc\"}}")) {
			Answer answer = get(with(variables, "extensions", malformed));
			assertCode(answer, "INVALID_ARGUMENT");
			assertThat((String) ((Map<?, ?>) errors(answer).get(0)).get("message")).contains("persistedQuery");
		}
	}

	@Test
	void everyAnswerThatIsNot200IsAGraphQlErrorWithACode() throws Exception {
		String url = "http://127.0.0.1:" + this.port + "/graphql";
		String query = "{\"query\": \"{ __typename }\"}";
		Map<String, HttpRequest> requests = new LinkedHashMap<>();
		requests.put("GET without query", HttpRequest.newBuilder(URI.create(url)).GET().build());
		requests.put("GET with variables not JSON", HttpRequest
			.newBuilder(URI.create(url + "?query=%7B__typename%7D&variables=%7Bnope")).GET().build());
		requests.put("GET with variables not an object", HttpRequest
			.newBuilder(URI.create(url + "?query=%7B__typename%7D&variables=%5B1%5D")).GET().build());
		requests.put("GET accepting only HTML", HttpRequest.newBuilder(URI.create(url + "?query=%7B__typename%7D"))
			.header("Accept", "text/html").GET().build());
		requests.put("GET with a malformed Accept", HttpRequest.newBuilder(URI.create(url + "?query=%7B__typename%7D"))
			.header("Accept", "json").GET().build());
		requests.put("GET mutation", HttpRequest
			.newBuilder(URI.create(url + "?query=" + encode("mutation { deletePurchase(id: \"x\") }"))).GET().build());
		requests.put("GET syntax error as graphql-response+json", HttpRequest
			.newBuilder(URI.create(url + "?query=" + encode("{ users(first: 1 { edges { cursor } } }")))
			.header("Accept", "application/graphql-response+json").GET().build());
		requests.put("POST accepting only text", HttpRequest.newBuilder(URI.create(url))
			.header("Content-Type", "application/json").header("Accept", "text/plain")
			.POST(HttpRequest.BodyPublishers.ofString(query)).build());
		requests.put("POST as text", HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "text/plain")
			.POST(HttpRequest.BodyPublishers.ofString(query)).build());
		requests.put("POST without a query", HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{}")).build());
		for (String method : List.of("PUT", "DELETE", "PATCH")) {
			requests.put(method, HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
				.method(method, HttpRequest.BodyPublishers.ofString(query)).build());
		}
		Map<String, Integer> statuses = new LinkedHashMap<>();
		for (Map.Entry<String, HttpRequest> request : requests.entrySet()) {
			HttpResponse<String> response = this.http.send(request.getValue(), HttpResponse.BodyHandlers.ofString());
			statuses.put(request.getKey(), response.statusCode());
			assertGraphQlError(request.getKey(), response.statusCode(), response.headers().firstValue("Content-Type"),
					response.headers().firstValue("Allow"), response.body());
		}
		// java.net.URI refuses to send a broken percent-encoding: over a socket (HTTP/1.0: a body never chunked).
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.getOutputStream().write(("GET /graphql?query=%zz HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			String raw = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			int status = Integer.parseInt(raw.substring(9, 12));
			statuses.put("GET with a broken percent-encoding", status);
			String head = raw.substring(0, raw.indexOf("\r\n\r\n")).toLowerCase(Locale.ROOT);
			String body = raw.substring(raw.indexOf("\r\n\r\n") + 4);
			assertGraphQlError("GET with a broken percent-encoding", status,
					head.lines().filter((line) -> line.startsWith("content-type:")).map((line) -> line.substring(13).trim()).findFirst(),
					Optional.empty(), body);
		}
		assertThat(statuses).containsExactly(Map.entry("GET without query", 400),
				Map.entry("GET with variables not JSON", 400), Map.entry("GET with variables not an object", 400),
				Map.entry("GET accepting only HTML", 406),
				Map.entry("GET with a malformed Accept", 406), Map.entry("GET mutation", 405),
				Map.entry("GET syntax error as graphql-response+json", 400), Map.entry("POST accepting only text", 406),
				Map.entry("POST as text", 415), Map.entry("POST without a query", 400), Map.entry("PUT", 405),
				Map.entry("DELETE", 405), Map.entry("PATCH", 405), Map.entry("GET with a broken percent-encoding", 400));

		HttpResponse<String> options = this.http.send(HttpRequest.newBuilder(URI.create(url))
			.method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
		assertThat(options.statusCode()).isEqualTo(200);
		assertThat(options.headers().firstValue("Allow")).hasValue("GET,POST");
	}

	@SuppressWarnings("unchecked")
	private static void assertGraphQlError(String request, int status, Optional<String> contentType, Optional<String> allow,
			String text) {
		assertThat(status).as(request).isNotEqualTo(200);
		assertThat(contentType).as(request)
			.hasValueSatisfying((type) -> assertThat(type).matches("application/(graphql-response\\+)?json.*"));
		Map<String, Object> body = JSON.readValue(text, Map.class);
		assertThat(body).as(request).containsKey("errors").doesNotContainKey("data");
		for (Object error : (List<?>) body.get("errors")) {
			assertThat((String) ((Map<?, ?>) error).get("message")).as(request).isNotBlank()
				.doesNotContain("Exception", "\tat ");
			assertThat(((Map<?, ?>) ((Map<?, ?>) error).get("extensions")).get("code")).as(request)
				.isEqualTo("INVALID_ARGUMENT");
		}
		if (status == 405) {
			assertThat(allow).as(request).isPresent();
		}
	}

	/** A query no other test sends, so that its hash is not registered yet. */
	private static String uniqueQuery() {
		return "# " + Fixtures.unique("query") + "\nquery Purchases($userId: String!, $first: Int) { "
				+ "user(userId: $userId) { purchases(first: $first) { edges { node { id } } } } }";
	}

	private Answer get(Map<String, String> parameters) throws Exception {
		return get(parameters, null);
	}

	private Answer get(Map<String, String> parameters, String accept) throws Exception {
		StringBuilder url = new StringBuilder("http://127.0.0.1:" + this.port + "/graphql");
		char separator = '?';
		for (Map.Entry<String, String> parameter : parameters.entrySet()) {
			url.append(separator).append(parameter.getKey()).append('=').append(encode(parameter.getValue()));
			separator = '&';
		}
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url.toString())).GET();
		if (accept != null) {
			request.header("Accept", accept);
		}
		return answer(this.http.send(request.build(), HttpResponse.BodyHandlers.ofString()));
	}

	private Answer post(Map<String, Object> body, String accept) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/graphql"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json(body)));
		if (accept != null) {
			request.header("Accept", accept);
		}
		return answer(this.http.send(request.build(), HttpResponse.BodyHandlers.ofString()));
	}

	@SuppressWarnings("unchecked")
	private static Answer answer(HttpResponse<String> response) {
		return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
				response.headers().firstValue("Allow").orElse(null), JSON.readValue(response.body(), Map.class));
	}

	private static List<?> errors(Answer answer) {
		assertThat(answer.body()).as("%s", answer.body()).containsKey("errors");
		return (List<?>) answer.body().get("errors");
	}

	private static void assertCode(Answer answer, String code) {
		assertThat(errors(answer)).isNotEmpty();
		for (Object error : errors(answer)) {
			assertThat(((Map<?, ?>) ((Map<?, ?>) error).get("extensions")).get("code")).as("%s", error).isEqualTo(code);
		}
	}

	private static Map<String, String> with(Map<String, String> base, String... more) {
		Map<String, String> parameters = new LinkedHashMap<>(base);
		for (int i = 0; i < more.length; i += 2) {
			parameters.put(more[i], more[i + 1]);
		}
		return parameters;
	}

	private static String persistedQuery(String hash) {
		return json(Map.of("persistedQuery", Map.of("version", 1, "sha256Hash", hash)));
	}

	private static String json(Object value) {
		return JSON.writeValueAsString(value);
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

	static String sha256(String text) throws Exception {
		return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
	}

	private record Answer(int status, String contentType, String allow, Map<String, Object> body) {

		Object at(String... path) {
			Object value = this.body;
			for (String key : path) {
				assertThat(value).as("%s at %s", this.body, key).isInstanceOf(Map.class);
				value = ((Map<?, ?>) value).get(key);
			}
			return value;
		}

	}

}
