package dev.dynamorelay.it.writes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.Http;
import dev.dynamorelay.it.StoreIntegrationTest;
import dev.dynamorelay.model.NodeIds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes of a single-table design the project has never seen, from its schema file alone: each answer
 * compared with a direct GetItem of what DynamoDB holds; keys, the type attribute and a sparse index's keys
 * composed; versions, conditions, references, children and lists all or nothing; owners kept, children
 * written only under their writer's own parents, idempotency keys each caller's own.
 */
class StoreWritesIT extends StoreIntegrationTest {

	private static final String CREATE_ORDER = """
			mutation($input: CreateOrderInput!) { createOrder(input: $input) {
			  order { id customerId orderId placedAt status total version }
			  orderEdge { cursor node { orderId } } statusEdge { cursor node { orderId } } clientMutationId } }""";

	private static final String UPDATE_ORDER = """
			mutation($input: UpdateOrderInput!) { updateOrder(input: $input) { orderId status total note version } }""";

	private static final String ORDERS = """
			query($customerId: String!, $after: String) { customer(customerId: $customerId) {
			  orders(first: 10, after: $after) { edges { cursor node { orderId } } pageInfo { hasNextPage } } } }""";

	@Test
	void createsAnItemWithItsKeyTypeAttributeAndSparseIndexKeys() {
		String alice = Fixtures.unique("alice");
		createCustomer(alice);
		assertThat(stored("CUSTOMER#" + alice, "PROFILE")).containsEntry("kind", AttributeValue.fromS("Customer"))
			.containsEntry("customerId", AttributeValue.fromS(alice))
			.containsEntry("version", AttributeValue.fromN("1"));
		Http.Answer open = this.http.post(customer(alice), CREATE_ORDER, vars("input", Map.of("orderId", "o1",
				"placedAt", "2025-05-01T10:00:00+02:00", "status", "open", "total", 12.5, "clientMutationId", "m1"))).clean();
		assertThat(open.errors()).isEmpty();
		assertThat(open.at("data", "createOrder", "order", "customerId")).isEqualTo(alice);
		assertThat(open.at("data", "createOrder", "order", "placedAt")).isEqualTo("2025-05-01T08:00:00.000Z");
		assertThat(open.at("data", "createOrder", "order", "version")).isEqualTo(1);
		assertThat(open.at("data", "createOrder", "clientMutationId")).isEqualTo("m1");
		Map<String, AttributeValue> item = stored("CUSTOMER#" + alice, "ORDER#o1");
		assertThat(item).containsEntry("kind", AttributeValue.fromS("Order"))
			.containsEntry("GSI1PK", AttributeValue.fromS("STATUS#open"))
			.containsEntry("GSI1SK", AttributeValue.fromS("2025-05-01T08:00:00.000Z"))
			.containsEntry("placedAt", AttributeValue.fromS("2025-05-01T08:00:00.000Z"))
			.containsEntry("total", AttributeValue.fromN("12.5"))
			.containsEntry("version", AttributeValue.fromN("1"));
		assertThat(open.at("data", "createOrder", "statusEdge", "node", "orderId")).isEqualTo("o1");

		Http.Answer unset = this.http.post(customer(alice), CREATE_ORDER,
				vars("input", Map.of("orderId", "o2", "total", 3))).clean();
		assertThat(unset.errors()).isEmpty();
		Map<String, AttributeValue> sparse = stored("CUSTOMER#" + alice, "ORDER#o2");
		assertThat(sparse).containsKey("placedAt").doesNotContainKeys("GSI1PK", "GSI1SK", "status");
		assertThat(unset.at("data", "createOrder", "statusEdge")).as("not in the status index").isNull();
	}

	@Test
	void anUpdateChangesOnlyWhatItGivesAndKeepsTheIndexKeysTrue() {
		String bob = Fixtures.unique("bob");
		createCustomer(bob);
		String id = createOrder(bob, "o1", "open", 10);
		Map<String, AttributeValue> before = stored("CUSTOMER#" + bob, "ORDER#o1");
		this.dynamoDb.updateItem((update) -> update.tableName(TABLE)
			.key(Map.of("PK", AttributeValue.fromS("CUSTOMER#" + bob), "SK", AttributeValue.fromS("ORDER#o1")))
			.updateExpression("SET extra = :x")
			.expressionAttributeValues(Map.of(":x", AttributeValue.fromS("kept"))));

		Http.Answer shipped = this.http.post(customer(bob), UPDATE_ORDER,
				vars("input", Map.of("id", id, "status", "shipped", "note", "fast"))).clean();
		assertThat(shipped.errors()).isEmpty();
		assertThat(shipped.at("data", "updateOrder", "version")).isEqualTo(2);
		Map<String, AttributeValue> after = stored("CUSTOMER#" + bob, "ORDER#o1");
		assertThat(after).containsEntry("status", AttributeValue.fromS("shipped"))
			.containsEntry("GSI1PK", AttributeValue.fromS("STATUS#shipped"))
			.containsEntry("GSI1SK", before.get("placedAt"))
			.containsEntry("note", AttributeValue.fromS("fast"))
			.containsEntry("total", before.get("total"))
			.containsEntry("extra", AttributeValue.fromS("kept"))
			.containsEntry("version", AttributeValue.fromN("2"));

		Map<String, Object> clear = new java.util.HashMap<>();
		clear.put("id", id);
		clear.put("status", null);
		Http.Answer cleared = this.http.post(customer(bob), UPDATE_ORDER, vars("input", clear)).clean();
		assertThat(cleared.errors()).isEmpty();
		assertThat(stored("CUSTOMER#" + bob, "ORDER#o1")).doesNotContainKeys("status", "GSI1PK", "GSI1SK")
			.containsEntry("version", AttributeValue.fromN("3"));
	}

