package dev.dynamorelay.it.guards;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Documents;
import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Walker;

import static dev.dynamorelay.it.Direct.nodePurchaseKeys;
import static dev.dynamorelay.it.Direct.purchaseKeys;
import static org.assertj.core.api.Assertions.assertThat;

/** Configured page sizes, read and count budgets, and table prefix. */
@TestPropertySource(properties = { "dynamo-relay.read-budget=100", "dynamo-relay.count-budget=150",
		"dynamo-relay.page.default-size=5", "dynamo-relay.page.max-size=10", "dynamo-relay.tables.prefix=Budget_",
		"dynamo-relay.cursor.secret=budgets-secret" })
class BudgetsIT extends IntegrationTest {

	private static final long T0 = 1_730_000_000_000L;

	@Test
	void servesTheConfiguredPageSizes() {
		assertThat(this.walker.page(Documents.USERS, "users", Map.of()).edges()).hasSize(5);
		assertThat(this.walker.page(Documents.USERS, "users", Map.of("first", 10)).edges()).hasSize(10);
		Errors.assertCode(execute(Documents.USERS, Map.of("first", 11)), "INVALID_ARGUMENT");
	}

	@Test
	void createsAndFillsTablesWithThePrefix() {
		assertThat(this.tables.users()).isEqualTo("Budget_Users");
		assertThat(this.dynamoDb.describeTable((d) -> d.tableName("Budget_UserPurchases")).table().itemCount())
			.isGreaterThanOrEqualTo(5000);
	}

	@Test
	void totalCountIsNullBeyondTheCountBudget() {
		assertThat(this.walker.page(Documents.BY_CATEGORY_COUNTED, "purchasesByCategory",
				Map.of("category", "books", "first", 1)).totalCount()).isNull();
		assertThat(this.walker.page(Documents.USER_PURCHASES_COUNTED, "user.purchases",
				Map.of("userId", "user-01", "first", 1)).totalCount()).isEqualTo(100);
	}

	@Test
	void totalCountOfExactlyTheCountBudgetIsCountedAndOneMoreIsNull() {
		String exactly = this.fixtures.buyer("count");
		this.fixtures.putPurchases(this.fixtures.purchases(exactly, 150, T0, "books"));
		assertThat(this.walker.page(Documents.USER_PURCHASES_COUNTED, "user.purchases",
				Map.of("userId", exactly, "first", 1)).totalCount()).isEqualTo(150);
		String over = this.fixtures.buyer("count");
		this.fixtures.putPurchases(this.fixtures.purchases(over, 151, T0, "books"));
		assertThat(this.walker.page(Documents.USER_PURCHASES_COUNTED, "user.purchases",
				Map.of("userId", over, "first", 1)).totalCount()).isNull();
	}

	@Test
	void aPageCutByTheBudgetAfterSomeMatchesContinuesFromItsLastEdge() {
		String category = Fixtures.unique("cut");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 450; i++) {
			items.add(Fixtures.purchase("u" + i, T0 + i, category, (i % 40 == 3) ? "50" : "1"));
		}
		this.fixtures.putPurchases(items);
		Walker.Page first = this.walker.page(Documents.BY_CATEGORY, "purchasesByCategory",
				Map.of("category", category, "first", 10, "minAmount", 50.0));
		assertThat(first.scannedCount()).isLessThanOrEqualTo(100);
		assertThat(first.edges()).hasSize(3);
		assertThat(first.hasNextPage()).isTrue();
		assertThat(first.endCursor()).isEqualTo(first.edges().get(2).get("cursor"));
		List<String> expected = purchaseKeys(items.stream().filter((item) -> item.get("amount").n().equals("50")).toList());
		assertThat(nodePurchaseKeys(this.walker.forward(Documents.BY_CATEGORY, "purchasesByCategory",
				Map.of("category", category, "minAmount", 50.0), 10, false)))
			.containsExactlyElementsOf(expected);
		assertThat(nodePurchaseKeys(this.walker.backward(Documents.BY_CATEGORY, "purchasesByCategory",
				Map.of("category", category, "minAmount", 50.0), 4, false)))
			.containsExactlyElementsOf(expected);
	}

}
