package dev.dynamorelay.it.rest;

import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Direct;
import dev.dynamorelay.it.Rest;
import dev.dynamorelay.it.ShopData;
import dev.dynamorelay.it.ShopIntegrationTest;

import static dev.dynamorelay.it.ShopData.itemKeys;
import static dev.dynamorelay.it.ShopData.s;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The REST view of a user's own schema (the shop's single-table design): every connection has a path by
 * the documented rule, and walks of composed keys, unions, nested connections under two-part keys,
 * binary and numeric keys equal direct reads.
 */
class RestShopIT extends ShopIntegrationTest {

	private static final Instant T0 = Instant.parse("2025-05-01T08:00:00Z");

	@Test
	void everyConnectionHasAPathByTheRule() {
		@SuppressWarnings("unchecked")
		Map<String, Map<String, Map<String, Object>>> paths = (Map<String, Map<String, Map<String, Object>>>) new Rest(
				this.port).get("/api/openapi.json").body().get("paths");
		Map<String, String> operations = new HashMap<>();
		paths.forEach((path, methods) -> operations.put((String) methods.get("get").get("operationId"), path));
		assertThat(operations).containsOnly(Map.entry("Customer.orders", "/api/customers/{customerId}/orders"),
				Map.entry("Customer.ordersByTotal", "/api/customers/{customerId}/ordersByTotal"),
				Map.entry("Customer.activity", "/api/customers/{customerId}/activity"),
				Map.entry("Order.items", "/api/orders/{customerId}/{orderedAt}/items"),
				Map.entry("Query.ordersByStatus", "/api/ordersByStatus"), Map.entry("Query.shop", "/api/shop"),
				Map.entry("Query.readings", "/api/readings"));
		assertThat(operations).hasSize(this.declarations.connections().size());
	}

	@Test
	void walksACustomersOrdersWithKeyConditionsAndFilters() {
		String customer = ShopData.unique("rest");
		String status = ShopData.unique("R");
		this.shop.putShop(ShopData.profile(customer, "Rest", null, null));
		this.shop.putShop(ShopData.orders(customer, 30, T0, status));
		this.shop.putShop(ShopData.strays(customer));
		Rest rest = new Rest(this.port);
		String since = ShopData.iso(T0.plusSeconds(37L * 60 * 5));
		Rest.Walk walk = rest.walk(null, "/api/customers/" + customer + "/orders" + Rest.query("placedSince", since,
				"statusIn", status + "-NEW", "order", "DESC") + "&statusIn=" + status + "-PAID", "orders", 4);
		List<String> expected = itemKeys(this.shop.queryShop(null, "PK", "SK", "CUSTOMER#" + customer,
				"#sk BETWEEN :from AND :to", "#st IN (:a, :b)", Map.of("#st", "status"),
				Map.of(":from", s("ORDER#" + since), ":to", s("ORDER#\uFFFF"), ":a", s(status + "-NEW"), ":b",
						s(status + "-PAID")),
				false));
		assertThat(expected).hasSizeGreaterThan(8);
		assertThat(keys(walk.nodes(), "Order")).isEqualTo(expected);
		assertThat(walk.nodes()).allSatisfy((node) -> assertThat(node).containsKeys("id", "customerId", "orderedAt",
				"orderId", "status", "total", "totalExact", "note", "tags", "gift", "lines"));

		// The union of a customer's partition: profile and orders, each with its __typename.
		Rest.Walk activity = rest.walk(null, "/api/customers/" + customer + "/activity", "activity", 7);
		assertThat(ShopData.nodeKeys(activity.nodes())).isEqualTo(
				itemKeys(this.shop.queryShop(null, "PK", "SK", "CUSTOMER#" + customer, null, null, Map.of(), Map.of(), true)))
			.hasSize(31);

		// An order's lines, under the order's two-part key; the order's orderId names their partition.
		String orderedAt = ShopData.iso(T0);
		for (int line = 0; line < 12; line++) {
			this.shop.putShop(ShopData.line(customer + "-o0", line, customer, orderedAt));
		}
		Rest.Walk lines = rest.walk(null, "/api/orders/" + customer + "/" + orderedAt + "/items", "items", 5);
		assertThat(keys(lines.nodes(), "OrderItem")).isEqualTo(
				itemKeys(this.shop.queryShop(null, "PK", "SK", "ORDER#" + customer + "-o0", null, null, Map.of(), Map.of(),
						true)))
			.hasSize(12);
		new Rest(this.port).get("/api/orders/" + customer + "/" + ShopData.iso(T0.plusSeconds(1)) + "/items")
			.assertProblem(404, "NOT_FOUND");
	}

	@Test
	void walksABinaryPartitionWithANumericBound() {
		byte[] sensor = ShopData.sensor();
		List<Map<String, AttributeValue>> readings = new java.util.ArrayList<>();
		for (long seq = 0; seq < 40; seq++) {
			readings.add(ShopData.reading(sensor, seq * 3, Long.toString(seq)));
		}
		this.shop.putReadings(readings);
		String encoded = Base64.getEncoder().encodeToString(sensor);
		Rest.Walk walk = new Rest(this.port).walk(null, "/api/readings" + Rest.query("sensor", encoded, "seqFrom", 30,
				"order", "DESC"), "readings", 6);
		List<Long> expected = Direct.query(this.dynamoDb, (q) -> q.tableName(this.declarations.tables()
			.values()
			.stream()
			.filter((table) -> table.name().equals("Readings"))
			.findFirst()
			.orElseThrow()
			.physicalName())
			.keyConditionExpression("sensor = :s AND seq >= :f")
			.expressionAttributeValues(Map.of(":s", AttributeValue.fromB(SdkBytes.fromByteArray(sensor)), ":f",
					AttributeValue.fromN("30")))
			.scanIndexForward(false)).stream().map((item) -> Long.parseLong(item.get("seq").n())).toList();
		assertThat(expected).hasSize(30);
		assertThat(walk.map((node) -> ((Number) node.get("seq")).longValue())).isEqualTo(expected);
		assertThat(walk.nodes()).allSatisfy((node) -> assertThat(node).containsEntry("sensor", encoded));
	}

	private static List<String> keys(List<Map<String, Object>> nodes, String type) {
		return nodes.stream().map((node) -> {
			Map<String, Object> typed = new HashMap<>(node);
			typed.put("__typename", type);
			return ShopData.nodeKey(typed);
		}).toList();
	}

}
