package dev.dynamorelay.it.reads;

import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;

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
 * A cursor of a shop connection continues only that connection: the same field, parent, sort-key
 * condition, filters and order. Page size and direction may change.
 */
class ShopCursorsIT extends ShopIntegrationTest {

	private static final Instant T0 = Instant.parse("2025-08-01T00:00:00Z");

	@Test
	void aCustomersOrderCursorContinuesOnlyThatCustomersSameOrders() {
		String alice = ShopData.unique("alice");
		String bob = ShopData.unique("bob");
		String status = ShopData.unique("C");
		for (String customer : List.of(alice, bob)) {
			this.shop.putShop(ShopData.profile(customer, customer, null, null));
			this.shop.putShop(ShopData.orders(customer, 16, T0, status));
		}
		List<String> expected = itemKeys(this.shop.queryShop(null, "PK", "SK", "CUSTOMER#" + alice,
				"begins_with(#sk, :p)", null, Map.of(), Map.of(":p", s("ORDER#")), true));
		Map<String, Object> aliceOrders = vars("customerId", alice);
		String cursor = page(ShopDocuments.ORDERS, "customer.orders", with(aliceOrders, "first", 3)).endCursor();

		assertThat(keys(page(ShopDocuments.ORDERS, "customer.orders", with(aliceOrders, "first", 5, "after", cursor))))
			.as("another page size").containsExactlyElementsOf(expected.subList(3, 8));
		assertThat(keys(page(ShopDocuments.ORDERS, "customer.orders", with(aliceOrders, "last", 2, "before", cursor))))
			.as("the other direction").containsExactlyElementsOf(expected.subList(0, 2));
		assertThat(keys(page(ShopDocuments.ORDERS, "customer.orders",
				with(aliceOrders, "first", 2, "after", cursor, "placedIn", "", "status", null))))
			.as("BEGINS_WITH \"\" and explicit nulls are no arguments at all")
			.containsExactlyElementsOf(expected.subList(3, 5));

		for (Map<String, Object> other : List.of(vars("customerId", bob), with(aliceOrders, "order", "DESC"),
				with(aliceOrders, "status", status + "-NEW"), with(aliceOrders, "statusIn", List.of(status + "-NEW")),
				with(aliceOrders, "gift", true), with(aliceOrders, "totalAtLeast", 0.0),
				with(aliceOrders, "placedSince", "2025"), with(aliceOrders, "placedIn", "2025"),
				with(aliceOrders, "placedUntil", "2030"))) {
			GraphQlResponse response = execute(ShopDocuments.ORDERS, with(other, "first", 2, "after", cursor));
			Errors.assertCode(response, "INVALID_CURSOR");
			assertThat((Object) response.field("customer.orders").getValue()).as("%s", other).isNull();
		}
		Errors.assertCode(execute(ShopDocuments.ORDERS_BY_TOTAL, with(aliceOrders, "first", 2, "after", cursor)),
				"INVALID_CURSOR");
		Errors.assertCode(execute(ShopDocuments.ACTIVITY, with(aliceOrders, "first", 2, "after", cursor)),
				"INVALID_CURSOR");
		GraphQlResponse root = execute(ShopDocuments.BY_STATUS, vars("status", status + "-NEW", "first", 2,
				"after", cursor));
		Errors.assertCode(root, "INVALID_CURSOR");
		assertThat(Errors.requests(root)).isZero();

		// A filtered and conditioned cursor continues with the same filter and condition only.
		Map<String, Object> filtered = with(aliceOrders, "placedSince", "2025-08-01T02", "statusNot", status + "-NEW");
		List<String> filteredExpected = itemKeys(this.shop.queryShop(null, "PK", "SK", "CUSTOMER#" + alice,
				"#sk >= :since", "attribute_exists(#s) AND #s <> :s", Map.of("#s", "status"),
				Map.of(":since", s("ORDER#2025-08-01T02"), ":s", s(status + "-NEW")), true));
		assertThat(filteredExpected).hasSizeGreaterThan(4);
		String filteredCursor = page(ShopDocuments.ORDERS, "customer.orders", with(filtered, "first", 2)).endCursor();
		assertThat(keys(page(ShopDocuments.ORDERS, "customer.orders",
				with(filtered, "first", 20, "after", filteredCursor))))
			.containsExactlyElementsOf(filteredExpected.subList(2, filteredExpected.size()));
		for (Map<String, Object> other : List.of(aliceOrders, with(filtered, "statusNot", status + "-PAID"),
				with(filtered, "placedSince", "2025-08-01T03"), with(filtered, "placedSince", null),
				with(filtered, "statusNot", null), with(filtered, "customerId", bob))) {
			Errors.assertCode(execute(ShopDocuments.ORDERS, with(other, "first", 2, "after", filteredCursor)),
					"INVALID_CURSOR");
		}
	}