	@Test
	void concurrentUpdatesAtOneVersionHaveExactlyOneWinner() throws Exception {
		String carol = Fixtures.unique("carol");
		createCustomer(carol);
		String id = createOrder(carol, "o1", "open", 1);
		int writers = 8;
		ExecutorService pool = Executors.newFixedThreadPool(writers);
		List<CompletableFuture<Http.Answer>> answers = new ArrayList<>();
		try {
			for (int i = 0; i < writers; i++) {
				int total = 100 + i;
				answers.add(CompletableFuture.supplyAsync(() -> this.http.post(customer(carol), UPDATE_ORDER,
						vars("input", Map.of("id", id, "total", total, "expectedVersion", 1))), pool));
			}
			List<Http.Answer> done = answers.stream().map(CompletableFuture::join).toList();
			List<Http.Answer> won = done.stream().filter((answer) -> answer.errors().isEmpty()).toList();
			assertThat(won).hasSize(1);
			List<Http.Answer> lost = done.stream().filter((answer) -> !answer.errors().isEmpty()).toList();
			assertThat(lost).hasSize(writers - 1).allSatisfy((answer) -> {
				assertThat(answer.codes()).containsExactly("CONFLICT");
				assertThat(answer.at("errors", 0, "extensions", "currentVersion")).isEqualTo(2);
			});
			Map<String, AttributeValue> item = stored("CUSTOMER#" + carol, "ORDER#o1");
			assertThat(item.get("version")).isEqualTo(AttributeValue.fromN("2"));
			assertThat(item.get("total").n()).isEqualTo(String.valueOf(won.get(0).at("data", "updateOrder", "total"))
				.replace(".0", ""));
		}
		finally {
			pool.shutdown();
		}
		Http.Answer next = this.http.post(customer(carol), UPDATE_ORDER,
				vars("input", Map.of("id", id, "note", "after", "expectedVersion", 2))).clean();
		assertThat(next.errors()).isEmpty();
		assertThat(next.at("data", "updateOrder", "version")).isEqualTo(3);
	}

	@Test
	void aTransactionWithOneBadPartWritesNothingAndNamesThePart() {
		String dave = Fixtures.unique("dave");
		createCustomer(dave);
		createOrder(dave, "taken", "open", 1);
		Http.Answer refused = this.http.post(customer(dave), "mutation($input: [CreateOrderInput!]!) { "
				+ "createOrders(input: $input) { orderId } }", vars("input", List.of(Map.of("orderId", "a", "total", 1),
						Map.of("orderId", "taken", "total", 2), Map.of("orderId", "c", "total", 3)))).clean();
		assertThat(refused.codes()).containsExactly("CONFLICT");
		assertThat(refused.at("errors", 0, "extensions", "part")).isEqualTo("input[1]");
		assertThat(stored("CUSTOMER#" + dave, "ORDER#a")).isEmpty();
		assertThat(stored("CUSTOMER#" + dave, "ORDER#c")).isEmpty();

		Http.Answer all = this.http.post(customer(dave), "mutation($input: [CreateOrderInput!]!) { "
				+ "createOrders(input: $input) { orderId version } }", vars("input", List.of(Map.of("orderId", "a", "total", 1),
						Map.of("orderId", "c", "total", 3)))).clean();
		assertThat(all.errors()).isEmpty();
		assertThat(all.at("data", "createOrders", 1, "orderId")).isEqualTo("c");
		assertThat(stored("CUSTOMER#" + dave, "ORDER#a")).containsEntry("version", AttributeValue.fromN("1"));
		assertThat(stored("CUSTOMER#" + dave, "ORDER#c")).containsEntry("version", AttributeValue.fromN("1"));
	}

	@Test
	void anOrderAndItsLinesAreWrittenTogetherOrNotAtAll() {
		String erin = Fixtures.unique("erin");
		createCustomer(erin);
		String orderId = Fixtures.unique("ord");
		Http.Answer duplicate = this.http.post(customer(erin), CREATE_ORDER, vars("input", Map.of("orderId", orderId,
				"total", 9, "lines", List.of(Map.of("line", "1", "sku", "A", "quantity", 1),
						Map.of("line", "1", "sku", "B", "quantity", 2))))).clean();
		assertThat(duplicate.codes()).as(duplicate.body().toString()).containsExactly("INVALID_ARGUMENT");
		assertThat(stored("CUSTOMER#" + erin, "ORDER#" + orderId)).isEmpty();

		Http.Answer created = this.http.post(customer(erin), CREATE_ORDER, vars("input", Map.of("orderId", orderId,
				"total", 9, "lines", List.of(Map.of("line", "1", "sku", "A", "quantity", 1),
						Map.of("line", "2", "sku", "B", "quantity", 2))))).clean();
		assertThat(created.errors()).isEmpty();
		assertThat(stored("CUSTOMER#" + erin + "#ORDER#" + orderId, "LINE#2")).containsEntry("kind", AttributeValue.fromS("OrderLine"))
			.containsEntry("orderId", AttributeValue.fromS(orderId))
			.containsEntry("sku", AttributeValue.fromS("B"))
			.containsEntry("quantity", AttributeValue.fromN("2"));

		Http.Answer again = this.http.post(customer(erin), CREATE_ORDER, vars("input", Map.of("orderId",
				Fixtures.unique("ord"), "total", 9, "lines", List.of(Map.of("line", "1", "sku", "A", "quantity", 0))))).clean();
		assertThat(again.codes()).containsExactly("INVALID_ARGUMENT");
	}

