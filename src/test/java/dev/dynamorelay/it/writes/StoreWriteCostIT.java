package dev.dynamorelay.it.writes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.Http;
import dev.dynamorelay.it.StoreIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes weigh in the request's items like reads: each input object and each child, summed over the
 * mutations of one request, refused whole before anything is written when over
 * {@code dynamo-relay.limits.max-items}.
 */
@TestPropertySource(properties = "dynamo-relay.limits.max-items=50")
class StoreWriteCostIT extends StoreIntegrationTest {

	private static final String CREATE_ORDERS = """
			mutation($input: [CreateOrderInput!]!) { createOrders(input: $input) { orderId } }""";

	@Test
	void ordersWithTheirLinesWeighEveryItemWritten() {
		String fay = Fixtures.unique("fay");
		createCustomer(fay);
		Http.Answer over = this.http.post(customer(fay), CREATE_ORDERS,
				vars("input", List.of(order("a", 24), order("b", 25)))).clean();
		assertThat(over.codes()).containsExactly("QUERY_TOO_COMPLEX");
		assertThat(over.at("errors", 0, "message")).isEqualTo("The request may read or write about 51 items (the most: "
				+ "51 createOrders written); the limit is 50 (dynamo-relay.limits.max-items).");
		assertThat(over.at("extensions", "dynamodb", "requests")).as("nothing read or written").isEqualTo(0);
		assertThat(stored("CUSTOMER#" + fay, "ORDER#a")).isEmpty();

		Http.Answer exactly = this.http.post(customer(fay), CREATE_ORDERS,
				vars("input", List.of(order("a", 24), order("b", 24)))).clean();
		assertThat(exactly.errors()).as("50 items").isEmpty();
		assertThat(stored("CUSTOMER#" + fay + "#ORDER#b", "LINE#24")).isNotEmpty();
	}

	@Test
	void theMutationsOfOneRequestAddUp() {
		String gus = Fixtures.unique("gus");
		createCustomer(gus);
		String twice = """
				mutation($one: [CreateOrderInput!]!, $two: [CreateOrderInput!]!) {
				  one: createOrders(input: $one) { orderId } two: createOrders(input: $two) { orderId } }""";
		Http.Answer over = this.http.post(customer(gus), twice,
				vars("one", List.of(order("a", 29)), "two", List.of(order("b", 20)))).clean();
		assertThat(over.codes()).containsExactly("QUERY_TOO_COMPLEX");
		assertThat((String) over.at("errors", 0, "message")).startsWith("The request may read or write about 51 items "
				+ "(the most: 30 createOrders written)");
		assertThat(stored("CUSTOMER#" + gus, "ORDER#a")).isEmpty();
		assertThat(stored("CUSTOMER#" + gus, "ORDER#b")).isEmpty();
	}

	private static Map<String, Object> order(String orderId, int lines) {
		List<Map<String, Object>> each = new ArrayList<>();
		for (int i = 1; i <= lines; i++) {
			each.add(Map.of("line", Integer.toString(i), "sku", "S" + i, "quantity", 1));
		}
		return Map.of("orderId", orderId, "total", 1, "lines", each);
	}

}
