package dev.dynamorelay.it.guards;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.Http.Answer;
import dev.dynamorelay.it.Http;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Rest;
import dev.dynamorelay.it.Tokens;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample with a JWT key configured: its `@auth` rules (users for any signed-in caller, purchases for
 * their owner and group `admin`, movies for anyone, mutations for the purchase's owner or `admin`),
 * over HTTP with tokens minted by {@link Tokens}; and every kind of invalid token refused with 401.
 */
class SampleAccessIT extends IntegrationTest {

	private static final String PURCHASES = """
			query ($userId: String!, $first: Int, $after: String) {
			  user(userId: $userId) { name purchases(first: $first, after: $after) {
			    edges { cursor node { id userId } } pageInfo { hasNextPage endCursor } totalCount } } }""";

	private static final String BY_CATEGORY = """
			query ($category: String!, $first: Int, $after: String) {
			  purchasesByCategory(category: $category, first: $first, after: $after) {
			    edges { node { userId purchasedAt } } pageInfo { hasNextPage endCursor } totalCount } }""";

	private static final long START = 1_750_000_000_000L;

	@DynamicPropertySource
	static void key(DynamicPropertyRegistry registry) {
		Tokens.configure(registry);
	}

	private Http http;

	private String alice;

	private String bob;

	private String category;

	@BeforeEach
	void purchases() {
		this.http = new Http(this.port);
		this.alice = this.fixtures.buyer("alice");
		this.bob = this.fixtures.buyer("bob");
		this.category = Fixtures.unique("acc");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		items.addAll(this.fixtures.purchases(this.alice, 7, START, this.category));
		items.addAll(this.fixtures.purchases(this.bob, 9, START + 30_000, this.category));
		this.fixtures.putPurchases(items);
	}

	@Test
	void anOwnerReadsTheirPurchasesAndNotAnotherUsers() {
		Answer own = this.http.post(Tokens.of(this.alice), PURCHASES, Map.of("userId", this.alice, "first", 5)).clean();
		assertThat(own.errors()).isEmpty();
		assertThat((List<?>) own.at("data", "user", "purchases", "edges")).hasSize(5);
		assertThat(own.at("data", "user", "purchases", "totalCount")).isEqualTo(7);

		Answer lookupAlone = this.http.post(Tokens.of(this.alice), "query ($userId: String!) { user(userId: $userId) { name } }",
				Map.of("userId", this.bob));
		Answer others = this.http.post(Tokens.of(this.alice), PURCHASES, Map.of("userId", this.bob, "first", 5)).clean();
		assertThat(others.status()).isEqualTo(200);
		assertThat(others.at("data", "user")).as("`purchases` is non-null: its error nulls the user").isNull();
		assertThat(others.codes()).containsExactly("FORBIDDEN");
		assertThat(others.paths()).containsExactly("user.purchases");
		assertThat((String) others.errors().get(0).get("message")).contains("User.purchases", this.bob, "sub",
				this.alice, "admin");
		assertThat(others.requests()).as("the forbidden connection read nothing").isEqualTo(lookupAlone.requests());

		Answer admin = this.http.post(Tokens.of("auditor", Map.of("groups", List.of("staff", "admin"))), PURCHASES,
				Map.of("userId", this.bob, "first", 20)).clean();
		assertThat(admin.errors()).isEmpty();
		assertThat((List<?>) admin.at("data", "user", "purchases", "edges")).hasSize(9);
	}

	@Test
	void aCategoryServesASignedInCallerOnlyTheirOwnPurchasesAndItsCursorsOnlyToThem() {
		List<Object> owners = new ArrayList<>();
		String after = null;
		Answer page;
		do {
			Map<String, Object> variables = new java.util.HashMap<>(Map.of("category", this.category, "first", 3));
			variables.put("after", after);
			page = this.http.post(Tokens.of(this.alice), BY_CATEGORY, variables).clean();
			assertThat(page.errors()).isEmpty();
			for (Object edge : (List<?>) page.at("data", "purchasesByCategory", "edges")) {
				owners.add(((Map<?, ?>) ((Map<?, ?>) edge).get("node")).get("userId"));
			}
			after = (String) page.at("data", "purchasesByCategory", "pageInfo", "endCursor");
		}
		while (Boolean.TRUE.equals(page.at("data", "purchasesByCategory", "pageInfo", "hasNextPage")));
		assertThat(owners).hasSize(7).containsOnly(this.alice);
		assertThat(page.at("data", "purchasesByCategory", "totalCount")).isEqualTo(7);

		Answer first = this.http.post(Tokens.of(this.alice), BY_CATEGORY, Map.of("category", this.category, "first", 2));
		String cursor = (String) first.at("data", "purchasesByCategory", "pageInfo", "endCursor");
		Answer stolen = this.http.post(Tokens.of(this.bob), BY_CATEGORY,
				Map.of("category", this.category, "first", 2, "after", cursor)).clean();
		assertThat(stolen.codes()).as("a cursor of Alice's purchases, sent by Bob").containsExactly("INVALID_CURSOR");
		assertThat(stolen.requests()).isZero();

		Answer admin = this.http.post(Tokens.of("auditor", Map.of("groups", "admin")), BY_CATEGORY,
				Map.of("category", this.category, "first", 100)).clean();
		assertThat((List<?>) admin.at("data", "purchasesByCategory", "edges")).hasSize(16);
	}

	@Test
	void anotherUsersPurchaseIdsAreRefusedWithoutReading() {
		String own = this.ids.purchase(this.alice, START);
		String others = this.ids.purchase(this.bob, START + 30_000);
		Answer node = this.http.post(Tokens.of(this.alice), "query ($id: ID!) { node(id: $id) { id } }",
				Map.of("id", others)).clean();
		assertThat(node.at("data", "node")).isNull();
		assertThat(node.codes()).containsExactly("FORBIDDEN");
		assertThat(node.requests()).isZero();

		Answer nodes = this.http.post(Tokens.of(this.alice), "query ($ids: [ID!]!) { nodes(ids: $ids) { id } }",
				Map.of("ids", List.of(own, others, this.ids.movie(1994, "none")))).clean();
		assertThat((List<?>) nodes.at("data", "nodes")).hasSize(3);
		assertThat(nodes.at("data", "nodes", 0, "id")).isEqualTo(own);
		assertThat(nodes.at("data", "nodes", 1)).isNull();
		assertThat(nodes.at("data", "nodes", 2)).as("a movie that does not exist").isNull();
		assertThat(nodes.codes()).containsExactly("FORBIDDEN");
		assertThat(nodes.paths()).containsExactly("nodes.1");
		assertThat(nodes.requests()).as("one BatchGetItem for the two allowed ids").isEqualTo(1);
	}

	@Test
	void anIdOfAnotherTypeCannotStandInForThePurchaseTheRuleNames() {
		// A User id whose `userId` is the caller's: not a purchase, so it has no owner for `id.userId`.
		Answer delete = this.http.post(Tokens.of(this.alice), "mutation ($id: ID!) { deletePurchase(id: $id) }",
				Map.of("id", this.ids.user(this.alice))).clean();
		assertThat(delete.codes()).containsExactly("FORBIDDEN");
	}

	@Test
	void emailsAreTheirOwnersAndTheRestOfAUserIsForAnySignedInCaller() {
		String query = "query ($a: String!, $b: String!) { a: user(userId: $a) { name email } b: user(userId: $b) { name email } }";
		this.fixtures.user(this.bob, "Buyer " + this.bob);
		Answer answer = this.http.post(Tokens.of(this.alice), query, Map.of("a", this.alice, "b", this.bob)).clean();
		assertThat(answer.at("data", "b", "name")).isEqualTo("Buyer " + this.bob);
		assertThat(answer.at("data", "b", "email")).isNull();
		assertThat(answer.codes()).containsExactly("FORBIDDEN");
		assertThat(answer.paths()).containsExactly("b.email");
	}

	@Test
	void aTokenWorksOverGetAndWithPersistedQueries() throws Exception {
		String query = "query ($userId: String!) { user(userId: $userId) { purchases(first: 2) { edges { cursor } } } }";
		String url = "http://127.0.0.1:" + this.port + "/graphql?query=" + java.net.URLEncoder.encode(query,
				java.nio.charset.StandardCharsets.UTF_8) + "&variables=" + java.net.URLEncoder.encode("{\"userId\":\""
						+ this.bob + "\"}", java.nio.charset.StandardCharsets.UTF_8);
		java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
		java.net.http.HttpResponse<String> own = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
			.header("Authorization", "Bearer " + Tokens.of(this.bob)).GET().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
		assertThat(own.statusCode()).isEqualTo(200);
		assertThat(own.body()).contains("\"edges\":[{\"cursor\"").doesNotContain("errors");
		java.net.http.HttpResponse<String> others = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
			.header("Authorization", "Bearer " + Tokens.of(this.alice)).GET().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
		assertThat(others.body()).contains("FORBIDDEN").doesNotContain("cursor\":");
		java.net.http.HttpResponse<String> none = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).GET().build(),
				java.net.http.HttpResponse.BodyHandlers.ofString());
		assertThat(none.statusCode()).isEqualTo(401);
		assertThat(none.body()).contains("UNAUTHENTICATED");
	}

	@Test
	void mutationsAreTheOwnersOrAnAdmins() {
		String bobs = this.ids.purchase(this.bob, START + 30_000);
		Answer delete = this.http.post(Tokens.of(this.alice), "mutation ($id: ID!) { deletePurchase(id: $id) }",
				Map.of("id", bobs)).clean();
		assertThat(delete.codes()).containsExactly("FORBIDDEN");
		assertThat(stored(this.bob, START + 30_000)).as("Bob's purchase is still there").isTrue();

		Answer create = this.http.post(Tokens.of(this.alice), """
				mutation ($input: CreatePurchaseInput!) { createPurchase(input: $input) { id } }""",
				Map.of("input", Map.of("userId", this.bob, "purchasedAt", "2030-01-01T00:00:00Z", "product", "p",
						"category", this.category, "amount", 1.5))).clean();
		assertThat(create.codes()).containsExactly("FORBIDDEN");
		assertThat(stored(this.bob, 1_893_456_000_000L)).as("nothing written for Bob").isFalse();

		Answer own = this.http.post(Tokens.of(this.alice), """
				mutation ($input: CreatePurchaseInput!) { createPurchase(input: $input) { id userId } }""",
				Map.of("input", Map.of("userId", this.alice, "purchasedAt", "2030-01-01T00:00:00Z", "product", "p",
						"category", this.category, "amount", 1.5))).clean();
		assertThat(own.errors()).isEmpty();
		assertThat(own.at("data", "createPurchase", "userId")).isEqualTo(this.alice);
		Answer deleteOwn = this.http.post(Tokens.of(this.alice), "mutation ($id: ID!) { deletePurchase(id: $id) }",
				Map.of("id", own.at("data", "createPurchase", "id"))).clean();
		assertThat(deleteOwn.errors()).isEmpty();
		assertThat(stored(this.alice, 1_893_456_000_000L)).isFalse();

		Answer admin = this.http.post(Tokens.of("auditor", Map.of("groups", List.of("admin"))),
				"mutation ($id: ID!) { deletePurchase(id: $id) }", Map.of("id", bobs)).clean();
		assertThat(admin.at("data", "deletePurchase")).isEqualTo(bobs);
		assertThat(stored(this.bob, START + 30_000)).isFalse();
	}

	@Test
	void withoutATokenOnlyPublicFieldsRunAndARequestOfNothingElseIs401() {
		Answer movies = this.http.post(null, "{ movies(year: 2001, first: 1) { edges { node { title } } } }").clean();
		assertThat(movies.status()).isEqualTo(200);
		assertThat(movies.errors()).isEmpty();
		assertThat((List<?>) movies.at("data", "movies", "edges")).hasSize(1);

		Answer mixed = this.http.post(null, "query ($userId: String!) { movies(year: 2001, first: 1) { edges { node { title } } } "
				+ "user(userId: $userId) { name } }", Map.of("userId", this.alice)).clean();
		assertThat(mixed.status()).as("part of the request ran").isEqualTo(200);
		assertThat((List<?>) mixed.at("data", "movies", "edges")).hasSize(1);
		assertThat(mixed.at("data", "user")).isNull();
		assertThat(mixed.codes()).containsExactly("UNAUTHENTICATED");
		assertThat(mixed.paths()).containsExactly("user");

		Answer users = this.http.post(null, "{ users(first: 1) { edges { cursor } } }").clean();
		assertThat(users.status()).isEqualTo(401);
		assertThat(users.authenticate()).startsWith("Bearer");
		assertThat(users.codes()).containsExactly("UNAUTHENTICATED");
		assertThat((String) users.errors().get(0).get("message")).contains("Authorization: Bearer");
		assertThat(users.requests()).isZero();

		Answer delete = this.http.post(null, "mutation ($id: ID!) { deletePurchase(id: $id) }",
				Map.of("id", this.ids.purchase(this.bob, START + 30_000))).clean();
		assertThat(delete.status()).isEqualTo(401);
		assertThat(delete.codes()).containsExactly("UNAUTHENTICATED");
		assertThat(stored(this.bob, START + 30_000)).isTrue();
	}

	@Test
	void aTokenWithoutExpiryIsRefused() {
		Answer answer = this.http.post(Tokens.withoutExpiry(this.alice), "{ movies(year: 2001, first: 1) { edges { cursor } } }")
			.clean();
		assertThat(answer.status()).isEqualTo(401);
		assertThat(answer.codes()).containsExactly("UNAUTHENTICATED");
		assertThat((String) answer.errors().get(0).get("message")).contains("exp");
		assertThat(answer.body()).doesNotContainKey("data");
	}

	/**
	 * A token valid for 100 years, with or without {@code iat}, or issued an hour from now, is refused as a key that
	 * cannot be withdrawn (dynamo-relay.auth.max-token-lifetime, a day by default); a day's token, and one whose
	 * issuer's clock is half a minute ahead, are served.
	 */
	@Test
	void aTokenValidForACenturyOrIssuedInTheFutureIsRefused() {
		String query = "{ movies(year: 2001, first: 1) { edges { cursor } } }";
		Instant now = Instant.now();
		Instant century = now.plus(Duration.ofDays(36_525));
		Map<String, String> refused = Map.of("valid for 100 years", Tokens.timed(this.alice, now, century),
				"valid for 100 years, no iat", Tokens.timed(this.alice, null, century),
				"issued in an hour", Tokens.timed(this.alice, now.plus(Duration.ofHours(1)), now.plus(Duration.ofHours(2))));
		refused.forEach((kind, token) -> {
			Answer answer = this.http.post(token, query).clean();
			assertThat(answer.status()).as(kind).isEqualTo(401);
			assertThat(answer.authenticate()).as(kind).startsWith("Bearer").contains("invalid_token");
			assertThat(answer.codes()).as(kind).containsExactly("UNAUTHENTICATED");
			assertThat((String) answer.errors().get(0).get("message")).as(kind).contains(kind.startsWith("issued")
					? "in the future" : "max-token-lifetime");
			assertThat(answer.body()).as(kind).doesNotContainKey("data");
		});
		Map<String, String> served = Map.of("valid for a day", Tokens.timed(this.alice, now, now.plus(Duration.ofHours(23))),
				"valid for an hour, no iat", Tokens.timed(this.alice, null, now.plus(Duration.ofHours(1))),
				"issued 30 s ahead", Tokens.timed(this.alice, now.plus(Duration.ofSeconds(30)), now.plus(Duration.ofHours(1))));
		served.forEach((kind, token) -> assertThat(this.http.post(token, query).clean().status()).as(kind).isEqualTo(200));
	}

	@Test
	void healthDetailsAreShownOnlyToATokenWithScopeHealth() throws Exception {
		java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
		java.util.function.Function<String, String> health = (token) -> {
			java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest
				.newBuilder(java.net.URI.create("http://127.0.0.1:" + this.port + "/actuator/health"));
			if (token != null) {
				request.header("Authorization", "Bearer " + token);
			}
			try {
				return client.send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		};
		assertThat(health.apply(null)).contains("\"status\"").doesNotContain("details", "dynamoDb", "components");
		assertThat(health.apply(Tokens.of(this.alice))).as("signed in, without the scope")
			.doesNotContain("details", "dynamoDb");
		assertThat(health.apply(Tokens.of("ops", Map.of("scope", "read health")))).contains("\"dynamoDb\"", "\"details\"");
	}

	@Test
	void invalidTokensAreRefusedWith401BeforeAnythingRuns() {
		Map<String, String> tokens = Map.of("expired", Tokens.expired(this.alice), "signed by another key",
				Tokens.signedByAnotherKey(this.alice), "for another audience", Tokens.forAnotherAudience(this.alice),
				"unsigned (alg: none)", Tokens.unsigned(this.alice), "not a JWT", "garbage");
		tokens.forEach((kind, token) -> {
			Answer answer = this.http.post(token, "{ movies(year: 2001, first: 1) { edges { cursor } } }").clean();
			assertThat(answer.status()).as(kind).isEqualTo(401);
			assertThat(answer.authenticate()).as(kind).startsWith("Bearer").contains("invalid_token");
			assertThat(answer.codes()).as(kind).containsExactly("UNAUTHENTICATED");
			assertThat(answer.body()).as(kind).doesNotContainKey("data");
		});
		assertThat(this.http.post(Tokens.of(this.alice), "{ movies(year: 2001, first: 1) { edges { cursor } } }").status())
			.as("the same request with a valid token").isEqualTo(200);
	}

	@Test
	void theRestViewAppliesTheSameRules() {
		Rest rest = new Rest(this.port);
		String alices = "/api/users/" + this.alice + "/purchases";
		Rest.Walk own = rest.walk(Tokens.of(this.alice), alices, "purchases", 3);
		assertThat(own.map((node) -> (String) node.get("userId"))).hasSize(7).containsOnly(this.alice);

		rest.get(Tokens.of(this.bob), alices).assertProblem(403, "FORBIDDEN");
		Rest.Answer anonymous = rest.get(alices);
		anonymous.assertProblem(401, "UNAUTHENTICATED");
		assertThat(anonymous.headers().get("www-authenticate")).singleElement().asString().startsWith("Bearer");
		assertThat(rest.walk(Tokens.of("auditor", Map.of("groups", "admin")), alices, "purchases", 10).nodes()).hasSize(7);

		// A category serves a signed-in caller only their own purchases, and its tokens only to them.
		String category = "/api/purchasesByCategory" + Rest.query("category", this.category);
		Rest.Walk bobs = rest.walk(Tokens.of(this.bob), category, "purchasesByCategory", 4);
		assertThat(bobs.map((node) -> (String) node.get("userId"))).hasSize(9).containsOnly(this.bob);
		String token = rest.get(Tokens.of(this.bob), category + "&limit=2").nextToken();
		rest.get(Tokens.of(this.alice), category + "&nextToken=" + token).assertProblem(400, "INVALID_CURSOR");

		// A field the caller may not read is left out of the node; the rest is served.
		List<Map<String, Object>> users = rest.get(Tokens.of(this.bob), "/api/users?limit=100").items("users");
		Map<String, Object> bob = users.stream().filter((user) -> this.bob.equals(user.get("userId"))).findFirst().orElseThrow();
		Map<String, Object> alice = users.stream().filter((user) -> this.alice.equals(user.get("userId"))).findFirst().orElseThrow();
		assertThat(bob).containsKeys("id", "userId", "name", "email");
		assertThat(alice).containsKeys("id", "userId", "name").doesNotContainKey("email");

		// Movies are public.
		assertThat(rest.get("/api/movies?year=2001&limit=1").status()).isEqualTo(200);
		Map<String, String> invalid = Map.of("expired", Tokens.expired(this.alice), "signed by another key",
				Tokens.signedByAnotherKey(this.alice), "for another audience", Tokens.forAnotherAudience(this.alice),
				"unsigned (alg: none)", Tokens.unsigned(this.alice));
		invalid.forEach((kind, bad) -> {
			Rest.Answer refused = rest.get(bad, alices);
			assertThat(refused.assertProblem(401, "UNAUTHENTICATED")).as(kind).contains("bearer token was refused");
			assertThat(refused.headers().get("www-authenticate")).as(kind).singleElement().asString().contains("invalid_token");
		});
	}

	private boolean stored(String userId, long purchasedAt) {
		return this.dynamoDb.getItem((get) -> get.tableName(this.tables.purchases())
			.key(Map.of("userId", AttributeValue.fromS(userId), "purchasedAt",
					AttributeValue.fromN(Long.toString(purchasedAt)))))
			.hasItem();
	}

}