	@Test
	void anOrderOfACustomerThatDoesNotExistIsNotFoundAndNothingIsWritten() {
		String frank = Fixtures.unique("frank");
		Http.Answer refused = this.http.post(customer(frank), CREATE_ORDER,
				vars("input", Map.of("orderId", "o1", "total", 1))).clean();
		assertThat(refused.codes()).containsExactly("NOT_FOUND");
		assertThat(stored("CUSTOMER#" + frank, "ORDER#o1")).isEmpty();
	}

	@Test
	void aRetriedMutationWithTheSameIdempotencyKeyWritesOnce() {
		String gina = Fixtures.unique("gina");
		createCustomer(gina);
		Map<String, Object> input = Map.of("orderId", "o1", "placedAt", "2025-06-01T00:00:00Z", "total", 4,
				"idempotencyKey", Fixtures.unique("key"));
		Http.Answer first = this.http.post(customer(gina), CREATE_ORDER, vars("input", input)).clean();
		Http.Answer retried = this.http.post(customer(gina), CREATE_ORDER, vars("input", input)).clean();
		assertThat(first.errors()).isEmpty();
		assertThat(retried.errors()).as("the retry is answered as the first was").isEmpty();
		assertThat(retried.at("data", "createOrder", "order", "id")).isEqualTo(first.at("data", "createOrder", "order", "id"));
		assertThat(stored("CUSTOMER#" + gina, "ORDER#o1")).containsEntry("version", AttributeValue.fromN("1"));

		Map<String, Object> other = new java.util.HashMap<>(input);
		other.put("total", 5);
		Http.Answer reused = this.http.post(customer(gina), CREATE_ORDER, vars("input", other)).clean();
		assertThat(reused.codes()).containsExactly("CONFLICT");
		assertThat(stored("CUSTOMER#" + gina, "ORDER#o1")).containsEntry("total", AttributeValue.fromN("4"));
	}

	@Test
	void aRetryThatLeavesItsGeneratedTimeOutIsAnsweredAsTheFirstCall() throws Exception {
		String hugo = Fixtures.unique("hugo");
		createCustomer(hugo);
		Map<String, Object> input = Map.of("orderId", "o1", "total", 4, "idempotencyKey", Fixtures.unique("key"));
		Http.Answer first = this.http.post(customer(hugo), CREATE_ORDER, vars("input", input)).clean();
		assertThat(first.errors()).isEmpty();
		Thread.sleep(5); // the clock moves on: the retry must not generate a time of its own
		Http.Answer retried = this.http.post(customer(hugo), CREATE_ORDER, vars("input", input)).clean();
		assertThat(retried.errors()).as(retried.body().toString()).isEmpty();
		assertThat(retried.at("data", "createOrder", "order", "placedAt"))
			.isEqualTo(first.at("data", "createOrder", "order", "placedAt"));
		assertThat(stored("CUSTOMER#" + hugo, "ORDER#o1")).containsEntry("version", AttributeValue.fromN("1"));
	}

	@Test
	void noCallerWritesAnotherOwnersItemsOrMovesAnItemToAnotherOwner() {
		String hal = Fixtures.unique("hal");
		String ivy = Fixtures.unique("ivy");
		createCustomer(hal);
		createCustomer(ivy);
		Http.Answer spoofed = this.http.post(customer(hal), CREATE_ORDER,
				vars("input", Map.of("customerId", ivy, "orderId", "o1", "total", 1))).clean();
		assertThat(spoofed.codes()).containsExactly("FORBIDDEN");
		assertThat(stored("CUSTOMER#" + ivy, "ORDER#o1")).isEmpty();

		String ivys = createOrder(ivy, "o2", "open", 7);
		Http.Answer foreign = this.http.post(customer(hal), UPDATE_ORDER,
				vars("input", Map.of("id", ivys, "note", "mine now"))).clean();
		assertThat(foreign.codes()).containsExactly("FORBIDDEN");
		Http.Answer deleted = this.http.post(customer(hal), "mutation($id: ID!) { deleteOrder(id: $id) }",
				vars("id", ivys)).clean();
		assertThat(deleted.codes()).containsExactly("FORBIDDEN");
		assertThat(stored("CUSTOMER#" + ivy, "ORDER#o2")).doesNotContainKey("note");

		Http.Answer byStaff = this.http.post(staff(), CREATE_ORDER,
				vars("input", Map.of("customerId", ivy, "orderId", "o3", "total", 1))).clean();
		assertThat(byStaff.errors()).isEmpty();
		assertThat(stored("CUSTOMER#" + ivy, "ORDER#o3")).containsEntry("customerId", AttributeValue.fromS(ivy));
		Http.Answer anonymous = this.http.post(null, CREATE_ORDER,
				vars("input", Map.of("customerId", ivy, "orderId", "o4", "total", 1))).clean();
		assertThat(anonymous.codes()).containsExactly("UNAUTHENTICATED");
	}

	@Test
	void aReplaceByIdWritesOnlyTheCallersOwnItem() {
		String kim = Fixtures.unique("kim");
		String lou = Fixtures.unique("lou");
		createCustomer(kim);
		createCustomer(lou);
		String rewrite = "mutation($input: RewriteOrderInput!) { rewriteOrder(input: $input) { customerId orderId total } }";
		String lous = createOrder(lou, "o1", "open", 7);
		Http.Answer foreign = this.http.post(customer(kim), rewrite, vars("input", Map.of("id", lous, "total", 1))).clean();
		assertThat(foreign.codes()).containsExactly("FORBIDDEN");
		assertThat(stored("CUSTOMER#" + lou, "ORDER#o1")).containsEntry("total", AttributeValue.fromN("7"));

		// An id is plain text: one made up for an order of another customer that does not exist yet.
		String forged = NodeIds.encode(this.declarations.entity("Order"), Map.of("PK", AttributeValue.fromS("CUSTOMER#" + lou), "SK",
				AttributeValue.fromS("ORDER#o9")));
		Http.Answer planted = this.http.post(customer(kim), rewrite, vars("input", Map.of("id", forged, "total", 1))).clean();
		assertThat(planted.codes()).containsExactly("FORBIDDEN");
		assertThat(stored("CUSTOMER#" + lou, "ORDER#o9")).isEmpty();

		String kims = createOrder(kim, "o1", "open", 7);
		Http.Answer own = this.http.post(customer(kim), rewrite, vars("input", Map.of("id", kims, "total", 2))).clean();
		assertThat(own.errors()).isEmpty();
		assertThat(own.at("data", "rewriteOrder", "total")).isEqualTo(2.0);
	}

