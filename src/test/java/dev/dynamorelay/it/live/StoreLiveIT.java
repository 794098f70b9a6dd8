package dev.dynamorelay.it.live;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.client.ClientGraphQlResponse;

import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.Http;
import dev.dynamorelay.it.StoreIntegrationTest;
import dev.dynamorelay.it.Subscriber;
import dev.dynamorelay.it.Tokens;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Live connections of the single-table store, with a JWT key configured: every change is judged with the
 * caller's rules (a customer never receives another customer's order, nor learns that it changed), an order that
 * moves between the partitions of an index leaves one subscription and enters another, and a subscription ends
 * with UNAUTHENTICATED when its token expires.
 */
class StoreLiveIT extends StoreIntegrationTest {

	private static final String BY_STATUS = """
			subscription($status: String!) { orderChanges(status: $status) {
			  kind deletedId edge { cursor node { orderId customerId status } } } }""";

	private static final String OF_CUSTOMER = """
			subscription($customerId: String!, $totalAtLeast: Float) {
			  customerOrderChanges(customerId: $customerId, totalAtLeast: $totalAtLeast) {
			    kind deletedId edge { node { orderId total } } } }""";

	private static final Duration WITHIN = Duration.ofSeconds(5);

	@Test
	void aCustomerReceivesOnlyItsOwnOrdersChangesThroughAnIndex() throws Exception {
		String pat = Fixtures.unique("pat");
		String quinn = Fixtures.unique("quinn");
		createCustomer(pat);
		createCustomer(quinn);
		String status = Fixtures.unique("st");
		try (Subscriber patSees = new Subscriber(this.port, customer(pat), BY_STATUS, vars("status", status));
				Subscriber staffSees = new Subscriber(this.port, staff(), BY_STATUS, vars("status", status))) {
			createOrder(quinn, "q1", status, 1);
			createOrder(pat, "p1", status, 2);
			assertThat(node(patSees.next(WITHIN))).containsEntry("orderId", "p1").containsEntry("customerId", pat);
			patSees.nothingFor(Duration.ofMillis(500));
			List<Object> staffOrders = List.of(node(staffSees.next(WITHIN)).get("orderId"),
					node(staffSees.next(WITHIN)).get("orderId"));
			assertThat(staffOrders).containsExactlyInAnyOrder("q1", "p1");
		}
	}

	@Test
	void anOrderThatChangesStatusLeavesOneIndexPartitionAndEntersAnother() throws Exception {
		String rae = Fixtures.unique("rae");
		createCustomer(rae);
		String open = Fixtures.unique("open");
		String shipped = Fixtures.unique("shipped");
		try (Subscriber opened = new Subscriber(this.port, customer(rae), BY_STATUS, vars("status", open));
				Subscriber sent = new Subscriber(this.port, customer(rae), BY_STATUS, vars("status", shipped))) {
			// Created while both listen, so that no change of the creation can still be on its way below.
			String id = createOrder(rae, "o1", open, 5);
			assertThat(opened.next(WITHIN)).containsEntry("kind", "ADDED");
			Http.Answer updated = this.http.post(customer(rae),
					"mutation($input: UpdateOrderInput!) { updateOrder(input: $input) { status } }",
					vars("input", Map.of("id", id, "status", shipped))).clean();
			assertThat(updated.errors()).isEmpty();
			Map<String, Object> left = opened.next(WITHIN);
			assertThat(left).containsEntry("kind", "REMOVED").containsEntry("deletedId", id);
			Map<String, Object> entered = sent.next(WITHIN);
			assertThat(entered).containsEntry("kind", "ADDED");
			assertThat(node(entered)).containsEntry("status", shipped);
		}
	}

	@Test
	void filtersOfTheConnectionDecideEveryChange() throws Exception {
		String sam = Fixtures.unique("sam");
		createCustomer(sam);
		try (Subscriber dear = new Subscriber(this.port, customer(sam), OF_CUSTOMER,
				vars("customerId", sam, "totalAtLeast", 100))) {
			createOrder(sam, "cheap", null, 5);
			createOrder(sam, "dear", null, 500);
			Map<String, Object> change = dear.next(WITHIN);
			assertThat(node(change)).containsEntry("orderId", "dear");
			dear.nothingFor(Duration.ofMillis(500));
		}
	}

	@Test
	void anotherCustomersPartitionIsForbiddenWhenSubscribing() throws Exception {
		String tom = Fixtures.unique("tom");
		String uma = Fixtures.unique("uma");
		createCustomer(tom);
		createCustomer(uma);
		try (Subscriber spy = new Subscriber(this.port, customer(tom), OF_CUSTOMER, vars("customerId", uma))) {
			ClientGraphQlResponse refused = spy.response(WITHIN);
			assertThat(refused).isNotNull();
			assertThat(refused.getErrors()).singleElement()
				.satisfies((error) -> assertThat(error.getExtensions()).containsEntry("code", "FORBIDDEN"));
		}
		try (Subscriber anonymous = new Subscriber(this.port, null, OF_CUSTOMER, vars("customerId", uma))) {
			ClientGraphQlResponse refused = anonymous.response(WITHIN);
			assertThat(refused).isNotNull();
			assertThat(refused.getErrors()).singleElement()
				.satisfies((error) -> assertThat(error.getExtensions()).containsEntry("code", "UNAUTHENTICATED"));
		}
	}

	@Test
	void aSubscriptionEndsWithUnauthenticatedWhenItsTokenExpires() throws Exception {
		String val = Fixtures.unique("val");
		createCustomer(val);
		String shortLived = Tokens.expiring(val, Duration.ofSeconds(3));
		try (Subscriber subscriber = new Subscriber(this.port, shortLived, OF_CUSTOMER, vars("customerId", val))) {
			createOrder(val, "before", null, 1);
			assertThat(subscriber.next(WITHIN)).containsEntry("kind", "ADDED");
			ClientGraphQlResponse ended = subscriber.response(Duration.ofSeconds(8));
			Throwable failure = subscriber.failure();
			String codes = (ended != null) ? ended.getErrors().toString() : String.valueOf(failure);
			assertThat(codes).contains("UNAUTHENTICATED");
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> node(Map<String, Object> change) {
		return (Map<String, Object>) ((Map<String, Object>) change.get("edge")).get("node");
	}

	private String createOrder(String customerId, String orderId, String status, double total) {
		Map<String, Object> input = new java.util.HashMap<>();
		input.put("orderId", orderId);
		input.put("total", total);
		if (status != null) {
			input.put("status", status);
		}
		Http.Answer created = this.http.post(customer(customerId),
				"mutation($input: CreateOrderInput!) { createOrder(input: $input) { order { id } } }", vars("input", input))
			.clean();
		assertThat(created.errors()).as(created.body().toString()).isEmpty();
		return (String) created.at("data", "createOrder", "order", "id");
	}

}
