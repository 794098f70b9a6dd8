package dev.dynamorelay.it.rest;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Direct;
import dev.dynamorelay.it.Documents;
import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Rest.Answer;
import dev.dynamorelay.it.Rest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The REST view of the sample over HTTP: walks of every sample connection equal to direct reads, its
 * tokens and GraphQL's cursors used in each other's place, nodes equal to GraphQL's, every refusal as a
 * problem with its status and code, and the OpenAPI document.
 */
class RestViewIT extends IntegrationTest {

	private static final long START = 1_760_000_000_000L;

	private static final String GRAPHQL_PURCHASES = """
			query ($userId: String!, $first: Int, $after: String, $minAmount: Float, $order: SortOrder) {
			  user(userId: $userId) { purchases(first: $first, after: $after, minAmount: $minAmount, order: $order) {
			    edges { node { id userId purchasedAt product category amount version } } pageInfo { hasNextPage endCursor } } } }""";

	private Rest rest;

	private String buyer;

	private String category;

	private int year;

	@BeforeEach
	void data() {
		this.rest = new Rest(this.port);
		this.buyer = this.fixtures.buyer("rest");
		this.category = Fixtures.unique("restcat");
		List<Map<String, AttributeValue>> purchases = new ArrayList<>(this.fixtures.purchases(this.buyer, 23, START,
				this.category));
		// Another buyer in the same category at the same times: index keys shared by two items.
		String other = this.fixtures.buyer("rest2");
		purchases.addAll(this.fixtures.purchases(other, 11, START, this.category));
		this.fixtures.putPurchases(purchases);
		this.year = Fixtures.uniqueYear();
		List<Map<String, AttributeValue>> movies = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			movies.add(Fixtures.movie(this.year, ((i % 3 == 0) ? "The " : "A ") + "Film " + (100 + i),
					(i % 4 == 0) ? null : Integer.toString(i % 10)));
		}
		this.fixtures.putMovies(movies);
	}

	@Test
	void walksAUsersPurchasesAsTheTableHoldsThem() {
		for (int limit : new int[] { 1, 5, 23, 100 }) {
			Rest.Walk walk = this.rest.walk(null, "/api/users/" + this.buyer + "/purchases", "purchases", limit);
			assertThat(Direct.nodePurchaseKeys(walk.nodes())).as("limit " + limit)
				.isEqualTo(Direct.purchaseKeys(Direct.userPurchases(this.dynamoDb, this.tables.purchases(), this.buyer, true)));
		}
		Rest.Walk filtered = this.rest.walk(null,
				"/api/users/" + this.buyer + "/purchases" + Rest.query("minAmount", 10, "order", "DESC"), "purchases", 4);
		List<String> expected = Direct.userPurchases(this.dynamoDb, this.tables.purchases(), this.buyer, false).stream()
			.filter((item) -> new BigDecimal(item.get("amount").n()).compareTo(BigDecimal.TEN) >= 0)
			.map(Direct::purchaseKey)
			.toList();
		assertThat(expected).hasSize(13);
		assertThat(Direct.nodePurchaseKeys(filtered.nodes())).isEqualTo(expected);
	}

	@Test
	void walksACategoryAcrossSharedIndexKeys() {
		Rest.Walk walk = this.rest.walk(null, "/api/purchasesByCategory" + Rest.query("category", this.category), 
				"purchasesByCategory", 3);
		assertThat(Direct.nodePurchaseKeys(walk.nodes()))
			.isEqualTo(Direct.purchaseKeys(Direct.byCategory(this.dynamoDb, this.tables.purchases(), this.category, true)))
			.hasSize(34);
		Rest.Walk filtered = this.rest.walk(null,
				"/api/purchasesByCategory" + Rest.query("category", this.category, "minAmount", 20.5, "order", "DESC"),
				"purchasesByCategory", 2);
		List<String> expected = Direct.byCategory(this.dynamoDb, this.tables.purchases(), this.category, false).stream()
			.filter((item) -> new BigDecimal(item.get("amount").n()).compareTo(new BigDecimal("20.5")) >= 0)
			.map(Direct::purchaseKey)
			.toList();
		assertThat(expected).hasSize(2);
		assertThat(Direct.nodePurchaseKeys(filtered.nodes())).isEqualTo(expected);
	}

	@Test
	void walksMoviesWithAPrefixAndAFilter() {
		Rest.Walk walk = this.rest.walk(null,
				"/api/movies" + Rest.query("year", this.year, "titlePrefix", "The ", "minRating", 3), "movies", 2);
		List<String> expected = Direct.query(this.dynamoDb, (q) -> q.tableName(this.tables.movies())
			.keyConditionExpression("#y = :y AND begins_with(title, :p)")
			.expressionAttributeNames(Map.of("#y", "year"))
			.expressionAttributeValues(Map.of(":y", AttributeValue.fromN(Integer.toString(this.year)), ":p",
					AttributeValue.fromS("The "))))
			.stream()
			.filter((item) -> item.containsKey("rating") && new BigDecimal(item.get("rating").n()).compareTo(new BigDecimal(3)) >= 0)
			.map((item) -> item.get("title").s())
			.toList();
		assertThat(expected).hasSize(6);
		assertThat(walk.map((node) -> (String) node.get("title"))).isEqualTo(expected);
		assertThat(walk.nodes()).allSatisfy((node) -> assertThat(node).containsEntry("year", this.year)
			.containsKeys("id", "title", "rating", "genres", "plot"));
	}

	@Test
	void walksTheUsersScanInTheTablesOrder() {
		Rest.Walk walk = this.rest.walk(null, "/api/users", "users", 37);
		List<String> expected = Direct.scan(this.dynamoDb, (scan) -> scan.tableName(this.tables.users()))
			.stream()
			.map((item) -> item.get("userId").s())
			.toList();
		assertThat(walk.map((node) -> (String) node.get("userId"))).isEqualTo(expected).contains(this.buyer);
	}

	@Test
	void keysWithSlashesAndPercentSignsArePathSegments() {
		String userId = Fixtures.unique("a/b%c d");
		this.fixtures.user(userId, "Slashed");
		this.fixtures.putPurchases(this.fixtures.purchases(userId, 5, START, this.category));
		String segment = java.net.URLEncoder.encode(userId, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
		assertThat(segment).contains("%2F", "%25");
		Rest.Walk walk = this.rest.walk(null, "/api/users/" + segment + "/purchases", "purchases", 2);
		assertThat(walk.map((node) -> (String) node.get("userId"))).hasSize(5).containsOnly(userId);
		assertThat(this.rest.send(null, "HEAD", "/api/users/" + segment + "/purchases").status()).isEqualTo(200);
	}

	@Test
	void nodesAreGraphQlsNodes() {
		GraphQlResponse graphQl = execute(GRAPHQL_PURCHASES, Map.of("userId", this.buyer, "first", 5));
		List<Map<String, Object>> expected = nodes(graphQl);
		Answer page = this.rest.get("/api/users/" + this.buyer + "/purchases?limit=5");
		assertThat(page.status()).isEqualTo(200);
		assertThat(page.contentType()).startsWith("application/json");
		assertThat(page.items("purchases")).isEqualTo(expected).hasSize(5);
		assertThat(page.body().keySet()).containsExactly("purchases", "nextToken");
	}

	@Test
	void nextTokensAndEndCursorsAreOneCursor() {
		// GraphQL's endCursor as the REST nextToken.
		GraphQlResponse first = execute(GRAPHQL_PURCHASES, Map.of("userId", this.buyer, "first", 4, "minAmount", 3));
		String endCursor = first.field("user.purchases.pageInfo.endCursor").getValue();
		GraphQlResponse second = execute(GRAPHQL_PURCHASES,
				Map.of("userId", this.buyer, "first", 4, "minAmount", 3, "after", endCursor));
		List<Map<String, Object>> graphQlNext = nodes(second);
		Answer restNext = this.rest.get("/api/users/" + this.buyer + "/purchases"
				+ Rest.query("limit", 4, "minAmount", 3, "nextToken", endCursor));
		assertThat(restNext.items("purchases")).isEqualTo(graphQlNext).hasSize(4);
		// The REST nextToken as GraphQL's after.
		GraphQlResponse third = execute(GRAPHQL_PURCHASES,
				Map.of("userId", this.buyer, "first", 4, "minAmount", 3, "after", restNext.nextToken()));
		Answer restThird = this.rest.get("/api/users/" + this.buyer + "/purchases"
				+ Rest.query("limit", 4, "minAmount", 3, "nextToken", restNext.nextToken()));
		assertThat(nodes(third)).isEqualTo(restThird.items("purchases"))
			.hasSize(4);
		// A cursor is bound to its connection: another filter refuses it, on either side.
		this.rest.get("/api/users/" + this.buyer + "/purchases" + Rest.query("minAmount", 4, "nextToken", endCursor))
			.assertProblem(400, "INVALID_CURSOR");
	}

	@Test
	void theLastPageEndsWithANullToken() {
		Answer all = this.rest.get("/api/users/" + this.buyer + "/purchases?limit=23");
		assertThat(all.items("purchases")).hasSize(23);
		assertThat(all.nextToken()).as("23 of 23: nothing is left").isNull();
		Answer almost = this.rest.get("/api/users/" + this.buyer + "/purchases?limit=22");
		assertThat(almost.nextToken()).isNotNull();
		Answer last = this.rest.get("/api/users/" + this.buyer + "/purchases" + Rest.query("nextToken", almost.nextToken()));
		assertThat(last.items("purchases")).hasSize(1);
		assertThat(last.nextToken()).isNull();
		Answer noMatch = this.rest.get("/api/users/" + this.buyer + "/purchases?minAmount=1000");
		assertThat(noMatch.items("purchases")).isEmpty();
		assertThat(noMatch.nextToken()).isNull();
	}

	/**
	 * An empty cursor is no cursor of this connection, on either transport: {@code nextToken=} is refused as
	 * GraphQL's {@code after: ""} is, rather than starting over (leave it out, or pass GraphQL's null, for
	 * the first page).
	 */
	@Test
	void emptyTokensAreInvalidCursorsOnBothTransports() {
		String purchases = "/api/users/" + this.buyer + "/purchases";
		assertThat(this.rest.get(purchases + "?nextToken=").assertProblem(400, "INVALID_CURSOR")).contains("`nextToken` is empty", "leave it out");
		this.rest.get(purchases + "?limit=2&nextToken=").assertProblem(400, "INVALID_CURSOR");
		this.rest.get("/api/purchasesByCategory?category=" + this.category + "&nextToken=")
			.assertProblem(400, "INVALID_CURSOR");
		GraphQlResponse graphQl = execute(GRAPHQL_PURCHASES, Map.of("userId", this.buyer, "first", 2, "after", ""));
		Errors.assertCode(graphQl, "INVALID_CURSOR");
		GraphQlResponse backwards = execute(Documents.BY_CATEGORY, Map.of("category", this.category, "before", ""));
		Errors.assertCode(backwards, "INVALID_CURSOR");
		assertThat(Errors.requests(backwards)).isZero();
		// Left out, it is the first page on both.
		assertThat(this.rest.get(purchases + "?limit=2").items("purchases"))
			.isEqualTo(nodes(execute(GRAPHQL_PURCHASES, Map.of("userId", this.buyer, "first", 2))));
	}

	@Test
	void refusesBadParametersAsProblems() {
		String purchases = "/api/users/" + this.buyer + "/purchases";
		assertThat(this.rest.get(purchases + "?limit=0").assertProblem(400, "INVALID_ARGUMENT")).contains("`limit`", "100");
		this.rest.get(purchases + "?limit=101").assertProblem(400, "INVALID_ARGUMENT");
		this.rest.get(purchases + "?limit=ten").assertProblem(400, "INVALID_ARGUMENT");
		this.rest.get(purchases + "?limit=1&limit=2").assertProblem(400, "INVALID_ARGUMENT");
		assertThat(this.rest.get(purchases + "?first=2").assertProblem(400, "INVALID_ARGUMENT"))
			.contains("first", "limit, minAmount, nextToken, order");
		this.rest.get(purchases + "?minAmount=lots").assertProblem(400, "INVALID_ARGUMENT");
		this.rest.get(purchases + "?order=SIDEWAYS").assertProblem(400, "INVALID_ARGUMENT");
		assertThat(this.rest.get("/api/movies").assertProblem(400, "INVALID_ARGUMENT")).contains("`year`");
		this.rest.get("/api/movies?year=nineteen").assertProblem(400, "INVALID_ARGUMENT");
		this.rest.get("/api/movies?year=99999999999").assertProblem(400, "INVALID_ARGUMENT");
		this.rest.get("/api/purchasesByCategory?category=").assertProblem(400, "INVALID_ARGUMENT");
		this.rest.get(purchases + "?nextToken=garbled").assertProblem(400, "INVALID_CURSOR");
		String token = this.rest.get(purchases + "?limit=2").nextToken();
		String tampered = token.substring(0, token.length() - 2) + (token.endsWith("AA") ? "AB" : "AA");
		this.rest.get(purchases + "?nextToken=" + tampered).assertProblem(400, "INVALID_CURSOR");
		String otherUser = this.fixtures.buyer("rest3");
		this.rest.get("/api/users/" + otherUser + "/purchases?nextToken=" + token).assertProblem(400, "INVALID_CURSOR");
	}

	@Test
	void refusesPathsAndMethodsAsProblems() {
		assertThat(this.rest.get("/api/users/nobody-" + this.buyer + "/purchases").assertProblem(404, "NOT_FOUND"))
			.contains("No User with userId");
		assertThat(this.rest.get("/api/nothing/here").assertProblem(404, "NOT_FOUND")).contains("/api/openapi.json");
		this.rest.get("/api").assertProblem(404, "NOT_FOUND");
		Answer post = this.rest.send(null, "POST", "/api/users/" + this.buyer + "/purchases");
		post.assertProblem(405, "INVALID_ARGUMENT");
		assertThat(post.headers().get("allow")).singleElement().asString().contains("GET", "HEAD");
		Answer options = this.rest.send(null, "OPTIONS", "/api/users/" + this.buyer + "/purchases");
		assertThat(options.status()).isEqualTo(200);
		assertThat(options.headers().get("allow")).singleElement().asString().contains("GET", "HEAD");
		assertThat(this.rest.send(null, "HEAD", "/api/openapi.json").status()).isEqualTo(200);
		this.rest.send(null, "DELETE", "/api/users").assertProblem(405, "INVALID_ARGUMENT");
	}

	@Test
	void describesEveryRouteInOpenApi31() {
		Answer document = this.rest.get("/api/openapi.json");
		assertThat(document.status()).isEqualTo(200);
		assertThat(document.body()).containsEntry("openapi", "3.1.0");
		@SuppressWarnings("unchecked")
		Map<String, Object> paths = (Map<String, Object>) document.body().get("paths");
		assertThat(paths).containsOnlyKeys("/api/users/{userId}/purchases", "/api/users", "/api/purchasesByCategory",
				"/api/movies");
		SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(
				tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(document.body()));
		assertThat(parsed.getMessages()).isEmpty();
		var movies = parsed.getOpenAPI().getPaths().get("/api/movies").getGet();
		assertThat(movies.getParameters()).extracting((parameter) -> parameter.getName() + ":" + parameter.getIn() + ":"
				+ parameter.getRequired())
			.containsExactly("year:query:true", "titlePrefix:query:false", "minRating:query:false", "order:query:false",
					"limit:query:false", "nextToken:query:false");
		var purchase = parsed.getOpenAPI().getComponents().getSchemas().get("Purchase");
		assertThat(purchase.getProperties()).containsOnlyKeys("id", "userId", "purchasedAt", "product", "category", "amount",
				"version");
		assertThat(purchase.getRequired()).containsExactlyInAnyOrder("id", "userId", "purchasedAt");
	}

	@Test
	void everyConnectionHasAPath() {
		assertThat(this.declarations.connections()).hasSize(4);
		List<String> fields = this.declarations.connections().stream()
			.map((connection) -> connection.coordinates().getTypeName() + "." + connection.coordinates().getFieldName())
			.sorted(Comparator.naturalOrder())
			.toList();
		@SuppressWarnings("unchecked")
		Map<String, Map<String, Map<String, Object>>> paths = (Map<String, Map<String, Map<String, Object>>>) this.rest
			.get("/api/openapi.json").body().get("paths");
		assertThat(paths.values().stream().map((path) -> (String) path.get("get").get("operationId")).sorted().toList())
			.isEqualTo(fields);
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> nodes(GraphQlResponse response) {
		List<Map<String, Object>> edges = response.field("user.purchases.edges").getValue();
		return edges.stream().map((edge) -> (Map<String, Object>) edge.get("node")).toList();
	}

}