	@Test
	void anUpdateChecksTheItemsItsNewValuesReference() {
		String max = Fixtures.unique("max");
		createCustomer(max);
		String sku = Fixtures.unique("sku");
		Http.Answer product = this.http.post(customer(max), "mutation($input: CreateProductInput!) { "
				+ "createProduct(input: $input) { sku } }", vars("input", Map.of("sku", sku, "name", "Lamp"))).clean();
		assertThat(product.errors()).isEmpty();
		String orderId = Fixtures.unique("ord");
		Http.Answer order = this.http.post(customer(max), CREATE_ORDER, vars("input", Map.of("orderId", orderId,
				"total", 9, "lines", List.of(Map.of("line", "1", "sku", "A", "quantity", 1))))).clean();
		assertThat(order.errors()).isEmpty();
		String line = NodeIds.encode(this.declarations.entity("OrderLine"), Map.of("PK",
				AttributeValue.fromS("CUSTOMER#" + max + "#ORDER#" + orderId), "SK", AttributeValue.fromS("LINE#1")));
		String update = "mutation($input: UpdateLineInput!) { updateLine(input: $input) { sku quantity } }";

		Http.Answer missing = this.http.post(customer(max), update, vars("input", Map.of("id", line, "sku", "no-such")))
			.clean();
		assertThat(missing.codes()).containsExactly("NOT_FOUND");
		assertThat(stored("CUSTOMER#" + max + "#ORDER#" + orderId, "LINE#1")).containsEntry("sku", AttributeValue.fromS("A"));

		Http.Answer moved = this.http.post(customer(max), update, vars("input", Map.of("id", line, "sku", sku))).clean();
		assertThat(moved.errors()).isEmpty();
		assertThat(moved.at("data", "updateLine", "sku")).isEqualTo(sku);
		Http.Answer quantity = this.http.post(customer(max), update, vars("input", Map.of("id", line, "quantity", 3)))
			.clean();
		assertThat(quantity.errors()).as("a value it does not change is not checked again").isEmpty();
		assertThat(stored("CUSTOMER#" + max + "#ORDER#" + orderId, "LINE#1")).containsEntry("quantity", AttributeValue.fromN("3"));
	}

	@Test
	void deletesAnswerTheIdOnceAndHonourTheVersion() {
		String jo = Fixtures.unique("jo");
		createCustomer(jo);
		String id = createOrder(jo, "o1", "open", 1);
		Http.Answer stale = this.http.post(customer(jo),
				"mutation($id: ID!) { deleteOrder(id: $id, expectedVersion: 7) }", vars("id", id)).clean();
		assertThat(stale.codes()).containsExactly("CONFLICT");
		assertThat(stale.at("errors", 0, "extensions", "currentVersion")).isEqualTo(1);
		assertThat(stored("CUSTOMER#" + jo, "ORDER#o1")).isNotEmpty();
		Http.Answer removed = this.http.post(customer(jo), """
				mutation($input: RemoveOrderInput!) { removeOrder(input: $input) { deletedId clientMutationId } }""",
				vars("input", Map.of("id", id, "expectedVersion", 1, "clientMutationId", "x"))).clean();
		assertThat(removed.errors()).isEmpty();
		assertThat(removed.at("data", "removeOrder", "deletedId")).isEqualTo(id);
		assertThat(removed.at("data", "removeOrder", "clientMutationId")).isEqualTo("x");
		assertThat(stored("CUSTOMER#" + jo, "ORDER#o1")).isEmpty();
		Http.Answer again = this.http.post(customer(jo), "mutation($id: ID!) { deleteOrder(id: $id) }", vars("id", id))
			.clean();
		assertThat(again.errors()).isEmpty();
		assertThat(again.at("data", "deleteOrder")).isNull();
	}

	@Test
	void aDeclaredConditionDecidesWhetherTheWriteHappens() {
		String kim = Fixtures.unique("kim");
		createCustomer(kim);
		String id = createOrder(kim, "o1", "open", 50);
		String cancel = "mutation($input: CancelOrderInput!) { cancelOrder(input: $input) { status version } }";
		Http.Answer tooExpensive = this.http.post(customer(kim), cancel, vars("input", Map.of("id", id, "totalAtMost", 10)))
			.clean();
		assertThat(tooExpensive.codes()).containsExactly("CONFLICT");
		Http.Answer cancelled = this.http.post(customer(kim), cancel, vars("input", Map.of("id", id))).clean();
		assertThat(cancelled.errors()).isEmpty();
		assertThat(cancelled.at("data", "cancelOrder", "status")).isEqualTo("cancelled");
		assertThat(stored("CUSTOMER#" + kim, "ORDER#o1")).containsEntry("GSI1PK", AttributeValue.fromS("STATUS#cancelled"));
		Http.Answer twice = this.http.post(customer(kim), cancel, vars("input", Map.of("id", id))).clean();
		assertThat(twice.codes()).as("only an open order is cancelled").containsExactly("CONFLICT");
		Http.Answer missing = this.http.post(customer(kim), UPDATE_ORDER,
				vars("input", Map.of("id", id.substring(0, id.length() - 2) + "AA", "note", "x"))).clean();
		assertThat(missing.codes()).containsAnyOf("NOT_FOUND", "INVALID_ARGUMENT");
	}

