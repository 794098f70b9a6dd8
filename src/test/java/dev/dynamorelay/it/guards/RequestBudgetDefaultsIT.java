package dev.dynamorelay.it.guards;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.graphql.GraphQlResponse;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.pagination.ReadBudgets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default request budget: the heaviest legitimate request (a filtered page with its
 * {@code totalCount}, at the worst its budgets allow) is served untouched, and the heaviest request
 * the cost limits let through (20 filtered pages of 100 that match nothing) is cut at the budget.
 */
class RequestBudgetDefaultsIT extends IntegrationTest {

	private static final long T0 = 1_750_000_000_000L;

	@Autowired
	private ReadBudgets budgets;

	@Test
	void theDefaultsAreDocumented() {
		assertThat(this.budgets.requestItems()).isEqualTo(12_000);
		assertThat(this.budgets.readItems()).isEqualTo(1_000);
		assertThat(this.budgets.countItems()).isEqualTo(10_000);
	}

	@Test
	void aFilteredPageWithItsTotalCountAtTheirFullBudgetsIsUntouched() {
		String user = this.fixtures.buyer("heaviest");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 10_000; i++) {
			items.add(Fixtures.purchase(user, T0 + i, "heaviest", (i == 9_999) ? "500" : "1"));
		}
		this.fixtures.putPurchases(items);
		// What the infinite-scroll page sends first: the page reads its whole read budget (1,000 items, none
		// matching), the count its whole count budget (exactly 10,000 items: counted, not null).
		GraphQlResponse response = execute("""
				query($u: String!) { user(userId: $u) { purchases(first: 20, minAmount: 100) {
				  totalCount edges { cursor } pageInfo { hasNextPage endCursor } } } }""", Map.of("u", user));
		assertThat(response.getErrors()).isEmpty();
		assertThat(response.field("user.purchases.totalCount").<Integer>getValue()).isEqualTo(1);
		assertThat(response.field("user.purchases.edges").<List<?>>getValue()).isEmpty();
		assertThat(response.field("user.purchases.pageInfo.hasNextPage").<Boolean>getValue()).isTrue();
		// 1,000 by the page, 10,000 by the count, 1 by the user's lookup.
		assertThat(scanned(response)).isEqualTo(11_001);
	}

	@Test
	void theHeaviestRequestTheCostLimitsAllowIsCutAtTheBudget() {
		String category = Fixtures.unique("hostile");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 1_500; i++) {
			items.add(Fixtures.purchase("h" + (i % 11), T0 + i, category, "1"));
		}
		this.fixtures.putPurchases(items);
		// 20 root fields (the most allowed) x 1,000 (a filtered page's read budget) = 20,000 items by the estimate.
		String document = IntStream.range(0, 20)
			.mapToObj((i) -> "f%d: purchasesByCategory(category: \"%s\", first: 100, minAmount: 1000) { edges { cursor } pageInfo { hasNextPage endCursor } }"
				.formatted(i, category))
			.collect(Collectors.joining("\n", "{ ", " }"));
		GraphQlResponse response = execute(document);
		assertThat(response.getErrors()).isEmpty();
		assertThat(scanned(response)).isEqualTo(this.budgets.requestItems());
		for (int i = 0; i < 20; i++) {
			assertThat(response.field("f" + i + ".edges").<List<?>>getValue()).isEmpty();
			assertThat(response.field("f" + i + ".pageInfo.hasNextPage").<Boolean>getValue()).isTrue();
			assertThat(response.field("f" + i + ".pageInfo.endCursor").<String>getValue()).isNotNull();
		}
	}

	@SuppressWarnings("unchecked")
	private static long scanned(GraphQlResponse response) {
		return ((Number) ((Map<String, Object>) response.getExtensions().get("dynamodb")).get("scannedCount"))
			.longValue();
	}

}
