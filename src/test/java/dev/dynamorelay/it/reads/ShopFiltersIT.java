package dev.dynamorelay.it.reads;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.ShopData;
import dev.dynamorelay.it.ShopDocuments;
import dev.dynamorelay.it.ShopIntegrationTest;
import dev.dynamorelay.it.Walker;

import static dev.dynamorelay.it.ShopData.itemKeys;
import static dev.dynamorelay.it.ShopData.s;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every filter operator of {@code Customer.orders}, alone and combined, compared with a direct Query
 * of the same key range and FilterExpression; and filtered pages that fill within the read budget.
 */
class ShopFiltersIT extends ShopIntegrationTest {

	private static final Instant T0 = Instant.parse("2025-04-01T06:00:00Z");

	@Test
	void everyFilterOperatorReturnsExactlyTheDirectlyFilteredOrders() {
		String customer = ShopData.unique("filter");
		String status = ShopData.unique("F");
		this.shop.putShop(ShopData.profile(customer, "Filtered", null, null));
		List<Map<String, AttributeValue>> orders = ShopData.orders(customer, 30, T0, status);
		this.shop.putShop(orders);
		this.shop.putShop(ShopData.strays(customer));
		String since = orders.get(12).get("SK").s();

		assertFilter(customer, vars("status", status + "-PAID"), "#a = :a", Map.of("#a", "status"),
				Map.of(":a", s(status + "-PAID")), true);
		// An item without the attribute does not match, also for NE.
		assertFilter(customer, vars("statusNot", status + "-PAID"), "attribute_exists(#a) AND #a <> :a",
				Map.of("#a", "status"),
				Map.of(":a", s(status + "-PAID")), false);
		assertFilter(customer, vars("statusIn", List.of(status + "-NEW", status + "-SHIPPED")), "#a IN (:a, :b)",
				Map.of("#a", "status"), Map.of(":a", s(status + "-NEW"), ":b", s(status + "-SHIPPED")), false);
		assertFilter(customer, vars("statusIn", List.of(status + "-NEW")), "#a IN (:a)", Map.of("#a", "status"),
				Map.of(":a", s(status + "-NEW")), false);
		assertFilter(customer, vars("totalBelow", 12.5), "#a < :a", Map.of("#a", "total"), Map.of(":a", n("12.5")),
				false);
		assertFilter(customer, vars("totalAtMost", 12.5), "#a <= :a", Map.of("#a", "total"), Map.of(":a", n("12.5")),
				false);
		assertFilter(customer, vars("totalAbove", 12.5), "#a > :a", Map.of("#a", "total"), Map.of(":a", n("12.5")),
				false);
		assertFilter(customer, vars("totalAtLeast", 12.5), "#a >= :a", Map.of("#a", "total"),
				Map.of(":a", n("12.5")), false);
		assertFilter(customer, vars("totalAtLeast", 0.1), "#a >= :a", Map.of("#a", "total"), Map.of(":a", n("0.1")),
				false);
		assertFilter(customer, vars("notePrefix", "Gift"), "begins_with(#a, :a)", Map.of("#a", "note"),
				Map.of(":a", s("Gift")), false);
		assertFilter(customer, vars("noteContains", "door"), "contains(#a, :a)", Map.of("#a", "note"),
				Map.of(":a", s("door")), false);
		List<String> red = assertFilter(customer, vars("tagged", "red"), "contains(#a, :a)", Map.of("#a", "tags"),
				Map.of(":a", s("red")), false);
		List<String> reddish = orders.stream()
			.filter((item) -> item.containsKey("tags") && item.get("tags").ss().contains("reddish"))
			.map(ShopData::itemKey)
			.toList();
		assertThat(reddish).isNotEmpty();
		assertThat(red).as("a set contains elements, not substrings").doesNotContainAnyElementsOf(reddish);
		assertThat(this.shop.queryShop(null, "PK", "SK", "CUSTOMER#" + customer, "begins_with(#sk, :p)",
				"contains(#a, :a)", Map.of("#a", "tags"), Map.of(":p", s("ORDER#"), ":a", s("edd")), true))
			.isEmpty();
		assertThat(page(ShopDocuments.ORDERS, "customer.orders", vars("customerId", customer, "tagged", "edd"))
			.edges()).isEmpty();
		assertFilter(customer, vars("gift", true), "attribute_exists(#a)", Map.of("#a", "gift"), Map.of(), false);
		assertFilter(customer, vars("gift", false), "attribute_not_exists(#a)", Map.of("#a", "gift"), Map.of(), false);
		assertFilter(customer,
				vars("statusIn", List.of(status + "-NEW", status + "-PAID"), "totalAtLeast", 7.05, "gift", true,
						"notePrefix", "Gift"),
				"#a IN (:a, :b) AND #c >= :c AND attribute_exists(#d) AND begins_with(#e, :e)",
				Map.of("#a", "status", "#c", "total", "#d", "gift", "#e", "note"),
				Map.of(":a", s(status + "-NEW"), ":b", s(status + "-PAID"), ":c", n("7.05"), ":e", s("Gift")), true);
		assertFilter(customer, vars("placedSince", since.substring(6), "tagged", "blue", "statusNot", status + "-NEW"),
				"attribute_exists(#a) AND #a <> :a AND contains(#b, :b)", Map.of("#a", "status", "#b", "tags"),
				Map.of(":a", s(status + "-NEW"), ":b", s("blue"), ":since", s(since)), false);
	}

