package dev.dynamorelay.it.reads;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Direct;
import dev.dynamorelay.it.ShopData;
import dev.dynamorelay.it.ShopDocuments;
import dev.dynamorelay.it.ShopIntegrationTest;
import dev.dynamorelay.it.Walker;

import static dev.dynamorelay.it.ShopData.itemKeys;
import static dev.dynamorelay.it.ShopData.s;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whole walks of every kind of shop connection, forwards and backwards at several page sizes, each
 * equal item by item to a direct read of the same key range.
 */
class ShopPaginationIT extends ShopIntegrationTest {

	private static final Instant T0 = Instant.parse("2025-03-01T08:00:00Z");

	/** Page sizes walked in each order (a walk is one request a page: few sizes, few pages). */
	private static final Map<String, int[]> PAGE_SIZES = Map.of("ASC", new int[] { 1, 7, 50 }, "DESC",
			new int[] { 2, 50 });

	@Test
	void walksACustomersOrdersInBothOrders() {
		String customer = ShopData.unique("walk");
		this.shop.putShop(ShopData.profile(customer, "Walker", "walker@example.com", "1700000000"));
		this.shop.putShop(ShopData.orders(customer, 16, T0, ShopData.unique("W")));
		this.shop.putShop(ShopData.strays(customer));
		for (String order : List.of("ASC", "DESC")) {
			List<String> expected = itemKeys(this.shop.queryShop(null, "PK", "SK", "CUSTOMER#" + customer,
					"begins_with(#sk, :p)", null, Map.of(), Map.of(":p", s("ORDER#")), order.equals("ASC")));
			assertThat(expected).hasSize(16).allMatch((key) -> key.startsWith("Order:"));
			assertWalks(ShopDocuments.ORDERS, "customer.orders", vars("customerId", customer, "order", order), expected,
					true, PAGE_SIZES.get(order));
		}
		Walker.Page all = page(ShopDocuments.ORDERS, "customer.orders", vars("customerId", customer, "first", 50));
		assertThat(all.scannedCount()).as("the profile and the strays are never read: 1 profile lookup + 16 orders")
			.isEqualTo(17);
	}

	@Test
	void walksTheLocalIndexByTotalAcrossTies() {
		String customer = ShopData.unique("bytotal");
		this.shop.putShop(ShopData.profile(customer, "Totals", null, null));
		List<Map<String, AttributeValue>> orders = ShopData.orders(customer, 24, T0, ShopData.unique("T"));
		this.shop.putShop(orders);
		this.shop.putShop(ShopData.strays(customer));
		for (String order : List.of("ASC", "DESC")) {
			List<Map<String, AttributeValue>> direct = this.shop.queryShop("ByTotal", "PK", "total",
					"CUSTOMER#" + customer, null, null, Map.of(), Map.of(), order.equals("ASC"));
			List<String> expected = itemKeys(direct);
			assertThat(expected).as("orders without a total are not in the index")
				.hasSize((int) orders.stream().filter((item) -> item.containsKey("total")).count())
				.hasSizeLessThan(24);
			assertThat(direct.stream().map((item) -> item.get("total").n()).distinct().count())
				.as("many orders share a total")
				.isLessThan(direct.size() / 2);
			assertWalks(ShopDocuments.ORDERS_BY_TOTAL, "customer.ordersByTotal",
					vars("customerId", customer, "order", order), expected, true, PAGE_SIZES.get(order));
		}
	}

	@Test
	void walksTheSparseGlobalIndexAcrossOrdersSharingOneIndexKey() {
		String status = ShopData.unique("S");
		// Three customers' orders at the same times: every GSI1SK is shared by up to three orders.
		for (int c = 0; c < 3; c++) {
			String customer = ShopData.unique("status" + c);
			this.shop.putShop(ShopData.orders(customer, 14, T0, status));
		}
		for (String suffix : List.of("-PAID", "-NEW")) {
			for (String order : List.of("ASC", "DESC")) {
				List<Map<String, AttributeValue>> direct = this.shop.queryShop("GSI1", "GSI1PK", "GSI1SK",
						"STATUS#" + status + suffix, null, null, Map.of(), Map.of(), order.equals("ASC"));
				List<String> expected = itemKeys(direct);
				assertThat(expected).hasSizeGreaterThan(6);
				assertThat(direct.stream().map((item) -> item.get("GSI1SK").s()).distinct().count())
					.as("index keys are not unique")
					.isLessThan(direct.size());
				assertWalks(ShopDocuments.BY_STATUS, "ordersByStatus", vars("status", status + suffix, "order", order),
						expected, true, suffix.equals("-PAID") ? PAGE_SIZES.get(order) : new int[] { 3 });
			}
		}
		List<String> all = itemKeys(this.shop.queryShop("GSI1", "GSI1PK", "GSI1SK", "STATUS#" + status + "-NEW",
				null, null, Map.of(), Map.of(), true));
		List<String> stored = new ArrayList<>();
		for (Map<String, AttributeValue> item : Direct.scan(this.dynamoDb,
				(scan) -> scan.tableName(this.shop.shopTable)
					.filterExpression("#s = :s")
					.expressionAttributeNames(Map.of("#s", "status"))
					.expressionAttributeValues(Map.of(":s", s(status + "-NEW"))))) {
			stored.add(ShopData.itemKey(item));
		}
		assertThat(all).as("sparse: some orders of the status are not in the index")
			.hasSizeLessThan(stored.size())
			.isNotEmpty();
	}

