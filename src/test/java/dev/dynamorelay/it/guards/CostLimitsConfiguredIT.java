package dev.dynamorelay.it.guards;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.test.context.TestPropertySource;

import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/** Configured cost limits, each met exactly and exceeded by one step. */
@TestPropertySource(properties = { "dynamo-relay.limits.max-depth=6", "dynamo-relay.limits.max-root-fields=2",
		"dynamo-relay.limits.max-items=1100", "dynamo-relay.read-budget=1000" })
class CostLimitsConfiguredIT extends IntegrationTest {

	@Test
	void depth() {
		GraphQlResponse six = execute("{ user(userId: \"user-01\") { purchases(first: 2) { edges { node { user { userId } } } } } }");
		assertThat(six.getErrors()).isEmpty();
		assertThat(six.field("user.purchases.edges").<List<?>>getValue()).hasSize(2);
		assertThat(refused("{ user(userId: \"user-01\") { purchases(first: 2) { edges { node { user { purchases { totalCount } } } } } } }"))
			.isEqualTo("The request nests fields 7 deep; the limit is 6 (dynamo-relay.limits.max-depth).");
	}

	@Test
	void rootFields() {
		GraphQlResponse two = execute("{ a: user(userId: \"user-01\") { name } b: user(userId: \"user-02\") { name } }");
		assertThat(two.getErrors()).isEmpty();
		assertThat(refused("{ a: user(userId: \"user-01\") { name } b: user(userId: \"user-02\") { name } __typename }"))
			.isEqualTo("The request has 3 root fields (each alias counts); the limit is 2 "
					+ "(dynamo-relay.limits.max-root-fields).");
	}

	@Test
	void items() {
		GraphQlResponse exactly = execute("""
				{ purchasesByCategory(category: "books", first: 100, minAmount: 1) { edges { node { user { name } } } } }""");
		assertThat(exactly.getErrors()).as("1,000 + 100 items").isEmpty();
		assertThat(exactly.field("purchasesByCategory.edges").<List<?>>getValue()).hasSize(100);
		assertThat(refused("""
				{ purchasesByCategory(category: "books", first: 100, minAmount: 1) { edges { node { user { name } } } }
				  c: purchasesByCategory(category: "books", first: 1) { edges { cursor } } }"""))
			.isEqualTo("The request may read about 1,101 items (the most: 1,000 purchasesByCategory read (a filtered "
					+ "page: read budget)); the limit is 1,100 (dynamo-relay.limits.max-items).");
	}

	private String refused(String document) {
		return CostLimitsIT.refused(() -> execute(document));
	}

}