	/**
	 * The orders of {@code arguments} are the orders of a direct Query of the customer's orders (with
	 * {@code placedSince} as a key condition when given) and {@code filter}: some, not all; walked
	 * forwards and backwards, in both orders, with pages of one edge when {@code single}.
	 */
	private List<String> assertFilter(String customer, Map<String, Object> arguments, String filter,
			Map<String, String> names, Map<String, AttributeValue> values, boolean single) {
		boolean since = values.containsKey(":since");
		String keyCondition = since ? "#sk >= :since" : "begins_with(#sk, :orders)";
		Map<String, AttributeValue> allValues = new HashMap<>(values);
		if (!since) {
			allValues.put(":orders", s("ORDER#"));
		}
		List<String> ascending = null;
		for (String order : List.of("ASC", "DESC")) {
			List<String> expected = orders(itemKeys(this.shop.queryShop(null, "PK", "SK", "CUSTOMER#" + customer,
					keyCondition, filter, names, allValues, order.equals("ASC"))));
			assertThat(expected).as("%s matches some orders, not all", arguments).isNotEmpty().hasSizeLessThan(30);
			Map<String, Object> walked = with(arguments, "customerId", customer, "order", order);
			if (order.equals("ASC")) {
				assertWalks(ShopDocuments.ORDERS, "customer.orders", walked, expected, false,
						single ? new int[] { 1, 5 } : new int[] { 5 });
				ascending = expected;
			}
			else {
				assertThat(keys(page(ShopDocuments.ORDERS, "customer.orders", with(walked, "first", 50))))
					.as("%s %s", arguments, order)
					.containsExactlyElementsOf(expected);
			}
		}
		return ascending;
	}

	@Test
	void refusesAnEmptyOrTooLongInList() {
		String customer = ShopData.unique("in");
		this.shop.putShop(ShopData.profile(customer, "In", null, null));
		Map<String, Object> base = vars("customerId", customer, "first", 5);
		Errors.assertCode(execute(ShopDocuments.ORDERS, with(base, "statusIn", List.of())), "INVALID_ARGUMENT");
		List<String> many = IntStream.range(0, 101).mapToObj((i) -> "S" + i).toList();
		Errors.assertCode(execute(ShopDocuments.ORDERS, with(base, "statusIn", many)), "INVALID_ARGUMENT");
		GraphQlResponse kinds = execute(ShopDocuments.SHOP, vars("kind", List.of(), "first", 5));
		Errors.assertCode(kinds, "INVALID_ARGUMENT");
		assertThat(Errors.requests(kinds)).isZero();
		assertThat(page(ShopDocuments.ORDERS, "customer.orders", with(base, "statusIn", many.subList(0, 100))).edges())
			.isEmpty();
	}

	@Test
	void selectiveFiltersFillTheirPagesWithinTheReadBudget() {
		String customer = ShopData.unique("budget");
		String status = ShopData.unique("BF");
		this.shop.putShop(ShopData.profile(customer, "Budget", null, null));
		List<Map<String, AttributeValue>> orders = new ArrayList<>(ShopData.orders(customer, 60, T0, status));
		for (int i : new int[] { 20, 41, 42, 57 }) {
			orders.get(i).put("note", s("needle " + i));
		}
		this.shop.putShop(orders);
		List<String> expected = orders(itemKeys(this.shop.queryShop(null, "PK", "SK", "CUSTOMER#" + customer,
				"begins_with(#sk, :p)", "begins_with(#n, :n)", Map.of("#n", "note"),
				Map.of(":p", s("ORDER#"), ":n", s("needle")), true)));
		assertThat(expected).hasSize(4);
		Walker.Page first = page(ShopDocuments.ORDERS, "customer.orders",
				vars("customerId", customer, "notePrefix", "needle", "first", 2));
		assertThat(keys(first)).containsExactlyElementsOf(expected.subList(0, 2));
		assertThat(first.hasNextPage()).isTrue();
		assertThat(first.requests()).as("a profile lookup and more than one Query").isGreaterThanOrEqualTo(3);
		assertThat(first.scannedCount()).isLessThanOrEqualTo(1 + 1000);
		Walker.Page last = page(ShopDocuments.ORDERS, "customer.orders",
				vars("customerId", customer, "notePrefix", "needle", "last", 3));
		assertThat(keys(last)).containsExactlyElementsOf(expected.subList(1, 4));
		assertThat(last.requests()).isGreaterThanOrEqualTo(3);

		List<String> byStatus = itemKeys(this.shop.queryShop("GSI1", "GSI1PK", "GSI1SK", "STATUS#" + status + "-PAID",
				null, "#t >= :t", Map.of("#t", "total"), Map.of(":t", n("1000000")), true));
		assertThat(byStatus).hasSizeGreaterThanOrEqualTo(2);
		Walker.Page rich = page(ShopDocuments.BY_STATUS, "ordersByStatus",
				vars("status", status + "-PAID", "totalAtLeast", 1_000_000.0, "first", 2));
		assertThat(keys(rich)).containsExactlyElementsOf(byStatus.subList(0, 2));
		assertThat(rich.requests()).as("more than one Query").isGreaterThan(1);
		assertThat(walk(ShopDocuments.BY_STATUS, "ordersByStatus",
				vars("status", status + "-PAID", "totalAtLeast", 1_000_000.0), 1, true, false))
			.containsExactlyElementsOf(byStatus);
	}

	private static AttributeValue n(String number) {
		return AttributeValue.fromN(number);
	}

}
