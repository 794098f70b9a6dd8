package dev.dynamorelay.it.reads;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Direct;
import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.ShopData;
import dev.dynamorelay.it.ShopDocuments;
import dev.dynamorelay.it.ShopIntegrationTest;
import dev.dynamorelay.it.Walker;

import static dev.dynamorelay.it.ShopData.itemKeys;
import static dev.dynamorelay.it.ShopData.s;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every sort-key argument: on the orders' prefixed string sort key ({@code ORDER#<orderedAt>}, shared
 * with the profile and with items of no type), on the local index's numeric key, on the global index
 * and on the readings' Long key; each compared with a direct Query of the natural key condition.
 */
class ShopKeyConditionsIT extends ShopIntegrationTest {

	private static final Instant T0 = Instant.parse("2025-03-01T20:00:00Z");

	@Test
	void everyConditionOnThePrefixedSortKeyReadsOrdersOnly() {
		String customer = ShopData.unique("sortkey");
		this.shop.putShop(ShopData.profile(customer, "Sorted", null, null));
		List<Map<String, AttributeValue>> orders = ShopData.orders(customer, 20, T0, ShopData.unique("K"));
		this.shop.putShop(orders);
		this.shop.putShop(ShopData.strays(customer));
		String mid = orders.get(9).get("SK").s().substring("ORDER#".length());
		String third = orders.get(3).get("SK").s().substring("ORDER#".length());
		String twelfth = orders.get(12).get("SK").s().substring("ORDER#".length());

		assertCondition(customer, vars("placedAt", mid), "#sk = :a", "ORDER#" + mid, 1);
		assertCondition(customer, vars("placedAt", "2025-03-02"), "#sk = :a", "ORDER#2025-03-02", 0);
		assertCondition(customer, vars("placedSince", mid), "#sk >= :a", "ORDER#" + mid, 11);
		assertCondition(customer, vars("placedSince", "2025-03-02"), "#sk >= :a", "ORDER#2025-03-02", -1);
		assertCondition(customer, vars("placedSince", "0"), "#sk >= :a", "ORDER#0", 20);
		assertCondition(customer, vars("placedSince", "~"), "#sk >= :a", "ORDER#~", 0);
		assertCondition(customer, vars("placedAfter", mid), "#sk > :a", "ORDER#" + mid, 10);
		assertCondition(customer, vars("placedAfter", "2025-03-01T2"), "#sk > :a", "ORDER#2025-03-01T2", 20);
		assertCondition(customer, vars("placedAfter", "2025-03-01T22"), "#sk > :a", "ORDER#2025-03-01T22", -1);
		assertCondition(customer, vars("placedUntil", mid), "#sk <= :a", "ORDER#" + mid, 10);
		assertCondition(customer, vars("placedUntil", "2025-03-01T23"), "#sk <= :a", "ORDER#2025-03-01T23", -1);
		assertCondition(customer, vars("placedUntil", "9"), "#sk <= :a", "ORDER#9", 20);
		assertCondition(customer, vars("placedUntil", "!"), "#sk <= :a", "ORDER#!", 0);
		assertCondition(customer, vars("placedBetween", List.of(third, twelfth)), "#sk BETWEEN :a AND :b",
				List.of("ORDER#" + third, "ORDER#" + twelfth), 10);
		assertCondition(customer, vars("placedBetween", List.of("2025-03-01T22", "2025-03-02T03")),
				"#sk BETWEEN :a AND :b", List.of("ORDER#2025-03-01T22", "ORDER#2025-03-02T03"), -1);
		assertCondition(customer, vars("placedBetween", List.of(mid, mid)), "#sk BETWEEN :a AND :b",
				List.of("ORDER#" + mid, "ORDER#" + mid), 1);
		assertCondition(customer, vars("placedIn", "2025-03-02"), "begins_with(#sk, :a)", "ORDER#2025-03-02", -1);
		assertCondition(customer, vars("placedIn", "2025-03-01T2"), "begins_with(#sk, :a)", "ORDER#2025-03-01T2", -1);
		assertCondition(customer, vars("placedIn", mid), "begins_with(#sk, :a)", "ORDER#" + mid, 1);
		assertCondition(customer, vars("placedIn", ""), "begins_with(#sk, :a)", "ORDER#", 20);
		assertCondition(customer, vars("placedIn", null), "begins_with(#sk, :a)", "ORDER#", 20);
	}

