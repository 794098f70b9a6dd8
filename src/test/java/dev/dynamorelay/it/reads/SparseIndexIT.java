package dev.dynamorelay.it.reads;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.Http;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Subscriber;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sparse index by value, on a single-table design of its own ({@code src/test/resources/sales/}): an order is in
 * {@code OpenOrders} while its status is open or pending ({@code @indexKey(when:)}), whatever write puts it
 * there or takes it out. Every check reads the stored item and the index straight from DynamoDB besides the
 * connection the server serves, and every test writes under customer ids of its own.
 */
@TestPropertySource(properties = { "dynamo-relay.schema.locations=classpath:sales/",
		"dynamo-relay.tables.prefix=Sparse_", "dynamo-relay.cursor.secret=sparse-secret" })
class SparseIndexIT extends IntegrationTest {

	private static final String TABLE = "Sparse_Sales";

	private static final Duration WITHIN = Duration.ofSeconds(5);

	private Http http;

	@BeforeEach
	void sales() {
		assertThat(servesSample()).as("the sales schema, not the sample").isFalse();
		this.http = new Http(this.port);
	}

	@Test
	void anOrderEntersLeavesAndEntersTheIndexAgainAsItsStatusChanges() {
		String customer = customer();
		String id = createOrder(customer, "o1", "open");
		Map<String, AttributeValue> created = stored(customer, "o1");
		assertThat(created).containsEntry("openPK", AttributeValue.fromS("OPEN#" + customer))
			.containsEntry("openSK", created.get("placedAt"));
		assertThat(openOrders(customer)).containsExactly("o1");
		assertThat(indexed(customer)).containsExactly("o1");

		// Leaving needs no read: the status given decides.
		assertThat(updated(id, Map.of("status", "shipped")).requests()).isEqualTo(1);
		assertThat(stored(customer, "o1")).doesNotContainKeys("openPK", "openSK")
			.containsEntry("status", AttributeValue.fromS("shipped"));
		assertThat(openOrders(customer)).isEmpty();
		assertThat(indexed(customer)).isEmpty();

		// Entering reads placedAt, the sort key's placeholder, first (and checks it on the write).
		assertThat(updated(id, Map.of("status", "open")).requests()).isEqualTo(2);
		assertThat(stored(customer, "o1")).containsEntry("openPK", AttributeValue.fromS("OPEN#" + customer))
			.containsEntry("openSK", created.get("placedAt"));
		assertThat(openOrders(customer)).containsExactly("o1");
		assertThat(indexed(customer)).containsExactly("o1");
	}

	@Test
	void anOrderCreatedShippedIsNeverIndexedAndHasNoEdgeInTheOpenOrders() {
		String customer = customer();
		Http.Answer created = this.http.post(null, """
				mutation($input: CreateOrderInput!) { createOrder(input: $input) { order { id } openEdge { cursor } } }""",
				Map.of("input", Map.of("customerId", customer, "orderId", "s1", "status", "shipped"))).clean();
		assertThat(created.errors()).as(created.body().toString()).isEmpty();
		assertThat(created.at("data", "createOrder", "openEdge")).isNull();
		assertThat(stored(customer, "s1")).doesNotContainKeys("openPK", "openSK");
		String open = createOrder(customer, "p1", "pending");
		assertThat(open).isNotNull();
		assertThat(openOrders(customer)).containsExactly("p1");
		assertThat(indexed(customer)).containsExactly("p1");
	}

	@Test
	void anUpdateThatDoesNotMentionTheStatusKeepsTheOrderWhereItWas() {
		String customer = customer();
		String open = createOrder(customer, "a-open", "open");
		String shipped = createOrder(customer, "b-shipped", "shipped");
		update(open, Map.of("note", "gift wrap"));
		update(shipped, Map.of("note", "left at the door"));
		assertThat(stored(customer, "a-open")).containsKeys("openPK", "openSK");
		assertThat(stored(customer, "b-shipped")).doesNotContainKeys("openPK", "openSK");
		// A new key part: the open order moves within the index, the shipped one stays out of it.
		update(open, Map.of("placedAt", "2020-01-01T00:00:00.000Z"));
		update(shipped, Map.of("placedAt", "2020-01-02T00:00:00.000Z"));
		assertThat(stored(customer, "a-open")).containsEntry("openSK", AttributeValue.fromS("2020-01-01T00:00:00.000Z"));
		assertThat(stored(customer, "b-shipped")).doesNotContainKeys("openPK", "openSK");
		assertThat(openOrders(customer)).containsExactly("a-open");
		assertThat(indexed(customer)).containsExactly("a-open");
	}