	@Test
	void theEdgeACreateAnswersContinuesItsConnectionRightBehindIt() {
		String lee = Fixtures.unique("lee");
		createCustomer(lee);
		for (String orderId : List.of("a", "c", "e")) {
			createOrder(lee, orderId, null, 1);
		}
		Http.Answer created = this.http.post(customer(lee), CREATE_ORDER,
				vars("input", Map.of("orderId", "b", "total", 2))).clean();
		String cursor = (String) created.at("data", "createOrder", "orderEdge", "cursor");
		assertThat(cursor).isNotNull();
		Http.Answer onwards = this.http.post(customer(lee), ORDERS, vars("customerId", lee, "after", cursor)).clean();
		assertThat(onwards.errors()).isEmpty();
		@SuppressWarnings("unchecked")
		List<Map<String, Object>> edges = (List<Map<String, Object>>) onwards.at("data", "customer", "orders", "edges");
		assertThat(edges.stream().map((edge) -> (Object) ((Map<?, ?>) edge.get("node")).get("orderId")).toList())
			.containsExactly("c", "e");
		Http.Answer filtered = this.http.post(customer(lee), """
				mutation($input: CreateOrderInput!) { createOrder(input: $input) {
				  cheap: orderEdge(totalAtLeast: 100) { cursor } dear: orderEdge(totalAtLeast: 1) { cursor } } }""",
				vars("input", Map.of("orderId", "d", "total", 5))).clean();
		assertThat(filtered.at("data", "createOrder", "cheap")).as("not in the filtered connection").isNull();
		assertThat(filtered.at("data", "createOrder", "dear", "cursor")).isNotNull();
	}

	@Test
	void valuesThatDoNotFitAreRefusedBeforeAnythingIsWritten() {
		String max = Fixtures.unique("max");
		createCustomer(max);
		Http.Answer longKey = this.http.post(customer(max), CREATE_ORDER,
				vars("input", Map.of("orderId", "k".repeat(1100), "total", 1))).clean();
		assertThat(longKey.codes()).as("a sort key over 1,024 bytes").containsExactly("INVALID_ARGUMENT");
		Http.Answer huge = this.http.post(customer(max), CREATE_ORDER,
				vars("input", Map.of("orderId", "big", "total", 1, "note", "n".repeat(420_000)))).clean();
		assertThat(huge.codes()).containsExactly("INVALID_ARGUMENT");
		Http.Answer negative = this.http.post(customer(max), CREATE_ORDER,
				vars("input", Map.of("orderId", "neg", "total", -1))).clean();
		assertThat(negative.codes()).containsExactly("INVALID_ARGUMENT");
		Http.Answer range = this.http.post(customer(max), CREATE_ORDER,
				vars("input", Map.of("orderId", "range", "total", 1e300))).clean();
		assertThat(range.codes()).containsExactly("INVALID_ARGUMENT");
		assertThat(stored("CUSTOMER#" + max, "ORDER#big")).isEmpty();
		assertThat(stored("CUSTOMER#" + max, "ORDER#neg")).isEmpty();
		assertThat(stored("CUSTOMER#" + max, "ORDER#range")).isEmpty();
	}

	@Test
	void aReplaceWritesTheWholeItemAndRaisesTheVersion() {
		String ned = Fixtures.unique("ned");
		createCustomer(ned);
		createOrder(ned, "o1", "open", 1);
		Http.Answer replaced = this.http.post(customer(ned), """
				mutation($input: ReplaceOrderInput!) { replaceOrder(input: $input) { status note total version } }""",
				vars("input", Map.of("orderId", "o1", "total", 2, "expectedVersion", 1))).clean();
		assertThat(replaced.errors()).isEmpty();
		assertThat(replaced.at("data", "replaceOrder", "version")).isEqualTo(2);
		assertThat(stored("CUSTOMER#" + ned, "ORDER#o1")).doesNotContainKeys("status", "GSI1PK", "GSI1SK")
			.containsEntry("total", AttributeValue.fromN("2"))
			.containsEntry("kind", AttributeValue.fromS("Order"));
	}

	private static final String UPDATE_LINE = "mutation($input: UpdateLineInput!) { updateLine(input: $input) { quantity } }";

	private static final String ADD_LINE = "mutation($input: AddLineInput!) { addLine(input: $input) { customerId line } }";

	private static final String DELETE_LINE = "mutation($id: ID!) { deleteLine(id: $id) }";

	private static final String LINES = """
			query($id: ID!) { node(id: $id) { ... on Order { lines(first: 20) { edges { node { line sku quantity } } } } } }""";

