package dev.dynamorelay.it.reads;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Direct;
import dev.dynamorelay.it.Documents;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Walker;

import static dev.dynamorelay.it.Direct.nodePurchaseKeys;
import static dev.dynamorelay.it.Direct.purchaseKeys;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code dynamo-relay.dynamodb.http-client=netty}: the SDK's Netty client in place of the default AWS CRT one
 * (every other integration test runs on the CRT's). Walks in both orders equal direct reads, and a page's
 * users come in its one batched read.
 */
@TestPropertySource(properties = "dynamo-relay.dynamodb.http-client=netty")
class NettyHttpClientIT extends IntegrationTest {

	private static final long T0 = 1_700_000_000_000L;

	@Test
	void walksEqualDirectReadsOverNetty() {
		String category = Fixtures.unique("netty");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 40; i++) {
			items.add(Fixtures.purchase("netty-%02d-%s".formatted(i, category), T0 + (i % 7) * 1000L, category, "5"));
		}
		this.fixtures.putPurchases(items);
		for (String order : List.of("ASC", "DESC")) {
			List<String> expected = purchaseKeys(
					Direct.byCategory(this.dynamoDb, this.tables.purchases(), category, order.equals("ASC")));
			List<Map<String, Object>> walked = this.walker.forward(Documents.BY_CATEGORY, "purchasesByCategory",
					Map.of("category", category, "order", order), 9, true);
			assertThat(nodePurchaseKeys(walked)).as(order).hasSize(40).containsExactlyElementsOf(expected);
		}
	}

	@Test
	void aPagesUsersComeInOneBatchedReadOverNetty() {
		Walker.Page page = this.walker.page("""
				{ purchasesByCategory(category: "books", first: 10) { edges { node { id user { name } } } } }""",
				"purchasesByCategory", Map.of());
		assertThat(page.edges()).hasSize(10).allSatisfy((edge) -> assertThat(Walker.node(edge).get("user"))
			.asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
			.containsKey("name"));
		assertThat(page.requests()).as("the Query and one BatchGetItem").isEqualTo(2);
	}

}