	/**
	 * The orders of {@code argument} are exactly the orders of a direct Query with {@code condition}
	 * ({@code :a}, {@code :b} of {@code values}), of which there are {@code count} (-1: some, not all);
	 * walked both ways, and read without touching an item outside {@code ORDER#}.
	 */
	private void assertCondition(String customer, Map<String, Object> argument, String condition, Object values,
			int count) {
		List<?> bounds = (values instanceof List<?> list) ? list : List.of(values);
		Map<String, AttributeValue> expressionValues = new java.util.HashMap<>();
		expressionValues.put(":a", s((String) bounds.get(0)));
		if (bounds.size() > 1) {
			expressionValues.put(":b", s((String) bounds.get(1)));
		}
		for (String order : List.of("ASC", "DESC")) {
			List<String> expected = orders(itemKeys(this.shop.queryShop(null, "PK", "SK", "CUSTOMER#" + customer,
					condition, null, Map.of(), expressionValues, order.equals("ASC"))));
			if (count >= 0) {
				assertThat(expected).as("%s", argument).hasSize(count);
			}
			else {
				assertThat(expected).as("%s", argument).isNotEmpty().hasSizeLessThan(20);
			}
			Map<String, Object> arguments = with(argument, "customerId", customer, "order", order);
			if (order.equals("ASC")) {
				assertWalks(ShopDocuments.ORDERS, "customer.orders", arguments, expected, true, 3);
			}
			Walker.Page page = page(ShopDocuments.ORDERS, "customer.orders", with(arguments, "first", 50));
			assertThat(keys(page)).as("%s %s", argument, order).containsExactlyElementsOf(expected);
			assertThat(page.hasNextPage()).isFalse();
			assertThat(page.scannedCount()).as("%s reads only orders: the profile lookup and the page", argument)
				.isEqualTo(1 + expected.size());
		}
	}

	@Test
	void everyConditionOnTheLocalIndexesNumericKey() {
		String customer = ShopData.unique("lsikey");
		this.shop.putShop(ShopData.profile(customer, "Numbers", null, null));
		this.shop.putShop(ShopData.orders(customer, 24, T0, ShopData.unique("L")));
		assertIndexCondition(customer, vars("totalFrom", 12.5), "#sk >= :a", List.of("12.5"), -1);
		assertIndexCondition(customer, vars("totalTo", 7.05), "#sk <= :a", List.of("7.05"), -1);
		assertIndexCondition(customer, vars("totalExactly", 12.5), "#sk = :a", List.of("12.5"), -1);
		assertIndexCondition(customer, vars("totalExactly", 7.05), "#sk = :a", List.of("7.05"), -1);
		assertIndexCondition(customer, vars("totalExactly", 12.49), "#sk = :a", List.of("12.49"), 0);
		assertIndexCondition(customer, vars("totalBetween", List.of(7.05, 100.0)), "#sk BETWEEN :a AND :b",
				List.of("7.05", "100"), -1);
		assertIndexCondition(customer, vars("totalBetween", List.of(9, 10)), "#sk BETWEEN :a AND :b",
				List.of("9", "10"), 0);
		assertIndexCondition(customer, vars("totalBetween", List.of(0.99, 0.99)), "#sk BETWEEN :a AND :b",
				List.of("0.99", "0.99"), -1);
		assertIndexCondition(customer, vars("totalUnder", 12.5), "#sk < :a", List.of("12.5"), -1);
		assertIndexCondition(customer, vars("totalUnder", 0.99), "#sk < :a", List.of("0.99"), 0);
		assertIndexCondition(customer, vars("totalOver", 12.5), "#sk > :a", List.of("12.5"), -1);
		assertIndexCondition(customer, vars("totalOver", 1_000_000), "#sk > :a", List.of("1000000"), -1);
	}