	/**
	 * The issue's attack on the store's orders: bob creates his own order with alice's order id and lines, updates
	 * her line by its id (which anyone signed in may read), adds and deletes lines of her order. Her order reads
	 * only her lines, each of bob's writes under it is FORBIDDEN with nothing written, and the refusal is the
	 * same whether the line exists or not.
	 */
	@Test
	void onlyWhoeverMayWriteAnOrderWritesItsLines() {
		String alice = Fixtures.unique("alice");
		String bob = Fixtures.unique("bob");
		createCustomer(alice);
		createCustomer(bob);
		String orderId = Fixtures.unique("o");
		Http.Answer hers = this.http.post(customer(alice), CREATE_ORDER, vars("input", Map.of("orderId", orderId,
				"total", 10, "lines", List.of(Map.of("line", "1", "sku", "TENT-2P", "quantity", 1))))).clean();
		assertThat(hers.errors()).isEmpty();
		String alicesOrder = (String) hers.at("data", "createOrder", "order", "id");

		Http.Answer his = this.http.post(customer(bob), CREATE_ORDER, vars("input", Map.of("orderId", orderId, "total", 1,
				"lines", List.of(Map.of("line", "1", "sku", "INJECTED-BY-BOB", "quantity", 5),
						Map.of("line", "3", "sku", "INJECTED-BY-BOB", "quantity", 5))))).clean();
		assertThat(his.errors()).as("his own order, with lines of its own: nothing tells him about hers").isEmpty();
		assertThat(lines(alice, alicesOrder)).containsExactly("1 TENT-2P 1");

		String existing = lineId(alice, orderId, "1");
		String missing = lineId(alice, orderId, "9");
		Http.Answer update = this.http.post(customer(bob), UPDATE_LINE, vars("input", Map.of("id", existing, "quantity", 77)))
			.clean();
		Http.Answer updateMissing = this.http.post(customer(bob), UPDATE_LINE,
				vars("input", Map.of("id", missing, "quantity", 77))).clean();
		Http.Answer add = this.http.post(customer(bob), ADD_LINE, vars("input", Map.of("customerId", alice, "orderId",
				orderId, "line", "1", "sku", "INJECTED-BY-BOB", "quantity", 1))).clean();
		Http.Answer addNew = this.http.post(customer(bob), ADD_LINE, vars("input", Map.of("customerId", alice, "orderId",
				orderId, "line", "9", "sku", "INJECTED-BY-BOB", "quantity", 1))).clean();
		Http.Answer delete = this.http.post(customer(bob), DELETE_LINE, vars("id", existing)).clean();
		Http.Answer deleteMissing = this.http.post(customer(bob), DELETE_LINE, vars("id", missing)).clean();
		for (Http.Answer refused : List.of(update, updateMissing, add, addNew, delete, deleteMissing)) {
			assertThat(refused.codes()).as(refused.body().toString()).containsExactly("FORBIDDEN");
			assertThat(refused.at("extensions", "dynamodb", "requests")).as("refused before anything is sent").isEqualTo(0);
		}
		assertThat(update.at("errors", 0, "message")).as("the same whether the line exists or not")
			.isEqualTo(updateMissing.at("errors", 0, "message"));
		assertThat(add.at("errors", 0, "message")).isEqualTo(addNew.at("errors", 0, "message"));
		assertThat(delete.at("errors", 0, "message")).isEqualTo(deleteMissing.at("errors", 0, "message"));
		assertThat((String) update.at("errors", 0, "message")).isEqualTo("`input` writes under the Order of `customerId` "
				+ "`%s`, and the caller is `%s`: a caller that owns its Order items writes OrderLine items under its own only."
					.formatted(alice, bob));
		assertThat(lines(alice, alicesOrder)).containsExactly("1 TENT-2P 1");
		assertThat(stored("CUSTOMER#" + alice + "#ORDER#" + orderId, "LINE#9")).isEmpty();

		Http.Answer ownLine = this.http.post(customer(bob), ADD_LINE, vars("input", Map.of("orderId", orderId, "line", "4",
				"sku", "S", "quantity", 1))).clean();
		assertThat(ownLine.errors()).as("left out, the order's owner is the caller").isEmpty();
		assertThat(ownLine.at("data", "addLine", "customerId")).isEqualTo(bob);
		Http.Answer byAlice = this.http.post(customer(alice), UPDATE_LINE, vars("input", Map.of("id", existing, "quantity", 2)))
			.clean();
		assertThat(byAlice.errors()).isEmpty();
		Http.Answer byStaff = this.http.post(staff(), ADD_LINE, vars("input", Map.of("customerId", alice, "orderId", orderId,
				"line", "2", "sku", "PEG-10", "quantity", 4))).clean();
		assertThat(byStaff.errors()).isEmpty();
		assertThat(lines(alice, alicesOrder)).containsExactly("1 TENT-2P 2", "2 PEG-10 4");
		Http.Answer deleted = this.http.post(customer(alice), DELETE_LINE, vars("id", lineId(alice, orderId, "2"))).clean();
		assertThat(deleted.errors()).isEmpty();
		assertThat(lines(alice, alicesOrder)).containsExactly("1 TENT-2P 2");
	}

