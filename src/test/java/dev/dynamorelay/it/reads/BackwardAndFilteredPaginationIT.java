package dev.dynamorelay.it.reads;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
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

/** Backward and mixed walks, filters that fill pages within the read budget, and totalCount. */
class BackwardAndFilteredPaginationIT extends IntegrationTest {

	private static final long T0 = 1_710_000_000_000L;

	@Test
	void walksBackwardsAndReturnsEdgesInTheConnectionsOwnOrder() {
		String userId = this.fixtures.buyer("back");
		this.fixtures.putPurchases(this.fixtures.purchases(userId, 97, T0, "books"));
		for (String order : List.of("ASC", "DESC")) {
			List<String> expected = purchaseKeys(
					Direct.userPurchases(this.dynamoDb, this.tables.purchases(), userId, order.equals("ASC")));
			for (int pageSize : List.of(1, 10, 97, 100)) {
				assertThat(nodePurchaseKeys(this.walker.backward(Documents.USER_PURCHASES, "user.purchases",
						Map.of("userId", userId, "order", order), pageSize, true)))
					.as("%s pages of %d", order, pageSize)
					.containsExactlyElementsOf(expected);
			}
		}
	}

	@Test
	void walksACategoryBackwardsAcrossItemsSharingOneIndexKey() {
		String category = Fixtures.unique("backties");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 120; i++) {
			items.add(Fixtures.purchase("bt-%03d-%s".formatted(i, category), T0 + (i % 3 == 0 ? 0 : 5), category, "1"));
		}
		this.fixtures.putPurchases(items);
		for (String order : List.of("ASC", "DESC")) {
			List<String> expected = purchaseKeys(
					Direct.byCategory(this.dynamoDb, this.tables.purchases(), category, order.equals("ASC")));
			assertThat(nodePurchaseKeys(this.walker.backward(Documents.BY_CATEGORY, "purchasesByCategory",
					Map.of("category", category, "order", order), 7, true)))
				.containsExactlyElementsOf(expected);
		}
	}

	@Test
	void walksMoviesBackwardsWithATitlePrefix() {
		int year = Fixtures.uniqueYear();
		List<Map<String, AttributeValue>> movies = new ArrayList<>();
		for (int i = 0; i < 25; i++) {
			movies.add(Fixtures.movie(year, "Gamma %02d".formatted(i), null));
			movies.add(Fixtures.movie(year, "Delta %02d".formatted(i), null));
		}
		this.fixtures.putMovies(movies);
		List<Map<String, Object>> walked = this.walker.backward(Documents.MOVIES, "movies",
				Map.of("year", year, "titlePrefix", "Gamma"), 4, true);
		assertThat(walked.stream().map((node) -> (String) node.get("title")).toList()).hasSize(25)
			.isSorted()
			.allMatch((title) -> title.startsWith("Gamma"));
	}

	@Test
	void walksForwardsThenBackwardsFromTheMiddle() {
		String userId = this.fixtures.buyer("mixed");
		this.fixtures.putPurchases(this.fixtures.purchases(userId, 50, T0, "books"));
		List<String> expected = purchaseKeys(Direct.userPurchases(this.dynamoDb, this.tables.purchases(), userId, true));
		Walker.Page first = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId, "first", 10));
		Walker.Page second = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId, "first", 10, "after", first.endCursor()));
		Walker.Page third = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId, "first", 10, "after", second.endCursor()));
		assertThat(nodePurchaseKeys(third.edges().stream().map(Walker::node).toList()))
			.containsExactlyElementsOf(expected.subList(20, 30));
		List<Map<String, Object>> back = this.walker.backwardFrom(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId), 6, true, third.startCursor());
		assertThat(nodePurchaseKeys(back)).containsExactlyElementsOf(expected.subList(0, 20));
		List<Map<String, Object>> forwardAgain = this.walker.forwardFrom(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId), 6, true, third.startCursor());
		assertThat(nodePurchaseKeys(forwardAgain)).containsExactlyElementsOf(expected.subList(21, 50));
		Walker.Page beforeMiddle = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId, "last", 3, "before", third.endCursor()));
		assertThat(nodePurchaseKeys(beforeMiddle.edges().stream().map(Walker::node).toList()))
			.containsExactlyElementsOf(expected.subList(26, 29));
		assertThat(beforeMiddle.hasNextPage()).isTrue();
		assertThat(beforeMiddle.hasPreviousPage()).isTrue();
	}

	@Test
	void sparseFilterMatchesFillPagesForwardsAndBackwards() {
		String userId = this.fixtures.buyer("sparse");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 600; i++) {
			String amount = (i % 50 == 17) ? Integer.toString(1000 + i) : Integer.toString(i % 100);
			items.add(Fixtures.purchase(userId, T0 + i * 1000L, "books", amount));
		}
		items.add(Fixtures.purchase(userId, T0 - 5, "books", null));
		this.fixtures.putPurchases(items);
		List<String> expected = purchaseKeys(Direct.query(this.dynamoDb,
				(q) -> q.tableName(this.tables.purchases())
					.keyConditionExpression("userId = :u")
					.filterExpression("amount >= :m")
					.expressionAttributeValues(
							Map.of(":u", AttributeValue.fromS(userId), ":m", AttributeValue.fromN("1000")))));
		assertThat(expected).hasSize(12);
		for (int pageSize : List.of(1, 3, 5, 20)) {
			assertThat(nodePurchaseKeys(this.walker.forward(Documents.USER_PURCHASES, "user.purchases",
					Map.of("userId", userId, "minAmount", 1000.0), pageSize, false)))
				.as("forward pages of %d", pageSize)
				.containsExactlyElementsOf(expected);
			assertThat(nodePurchaseKeys(this.walker.backward(Documents.USER_PURCHASES, "user.purchases",
					Map.of("userId", userId, "minAmount", 1000.0), pageSize, false)))
				.as("backward pages of %d", pageSize)
				.containsExactlyElementsOf(expected);
		}
		Walker.Page page = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId, "minAmount", 1000.0, "first", 5));
		assertThat(page.edges()).hasSize(5);
		assertThat(page.hasNextPage()).isTrue();
		// The sixth match (for an exact hasNextPage) is item 267, the 269th of the partition: the page
		// reads at least that far, and stops before the partition's end (601 items). Reading with a
		// fixed Limit of what the page still needs would take dozens of requests: Limit grows with the
		// observed selectivity.
		assertThat(page.scannedCount()).as("read as far as the sixth match, not to the end").isBetween(269L, 600L);
		assertThat(page.requests()).as("Limit grows with selectivity").isLessThanOrEqualTo(6);
	}

	@Test
	void pagesCutByTheBudgetWithoutMatchesContinueWhereReadingStopped() {
		String category = Fixtures.unique("nomatch");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 2_500; i++) {
			items.add(Fixtures.purchase("u-" + i, T0 + i, category, "1"));
		}
		items.add(Fixtures.purchase("match", T0 + 2_400, category, "500"));
		this.fixtures.putPurchases(items);
		String cursor = null;
		List<Walker.Page> pages = new ArrayList<>();
		do {
			Map<String, Object> variables = new java.util.HashMap<>(
					Map.of("category", category, "minAmount", 100.0, "first", 10));
			variables.put("after", cursor);
			Walker.Page page = this.walker.page(Documents.BY_CATEGORY, "purchasesByCategory", variables);
			assertThat(page.scannedCount()).as("the read budget").isLessThanOrEqualTo(1000);
			if (page.hasNextPage()) {
				assertThat(page.endCursor()).isNotNull();
			}
			pages.add(page);
			cursor = page.endCursor();
		}
		while (pages.get(pages.size() - 1).hasNextPage());
		assertThat(pages).hasSize(3);
		assertThat(pages.get(0).edges()).isEmpty();
		assertThat(pages.get(0).hasNextPage()).isTrue();
		assertThat(pages.get(0).endCursor()).isEqualTo(pages.get(0).startCursor()).isNotNull();
		assertThat(pages.get(1).edges()).isEmpty();
		assertThat(pages.get(2).edges()).hasSize(1);
		assertThat(pages.stream().mapToLong(Walker.Page::scannedCount).sum()).as("nothing read twice, nothing skipped")
			.isEqualTo(2_501);

		List<Map<String, Object>> backward = this.walker.backward(Documents.BY_CATEGORY, "purchasesByCategory",
				Map.of("category", category, "minAmount", 100.0), 10, false);
		assertThat(nodePurchaseKeys(backward)).containsExactly("match@" + (T0 + 2_400));
		Walker.Page lastPage = this.walker.page(Documents.BY_CATEGORY, "purchasesByCategory",
				Map.of("category", category, "minAmount", 1000.0, "last", 5));
		assertThat(lastPage.edges()).isEmpty();
		assertThat(lastPage.hasPreviousPage()).isTrue();
		assertThat(lastPage.startCursor()).as("backwards, startCursor marks where reading stopped").isNotNull();
	}

	@Test
	void filtersAreInclusiveAndCompareTheShortestDecimal() {
		String userId = this.fixtures.buyer("decimal");
		this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, T0, "books", "0.1"),
				Fixtures.purchase(userId, T0 + 1, "books", "0.09"), Fixtures.purchase(userId, T0 + 2, "books", null)));
		Walker.Page page = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId, "minAmount", 0.1));
		assertThat(nodePurchaseKeys(page.edges().stream().map(Walker::node).toList()))
			.containsExactly(userId + "@" + T0);
		int year = Fixtures.uniqueYear();
		this.fixtures.putMovies(List.of(Fixtures.movie(year, "A", "7.3"), Fixtures.movie(year, "B", "7.29"),
				Fixtures.movie(year, "C", null)));
		Walker.Page movies = this.walker.page(Documents.MOVIES, "movies", Map.of("year", year, "minRating", 7.3));
		assertThat(movies.edges()).extracting((edge) -> Walker.node(edge).get("title")).containsExactly("A");
	}

	@Test
	void totalCountCountsTheWholeConnectionWithItsFilter() {
		String userId = this.fixtures.buyer("count");
		this.fixtures.putPurchases(this.fixtures.purchases(userId, 230, T0, "books"));
		Walker.Page page = this.walker.page(Documents.USER_PURCHASES_COUNTED, "user.purchases",
				Map.of("userId", userId, "first", 3));
		assertThat(page.totalCount()).isEqualTo(230);
		Walker.Page last = this.walker.page(Documents.USER_PURCHASES_COUNTED, "user.purchases",
				Map.of("userId", userId, "last", 3, "minAmount", 50.0));
		int direct = this.dynamoDb.query((q) -> q.tableName(this.tables.purchases())
			.keyConditionExpression("userId = :u")
			.filterExpression("amount >= :m")
			.expressionAttributeValues(Map.of(":u", AttributeValue.fromS(userId), ":m", AttributeValue.fromN("50")))
			.select(Select.COUNT)).count();
		assertThat(last.totalCount()).isEqualTo(direct);
		Walker.Page uncounted = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId, "first", 3));
		// One BatchGetItem for the user, one Query for the page, and a count only when selected.
		assertThat(uncounted.requests()).as("no count unless selected").isEqualTo(2);
		assertThat(page.requests()).isEqualTo(3);
		// Other tests add books (some of 300 KB), so the count is compared with a direct COUNT of every page.
		assertThat(this.walker.page(Documents.BY_CATEGORY_COUNTED, "purchasesByCategory",
				Map.of("category", "books", "first", 1)).totalCount()).isEqualTo(books());
		assertThat(this.walker.page(Documents.MOVIES_COUNTED, "movies",
				Map.of("year", 2000, "first", 1, "titlePrefix", "The")).totalCount()).isEqualTo(15);
	}

	@Test
	void aWalkDuringInsertsAndDeletesReturnsEveryStayingItemOnce() {
		String userId = this.fixtures.buyer("churn");
		List<Map<String, AttributeValue>> initial = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			initial.add(Fixtures.purchase(userId, T0 + i * 10L, "books", "1"));
		}
		this.fixtures.putPurchases(initial);
		String category = Fixtures.unique("churncat");
		List<Map<String, AttributeValue>> categoryItems = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			categoryItems.add(Fixtures.purchase("c-%03d-%s".formatted(i, category), T0 + (i / 25), category, "1"));
		}
		this.fixtures.putPurchases(categoryItems);

		assertChurnWalk(Documents.USER_PURCHASES, "user.purchases", Map.of("userId", userId), initial,
				(i) -> Fixtures.purchase(userId, T0 + i * 10L + 5, "books", "1"));
		assertChurnWalk(Documents.BY_CATEGORY, "purchasesByCategory", Map.of("category", category), categoryItems,
				(i) -> Fixtures.purchase("new-%03d-%s".formatted(i, category), T0 + (i / 25), category, "1"));
	}

	private void assertChurnWalk(String document, String path, Map<String, Object> arguments,
			List<Map<String, AttributeValue>> initial, java.util.function.IntFunction<Map<String, AttributeValue>> insert) {
		List<String> walked = new ArrayList<>();
		Set<String> deleted = new HashSet<>();
		Set<String> deletedAhead = new HashSet<>();
		String after = null;
		int pageNumber = 0;
		while (true) {
			Map<String, Object> variables = new java.util.HashMap<>(arguments);
			variables.put("first", 10);
			variables.put("after", after);
			Walker.Page page = this.walker.page(document, path, variables);
			walked.addAll(nodePurchaseKeys(page.edges().stream().map(Walker::node).toList()));
			if (!page.hasNextPage()) {
				break;
			}
			after = page.endCursor();
			pageNumber++;
			// Churn around the position: delete the item the cursor points at, one behind and one ahead;
			// insert items behind and ahead.
			int position = pageNumber * 10 - 1;
			for (int victim : new int[] { position, position - 3, position + 4 }) {
				if (victim < initial.size()) {
					Map<String, AttributeValue> item = initial.get(victim);
					this.dynamoDb.deleteItem((delete) -> delete.tableName(this.tables.purchases())
						.key(Map.of("userId", item.get("userId"), "purchasedAt", item.get("purchasedAt"))));
					String key = Direct.purchaseKey(item);
					deleted.add(key);
					if (!walked.contains(key)) {
						// Not returned yet when deleted: it must never be.
						deletedAhead.add(key);
					}
				}
			}
			this.fixtures.putPurchases(List.of(insert.apply(position - 5), insert.apply(position + 7)));
		}
		assertThat(walked).as("no duplicates").doesNotHaveDuplicates();
		List<String> staying = purchaseKeys(initial).stream().filter((key) -> !deleted.contains(key)).toList();
		assertThat(walked).as("every item present for the whole walk appears").containsAll(staying);
		assertThat(deletedAhead).as("items deleted ahead of the cursor").hasSizeGreaterThanOrEqualTo(5);
		assertThat(walked).as("an item deleted before the walk reached it never appears")
			.doesNotContainAnyElementsOf(deletedAhead);
	}

	/** The books counted directly, every page of the COUNT (a page ends at 1 MB of items read, counted or not). */
	private int books() {
		return this.dynamoDb.queryPaginator((q) -> q.tableName(this.tables.purchases())
			.indexName("ByCategory")
			.keyConditionExpression("category = :c")
			.expressionAttributeValues(Map.of(":c", AttributeValue.fromS("books")))
			.select(Select.COUNT)).stream().mapToInt((page) -> page.count()).sum();
	}

}