	@Test
	void walksAnOrdersLinesInAnotherPartition() {
		String customer = ShopData.unique("lines");
		String orderedAt = ShopData.iso(T0);
		String orderId = ShopData.unique("o");
		Map<String, AttributeValue> order = ShopData.order(customer, orderedAt, orderId);
		this.shop.putShop(order);
		List<Map<String, AttributeValue>> lines = new ArrayList<>();
		for (int line = 1; line <= 14; line++) {
			lines.add(ShopData.line(orderId, line, customer, orderedAt));
			// A neighbouring partition whose key starts with this one's.
			lines.add(ShopData.line(orderId + "0", line, customer, orderedAt));
		}
		lines.add(Map.of("PK", s("ORDER#" + orderId), "SK", s("HEADER"), "kind", s("stray")));
		lines.add(Map.of("PK", s("ORDER#" + orderId), "SK", s("ITEMS"), "kind", s("stray")));
		this.shop.putShop(lines);
		for (String direction : List.of("ASC", "DESC")) {
			List<String> expected = itemKeys(this.shop.queryShop(null, "PK", "SK", "ORDER#" + orderId,
					"begins_with(#sk, :p)", null, Map.of(), Map.of(":p", s("ITEM#")), direction.equals("ASC")));
			assertThat(expected).hasSize(14);
			assertWalks(ShopDocuments.ORDER_ITEMS, "order.items",
					vars("id", id("Order", order), "order", direction), expected, true, PAGE_SIZES.get(direction));
		}
	}

	@Test
	void walksReadingsOfABinaryPartitionKeyByALongSortKey() {
		byte[] sensor = ShopData.sensor();
		byte[] neighbour = java.util.Arrays.copyOf(sensor, sensor.length - 1);
		List<Map<String, AttributeValue>> readings = new ArrayList<>();
		long[] seqs = { Long.MIN_VALUE, -9_007_199_254_740_993L, -1, 0, 1, 2, 9, 10, 11, 99, 100, 101, 1_000,
				4_294_967_296L, 9_007_199_254_740_992L, 9_007_199_254_740_993L, 9_007_199_254_740_994L,
				Long.MAX_VALUE - 1, Long.MAX_VALUE };
		for (long seq : seqs) {
			readings.add(ShopData.reading(sensor, seq, "1.5"));
			readings.add(ShopData.reading(neighbour, seq, "2.5"));
		}
		this.shop.putReadings(readings);
		String base64 = Base64.getEncoder().encodeToString(sensor);
		for (String order : List.of("ASC", "DESC")) {
			List<String> expected = itemKeys(Direct.query(this.dynamoDb, (q) -> q.tableName(this.shop.readingsTable)
				.keyConditionExpression("sensor = :s")
				.expressionAttributeValues(Map.of(":s", readings.get(0).get("sensor")))
				.scanIndexForward(order.equals("ASC"))));
			assertThat(expected).hasSize(seqs.length);
			assertWalks(ShopDocuments.READINGS, "readings", vars("sensor", base64, "order", order), expected, true,
					PAGE_SIZES.get(order));
		}
	}