	/**
	 * A wish list's owner is no part of its key: a wish is written under it only if a check of the list in the same
	 * transaction finds it the caller's. Bob's writes under alice's list are FORBIDDEN, told before whether the
	 * wish exists, and nothing is written.
	 */
	@Test
	void aWishIsWrittenOnlyUnderTheCallersOwnListCheckedInTheSameTransaction() {
		String alice = Fixtures.unique("alice");
		String bob = Fixtures.unique("bob");
		String list = Fixtures.unique("list");
		Http.Answer created = this.http.post(customer(alice), """
				mutation($input: CreateWishListInput!) { createWishList(input: $input) { id customerId } }""",
				vars("input", Map.of("listId", list, "name", "Camping", "wishes", List.of(Map.of("sku", "A", "note", "hers")))))
			.clean();
		assertThat(created.errors()).isEmpty();
		assertThat(created.at("data", "createWishList", "customerId")).isEqualTo(alice);
		String add = "mutation($input: AddWishInput!) { addWish(input: $input) { sku note } }";
		String update = "mutation($input: UpdateWishInput!) { updateWish(input: $input) { note } }";
		String delete = "mutation($id: ID!) { deleteWish(id: $id) }";
		String wishA = wishId(list, "A");
		String wishZ = wishId(list, "Z");

		Http.Answer addExisting = this.http.post(customer(bob), add, vars("input", Map.of("listId", list, "sku", "A"))).clean();
		Http.Answer addNew = this.http.post(customer(bob), add, vars("input", Map.of("listId", list, "sku", "B"))).clean();
		Http.Answer updateExisting = this.http.post(customer(bob), update, vars("input", Map.of("id", wishA, "note", "his")))
			.clean();
		Http.Answer updateMissing = this.http.post(customer(bob), update, vars("input", Map.of("id", wishZ, "note", "his")))
			.clean();
		Http.Answer deleteExisting = this.http.post(customer(bob), delete, vars("id", wishA)).clean();
		Http.Answer deleteMissing = this.http.post(customer(bob), delete, vars("id", wishZ)).clean();
		Http.Answer noList = this.http.post(customer(bob), add, vars("input", Map.of("listId", Fixtures.unique("none"),
				"sku", "A"))).clean();
		for (Http.Answer refused : List.of(addExisting, addNew, updateExisting, updateMissing, deleteExisting, deleteMissing,
				noList)) {
			assertThat(refused.codes()).as(refused.body().toString()).containsExactly("FORBIDDEN");
		}
		assertThat(addExisting.at("errors", 0, "message")).as("the same whether the wish exists or not")
			.isEqualTo(addNew.at("errors", 0, "message"));
		assertThat(updateExisting.at("errors", 0, "message")).isEqualTo(updateMissing.at("errors", 0, "message"));
		assertThat(deleteExisting.at("errors", 0, "message")).isEqualTo(deleteMissing.at("errors", 0, "message"));
		assertThat((String) updateExisting.at("errors", 0, "message")).startsWith("`input` writes under the WishList `")
			.endsWith("`, which is not the caller's (`%s`), or does not exist: a caller that owns its WishList items writes "
				.formatted(bob) + "Wish items under its own only. Nothing was written.");
		assertThat(stored("LIST#" + list, "WISH#A")).containsEntry("note", AttributeValue.fromS("hers"));
		assertThat(stored("LIST#" + list, "WISH#B")).isEmpty();

		String own = Fixtures.unique("list");
		assertThat(this.http.post(customer(bob), "mutation($input: CreateWishListInput!) { createWishList(input: $input) { id } }",
				vars("input", Map.of("listId", own))).clean().errors()).isEmpty();
		assertThat(this.http.post(customer(bob), add, vars("input", Map.of("listId", own, "sku", "C"))).clean().errors())
			.isEmpty();
		Http.Answer ownUpdate = this.http.post(customer(bob), update, vars("input", Map.of("id", wishId(own, "C"), "note",
				"mine"))).clean();
		assertThat(ownUpdate.errors()).isEmpty();
		assertThat(ownUpdate.at("data", "updateWish", "note")).isEqualTo("mine");
		Http.Answer ownMissing = this.http.post(customer(bob), update, vars("input", Map.of("id", wishId(own, "Z"), "note",
				"x"))).clean();
		assertThat(ownMissing.codes()).as("under his own list, a missing wish is one").containsExactly("NOT_FOUND");
		assertThat(this.http.post(staff(), add, vars("input", Map.of("listId", list, "sku", "D"))).clean().errors()).isEmpty();
		assertThat(this.http.post(customer(alice), delete, vars("id", wishA)).clean().at("data", "deleteWish"))
			.isEqualTo(wishA);
	}

	/**
	 * The issue's finding: a key another caller used answered CONFLICT, telling that it was used. Each caller's keys
	 * are its own: bob's write with alice's key is his own write, and each one's retry is answered as its first.
	 */
	@Test
	void anIdempotencyKeyIsTheCallersOwn() {
		String alice = Fixtures.unique("alice");
		String bob = Fixtures.unique("bob");
		createCustomer(alice);
		createCustomer(bob);
		String key = Fixtures.unique("key");
		Map<String, Object> hers = Map.of("orderId", "o1", "placedAt", "2025-06-01T00:00:00Z", "total", 4, "idempotencyKey", key);
		Map<String, Object> his = Map.of("orderId", "o1", "placedAt", "2025-06-02T00:00:00Z", "total", 5, "idempotencyKey", key);
		Http.Answer first = this.http.post(customer(alice), CREATE_ORDER, vars("input", hers)).clean();
		assertThat(first.errors()).isEmpty();
		Http.Answer other = this.http.post(customer(bob), CREATE_ORDER, vars("input", his)).clean();
		assertThat(other.errors()).as("another caller's key neither conflicts nor tells it was used").isEmpty();
		assertThat(stored("CUSTOMER#" + bob, "ORDER#o1")).containsEntry("total", AttributeValue.fromN("5"));

		Http.Answer hisAgain = this.http.post(customer(bob), CREATE_ORDER, vars("input", his)).clean();
		Http.Answer hersAgain = this.http.post(customer(alice), CREATE_ORDER, vars("input", hers)).clean();
		assertThat(hisAgain.errors()).isEmpty();
		assertThat(hersAgain.errors()).isEmpty();
		assertThat(hisAgain.at("data", "createOrder", "order", "id")).isEqualTo(other.at("data", "createOrder", "order", "id"));
		assertThat(hersAgain.at("data", "createOrder", "order", "id")).isEqualTo(first.at("data", "createOrder", "order", "id"));
		assertThat(stored("CUSTOMER#" + alice, "ORDER#o1")).containsEntry("total", AttributeValue.fromN("4"))
			.containsEntry("version", AttributeValue.fromN("1"));
	}

