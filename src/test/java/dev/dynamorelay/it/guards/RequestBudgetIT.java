package dev.dynamorelay.it.guards;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Direct;
import dev.dynamorelay.it.Documents;
import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Walker;

import static dev.dynamorelay.it.Direct.nodePurchaseKeys;
import static dev.dynamorelay.it.Direct.purchaseKeys;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request's read budget, shared by all its connection fields and counts: past it pages are cut
 * with a cursor to continue from (a field that finds it spent reads nothing), counts are null, and
 * walks continued from those cursors in later requests return every item once.
 */
@TestPropertySource(properties = { "dynamo-relay.request-budget=250",
		"dynamo-relay.dynamodb.max-concurrency-per-request=2", "dynamo-relay.cursor.secret=request-budget-secret" })
class RequestBudgetIT extends IntegrationTest {

	private static final int BUDGET = 250;

	private static final long T0 = 1_740_000_000_000L;

	private static final String PAGE = """
			fragment page on PurchaseConnection {
			  edges { cursor node { userId purchasedAt } }
			  pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }""";

	@Test
	void fieldsPastTheRequestsBudgetAreCutAndAFieldThatFindsItSpentReadsNothing() {
		String category = Fixtures.unique("spent");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 300; i++) {
			items.add(Fixtures.purchase("u" + (i % 7), T0 + i, category, "1"));
		}
		this.fixtures.putPurchases(items);
		List<String> all = purchaseKeys(Direct.byCategory(this.dynamoDb, this.tables.purchases(), category, true));
		assertThat(all).hasSize(300);
		// Fields start in order, and each read takes from the budget when it is sent: a and b take 101 each
		// (100 + 1 to tell hasNextPage), c the 48 left; d, e, u and n find it spent.
		GraphQlResponse response = execute("""
				query($c: String!) {
				  a: purchasesByCategory(category: $c, first: 100) { ...page }
				  b: purchasesByCategory(category: $c, first: 100) { ...page }
				  c: purchasesByCategory(category: $c, first: 100) { ...page }
				  d: purchasesByCategory(category: $c, first: 10) { ...page }
				  e: purchasesByCategory(category: $c, last: 10) { ...page }
				  u: users(first: 5) { edges { cursor node { userId } } pageInfo { hasNextPage endCursor } }
				  n: purchasesByCategory(category: $c, first: 0) { totalCount }
				}
				""" + PAGE, Map.of("c", category));
		assertThat(response.getErrors()).isEmpty();
		assertThat(Errors.requests(response)).as("reads sent: a, b and c").isEqualTo(3);
		assertThat(scanned(response)).isEqualTo(BUDGET);
		assertThat(keys(response, "a")).containsExactlyElementsOf(all.subList(0, 100));
		assertThat(keys(response, "c")).containsExactlyElementsOf(all.subList(0, 48));
		Map<String, Object> c = info(response, "c");
		assertThat(c).containsEntry("hasNextPage", true);
		assertThat(c.get("endCursor")).isEqualTo(cursors(response, "c").get(47));

		Map<String, Object> d = info(response, "d");
		assertThat(keys(response, "d")).isEmpty();
		assertThat(d).containsEntry("hasNextPage", true).containsEntry("hasPreviousPage", false);
		assertThat(d.get("endCursor")).isNotNull().isEqualTo(d.get("startCursor"));
		Map<String, Object> e = info(response, "e");
		assertThat(keys(response, "e")).isEmpty();
		assertThat(e).containsEntry("hasPreviousPage", true).containsEntry("hasNextPage", false);
		assertThat(e.get("startCursor")).isNotNull();
		assertThat(response.field("u.edges").<List<?>>getValue()).isEmpty();
		assertThat(response.field("u.pageInfo.hasNextPage").<Boolean>getValue()).isTrue();
		assertThat(response.field("n.totalCount").<Object>getValue()).isNull();