	@Test
	void rootConnectionCursorsAreBoundToTheirKeysAndFiltersBeforeAnyRead() {
		String status = ShopData.unique("R");
		this.shop.putShop(ShopData.orders(ShopData.unique("root"), 15, T0, status));
		Map<String, Object> paid = vars("status", status + "-PAID");
		String cursor = page(ShopDocuments.BY_STATUS, "ordersByStatus", with(paid, "first", 1)).endCursor();
		assertThat(page(ShopDocuments.BY_STATUS, "ordersByStatus", with(paid, "first", 3, "after", cursor)).edges())
			.isNotEmpty();
		for (Map<String, Object> other : List.of(vars("status", status + "-NEW"), with(paid, "order", "DESC"),
				with(paid, "placedSince", "2025"), with(paid, "totalAtLeast", 1.0))) {
			GraphQlResponse response = execute(ShopDocuments.BY_STATUS, with(other, "first", 2, "after", cursor));
			Errors.assertCode(response, "INVALID_CURSOR");
			assertThat(Errors.requests(response)).as("refused before reading: %s", other).isZero();
		}

		byte[] sensor = ShopData.sensor();
		byte[] other = ShopData.sensor();
		for (byte[] each : List.of(sensor, other)) {
			this.shop.putReadings(List.of(ShopData.reading(each, 1, "1"), ShopData.reading(each, 2, "2"),
					ShopData.reading(each, 3, "3")));
		}
		Map<String, Object> readings = vars("sensor", Base64.getEncoder().encodeToString(sensor));
		String readingCursor = page(ShopDocuments.READINGS, "readings", with(readings, "first", 1)).endCursor();
		assertThat(keys(page(ShopDocuments.READINGS, "readings", with(readings, "first", 5, "after", readingCursor))))
			.hasSize(2);
		for (Map<String, Object> wrong : List.of(vars("sensor", Base64.getEncoder().encodeToString(other)),
				with(readings, "seqFrom", 0), with(readings, "seqBetween", List.of(0, 5)))) {
			GraphQlResponse response = execute(ShopDocuments.READINGS, with(wrong, "first", 2, "after", readingCursor));
			Errors.assertCode(response, "INVALID_CURSOR");
			assertThat(Errors.requests(response)).isZero();
		}

		String kind = ShopData.unique("kind");
		Map<String, AttributeValue> tagged = ShopData.order(ShopData.unique("kinded"), "2025-08-01T00:00:00.000Z", "k1");
		tagged.put("kind", s(kind));
		Map<String, AttributeValue> tagged2 = ShopData.order(ShopData.unique("kinded"), "2025-08-01T00:00:00.000Z", "k2");
		tagged2.put("kind", s(kind));
		this.shop.putShop(List.of(tagged, tagged2));
		Walker.Page scanned = page(ShopDocuments.SHOP, "shop", vars("kind", List.of(kind), "first", 1));
		assertThat(scanned.edges()).hasSize(1);
		assertThat(page(ShopDocuments.SHOP, "shop", vars("kind", List.of(kind), "first", 3, "after",
				scanned.endCursor())).edges()).hasSize(1);
		for (Map<String, Object> wrong : List.of(vars(), vars("kind", List.of(kind, "order")))) {
			GraphQlResponse response = execute(ShopDocuments.SHOP, with(wrong, "first", 1, "after", scanned.endCursor()));
			Errors.assertCode(response, "INVALID_CURSOR");
			assertThat(Errors.requests(response)).isZero();
		}
		Errors.assertCode(execute(ShopDocuments.BY_STATUS, with(paid, "first", 1, "after", scanned.endCursor())),
				"INVALID_CURSOR");
	}

}
