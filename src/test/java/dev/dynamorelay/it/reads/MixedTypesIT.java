package dev.dynamorelay.it.reads;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Direct;
import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Walker;
import dev.dynamorelay.model.NodeIds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table where one type's sort keys start like another's (orders `ORDER#<ms>`, their notes
 * `ORDER#<ms>#NOTE#<n>`), with the order time stored in the key as epoch milliseconds and compared as
 * ISO-8601: items are typed against every type of the table, counted as their connection's, and read in
 * requests that grow past the items passed over.
 */
@TestPropertySource(properties = { "dynamo-relay.schema.locations=classpath:mixed/",
		"dynamo-relay.tables.prefix=Mixed_", "dynamo-relay.cursor.secret=mixed-secret" })
class MixedTypesIT extends IntegrationTest {

	private static final long START = Instant.parse("2025-03-01T00:00:00Z").toEpochMilli();

	private static final String ORDERS = """
			query Orders($customerId: String!, $first: Int, $after: String, $last: Int, $before: String,
			             $placedSince: String, $placedUntil: String) {
			  orders(customerId: $customerId, first: $first, after: $after, last: $last, before: $before,
			         placedSince: $placedSince, placedUntil: $placedUntil) {
			    totalCount
			    edges { cursor node { __typename id customerId placedAt orderId } }
			    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
			  }
			}""";

	private static final String ALL = """
			query All($first: Int, $after: String) {
			  allOrders(first: $first, after: $after) {
			    totalCount
			    edges { cursor node { customerId placedAt } }
			    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
			  }
			}""";

