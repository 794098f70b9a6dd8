package dev.dynamorelay.it.reads;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Select;

import dev.dynamorelay.it.Direct;
import dev.dynamorelay.it.Documents;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Walker;

import static dev.dynamorelay.it.Direct.nodePurchaseKeys;
import static dev.dynamorelay.it.Direct.purchaseKeys;
import static org.assertj.core.api.Assertions.assertThat;

/** Forward walks of every connection, compared item by item with direct DynamoDB reads. */
class ForwardPaginationIT extends IntegrationTest {

	private static final long T0 = 1_700_000_000_000L;

	@Test
	void walksEveryUserOnceInScanOrder() {
		this.fixtures.user(Fixtures.unique("walker"), "Walker");
		List<String> expected = Direct.scan(this.dynamoDb, (s) -> s.tableName(this.tables.users()))
			.stream()
			.map((item) -> item.get("userId").s())
			.toList();
		List<String> walked = this.walker.forward(Documents.USERS, "users", Map.of(), 7, true)
			.stream()
			.map((node) -> (String) node.get("userId"))
			.toList();
		assertThat(walked).hasSizeGreaterThanOrEqualTo(51).containsExactlyElementsOf(expected);
	}

	@Test
	void walksAUsersPurchasesInBothOrders() {
		String userId = Fixtures.unique("buyer");
		this.fixtures.user(userId, "Buyer");
		this.fixtures.putPurchases(this.fixtures.purchases(userId, 123, T0, "books"));
		for (String order : List.of("ASC", "DESC")) {
			List<Map<String, Object>> walked = this.walker.forward(Documents.USER_PURCHASES, "user.purchases",
					Map.of("userId", userId, "order", order), 10, true);
			assertThat(nodePurchaseKeys(walked)).hasSize(123)
				.containsExactlyElementsOf(
						purchaseKeys(Direct.userPurchases(this.dynamoDb, this.tables.purchases(), userId, order.equals("ASC"))));
		}
	}

