package dev.dynamorelay.it.operations;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Documents;
import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Walker;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a page costs in DynamoDB requests, read from {@code extensions.dynamodb} (counts, not timings). The server is
 * one of its own (a property no other test sets gives it its own context, so its own embedded engine), holding the
 * sample's data alone: the users other tests make in the shared one, some with purchases of hundreds of KB, are
 * scanned among the first twenty in some orders of the test classes and take more than one Query each past
 * DynamoDB's 1 MB (a clean clone's run saw 23 requests for 21).
 */
@TestPropertySource(properties = "dynamo-relay.cursor.secret=request-counts-own-server")
class RequestCountsIT extends IntegrationTest {

	private static final long T0 = 1_740_000_000_000L;

	private static final String PAGE_WITH_USERS = """
			query($category: String!) {
			  purchasesByCategory(category: $category, first: 50) {
			    edges { node { id user { userId name } } }
			  }
			}""";

	@Test
	void anUnfilteredPageIsExactlyOneQueryOfFirstPlusOneItems() {
		String category = Fixtures.unique("one");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 120; i++) {
			items.add(Fixtures.purchase("u" + i, T0 + i, category, "1"));
		}
		this.fixtures.putPurchases(items);
		for (int first : new int[] { 1, 20, 50, 100 }) {
			Walker.Page page = this.walker.page(Documents.BY_CATEGORY, "purchasesByCategory",
					Map.of("category", category, "first", first));
			assertThat(page.requests()).as("first: %d", first).isEqualTo(1);
			assertThat(page.scannedCount()).as("first: %d", first).isEqualTo(first + 1);
		}
		Walker.Page last = this.walker.page(Documents.BY_CATEGORY, "purchasesByCategory",
				Map.of("category", category, "last", 50));
		assertThat(last.requests()).isEqualTo(1);
		assertThat(last.scannedCount()).isEqualTo(51);
	}

	@Test
	void fiftyPurchasesOfOneUserLoadTheirUserWithOneBatchGetItem() {
		String userId = this.fixtures.buyer("batched");
		String category = Fixtures.unique("batched");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			items.add(Fixtures.purchase(userId, T0 + i, category, "1"));
		}
		this.fixtures.putPurchases(items);
		GraphQlResponse response = execute(PAGE_WITH_USERS, Map.of("category", category));
		assertThat(response.getErrors()).isEmpty();
		List<Map<String, Object>> edges = response.field("purchasesByCategory.edges").getValue();
		assertThat(edges).hasSize(50);
		assertThat(Errors.requests(response)).as("one Query and one BatchGetItem").isEqualTo(2);
	}

	@Test
	void fiftyPurchasesOfFiftyUsersStillLoadTheirUsersWithOneBatchGetItem() {
		String category = Fixtures.unique("many");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			String userId = this.fixtures.buyer("many" + i);
			items.add(Fixtures.purchase(userId, T0, category, "1"));
		}
		this.fixtures.putPurchases(items);
		GraphQlResponse response = execute(PAGE_WITH_USERS, Map.of("category", category));
		assertThat(response.getErrors()).isEmpty();
		List<Map<String, Object>> edges = response.field("purchasesByCategory.edges").getValue();
		assertThat(edges).allSatisfy((edge) -> assertThat(edge.toString()).contains("Buyer many"));
		assertThat(Errors.requests(response)).isEqualTo(2);
	}

	@Test
	void nestedConnectionsOfTwentyUsersCostOneScanAndOneQueryEach() {
		GraphQlResponse response = execute("""
				{ users(first: 20) { edges { node { userId purchases(first: 10) { edges { node { id } } } } } } }""");
		assertThat(response.getErrors()).isEmpty();
		assertThat(Errors.requests(response)).isEqualTo(21);
	}

	@Test
	void totalCountIsReadOnlyWhenTheDocumentSelectsIt() {
		String category = Fixtures.unique("counted");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			items.add(Fixtures.purchase("u" + i, T0 + i, category, "1"));
		}
		this.fixtures.putPurchases(items);
		String connection = "purchasesByCategory(category: $category, first: 5) { edges { cursor } ";
		Map<String, Long> expected = new LinkedHashMap<>();
		expected.put(connection + "} }", 1L);
		expected.put(connection + "totalCount } }", 2L);
		expected.put(connection + "... on PurchaseConnection { totalCount } } }", 2L);
		expected.put(connection + "...counted } } fragment counted on PurchaseConnection { totalCount }", 2L);
		expected.put(connection + "totalCount @include(if: $no) } }", 1L);
		expected.put(connection + "totalCount @skip(if: $yes) } }", 1L);
		expected.put(connection + "totalCount @include(if: $yes) } }", 2L);
		expected.put(connection + "... @skip(if: true) { totalCount } } }", 1L);
		expected.put(connection + "...counted @include(if: false) } } fragment counted on PurchaseConnection { totalCount }",
				1L);
		expected.forEach((body, requests) -> {
			// A declared but unused variable fails validation: declare only those the body uses.
			String document = "query($category: String!" + (body.contains("$yes") ? ", $yes: Boolean = true" : "")
					+ (body.contains("$no") ? ", $no: Boolean = false" : "") + ") { " + body;
			GraphQlResponse response = execute(document, Map.of("category", category));
			assertThat(response.getErrors()).as(document).isEmpty();
			assertThat(Errors.requests(response)).as(document).isEqualTo(requests);
			if (requests == 2) {
				assertThat(response.field("purchasesByCategory.totalCount").<Integer>getValue()).as(document)
					.isEqualTo(30);
			}
		});
	}

}
