package dev.dynamorelay.it.rest;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Direct;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.Http;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Rest;
import dev.dynamorelay.it.Tokens;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A filter that matches little of what it reads, with a read budget of 20 items per page: GraphQL's
 * pages are cut by the budget (some empty, {@code hasNextPage} only "maybe"), while the REST view reads
 * on from where each cut page stopped, so that its pages are full and {@code nextToken} is null exactly
 * at the end.
 */
@TestPropertySource(properties = "dynamo-relay.read-budget=20")
class RestBudgetIT extends IntegrationTest {

	/**
	 * With a key configured, so that the reads that follow a cut page must run as the request's caller (a
	 * signed-in caller is served only their own purchases of a category).
	 */
	@DynamicPropertySource
	static void key(DynamicPropertyRegistry registry) {
		Tokens.configure(registry);
	}

	private static final String BY_CATEGORY = """
			query ($category: String!, $first: Int, $after: String, $minAmount: Float) {
			  purchasesByCategory(category: $category, first: $first, after: $after, minAmount: $minAmount) {
			    edges { node { userId purchasedAt } } pageInfo { hasNextPage endCursor } } }""";

	@Test
	@SuppressWarnings("unchecked")
	void pagesCutByTheBudgetAreFilledAndTheLastTokenIsNull() {
		String category = Fixtures.unique("sparse");
		String buyer = this.fixtures.buyer("sparse");
		// Amounts 0..99 in turn: 97, 98 and 99 match `minAmount: 97`, 6 of 200; the last match is the range's
		// last item.
		List<Map<String, AttributeValue>> items = this.fixtures.purchases(buyer, 200, 1_770_000_000_000L, category);
		this.fixtures.putPurchases(items);
		List<String> expected = Direct.byCategory(this.dynamoDb, this.tables.purchases(), category, true).stream()
			.filter((item) -> new BigDecimal(item.get("amount").n()).compareTo(new BigDecimal(97)) >= 0)
			.map(Direct::purchaseKey)
			.toList();
		assertThat(expected).hasSize(6);

		String token = Tokens.of(buyer);
		Http http = new Http(this.port);
		List<Integer> graphQlPages = new ArrayList<>();
		List<String> graphQlKeys = new ArrayList<>();
		String after = null;
		boolean more;
		do {
			Http.Answer page = http.post(token, BY_CATEGORY,
					vars("category", category, "first", 2, "minAmount", 97, "after", after));
			assertThat(page.errors()).isEmpty();
			List<Map<String, Object>> edges = (List<Map<String, Object>>) page.at("data", "purchasesByCategory", "edges");
			graphQlPages.add(edges.size());
			edges.forEach((edge) -> graphQlKeys.add(key(edge)));
			more = (Boolean) page.at("data", "purchasesByCategory", "pageInfo", "hasNextPage");
			after = (String) page.at("data", "purchasesByCategory", "pageInfo", "endCursor");
		}
		while (more);
		assertThat(graphQlKeys).isEqualTo(expected);
		assertThat(graphQlPages).as("GraphQL's pages are cut by the budget of 20 items").contains(0).hasSizeGreaterThan(6);

		Rest.Walk walk = new Rest(this.port).walk(token,
				"/api/purchasesByCategory" + Rest.query("category", category, "minAmount", 97), "purchasesByCategory", 2);
		assertThat(Direct.nodePurchaseKeys(walk.nodes())).isEqualTo(expected);
		assertThat(walk.sizes()).as("full pages, and no token in front of an empty page").containsExactly(2, 2, 2);

		Rest.Walk odd = new Rest(this.port).walk(token,
				"/api/purchasesByCategory" + Rest.query("category", category, "minAmount", 99), "purchasesByCategory", 1);
		assertThat(odd.sizes()).containsExactly(1, 1);
	}

	@SuppressWarnings("unchecked")
	private static String key(Map<String, Object> edge) {
		Map<String, Object> node = (Map<String, Object>) edge.get("node");
		return node.get("userId") + "@" + java.time.Instant.parse((String) node.get("purchasedAt")).toEpochMilli();
	}

	private static Map<String, Object> vars(Object... pairs) {
		Map<String, Object> variables = new java.util.HashMap<>();
		for (int i = 0; i < pairs.length; i += 2) {
			if (pairs[i + 1] != null) {
				variables.put((String) pairs[i], pairs[i + 1]);
			}
		}
		return variables;
	}

}