	/**
	 * An update measures only what it sends; the item another program wrote holds more. Past DynamoDB's 400 KB it is
	 * INVALID_ARGUMENT saying so, nothing is written and nothing is logged at ERROR, alone or in a transaction.
	 */
	@Test
	void anUpdateThatWouldGrowAnItemPast400KbIsRefusedAsTheClients() {
		String ruth = Fixtures.unique("ruth");
		createCustomer(ruth);
		String order = createOrder(ruth, "big", "open", 1);
		Http.Answer created = this.http.post(customer(ruth), CREATE_ORDER, vars("input", Map.of("orderId", "lined",
				"total", 1, "lines", List.of(Map.of("line", "1", "sku", "A", "quantity", 1))))).clean();
		assertThat(created.errors()).isEmpty();
		// A product whose long sku makes a line that names it about 1.5 KB larger.
		String sku = Fixtures.unique("sku") + "-" + "s".repeat(1_500);
		assertThat(this.http.post(customer(ruth), "mutation($input: CreateProductInput!) { createProduct(input: $input) { sku } }",
				vars("input", Map.of("sku", sku))).clean().errors()).isEmpty();
		// What another program wrote: attributes the schema does not name, close to the limit.
		legacy(Map.of("PK", AttributeValue.fromS("CUSTOMER#" + ruth), "SK", AttributeValue.fromS("ORDER#big")), 395_000);
		legacy(Map.of("PK", AttributeValue.fromS("CUSTOMER#" + ruth + "#ORDER#lined"), "SK", AttributeValue.fromS("LINE#1")),
				408_500);
		String line = NodeIds.encode(this.declarations.entity("OrderLine"), Map.of("PK",
				AttributeValue.fromS("CUSTOMER#" + ruth + "#ORDER#lined"), "SK", AttributeValue.fromS("LINE#1")));

		Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
		ListAppender<ILoggingEvent> logged = new ListAppender<>();
		logged.start();
		root.addAppender(logged);
		try {
			Http.Answer alone = this.http.post(customer(ruth), UPDATE_ORDER,
					vars("input", Map.of("id", order, "note", "n".repeat(20_000)))).clean();
			assertThat(alone.codes()).as(alone.body().toString()).containsExactly("INVALID_ARGUMENT");
			assertThat(alone.at("errors", 0, "message")).isEqualTo("`input` would make an item over DynamoDB's limit of "
					+ "409600 bytes (400 KB), with the attributes it holds already: nothing was written.");
			Http.Answer inTransaction = this.http.post(customer(ruth), "mutation($input: UpdateLineInput!) { "
					+ "updateLine(input: $input) { sku } }", vars("input", Map.of("id", line, "sku", sku)))
				.clean();
			assertThat(inTransaction.codes()).as(inTransaction.body().toString()).containsExactly("INVALID_ARGUMENT");
			assertThat((String) inTransaction.at("errors", 0, "message")).contains("over DynamoDB's limit of 409600 bytes (400 KB)");
		}
		finally {
			root.detachAppender(logged);
		}
		assertThat(logged.list.stream().filter((event) -> event.getLevel().isGreaterOrEqual(Level.ERROR)).toList())
			.as("nothing a client causes is logged at ERROR").isEmpty();
		assertThat(stored("CUSTOMER#" + ruth, "ORDER#big")).doesNotContainKey("note");
		assertThat(stored("CUSTOMER#" + ruth + "#ORDER#lined", "LINE#1")).containsEntry("sku", AttributeValue.fromS("A"));
	}

	/** Writes {@code bytes} characters into attribute {@code legacy} of the item with {@code key}, as another program. */
	private void legacy(Map<String, AttributeValue> key, int bytes) {
		this.dynamoDb.updateItem((direct) -> direct.tableName(TABLE)
			.key(key)
			.updateExpression("SET legacy = :x")
			.expressionAttributeValues(Map.of(":x", AttributeValue.fromS("x".repeat(bytes)))));
	}

	/** What {@code customerId} reads of the lines of its order {@code orderId}: "line sku quantity" each. */
	private List<String> lines(String customerId, String orderId) {
		Http.Answer read = this.http.post(customer(customerId), LINES, vars("id", orderId)).clean();
		assertThat(read.errors()).as(read.body().toString()).isEmpty();
		@SuppressWarnings("unchecked")
		List<Map<String, Map<String, Object>>> edges = (List<Map<String, Map<String, Object>>>) read.at("data", "node",
				"lines", "edges");
		return edges.stream()
			.map((edge) -> edge.get("node"))
			.map((node) -> node.get("line") + " " + node.get("sku") + " " + node.get("quantity"))
			.toList();
	}

	/** The node id of line {@code line} of order {@code orderId} of {@code customerId}, which anyone may make up. */
	private String lineId(String customerId, String orderId, String line) {
		return NodeIds.encode(this.declarations.entity("OrderLine"), Map.of("PK",
				AttributeValue.fromS("CUSTOMER#" + customerId + "#ORDER#" + orderId), "SK", AttributeValue.fromS("LINE#" + line)));
	}

	private String wishId(String listId, String sku) {
		return NodeIds.encode(this.declarations.entity("Wish"), Map.of("PK", AttributeValue.fromS("LIST#" + listId), "SK",
				AttributeValue.fromS("WISH#" + sku)));
	}

	/** Creates an order of {@code customerId} as that customer; its node id. */
	private String createOrder(String customerId, String orderId, String status, double total) {
		Map<String, Object> input = new java.util.HashMap<>();
		input.put("orderId", orderId);
		input.put("total", total);
		if (status != null) {
			input.put("status", status);
		}
		Http.Answer created = this.http.post(customer(customerId), CREATE_ORDER, vars("input", input)).clean();
		assertThat(created.errors()).as(created.body().toString()).isEmpty();
		return (String) created.at("data", "createOrder", "order", "id");
	}

}
