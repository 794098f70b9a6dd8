package dev.dynamorelay.it.reads;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.ShopData;
import dev.dynamorelay.it.ShopDocuments;
import dev.dynamorelay.it.ShopIntegrationTest;
import dev.dynamorelay.it.Walker;
import dev.dynamorelay.model.NodeIds;

import static dev.dynamorelay.it.ShopData.s;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each declared field serves for what DynamoDB stores, compared with the item read directly:
 * exact decimals and longs, sets sorted, maps as JSON, bytes as base64, timestamps as ISO-8601,
 * attributes named otherwise, key placeholders, lookups, and node ids of every type.
 */
class ShopValuesIT extends ShopIntegrationTest {

	private static final String CUSTOMERS = ShopDocuments.withFragments("""
			query($a: String!, $b: String!, $none: String!) {
			  a: customer(customerId: $a) {
			    ...C
			    orders(first: 20) { edges { node { ...O customer { ...C } } } }
			  }
			  b: customer(customerId: $b) { ...C }
			  none: customer(customerId: $none) { ...C }
			}""");

	private static final String LINES = ShopDocuments.withFragments("""
			query($id: ID!) {
			  node(id: $id) {
			    ... on Order { items(first: 20) { edges { node { ...I order { ...O } } } } }
			  }
			}""");

	private static final String NODE = ShopDocuments.withFragments("""
			query($id: ID!) { node(id: $id) { ...C ...O ...I ...R } }""");

	private static final String NODES = ShopDocuments.withFragments("""
			query($ids: [ID!]!) { nodes(ids: $ids) { ...C ...O ...I ...R } }""");