	private void assertIndexCondition(String customer, Map<String, Object> argument, String condition,
			List<String> numbers, int count) {
		Map<String, AttributeValue> values = new java.util.HashMap<>();
		values.put(":a", AttributeValue.fromN(numbers.get(0)));
		if (numbers.size() > 1) {
			values.put(":b", AttributeValue.fromN(numbers.get(1)));
		}
		for (String order : List.of("ASC", "DESC")) {
			List<String> expected = itemKeys(this.shop.queryShop("ByTotal", "PK", "total", "CUSTOMER#" + customer,
					condition, null, Map.of(), values, order.equals("ASC")));
			if (count >= 0) {
				assertThat(expected).as("%s", argument).hasSize(count);
			}
			else {
				assertThat(expected).as("%s", argument).isNotEmpty();
			}
			Map<String, Object> arguments = with(argument, "customerId", customer, "order", order);
			if (order.equals("ASC")) {
				assertWalks(ShopDocuments.ORDERS_BY_TOTAL, "customer.ordersByTotal", arguments, expected, true, 2);
			}
			else {
				Walker.Page page = page(ShopDocuments.ORDERS_BY_TOTAL, "customer.ordersByTotal",
						with(arguments, "first", 50));
				assertThat(keys(page)).as("%s %s", argument, order).containsExactlyElementsOf(expected);
			}
		}
	}

	@Test
	void conditionsOnTheGlobalIndexAndOnALongKey() {
		String status = ShopData.unique("G");
		List<Map<String, AttributeValue>> orders = new ArrayList<>();
		for (int c = 0; c < 2; c++) {
			orders.addAll(ShopData.orders(ShopData.unique("gsikey"), 12, T0, status));
		}
		this.shop.putShop(orders);
		String since = orders.get(3).get("GSI1SK").s();
		List<String> expected = itemKeys(this.shop.queryShop("GSI1", "GSI1PK", "GSI1SK", "STATUS#" + status + "-NEW",
				"#sk >= :a", null, Map.of(), Map.of(":a", s(since)), true));
		assertThat(expected).isNotEmpty();
		assertWalks(ShopDocuments.BY_STATUS, "ordersByStatus", vars("status", status + "-NEW", "placedSince", since),
				expected, true, 2);

		byte[] sensor = ShopData.sensor();
		List<Map<String, AttributeValue>> readings = new ArrayList<>();
		for (long seq : new long[] { Long.MIN_VALUE, -10, -9, -1, 0, 1, 9, 10, 11, 100, 9_007_199_254_740_993L,
				Long.MAX_VALUE }) {
			readings.add(ShopData.reading(sensor, seq, "1"));
		}
		this.shop.putReadings(readings);
		String base64 = Base64.getEncoder().encodeToString(sensor);
		AttributeValue partition = readings.get(0).get("sensor");
		for (Object[] test : new Object[][] { { vars("seqFrom", 10), "seq >= :a", List.of(10L) },
				{ vars("seqFrom", -9), "seq >= :a", List.of(-9L) },
				{ vars("seqFrom", 9_007_199_254_740_993L), "seq >= :a", List.of(9_007_199_254_740_993L) },
				{ vars("seqBetween", List.of(-9, 10)), "seq BETWEEN :a AND :b", List.of(-9L, 10L) },
				{ vars("seqBetween", List.of(Long.MIN_VALUE, Long.MAX_VALUE)), "seq BETWEEN :a AND :b",
						List.of(Long.MIN_VALUE, Long.MAX_VALUE) } }) {
			@SuppressWarnings("unchecked")
			List<Long> bounds = (List<Long>) test[2];
			Map<String, AttributeValue> values = new java.util.HashMap<>(Map.of(":s", partition));
			values.put(":a", AttributeValue.fromN(bounds.get(0).toString()));
			if (bounds.size() > 1) {
				values.put(":b", AttributeValue.fromN(bounds.get(1).toString()));
			}
			List<String> direct = itemKeys(Direct.query(this.dynamoDb, (q) -> q.tableName(this.shop.readingsTable)
				.keyConditionExpression("sensor = :s AND " + test[1])
				.expressionAttributeValues(values)));
			assertThat(direct).as("%s", test[0]).isNotEmpty();
			@SuppressWarnings("unchecked")
			Map<String, Object> argument = (Map<String, Object>) test[0];
			assertWalks(ShopDocuments.READINGS, "readings", with(argument, "sensor", base64), direct, true, 4);
		}
	}

