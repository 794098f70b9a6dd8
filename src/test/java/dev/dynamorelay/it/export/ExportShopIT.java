package dev.dynamorelay.it.export;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.ExportProcess;
import dev.dynamorelay.it.Rest;
import dev.dynamorelay.it.ShopData;
import dev.dynamorelay.it.ShopIntegrationTest;
import dev.dynamorelay.model.NodeIds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The export of a user's own declared connections (the shop schema of {@code src/test/resources/shop/}),
 * as a separate process: a filtered Query in descending order, a nested connection whose parent is named
 * by its key and read with GetItem, and a connection of a union whose lines name their type.
 */
class ExportShopIT extends ShopIntegrationTest {

	@TempDir
	Path folder;

	private ExportProcess exporter() {
		return new ExportProcess(dynamoDbEndpoint(), "--dynamo-relay.schema.locations=src/test/resources/shop/",
				"--dynamo-relay.tables.prefix=Shop_");
	}

	@Test
	void customerOrdersWithFiltersAndOrderEqualTheirDirectSelection() throws Exception {
		String customerId = ShopData.unique("export-c");
		List<Map<String, AttributeValue>> orders = ShopData.orders(customerId, 40, Instant.parse("2025-03-01T00:00:00Z"),
				customerId);
		this.shop.putShop(ShopData.profile(customerId, "Ann", "ann@example.com", "1700000000"));
		this.shop.putShop(orders);
		this.shop.putShop(ShopData.strays(customerId));
		Path out = this.folder.resolve("orders.jsonl");
		ExportProcess.Result result = exporter().run(this.folder, "Customer.orders", "--arg", "customerId=" + customerId,
				"--arg", "statusIn=" + customerId + "-NEW," + customerId + "-PAID", "--arg", "order=DESC", "--page-size",
				"6", "--out", out.toString());
		assertThat(result.exitCode()).as(result.stderr()).isZero();
		List<String> expected = orders.stream()
			.filter((order) -> order.containsKey("status") && !order.get("status").s().endsWith("-SHIPPED"))
			.sorted(Comparator.comparing((Map<String, AttributeValue> order) -> order.get("SK").s()).reversed())
			.map((order) -> NodeIds.encode(this.declarations.entity("Order"), order))
			.toList();
		assertThat(expected).hasSizeGreaterThan(10);
		List<Map<String, Object>> lines = ExportProcess.lines(out);
		assertThat(ExportProcess.ids(lines)).containsExactlyElementsOf(expected);
		assertThat(lines.get(0).keySet()).containsExactly("id", "customerId", "orderedAt", "orderId", "status", "total",
				"totalExact", "note", "tags", "gift", "lines");
		Map<String, Object> withTotal = lines.stream().filter((line) -> line.get("total") != null).findFirst().orElseThrow();
		assertThat(withTotal.get("totalExact")).as("Decimal, served as a string").isInstanceOf(String.class);
		assertThat(withTotal.get("customerId")).as("read from the key").isEqualTo(customerId);
		assertThat(lines).as("the REST view's nodes, which GraphQL serves").isEqualTo(new Rest(this.port).walk(null,
				"/api/customers/" + customerId + "/orders" + Rest.query("statusIn", customerId + "-NEW", "order", "DESC")
						+ "&statusIn=" + customerId + "-PAID", "orders", 100).nodes());
	}

	@Test
	void orderItemsOfAParentNamedByItsKey() throws Exception {
		String customerId = ShopData.unique("export-p");
		String orderedAt = ShopData.iso(Instant.parse("2025-04-01T10:00:00Z"));
		String orderId = customerId + "-o1";
		this.shop.putShop(ShopData.order(customerId, orderedAt, orderId));
		List<Map<String, AttributeValue>> lines = new ArrayList<>();
		for (int line = 1; line <= 12; line++) {
			lines.add(ShopData.line(orderId, line, customerId, orderedAt));
		}
		this.shop.putShop(lines);
		Path out = this.folder.resolve("items.jsonl");
		ExportProcess.Result result = exporter().run(this.folder, "Order.items", "--arg", "customerId=" + customerId,
				"--arg", "orderedAt=" + orderedAt, "--out", out.toString());
		assertThat(result.exitCode()).as(result.stderr()).isZero();
		List<Map<String, Object>> exported = ExportProcess.lines(out);
		assertThat(ExportProcess.ids(exported)).containsExactlyElementsOf(
				lines.stream().map((line) -> NodeIds.encode(this.declarations.entity("OrderItem"), line)).toList());
		@SuppressWarnings("unchecked")
		Map<String, Object> options = (Map<String, Object>) exported.get(0).get("options");
		assertThat(options).as("JSON, as GraphQL serves it").containsEntry("size", "M").containsEntry("engraving", null);
		assertThat(((Number) options.get("weight")).doubleValue()).isEqualTo(1.5);
		assertThat(exported).as("the REST view's nodes").isEqualTo(new Rest(this.port)
			.walk(null, "/api/orders/" + customerId + "/" + orderedAt + "/items", "items", 100).nodes());

		ExportProcess.Result missing = exporter().run(this.folder, "Order.items", "--arg", "customerId=" + customerId,
				"--arg", "orderedAt=2020-01-01T00:00:00.000Z", "--out", this.folder.resolve("none.jsonl").toString());
		assertThat(missing.exitCode()).isEqualTo(1);
		assertThat(missing.stderr()).contains("There is no Order with customerId=" + customerId);
	}

	@Test
	void aConnectionOfAUnionNamesEachLinesType() throws Exception {
		String customerId = ShopData.unique("export-u");
		this.shop.putShop(ShopData.profile(customerId, "Bo", null, null));
		this.shop.putShop(ShopData.orders(customerId, 3, Instant.parse("2025-05-01T00:00:00Z"), customerId));
		Path out = this.folder.resolve("activity.jsonl");
		ExportProcess.Result result = exporter().run(this.folder, "Customer.activity", "--arg", "customerId=" + customerId,
				"--out", out.toString());
		assertThat(result.exitCode()).as(result.stderr()).isZero();
		List<Map<String, Object>> lines = ExportProcess.lines(out);
		assertThat(lines).extracting((line) -> line.get("__typename")).containsExactly("Order", "Order", "Order",
				"Customer");
		assertThat(lines.get(3).keySet()).startsWith("__typename", "id", "customerId", "name", "email");
		assertThat(lines).as("the REST view's nodes").isEqualTo(
				new Rest(this.port).walk(null, "/api/customers/" + customerId + "/activity", "activity", 100).nodes());
	}

}