	@Test
	void servesEveryOrderAndCustomerFieldAsStored() {
		String ada = ShopData.unique("ada");
		String bob = ShopData.unique("bob");
		this.shop.putShop(ShopData.profile(ada, "Ada", "ada@example.com", "1700000000"));
		Map<String, AttributeValue> bobProfile = ShopData.profile(bob, null, null, "1700000000.5");
		bobProfile.remove("customerId");
		this.shop.putShop(bobProfile);
		List<Map<String, AttributeValue>> orders = new ArrayList<>();
		String[] totals = { "12.50", "123456789012345678901234567890.12345678", "100.00", "-0.50", "0.10", null };
		for (int i = 0; i < totals.length; i++) {
			Map<String, AttributeValue> order = ShopData.order(ada, "2025-05-0%dT10:00:00.000Z".formatted(i + 1),
					"v-" + ada + "-" + i);
			if (totals[i] != null) {
				order.put("total", AttributeValue.fromN(totals[i]));
			}
			if (i == 0) {
				order.put("status", s("PAID"));
				order.put("note", s("Ring twice"));
				order.put("tags", AttributeValue.fromSs(List.of("zeta", "alpha", "mid")));
				order.put("gift", AttributeValue.fromBool(true));
				order.put("lines", AttributeValue.fromN("3"));
			}
			if (i == 1) {
				order.put("gift", AttributeValue.fromBool(false));
				order.put("tags", AttributeValue.fromL(List.of(s("b"), s("a"))));
			}
			orders.add(order);
		}
		this.shop.putShop(orders);

		GraphQlResponse response = execute(CUSTOMERS, vars("a", ada, "b", bob, "none", ShopData.unique("nobody")));
		assertThat(response.getErrors()).isEmpty();
		Map<String, Object> a = response.field("a").getValue();
		assertThat(a).containsEntry("__typename", "Customer")
			.containsEntry("customerId", ada)
			.containsEntry("name", "Ada")
			.containsEntry("email", "ada@example.com")
			.containsEntry("since", "2023-11-14T22:13:20.000Z");
		assertThat(a.get("id")).isEqualTo(id("Customer", key("CUSTOMER#" + ada, "PROFILE")));
		Map<String, Object> b = response.field("b").getValue();
		assertThat(b).as("customerId read from the key; absent attributes null")
			.containsEntry("customerId", bob)
			.containsEntry("name", null)
			.containsEntry("email", null)
			.containsEntry("since", "2023-11-14T22:13:20.500Z");
		assertThat((Object) response.field("none").getValue()).isNull();

		List<Map<String, Object>> nodes = ShopIntegrationTest.<List<Map<String, Object>>>value(response, "a.orders.edges")
			.stream()
			.map(Walker::node)
			.toList();
		assertThat(nodes).hasSize(totals.length);
		for (Map<String, Object> node : nodes) {
			Map<String, AttributeValue> stored = this.shop.get(this.shop.shopTable,
					key("CUSTOMER#" + node.get("customerId"), "ORDER#" + node.get("orderedAt")));
			assertThat(stored).as("the order stores no customerId or orderedAt of its own")
				.doesNotContainKeys("customerId", "orderedAt")
				.isNotEmpty();
			assertThat(node).containsEntry("id", id("Order", stored))
				.containsEntry("orderId", stored.get("orderId").s())
				.containsEntry("status", stored.containsKey("status") ? stored.get("status").s() : null)
				.containsEntry("note", stored.containsKey("note") ? stored.get("note").s() : null)
				.containsEntry("gift", stored.containsKey("gift") ? stored.get("gift").bool() : null)
				.containsEntry("lines", stored.containsKey("lines") ? Integer.valueOf(stored.get("lines").n()) : null)
				.containsEntry("totalExact", stored.containsKey("total") ? stored.get("total").n() : null);
			Object total = node.get("total");
			if (stored.containsKey("total")) {
				assertThat(((Number) total).doubleValue()).isEqualTo(Double.parseDouble(stored.get("total").n()));
			}
			else {
				assertThat(total).isNull();
			}
			if (stored.containsKey("tags")) {
				List<String> tags = stored.get("tags").hasSs() ? stored.get("tags").ss().stream().sorted().toList()
						: stored.get("tags").l().stream().map(AttributeValue::s).toList();
				assertThat(node.get("tags")).as("sets sorted, lists in their order").isEqualTo(tags);
			}
			else {
				assertThat(node.get("tags")).isNull();
			}
			@SuppressWarnings("unchecked")
			Map<String, Object> customer = (Map<String, Object>) node.get("customer");
			assertThat(customer).as("Order.customer looks the profile up by the key's customerId").isEqualTo(without(a,
					"orders"));
		}
		assertThat(nodes.stream().map((node) -> node.get("totalExact")).toList())
			.as("decimals exact, as DynamoDB normalises them")
			.containsExactly("12.5", "123456789012345678901234567890.12345678", "100", "-0.5", "0.1", null);
		assertThat(nodes.get(0).get("tags")).isEqualTo(List.of("alpha", "mid", "zeta"));
		assertThat(nodes.get(1).get("tags")).isEqualTo(List.of("b", "a"));
		assertThat(nodes.get(5)).as("an order with nothing but its key and orderId")
			.containsEntry("status", null)
			.containsEntry("total", null)
			.containsEntry("note", null)
			.containsEntry("tags", null)
			.containsEntry("gift", null)
			.containsEntry("lines", null)
			.containsEntry("customerId", ada)
			.containsEntry("orderedAt", "2025-05-06T10:00:00.000Z");

		// An order whose customer has no profile: the lookup is null.
		String ghost = ShopData.unique("ghost");
		Map<String, AttributeValue> orphan = ShopData.order(ghost, "2025-05-01T10:00:00.000Z", "orphan");
		this.shop.putShop(orphan);
		GraphQlResponse orphanResponse = execute(ShopDocuments.withFragments("""
				query($id: ID!) { node(id: $id) { ...O ... on Order { customer { ...C } } } }"""),
				vars("id", id("Order", orphan)));
		assertThat(orphanResponse.getErrors()).isEmpty();
		assertThat(ShopIntegrationTest.<Map<String, Object>>value(orphanResponse, "node")).containsEntry("customerId", ghost)
			.containsEntry("customer", null);
	}