	@Test
	void aListCreateIndexesOnlyTheOrdersThatBelongAndAReplaceTakesOneOut() {
		String customer = customer();
		List<Map<String, Object>> inputs = new ArrayList<>();
		for (String[] order : new String[][] { { "l1", "open" }, { "l2", "shipped" }, { "l3", "pending" },
				{ "l4", "cancelled" } }) {
			inputs.add(Map.of("customerId", customer, "orderId", order[0], "status", order[1], "lines",
					List.of(Map.of("line", "1", "sku", "sku-" + order[0], "quantity", 1))));
		}
		Http.Answer created = this.http.post(null,
				"mutation($input: [CreateOrderInput!]!) { createOrders(input: $input) { id orderId } }",
				Map.of("input", inputs)).clean();
		assertThat(created.errors()).as(created.body().toString()).isEmpty();
		assertThat(stored(customer, "l2")).doesNotContainKeys("openPK", "openSK");
		assertThat(stored(customer, "l4")).doesNotContainKeys("openPK", "openSK");
		assertThat(openOrders(customer)).containsExactlyInAnyOrder("l1", "l3");
		assertThat(indexed(customer)).containsExactlyInAnyOrder("l1", "l3");

		String l3 = (String) created.at("data", "createOrders", 2, "id");
		replace(l3, Map.of("status", "shipped"));
		assertThat(stored(customer, "l3")).doesNotContainKeys("openPK", "openSK");
		replace(l3, Map.of("status", "open", "placedAt", "2021-01-01T00:00:00.000Z"));
		assertThat(stored(customer, "l3")).containsEntry("openSK", AttributeValue.fromS("2021-01-01T00:00:00.000Z"));
		replace(l3, Map.of());
		assertThat(stored(customer, "l3")).doesNotContainKeys("openPK", "openSK", "status");
		assertThat(openOrders(customer)).containsExactly("l1");
		assertThat(indexed(customer)).containsExactly("l1");
	}

	@Test
	void aSubscriptionOnTheIndexSeesTheOrderEnterAndLeave() throws Exception {
		String customer = customer();
		try (Subscriber open = new Subscriber(this.port, null, """
				subscription($customerId: String!) { openOrderChanges(customerId: $customerId) {
				  kind deletedId edge { node { id orderId status } } } }""", Map.of("customerId", customer))) {
			// Something the subscription receives first, so that it is surely listening before the writes below.
			String first = createOrder(customer, "w0", "open");
			assertThat(open.next(WITHIN)).containsEntry("kind", "ADDED");
			String id = createOrder(customer, "w1", "shipped");
			update(id, Map.of("status", "pending"));
			Map<String, Object> entered = open.next(WITHIN);
			assertThat(entered).containsEntry("kind", "ADDED");
			assertThat(node(entered)).containsEntry("orderId", "w1").containsEntry("status", "pending");
			update(id, Map.of("status", "shipped"));
			assertThat(open.next(WITHIN)).containsEntry("kind", "REMOVED").containsEntry("deletedId", id);
			update(first, Map.of("note", "no change of membership"));
			Map<String, Object> changed = open.next(WITHIN);
			assertThat(changed).containsEntry("kind", "UPDATED");
			assertThat(node(changed)).containsEntry("orderId", "w0");
		}
	}

	@Test
	void updatesRacingOnTheStatusAndOnAKeyPartLeaveTheIndexKeysTrue() throws Exception {
		String customer = customer();
		String id = createOrder(customer, "r1", "open");
		ExecutorService pool = Executors.newFixedThreadPool(2);
		try {
			// One writer opens and ships the order, the other moves its placedAt: each update that reads what the other
			// writes must see its read still hold when it writes, or try again.
			CompletableFuture<List<String>> statuses = CompletableFuture.supplyAsync(() -> codes(customer, id, "status",
					(i) -> (i % 2 == 0) ? "shipped" : "open"), pool);
			CompletableFuture<List<String>> times = CompletableFuture.supplyAsync(() -> codes(customer, id, "placedAt",
					(i) -> "2020-01-01T00:00:%02d.000Z".formatted(i)), pool);
			List<String> codes = new ArrayList<>(statuses.get(60, TimeUnit.SECONDS));
			codes.addAll(times.get(60, TimeUnit.SECONDS));
			assertThat(codes).as("an update that kept meeting changes gives up as CONFLICT, never writes wrong keys")
				.allMatch("CONFLICT"::equals);
		}
		finally {
			pool.shutdownNow();
		}
		for (String last : List.of("open", "shipped")) {
			// Whichever the races left, a last update of each kind must keep the keys true.
			update(id, Map.of("status", last));
			Map<String, AttributeValue> order = stored(customer, "r1");
			if (last.equals("open")) {
				assertThat(order).containsEntry("openPK", AttributeValue.fromS("OPEN#" + customer))
					.containsEntry("openSK", order.get("placedAt"));
			}
			else {
				assertThat(order).doesNotContainKeys("openPK", "openSK");
			}
		}
	}