		// Each continues in a later request (with a budget of its own) from exactly where it would have started.
		assertThat(nodePurchaseKeys(this.walker.forwardFrom(Documents.BY_CATEGORY, "purchasesByCategory",
				Map.of("category", category), 100, true, (String) d.get("endCursor"))))
			.containsExactlyElementsOf(all);
		assertThat(nodePurchaseKeys(this.walker.backwardFrom(Documents.BY_CATEGORY, "purchasesByCategory",
				Map.of("category", category), 100, true, (String) e.get("startCursor"))))
			.containsExactlyElementsOf(all);
		List<String> rest = nodePurchaseKeys(this.walker.forwardFrom(Documents.BY_CATEGORY, "purchasesByCategory",
				Map.of("category", category), 60, false, (String) c.get("endCursor")));
		List<String> walked = new ArrayList<>(keys(response, "c"));
		walked.addAll(rest);
		assertThat(walked).containsExactlyElementsOf(all);
		String usersCursor = response.field("u.pageInfo.endCursor").getValue();
		assertThat(usersCursor).isNotNull();
		assertThat(this.walker.page(Documents.USERS, "users", Map.of("first", 5, "after", usersCursor)).edges())
			.isEqualTo(this.walker.page(Documents.USERS, "users", Map.of("first", 5)).edges());
	}

	@Test
	void aCountPastTheRequestsBudgetIsNullAndOneWithinItIsExact() {
		String user = this.fixtures.buyer("counted");
		this.fixtures.putPurchases(this.fixtures.purchases(user, 200, T0, "counted"));
		String counted = """
				query($u: String!) { user(userId: $u) { purchases(first: 0) { totalCount } } }""";
		GraphQlResponse within = execute(counted, Map.of("u", user));
		assertThat(within.field("user.purchases.totalCount").<Integer>getValue()).isEqualTo(200);
		// The user's lookup (a BatchGetItem, counted as 1 item scanned) is no connection's read: not in the budget.
		assertThat(scanned(within)).isLessThanOrEqualTo(BUDGET + 1);
		String more = this.fixtures.buyer("counted");
		this.fixtures.putPurchases(this.fixtures.purchases(more, 260, T0, "counted"));
		GraphQlResponse past = execute(counted, Map.of("u", more));
		assertThat(past.getErrors()).isEmpty();
		assertThat(past.field("user.purchases.totalCount").<Object>getValue()).isNull();
		assertThat(scanned(past)).isLessThanOrEqualTo(BUDGET + 1);
	}

	/**
	 * Four walks at once, two forwards and two backwards over a filtered connection, each request carrying
	 * every walk that has not ended: together they want far more than the budget, so pages are cut, and
	 * continued in the next request; every walk returns every matching item once, in order.
	 */
	@Test
	void concurrentWalksCutByTheRequestsBudgetReturnEveryItemOnce() {
		String category = Fixtures.unique("walks");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 400; i++) {
			items.add(Fixtures.purchase("w" + (i % 5), T0 + i / 2, category, (i % 3 == 0) ? "50" : "1"));
		}
		this.fixtures.putPurchases(items);
		List<String> expected = purchaseKeys(Direct.byCategory(this.dynamoDb, this.tables.purchases(), category, true)
			.stream()
			.filter((item) -> item.get("amount").n().equals("50"))
			.toList());
		assertThat(expected).hasSize(134);
		// A page of 50 matches reads about 150 items: the four first pages alone want about 500.
		List<Walk> walks = List.of(new Walk("f1", true, 50), new Walk("f2", true, 33), new Walk("b1", false, 50),
				new Walk("b2", false, 41));
		int requests = 0;
		int cut = 0;
		while (walks.stream().anyMatch((walk) -> !walk.done)) {
			assertThat(++requests).as("requests of the walks").isLessThan(500);
			String document = walks.stream()
				.filter((walk) -> !walk.done)
				.map((walk) -> walk.field(category))
				.collect(Collectors.joining("\n", "{\n", "\n}\n")) + PAGE;
			GraphQlResponse response = execute(document);
			assertThat(response.getErrors()).isEmpty();
			assertThat(scanned(response)).as("items scanned by one request").isLessThanOrEqualTo(BUDGET);
			for (Walk walk : walks) {
				if (!walk.done) {
					cut += walk.take(response) ? 1 : 0;
				}
			}
		}
		assertThat(cut).as("pages cut short by the request's budget").isPositive();
		for (Walk walk : walks) {
			assertThat(nodePurchaseKeys(walk.nodes)).as(walk.alias).containsExactlyElementsOf(expected);
		}
	}

	@SuppressWarnings("unchecked")
	private static long scanned(GraphQlResponse response) {
		return ((Number) ((Map<String, Object>) response.getExtensions().get("dynamodb")).get("scannedCount"))
			.longValue();
	}

	private static List<Map<String, Object>> edges(GraphQlResponse response, String alias) {
		return response.field(alias + ".edges").getValue();
	}

	private static List<String> keys(GraphQlResponse response, String alias) {
		return nodePurchaseKeys(edges(response, alias).stream().map(Walker::node).toList());
	}

	private static List<String> cursors(GraphQlResponse response, String alias) {
		return edges(response, alias).stream().map((edge) -> (String) edge.get("cursor")).toList();
	}

	private static Map<String, Object> info(GraphQlResponse response, String alias) {
		return response.field(alias + ".pageInfo").getValue();
	}

	/** One walk of the filtered connection, forwards or backwards, page by page. */
	private static final class Walk {

		final String alias;

		final boolean forward;

		final int size;

		final List<Map<String, Object>> nodes = new ArrayList<>();

		final Set<String> cursors = new HashSet<>();

		String cursor;

		boolean done;

		Walk(String alias, boolean forward, int size) {
			this.alias = alias;
			this.forward = forward;
			this.size = size;
		}

		String field(String category) {
			String position = (this.cursor == null) ? ""
					: ", %s: \"%s\"".formatted(this.forward ? "after" : "before", this.cursor);
			return "%s: purchasesByCategory(category: \"%s\", minAmount: 50, %s: %d%s) { ...page }".formatted(this.alias,
					category, this.forward ? "first" : "last", this.size, position);
		}

		/** Takes the walk's page from the response; whether it was cut short (more to come, page not full). */
		boolean take(GraphQlResponse response) {
			List<Map<String, Object>> edges = edges(response, this.alias);
			Map<String, Object> info = info(response, this.alias);
			boolean more = (Boolean) info.get(this.forward ? "hasNextPage" : "hasPreviousPage");
			boolean continued = (Boolean) info.get(this.forward ? "hasPreviousPage" : "hasNextPage");
			assertThat(continued).as("%s: the other way is true exactly when a cursor was given", this.alias)
				.isEqualTo(this.cursor != null);
			assertThat(edges).hasSizeLessThanOrEqualTo(this.size);
			for (Map<String, Object> edge : edges) {
				assertThat(this.cursors.add((String) edge.get("cursor"))).as("every edge has its own cursor").isTrue();
			}
			List<Map<String, Object>> page = edges.stream().map(Walker::node).toList();
			if (this.forward) {
				this.nodes.addAll(page);
			}
			else {
				this.nodes.addAll(0, page);
			}
			if (!more) {
				this.done = true;
				return false;
			}
			String next = (String) info.get(this.forward ? "endCursor" : "startCursor");
			assertThat(next).as("%s: a page with more has a cursor to continue from", this.alias).isNotNull();
			this.cursor = next;
			return edges.size() < this.size;
		}

	}

}