	@Test
	void walksACategoryAcrossHundredsOfItemsSharingOneIndexKey() {
		String category = Fixtures.unique("ties");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 150; i++) {
			items.add(Fixtures.purchase("tie-%03d-%s".formatted(i, category), T0, category, "5"));
		}
		for (int i = 0; i < 30; i++) {
			items.add(Fixtures.purchase("other-" + i, T0 + (i - 15) * 1000L, category, "7"));
		}
		this.fixtures.putPurchases(items);
		for (String order : List.of("ASC", "DESC")) {
			List<String> expected = purchaseKeys(
					Direct.byCategory(this.dynamoDb, this.tables.purchases(), category, order.equals("ASC")));
			assertThat(expected).hasSize(180);
			for (int pageSize : List.of(1, 9, 100)) {
				List<Map<String, Object>> walked = this.walker.forward(Documents.BY_CATEGORY, "purchasesByCategory",
						Map.of("category", category, "order", order), pageSize, true);
				assertThat(nodePurchaseKeys(walked)).as("%s pages of %d", order, pageSize)
					.containsExactlyElementsOf(expected);
			}
		}
	}

	@Test
	void walksMoviesOfAYearWithAndWithoutATitlePrefix() {
		int year = Fixtures.uniqueYear();
		List<Map<String, AttributeValue>> movies = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			movies.add(Fixtures.movie(year, "Alpha %02d".formatted(i), "5"));
			movies.add(Fixtures.movie(year, "Beta %02d".formatted(i), null));
		}
		movies.add(Fixtures.movie(year, "Alp", "1"));
		this.fixtures.putMovies(movies);
		List<String> all = titles(this.walker.forward(Documents.MOVIES, "movies", Map.of("year", year), 8, true));
		assertThat(all).hasSize(61).isSorted().startsWith("Alp", "Alpha 00").endsWith("Beta 29");
		assertThat(titles(this.walker.forward(Documents.MOVIES, "movies", Map.of("year", year, "titlePrefix", "Alpha"),
				8, true)))
			.hasSize(30)
			.allMatch((title) -> title.startsWith("Alpha"));
		Map<String, Object> noPrefix = new HashMap<>();
		noPrefix.put("year", year);
		noPrefix.put("titlePrefix", "");
		assertThat(titles(this.walker.forward(Documents.MOVIES, "movies", noPrefix, 8, true))).isEqualTo(all);
		assertThat(titles(this.walker.forward(Documents.MOVIES, "movies", Map.of("year", year, "order", "DESC"), 8,
				true)))
			.containsExactlyElementsOf(reversed(all));
	}

	@Test
	void pagesSpanningTheOneMegabyteResponseLimitStayFull() {
		String userId = Fixtures.unique("big");
		this.fixtures.user(userId, "Big Spender");
		String filler = "x".repeat(60_000);
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 40; i++) {
			items.add(Fixtures.purchase(userId, T0 + i, "bulk", "1", filler + i));
		}
		this.fixtures.putPurchases(items);
		Walker.Page page = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId, "first", 30));
		assertThat(page.edges()).hasSize(30);
		assertThat(page.hasNextPage()).isTrue();
		assertThat(page.requests()).as("30 items of 60 KB need more than one 1 MB response").isGreaterThan(1);
		assertThat(nodePurchaseKeys(this.walker.forward(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId), 25, true)))
			.containsExactlyElementsOf(purchaseKeys(items));
	}

	@Test
	void hasNextPageIsExactAtTheEnd() {
		String userId = Fixtures.unique("thirty");
		this.fixtures.putPurchases(this.fixtures.purchases(userId, 30, T0, "books"));
		this.fixtures.user(userId, "Thirty");
		for (int pageSize : List.of(10, 15, 30)) {
			List<Map<String, Object>> walked = this.walker.forward(Documents.USER_PURCHASES, "user.purchases",
					Map.of("userId", userId), pageSize, true);
			assertThat(walked).hasSize(30);
		}
		assertThat(this.walker.page(Documents.USER_PURCHASES, "user.purchases", Map.of("userId", userId, "first", 30))
			.hasNextPage()).isFalse();
		assertThat(this.walker.page(Documents.USER_PURCHASES, "user.purchases", Map.of("userId", userId, "first", 29))
			.hasNextPage()).isTrue();
	}

	@Test
	void resumesRightBehindEveryEdgeCursor() {
		String category = Fixtures.unique("resume");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 40; i++) {
			items.add(Fixtures.purchase("r-%02d-%s".formatted(i, category), T0 + (i / 10) * 1000L, category, "3"));
		}
		this.fixtures.putPurchases(items);
		List<String> expected = purchaseKeys(Direct.byCategory(this.dynamoDb, this.tables.purchases(), category, true));
		Walker.Page page = this.walker.page(Documents.BY_CATEGORY, "purchasesByCategory",
				Map.of("category", category, "first", 30));
		List<String> cursors = page.cursors();
		for (int i = 0; i < cursors.size(); i++) {
			Walker.Page next = this.walker.page(Documents.BY_CATEGORY, "purchasesByCategory",
					Map.of("category", category, "first", 5, "after", cursors.get(i)));
			assertThat(nodePurchaseKeys(next.edges().stream().map(Walker::node).toList())).as("after edge %d", i)
				.containsExactlyElementsOf(expected.subList(i + 1, Math.min(expected.size(), i + 6)));
		}
	}

	@Test
	void firstZeroReturnsNoEdgesAndAnExactHasNextPage() {
		String userId = Fixtures.unique("zero");
		this.fixtures.putPurchases(this.fixtures.purchases(userId, 3, T0, "books"));
		this.fixtures.user(userId, "Zero");
		Walker.Page empty = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId, "first", 0));
		assertThat(empty.edges()).isEmpty();
		assertThat(empty.hasNextPage()).isTrue();
		assertThat(empty.endCursor()).isNull();
		Walker.Page all = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId, "first", 3));
		Walker.Page atEnd = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId, "first", 0, "after", all.endCursor()));
		assertThat(atEnd.edges()).isEmpty();
		assertThat(atEnd.hasNextPage()).isFalse();
		assertThat(atEnd.hasPreviousPage()).isTrue();
	}

	@Test
	void anUnfilteredPageIsOneQueryReadingFirstPlusOneItems() {
		Walker.Page page = this.walker.page(Documents.BY_CATEGORY, "purchasesByCategory",
				Map.of("category", "books", "first", 50));
		assertThat(page.requests()).isEqualTo(1);
		assertThat(page.scannedCount()).isEqualTo(51);
		assertThat(page.edges()).hasSize(50);
	}

	@Test
	void leavingOutFirstServesTheDefaultPageSize() {
		Walker.Page page = this.walker.page(Documents.USERS, "users", Map.of());
		assertThat(page.edges()).hasSize(20);
		assertThat(page.hasNextPage()).isTrue();
	}

	@Test
	void servesTheSampleData() {
		GraphQlResponse response = execute("""
				{ user(userId: "user-01") { id userId name email
				    purchases(first: 2) { totalCount edges { node { purchasedAt product category amount user { userId } } } } } }""");
		assertThat(response.getErrors()).isEmpty();
		assertThat((String) response.field("user.name").getValue()).isEqualTo("Alan Lovelace");
		assertThat((Integer) response.field("user.purchases.totalCount").getValue()).isEqualTo(100);
		assertThat((String) response.field("user.purchases.edges[0].node.purchasedAt").getValue())
			.isEqualTo("2025-01-01T09:00:00.000Z");
		assertThat((String) response.field("user.purchases.edges[1].node.user.userId").getValue()).isEqualTo("user-01");
		// Other tests add books (some of 300 KB), so the count is compared with a direct COUNT of every page.
		GraphQlResponse categories = execute("{ purchasesByCategory(category: \"books\", first: 1) { totalCount } }");
		assertThat((Integer) categories.field("purchasesByCategory.totalCount").getValue()).isPositive()
			.isEqualTo(books());
	}

	/** The books counted directly, every page of the COUNT (a page ends at 1 MB of items read, counted or not). */
	private int books() {
		return this.dynamoDb.queryPaginator((q) -> q.tableName(this.tables.purchases())
			.indexName("ByCategory")
			.keyConditionExpression("category = :c")
			.expressionAttributeValues(Map.of(":c", AttributeValue.fromS("books")))
			.select(Select.COUNT)).stream().mapToInt((page) -> page.count()).sum();
	}

	@Test
	void fetchesNodesByOpaqueId() {
		String userId = Fixtures.unique("noded");
		this.fixtures.user(userId, "Noded");
		this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, T0, "books", "9.5")));
		GraphQlResponse page = execute("query($u: String!) { user(userId: $u) { id purchases { edges { node { id } } } } }",
				Map.of("u", userId));
		String userNodeId = page.field("user.id").getValue();
		String purchaseNodeId = page.field("user.purchases.edges[0].node.id").getValue();
		GraphQlResponse nodes = execute("""
				query($ids: [ID!]!, $id: ID!) {
				  node(id: $id) { id ... on User { name } }
				  nodes(ids: $ids) { id __typename ... on Purchase { amount user { userId } } ... on Movie { title } }
				}""", Map.of("id", userNodeId, "ids",
				List.of(purchaseNodeId, userNodeId, this.ids.user("nobody-" + userId),
						this.ids.movie(1995, "The Silent River"))));
		assertThat(nodes.getErrors()).isEmpty();
		assertThat((String) nodes.field("node.name").getValue()).isEqualTo("Noded");
		List<Map<String, Object>> found = nodes.field("nodes").getValue();
		assertThat(found).hasSize(4);
		assertThat(found.get(0)).containsEntry("__typename", "Purchase").containsEntry("amount", 9.5);
		assertThat(found.get(1)).containsEntry("__typename", "User").containsEntry("id", userNodeId);
		assertThat(found.get(2)).isNull();
		assertThat(found.get(3)).containsEntry("__typename", "Movie").containsEntry("title", "The Silent River");
		GraphQlResponse missing = execute("query($id: ID!) { node(id: $id) { id } }",
				Map.of("id", this.ids.user("nobody-" + userId)));
		assertThat(missing.getErrors()).isEmpty();
		assertThat((Object) missing.field("node").getValue()).isNull();
	}

	static <T> List<T> reversed(List<T> list) {
		List<T> copy = new ArrayList<>(list);
		java.util.Collections.reverse(copy);
		return copy;
	}

	private static List<String> titles(List<Map<String, Object>> nodes) {
		return nodes.stream().map((node) -> (String) node.get("title")).toList();
	}

}