	@Test
	void refusesTwoSortKeyArgumentsReversedOrMalformedBoundsAndEmptyStrings() {
		String customer = ShopData.unique("badkey");
		this.shop.putShop(ShopData.profile(customer, "Bad", null, null));
		this.shop.putShop(ShopData.orders(customer, 3, T0, ShopData.unique("B")));
		Map<String, Object> base = vars("customerId", customer, "first", 5);
		for (Map<String, Object> bad : List.of(vars("placedSince", "2025", "placedUntil", "2026"),
				vars("placedAt", "2025-03-01T20:00:00.000Z", "placedIn", "2025"),
				vars("placedBetween", List.of("2025-03-02", "2025-03-01")), vars("placedBetween", List.of("2025")),
				vars("placedBetween", List.of("2025", "2026", "2027")), vars("placedAt", ""), vars("placedSince", ""),
				vars("placedAfter", ""), vars("placedUntil", ""), vars("placedBetween", List.of("", "2026")),
				vars("placedBetween", List.of("2025", "")))) {
			GraphQlResponse response = execute(ShopDocuments.ORDERS, with(base, bad));
			assertThat(response.getErrors()).as("%s", bad).isNotEmpty();
			Errors.assertCode(response, "INVALID_ARGUMENT");
			assertThat((Object) response.field("customer.orders").getValue()).as("%s", bad).isNull();
		}
		for (Map<String, Object> bad : List.of(vars("totalFrom", 1.0, "totalTo", 2.0),
				vars("totalBetween", List.of(100.0, 7.05)), vars("totalBetween", List.of(10, 9)),
				vars("totalBetween", List.of(1.0)))) {
			Errors.assertCode(execute(ShopDocuments.ORDERS_BY_TOTAL, with(base, bad)), "INVALID_ARGUMENT");
		}
		String base64 = Base64.getEncoder().encodeToString(ShopData.sensor());
		for (Map<String, Object> bad : List.of(vars("seqFrom", 1, "seqBetween", List.of(1, 2)),
				vars("seqBetween", List.of(5, -5)), vars("seqBetween", List.of(10, 9)))) {
			GraphQlResponse response = execute(ShopDocuments.READINGS, with(bad, "sensor", base64, "first", 5));
			Errors.assertCode(response, "INVALID_ARGUMENT");
			assertThat(Errors.requests(response)).as("refused before reading").isZero();
		}
		GraphQlResponse empty = execute(ShopDocuments.BY_STATUS, vars("status", "any", "placedSince", ""));
		Errors.assertCode(empty, "INVALID_ARGUMENT");
		assertThat(Errors.requests(empty)).isZero();
		// BEGINS_WITH "" is no condition at all, as is an explicit null.
		assertThat(keys(page(ShopDocuments.ORDERS, "customer.orders", with(base, "placedIn", ""))))
			.hasSize(3)
			.isEqualTo(keys(page(ShopDocuments.ORDERS, "customer.orders", with(base, "placedIn", null))));
	}

}