	@Test
	void walksACustomersWholePartitionAsTheUnionOfProfileAndOrders() {
		String customer = ShopData.unique("activity");
		this.shop.putShop(ShopData.profile(customer, "Active", "active@example.com", null));
		this.shop.putShop(ShopData.orders(customer, 12, T0, ShopData.unique("A")));
		String clean = ShopData.unique("activity-clean");
		this.shop.putShop(ShopData.profile(clean, "Clean", null, null));
		this.shop.putShop(ShopData.orders(clean, 6, T0, ShopData.unique("A")));
		this.shop.putShop(ShopData.strays(customer));
		for (String order : List.of("ASC", "DESC")) {
			List<Map<String, AttributeValue>> direct = this.shop.queryShop(null, "PK", "SK", "CUSTOMER#" + customer,
					null, null, Map.of(), Map.of(), order.equals("ASC"));
			List<String> expected = itemKeys(direct);
			assertThat(expected).hasSize(13).contains("Customer:" + customer);
			assertThat(direct).as("items of no type are in the partition").hasSize(13 + ShopData.STRAY_SORT_KEYS.size());
			// Items of no declared type are passed over like filtered ones: hasNextPage is not exact.
			assertWalks(ShopDocuments.ACTIVITY, "customer.activity", vars("customerId", customer, "order", order),
					expected, false, PAGE_SIZES.get(order));
			List<String> expectedClean = itemKeys(this.shop.queryShop(null, "PK", "SK", "CUSTOMER#" + clean, null, null,
					Map.of(), Map.of(), order.equals("ASC")));
			assertThat(expectedClean).hasSize(7);
			assertWalks(ShopDocuments.ACTIVITY, "customer.activity", vars("customerId", clean, "order", order),
					expectedClean, true, PAGE_SIZES.get(order));
		}
	}

	@Test
	void scansTheWholeTableForwardsWithAndWithoutTheKindFilter() {
		String customer = ShopData.unique("scan");
		this.shop.putShop(ShopData.profile(customer, "Scanned", null, null));
		List<Map<String, AttributeValue>> orders = ShopData.orders(customer, 12, T0, ShopData.unique("SC"));
		String rare = ShopData.unique("rare");
		for (int i = 0; i < 3; i++) {
			orders.get(i * 4).put("kind", s(rare));
		}
		this.shop.putShop(orders);
		this.shop.putShop(ShopData.strays(customer));
		this.shop.putShop(ShopData.line(customer + "-o0", 1, customer, ShopData.iso(T0)));

		List<String> all = itemKeys(Direct.scan(this.dynamoDb, (scan) -> scan.tableName(this.shop.shopTable)));
		assertThat(all).contains("Customer:" + customer, "OrderItem:" + customer + "-o0/0001");
		for (int pageSize : new int[] { 13, 100 }) {
			assertThat(walk(ShopDocuments.SHOP, "shop", vars(), pageSize, true, false)).as("pages of %d", pageSize)
				.containsExactlyElementsOf(all);
		}
		for (List<String> kinds : List.of(List.of("customer"), List.of("line", "customer"), List.of(rare))) {
			List<String> expected = itemKeys(Direct.scan(this.dynamoDb, (scan) -> scan.tableName(this.shop.shopTable)
				.filterExpression(kinds.size() == 1 ? "#k IN (:k0)" : "#k IN (:k0, :k1)")
				.expressionAttributeNames(Map.of("#k", "kind"))
				.expressionAttributeValues(kinds.size() == 1 ? Map.of(":k0", s(kinds.get(0)))
						: Map.of(":k0", s(kinds.get(0)), ":k1", s(kinds.get(1))))));
			assertThat(expected).isNotEmpty();
			for (int pageSize : kinds.contains(rare) ? new int[] { 1, 2 } : new int[] { 7 }) {
				assertThat(walk(ShopDocuments.SHOP, "shop", vars("kind", kinds), pageSize, true, false))
					.as("kind %s, pages of %d", kinds, pageSize)
					.containsExactlyElementsOf(expected);
			}
		}
		Walker.Page rarePage = page(ShopDocuments.SHOP, "shop", vars("kind", List.of(rare), "first", 2));
		assertThat(rarePage.edges()).as("a selective filter still fills its page").hasSize(2);
		assertThat(rarePage.requests()).as("by reading more than once, within the budget").isGreaterThan(1);
		assertThat(rarePage.scannedCount()).isLessThanOrEqualTo(1000);
		assertThat(keys(rarePage)).containsExactlyElementsOf(
				itemKeys(Direct.scan(this.dynamoDb, (scan) -> scan.tableName(this.shop.shopTable)
					.filterExpression("#k = :k")
					.expressionAttributeNames(Map.of("#k", "kind"))
					.expressionAttributeValues(Map.of(":k", s(rare))))).subList(0, 2));
	}

}