	@Test
	void servesLinesWithTheirOptionsAndFindsTheirOrder() {
		String customer = ShopData.unique("liner");
		String orderedAt = "2025-06-01T12:30:00.000Z";
		Map<String, AttributeValue> order = ShopData.order(customer, orderedAt, ShopData.unique("order"));
		order.put("status", s("NEW"));
		String orderId = order.get("orderId").s();
		this.shop.putShop(order);
		Map<String, AttributeValue> withOrder = ShopData.line(orderId, 2, customer, orderedAt);
		Map<String, AttributeValue> withoutOrder = ShopData.line(orderId, 3, null, null);
		Map<String, AttributeValue> bare = new HashMap<>(Map.of("PK", s("ORDER#" + orderId), "SK", s("ITEM#0004")));
		Map<String, AttributeValue> options = new LinkedHashMap<>();
		options.put("n", AttributeValue.fromN("2.50"));
		options.put("list", AttributeValue.fromL(List.of(s("x"), AttributeValue.fromN("-1"), AttributeValue.fromBool(true))));
		options.put("set", AttributeValue.fromSs(List.of("b", "a")));
		options.put("nested", AttributeValue.fromM(Map.of("deep", AttributeValue.fromNul(true))));
		options.put("bytes", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { 0, -1, 16 })));
		withoutOrder.put("options", AttributeValue.fromM(options));
		this.shop.putShop(List.of(withOrder, withoutOrder, bare));

		GraphQlResponse response = execute(LINES, vars("id", id("Order", order)));
		assertThat(response.getErrors()).isEmpty();
		List<Map<String, Object>> lines = ShopIntegrationTest.<List<Map<String, Object>>>value(response, "node.items.edges")
			.stream()
			.map(Walker::node)
			.toList();
		assertThat(ShopData.nodeKeys(lines)).containsExactly("OrderItem:" + orderId + "/0002",
				"OrderItem:" + orderId + "/0003", "OrderItem:" + orderId + "/0004");
		Map<String, Object> first = lines.get(0);
		assertThat(first).containsEntry("sku", withOrder.get("sku").s())
			.containsEntry("quantity", Integer.valueOf(withOrder.get("quantity").n()))
			.containsEntry("lineCustomerId", customer)
			.containsEntry("lineOrderedAt", orderedAt)
			.containsEntry("id", id("OrderItem", withOrder));
		Map<String, Object> engraved = new LinkedHashMap<>();
		engraved.put("engraving", "line 2");
		engraved.put("size", "L");
		engraved.put("weight", 1.5);
		assertThat(first.get("options")).isEqualTo(engraved);
		@SuppressWarnings("unchecked")
		Map<String, Object> found = (Map<String, Object>) first.get("order");
		assertThat(found).as("OrderItem.order by the line's customerId and orderedAt")
			.containsEntry("id", id("Order", order))
			.containsEntry("orderId", orderId)
			.containsEntry("status", "NEW");

		Map<String, Object> second = lines.get(1);
		assertThat(second).containsEntry("order", null).containsEntry("lineCustomerId", null);
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("bytes", Base64.getEncoder().encodeToString(new byte[] { 0, -1, 16 }));
		json.put("list", List.of("x", -1, true));
		json.put("n", 2.5);
		json.put("nested", java.util.Collections.singletonMap("deep", null));
		json.put("set", List.of("a", "b"));
		assertThat(second.get("options")).isEqualTo(json);
		assertThat(lines.get(2)).containsEntry("sku", null)
			.containsEntry("quantity", null)
			.containsEntry("options", null)
			.containsEntry("order", null);
	}

	@Test
	void servesReadingsExactly() {
		byte[] sensor = ShopData.sensor();
		long beyondDoubles = 9_007_199_254_740_993L;
		Map<String, AttributeValue> full = ShopData.reading(sensor, beyondDoubles, "3.14159265358979323846264338327950288");
		full.put("samples", AttributeValue.fromNs(List.of("30", "-2", "7", "100")));
		full.put("at", AttributeValue.fromN("1700000000123"));
		Map<String, AttributeValue> raw = new HashMap<>();
		raw.put("unit", s("°C"));
		raw.put("calibration", AttributeValue.fromN("0.000000000000000000000000000001"));
		raw.put("history", AttributeValue.fromNs(List.of("3", "1.5", "-2")));
		full.put("raw", AttributeValue.fromM(raw));
		Map<String, AttributeValue> listed = ShopData.reading(sensor, Long.MAX_VALUE, "-12.50");
		listed.put("samples", AttributeValue.fromL(List.of(AttributeValue.fromN("5"), AttributeValue.fromN("3"),
				AttributeValue.fromN("9"))));
		listed.put("at", AttributeValue.fromN("-1"));
		Map<String, AttributeValue> bare = ShopData.reading(sensor, Long.MIN_VALUE, null);
		this.shop.putReadings(List.of(full, listed, bare));

		String base64 = Base64.getEncoder().encodeToString(sensor);
		List<Map<String, Object>> nodes = page(ShopDocuments.READINGS, "readings", vars("sensor", base64, "first", 10))
			.edges()
			.stream()
			.map(Walker::node)
			.toList();
		assertThat(nodes).hasSize(3);
		Map<String, Object> min = nodes.get(0);
		Map<String, Object> beyond = nodes.get(1);
		Map<String, Object> max = nodes.get(2);
		assertThat(beyond.get("seq")).as("a Long beyond 2^53 is an exact JSON integer").isEqualTo(beyondDoubles);
		assertThat(max.get("seq")).isEqualTo(Long.MAX_VALUE);
		assertThat(min.get("seq")).isEqualTo(Long.MIN_VALUE);
		for (Map<String, Object> node : nodes) {
			assertThat(node).containsEntry("sensor", base64).containsEntry("__typename", "Reading");
			Map<String, AttributeValue> stored = this.shop.get(this.shop.readingsTable,
					Map.of("sensor", full.get("sensor"), "seq", AttributeValue.fromN(node.get("seq").toString())));
			assertThat(node.get("value")).isEqualTo(stored.containsKey("value") ? stored.get("value").n() : null);
			assertThat(node.get("id")).isEqualTo(id("Reading", stored));
		}
		assertThat(beyond).containsEntry("value", "3.14159265358979323846264338327950288")
			.containsEntry("samples", List.of(-2, 7, 30, 100))
			.containsEntry("at", "2023-11-14T22:13:20.123Z");
		Map<String, Object> rawJson = new LinkedHashMap<>();
		rawJson.put("calibration", new BigDecimal("1E-30").doubleValue());
		rawJson.put("history", List.of(-2, 1.5, 3));
		rawJson.put("unit", "°C");
		assertThat(beyond.get("raw")).isEqualTo(rawJson);
		assertThat(max).containsEntry("value", "-12.5")
			.containsEntry("samples", List.of(5, 3, 9))
			.containsEntry("at", "1969-12-31T23:59:59.999Z")
			.containsEntry("raw", null);
		assertThat(min).containsEntry("value", null)
			.containsEntry("samples", null)
			.containsEntry("at", null)
			.containsEntry("raw", null);
	}

	@Test
	void nodeAndNodesFetchEveryTypeAgainByItsId() {
		String customer = ShopData.unique("noded");
		Map<String, AttributeValue> profile = ShopData.profile(customer, "Node", "node@example.com", "1700000000");
		Map<String, AttributeValue> order = ShopData.orders(customer, 1, Instant.parse("2025-07-01T00:00:00Z"), "N")
			.get(0);
		String orderedAt = order.get("SK").s().substring(6);
		Map<String, AttributeValue> line = ShopData.line(order.get("orderId").s(), 1, customer, orderedAt);
		this.shop.putShop(List.of(profile, order, line));
		byte[] sensor = ShopData.sensor();
		Map<String, AttributeValue> reading = ShopData.reading(sensor, 42, "1.25");
		this.shop.putReadings(List.of(reading));

		Map<String, Object> servedCustomer = page(ShopDocuments.ACTIVITY, "customer.activity",
				vars("customerId", customer, "first", 1, "order", "DESC")).edges()
			.stream()
			.map(Walker::node)
			.findFirst()
			.orElseThrow();
		Map<String, Object> servedOrder = page(ShopDocuments.ORDERS, "customer.orders",
				vars("customerId", customer, "first", 1)).edges().stream().map(Walker::node).findFirst().orElseThrow();
		Map<String, Object> servedLine = page(ShopDocuments.ORDER_ITEMS, "order.items",
				vars("id", id("Order", order), "first", 1)).edges().stream().map(Walker::node).findFirst().orElseThrow();
		Map<String, Object> servedReading = page(ShopDocuments.READINGS, "readings",
				vars("sensor", Base64.getEncoder().encodeToString(sensor), "first", 1)).edges()
			.stream()
			.map(Walker::node)
			.findFirst()
			.orElseThrow();
		List<Map<String, Object>> served = List.of(servedCustomer, servedOrder, servedLine, servedReading);
		assertThat(served.stream().map((node) -> node.get("id")).toList()).containsExactly(id("Customer", profile),
				id("Order", order), id("OrderItem", line), id("Reading", reading));
		List<String> ids = new ArrayList<>();
		for (Map<String, Object> node : served) {
			GraphQlResponse response = execute(NODE, vars("id", node.get("id")));
			assertThat(response.getErrors()).isEmpty();
			assertThat(ShopIntegrationTest.<Map<String, Object>>value(response, "node")).as("node(id) of a %s",
					node.get("__typename")).isEqualTo(node);
			ids.add((String) node.get("id"));
		}

		String missingOrder = NodeIds.encode(this.declarations.entity("Order"),
				key("CUSTOMER#" + customer, "ORDER#2099-01-01T00:00:00.000Z"));
		String profileKeyAsOrder = NodeIds.encode(this.declarations.entity("Order"), key("CUSTOMER#" + customer, "PROFILE"));
		String orderKeyAsCustomer = NodeIds.encode(this.declarations.entity("Customer"),
				key("CUSTOMER#" + customer, order.get("SK").s()));
		String missingReading = NodeIds.encode(this.declarations.entity("Reading"),
				Map.of("sensor", reading.get("sensor"), "seq", AttributeValue.fromN("43")));
		List<String> all = new ArrayList<>(ids);
		all.addAll(List.of(missingOrder, profileKeyAsOrder, orderKeyAsCustomer, missingReading));
		GraphQlResponse many = execute(NODES, vars("ids", all));
		assertThat(many.getErrors()).isEmpty();
		List<Object> expected = new ArrayList<>(served);
		expected.addAll(java.util.Arrays.asList(null, null, null, null));
		assertThat(ShopIntegrationTest.<List<Object>>value(many, "nodes"))
			.as("missing items, and items of another type than the id names, are null")
			.isEqualTo(expected);
		for (String missing : List.of(missingOrder, profileKeyAsOrder, orderKeyAsCustomer, missingReading)) {
			GraphQlResponse response = execute(NODE, vars("id", missing));
			assertThat(response.getErrors()).isEmpty();
			assertThat((Object) response.field("node").getValue()).isNull();
		}

		String customerId = ids.get(0);
		for (String malformed : List.of("", "not an id", "AAAA", customerId + "A", customerId.substring(1),
				Base64.getUrlEncoder().withoutPadding().encodeToString("\u0008Customer".getBytes()),
				Base64.getUrlEncoder().withoutPadding().encodeToString("\u0004Nope\u0001x\u0001y".getBytes()))) {
			GraphQlResponse response = execute(NODE, vars("id", malformed));
			Errors.assertCode(response, "INVALID_ARGUMENT");
			assertThat(Errors.requests(response)).isZero();
			Errors.assertCode(execute(NODES, vars("ids", List.of(ids.get(1), malformed))), "INVALID_ARGUMENT");
		}
	}

	private static Map<String, AttributeValue> key(String pk, String sk) {
		return Map.of("PK", s(pk), "SK", s(sk));
	}

	private static Map<String, Object> without(Map<String, Object> map, String key) {
		Map<String, Object> copy = new LinkedHashMap<>(map);
		copy.remove(key);
		return copy;
	}

}