	/**
	 * The codes of the errors of 30 updates of one field of order {@code r1}, one after another, each followed by
	 * a check of its index keys against its status and placedAt as stored.
	 */
	private List<String> codes(String customer, String id, String field, java.util.function.IntFunction<String> value) {
		List<String> codes = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			Map<String, Object> input = Map.of("id", id, field, value.apply(i));
			Http.Answer updated = this.http.post(null,
					"mutation($input: UpdateOrderInput!) { updateOrder(input: $input) { orderId } }", Map.of("input", input))
				.clean();
			updated.codes().forEach((code) -> codes.add(String.valueOf(code)));
			Map<String, AttributeValue> order = stored(customer, "r1");
			AttributeValue status = order.get("status");
			boolean belongs = status != null && List.of("open", "pending").contains(status.s());
			if (belongs) {
				assertThat(order.get("openSK")).as("an open order's sort key in the index is its placedAt, after %s", input)
					.isEqualTo(order.get("placedAt"));
			}
			else {
				assertThat(order).as("a shipped order is in no index, after %s", input).doesNotContainKeys("openPK", "openSK");
			}
		}
		return codes;
	}

	/** A new customer of the test's own. */
	private String customer() {
		String customerId = Fixtures.unique("cust");
		Http.Answer created = this.http.post(null, "mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { id } }",
				Map.of("input", Map.of("customerId", customerId, "name", "C"))).clean();
		assertThat(created.errors()).as(created.body().toString()).isEmpty();
		return customerId;
	}

	private String createOrder(String customerId, String orderId, String status) {
		Http.Answer created = this.http.post(null,
				"mutation($input: CreateOrderInput!) { createOrder(input: $input) { order { id } } }",
				Map.of("input", Map.of("customerId", customerId, "orderId", orderId, "status", status))).clean();
		assertThat(created.errors()).as(created.body().toString()).isEmpty();
		return (String) created.at("data", "createOrder", "order", "id");
	}

	private void update(String id, Map<String, Object> fields) {
		updated(id, fields);
	}

	private Http.Answer updated(String id, Map<String, Object> fields) {
		Map<String, Object> input = new HashMap<>(fields);
		input.put("id", id);
		Http.Answer updated = this.http.post(null,
				"mutation($input: UpdateOrderInput!) { updateOrder(input: $input) { orderId status note placedAt } }",
				Map.of("input", input)).clean();
		assertThat(updated.errors()).as(updated.body().toString()).isEmpty();
		assertThat(updated.at("data", "updateOrder", "status")).isEqualTo(fields.getOrDefault("status",
				updated.at("data", "updateOrder", "status")));
		return updated;
	}

	private void replace(String id, Map<String, Object> fields) {
		Map<String, Object> input = new HashMap<>(fields);
		input.put("id", id);
		Http.Answer replaced = this.http.post(null,
				"mutation($input: ReplaceOrderInput!) { replaceOrder(input: $input) { orderId } }", Map.of("input", input))
			.clean();
		assertThat(replaced.errors()).as(replaced.body().toString()).isEmpty();
	}

	/** The order ids of the customer's open orders, as the server's connection pages them. */
	@SuppressWarnings("unchecked")
	private List<String> openOrders(String customerId) {
		Http.Answer page = this.http.post(null,
				"query($c: String!) { openOrders(customerId: $c, first: 50) { edges { node { orderId status } } } }",
				Map.of("c", customerId)).clean();
		assertThat(page.errors()).as(page.body().toString()).isEmpty();
		List<Map<String, Object>> edges = (List<Map<String, Object>>) page.at("data", "openOrders", "edges");
		return edges.stream().map((edge) -> (String) ((Map<String, Object>) edge.get("node")).get("orderId")).toList();
	}

	/** The order ids in the customer's partition of the index, queried straight from DynamoDB. */
	private List<String> indexed(String customerId) {
		return this.dynamoDb.queryPaginator((query) -> query.tableName(TABLE)
			.indexName("OpenOrders")
			.keyConditionExpression("openPK = :pk")
			.expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("OPEN#" + customerId))))
			.items()
			.stream()
			.map((item) -> item.get("orderId").s())
			.toList();
	}

	/** The order as stored, read straight from DynamoDB (strongly consistent). */
	private Map<String, AttributeValue> stored(String customerId, String orderId) {
		var response = this.dynamoDb.getItem((get) -> get.tableName(TABLE)
			.key(Map.of("PK", AttributeValue.fromS("CUSTOMER#" + customerId), "SK", AttributeValue.fromS("ORDER#" + orderId)))
			.consistentRead(true));
		assertThat(response.hasItem()).as("order %s of %s", orderId, customerId).isTrue();
		return response.item();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> node(Map<String, Object> change) {
		return (Map<String, Object>) ((Map<String, Object>) change.get("edge")).get("node");
	}

}