	/** Writes {@code orders} orders of a new customer, each with {@code notes} notes; returns the customer. */
	private String customer(int orders, int notes) {
		String customer = Fixtures.unique("c");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < orders; i++) {
			long placed = START + i * 60_000L;
			Map<String, AttributeValue> order = new HashMap<>();
			order.put("PK", AttributeValue.fromS("CUSTOMER#" + customer));
			order.put("SK", AttributeValue.fromS("ORDER#" + placed));
			if (i % 4 != 3) {
				order.put("orderId", AttributeValue.fromS(customer + "-" + i));
			}
			order.put("total", AttributeValue.fromN(Integer.toString(10 + i)));
			items.add(order);
			for (int n = 1; n <= notes; n++) {
				items.add(Map.of("PK", AttributeValue.fromS("CUSTOMER#" + customer), "SK",
						AttributeValue.fromS("ORDER#" + placed + "#NOTE#" + n), "text", AttributeValue.fromS("note " + n)));
			}
		}
		this.fixtures.put(table(), items);
		return customer;
	}

	private String table() {
		return this.declarations.entity("Order").table().physicalName();
	}

	private static String iso(long millis) {
		return Instant.ofEpochMilli(millis).toString().replace("Z", "").concat(millis % 1000 == 0 ? ".000Z" : "Z");
	}

	@Test
	void aConnectionServesOnlyItsTypeWhenAnotherTypesKeysStartLikeIts() {
		String customer = customer(9, 2);
		List<String> expected = new ArrayList<>();
		for (int i = 0; i < 9; i++) {
			expected.add(iso(START + i * 60_000L));
		}
		for (int size : new int[] { 1, 4, 50 }) {
			List<Map<String, Object>> forward = this.walker.forward(ORDERS, "orders", Map.of("customerId", customer), size,
					true);
			assertThat(forward).extracting((node) -> node.get("placedAt")).containsExactlyElementsOf(expected);
			assertThat(forward).extracting((node) -> node.get("__typename")).containsOnly("Order");
			List<Map<String, Object>> backward = this.walker.backward(ORDERS, "orders", Map.of("customerId", customer),
					size, true);
			assertThat(backward).extracting((node) -> node.get("placedAt")).containsExactlyElementsOf(expected);
		}
		Walker.Page page = this.walker.page(ORDERS, "orders", Map.of("customerId", customer, "first", 3));
		assertThat(page.totalCount()).as("notes are not counted as orders").isEqualTo(9);
	}

	@Test
	void sortKeyArgumentsAndLookupsWriteTheTimestampAsTheKeyStoresIt() {
		String customer = customer(6, 1);
		Map<String, Object> since = Map.of("customerId", customer, "placedSince", iso(START + 2 * 60_000L));
		assertThat(this.walker.forward(ORDERS, "orders", since, 2, true)).extracting((node) -> node.get("placedAt"))
			.containsExactly(iso(START + 2 * 60_000L), iso(START + 3 * 60_000L), iso(START + 4 * 60_000L),
					iso(START + 5 * 60_000L));
		Map<String, Object> until = Map.of("customerId", customer, "placedUntil", "2025-03-01T01:01:00+01:00");
		assertThat(this.walker.forward(ORDERS, "orders", until, 2, true)).extracting((node) -> node.get("placedAt"))
			.containsExactly(iso(START), iso(START + 60_000L));

		GraphQlResponse found = execute("""
				query($c: String!, $at: String!) { order(customerId: $c, placedAt: $at) { __typename placedAt orderId } }""",
				Map.of("c", customer, "at", "2025-03-01T01:03:00+01:00"));
		assertThat(found.getErrors()).isEmpty();
		assertThat((Map<String, Object>) found.field("order").getValue()).containsEntry("placedAt", iso(START + 3 * 60_000L))
			.containsEntry("orderId", null);
	}

	@Test
	void anIdOfOneTypeNamingAnItemOfAnotherIsNull() {
		String customer = customer(1, 1);
		Map<String, AttributeValue> noteKey = Map.of("PK", AttributeValue.fromS("CUSTOMER#" + customer), "SK",
				AttributeValue.fromS("ORDER#" + START + "#NOTE#1"));
		String asOrder = NodeIds.encode(this.declarations.entity("Order"), noteKey);
		String asNote = NodeIds.encode(this.declarations.entity("OrderNote"), noteKey);
		String document = "query($id: ID!) { node(id: $id) { __typename ... on OrderNote { n text placedAt } } }";
		GraphQlResponse order = execute(document, Map.of("id", asOrder));
		assertThat(order.getErrors()).isEmpty();
		assertThat((Object) order.field("node").getValue()).isNull();
		GraphQlResponse note = execute(document, Map.of("id", asNote));
		assertThat((Map<String, Object>) note.field("node").getValue()).containsEntry("__typename", "OrderNote")
			.containsEntry("n", "1")
			.containsEntry("text", "note 1")
			.containsEntry("placedAt", iso(START));
	}

	@Test
	void aScanPassingOverOtherTypesGrowsItsReadsAndCountsOnlyItsOwn() {
		String customer = customer(12, 3);
		List<Map<String, Object>> all = this.walker.forward(ALL, "allOrders", Map.of(), 10, false);
		assertThat(all.stream().filter((node) -> customer.equals(node.get("customerId"))).count()).isEqualTo(12);
		long orders = Direct.scan(this.dynamoDb, (scan) -> scan.tableName(table()))
			.stream()
			.filter((item) -> !item.get("SK").s().contains("#NOTE#"))
			.count();
		assertThat(all).hasSize((int) orders);
		Walker.Page first = this.walker.page(ALL, "allOrders", Map.of("first", 10));
		assertThat(first.totalCount()).isEqualTo((int) orders);
		// Three notes to an order: a request of Limit 11 finds about 3 orders; growing with what is passed
		// over, the page fills in a few requests rather than one per missing order.
		assertThat(((Number) this.walker.page(ALL, "allOrders", Map.of("first", 10)).dynamodb().get("requests")).intValue())
			.as("requests of a 10-edge page, with its count").isLessThanOrEqualTo(5);
	}

	@Test
	void anEmptyConnectionRefusesCursorsAndAKeyArgumentCannotBeEmpty() {
		String customer = customer(4, 0);
		String document = """
				query($c: String!, $after: String) { orders(customerId: $c, first: 4) {
				  edges { node { orderId notebook(first: 1, after: $after) { edges { cursor } } } } } }""";
		GraphQlResponse plain = execute(document, Map.of("c", customer));
		assertThat(plain.getErrors()).isEmpty();
		GraphQlResponse withCursor = execute(document, Map.of("c", customer, "after", "AQxsb29rcy1saWtlLWEtY3Vyc29y"));
		List<Map<String, Object>> edges = withCursor.field("orders.edges").getValue();
		assertThat(edges).hasSize(4);
		// Orders 0-2 store an orderId (their notebook is a real, empty partition that refuses a foreign
		// cursor); order 3 stores none, so its notebook cannot hold anything and accepts no cursor either.
		assertThat(withCursor.getErrors()).hasSize(4)
			.allSatisfy((error) -> assertThat(error.getExtensions()).containsEntry("code", "INVALID_CURSOR"));
		Errors.assertCode(execute(ORDERS, Map.of("customerId", "", "first", 1)), "INVALID_ARGUMENT");
	}

}
