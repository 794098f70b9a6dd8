package dev.dynamorelay.it.guards;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import graphql.introspection.IntrospectionQuery;
import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;

import dev.dynamorelay.it.Documents;
import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hostile kinds of request from the issue, refused before any read under the default limits, and
 * every kind of legitimate request still served.
 */
class CostLimitsIT extends IntegrationTest {

	/** Refusals are answered well within this, round trip included (they take milliseconds). */
	static final long QUICKLY_MILLIS = 1_000;

	static final String FILTERED_MOVIES = "movies(year: 2000, first: 50, minRating: 1) { edges { node { title rating } } }";

	static final String CYCLE = """
			{ users(first: 100) { edges { node {
			  purchases(first: 100) { edges { node { user {
			    purchases(first: 100) { edges { node { user {
			      purchases(first: 100) { edges { node { id product } } } } } } } } } } } } } } }""";

	@Test
	void twoHundredAliasesOfAFilteredPageAreRefused() {
		String aliases = IntStream.range(0, 200).mapToObj((i) -> "m" + i + ": " + FILTERED_MOVIES)
			.collect(Collectors.joining("\n"));
		String refusal = refused("{ " + aliases + " }");
		assertThat(refusal).isEqualTo("The request has 200 root fields (each alias counts); the limit is 20 "
				+ "(dynamo-relay.limits.max-root-fields).");
	}

	@Test
	void twentyAliasesOfAFilteredPageAreServed() {
		String aliases = IntStream.range(0, 20).mapToObj((i) -> "m" + i + ": " + FILTERED_MOVIES)
			.collect(Collectors.joining("\n"));
		GraphQlResponse response = execute("{ " + aliases + " }");
		assertThat(response.getErrors()).isEmpty();
		assertThat(response.field("m19.edges").<List<?>>getValue()).isNotEmpty();
	}

	@Test
	void theCycleOfUsersAndPurchasesIsRefused() {
		String refusal = refused(CYCLE);
		assertThat(refusal).isEqualTo("The request may read about 102,020,100 items (the most: 100 users "
				+ "x 100 purchases x 1 user x 100 purchases x 1 user x 100 purchases = 100,000,000); the limit is "
				+ "25,000 (dynamo-relay.limits.max-items).");
	}

	@Test
	void pageSizesGivenAsVariablesAreWeighedLikeLiterals() {
		String document = """
				query($n: Int) { users(first: $n) { edges { node { purchases(first: $n) { totalCount
				  edges { node { id } } } } } } }""";
		String refusal = refused(document, Map.of("n", 100));
		assertThat(refusal).startsWith("The request may read about 1,010,100 items (the most: 100 users x "
				+ "10,000 purchases counted (count budget) = 1,000,000); the limit is 25,000");
		GraphQlResponse served = execute(document, Map.of("n", 2));
		assertThat(served.getErrors()).isEmpty();
		assertThat(served.field("users.edges").<List<?>>getValue()).hasSize(2);
	}

	@Test
	void nestingBeyondTheMaximumDepthIsRefused() {
		String level = "purchases(first: 1) { edges { node { user { %s } } } }";
		String document = "{ user(userId: \"user-01\") { %s } }".formatted(level.formatted(level.formatted(
				level.formatted(level.formatted("userId")))));
		String refusal = refused(document);
		assertThat(refusal)
			.isEqualTo("The request nests fields 18 deep; the limit is 15 (dynamo-relay.limits.max-depth).");
		GraphQlResponse shallower = execute("{ user(userId: \"user-01\") { %s } }".formatted(
				level.formatted(level.formatted(level.formatted("userId")))));
		assertThat(shallower.getErrors()).as("14 deep").isEmpty();
	}

	@Test
	void fragmentsThatMultiplyEachOtherAreRefused() {
		StringBuilder document = new StringBuilder("{ user(userId: \"user-01\") { ...f0 } }\n");
		for (int level = 0; level < 3; level++) {
			String next = (level < 2) ? "...f" + (level + 1) : "id";
			String aliases = IntStream.range(0, 60)
				.mapToObj((i) -> "a" + i + ": purchases(first: 1) { edges { node { user { " + next + " } } } }")
				.collect(Collectors.joining(" "));
			document.append("fragment f").append(level).append(" on User { ").append(aliases).append(" }\n");
		}
		String refusal = refused(document.toString());
		assertThat(refusal).isEqualTo("The request selects more than 100,000 fields once its fragments are "
				+ "expanded; the limit is 100,000.");
	}

	@Test
	void everyDocumentOfTheTestsAndTheReadmeIsServed() {
		for (String document : List.of(Documents.USERS, Documents.USER_PURCHASES_COUNTED, Documents.BY_CATEGORY_COUNTED,
				Documents.MOVIES_COUNTED)) {
			GraphQlResponse response = execute(document,
					Map.of("userId", "user-01", "category", "books", "year", 2000, "first", 100, "minAmount", 1,
							"minRating", 1));
			assertThat(response.getErrors()).as(document).isEmpty();
			assertThat(Errors.requests(response)).as(document).isPositive();
		}
		GraphQlResponse readme = execute("""
				{ user(userId: "user-01") { name purchases(first: 2, minAmount: 100) { totalCount
				  edges { cursor node { purchasedAt product amount } } pageInfo { hasNextPage endCursor } } } }""");
		assertThat(readme.getErrors()).isEmpty();
		GraphQlResponse nested = execute("""
				{ users(first: 20) { edges { node { userId
				  purchases(first: 10) { edges { cursor node { id purchasedAt product amount user { name } } } } } } } }""");
		assertThat(nested.getErrors()).isEmpty();
		assertThat(nested.field("users.edges").<List<?>>getValue()).hasSize(20);
	}

	@Test
	void introspectionIsServed() {
		GraphQlResponse response = execute(IntrospectionQuery.INTROSPECTION_QUERY);
		assertThat(response.getErrors()).isEmpty();
		assertThat(response.field("__schema.types").<List<?>>getValue()).isNotEmpty();
	}

	String refused(String document) {
		return refused(document, Map.of());
	}

	String refused(String document, Map<String, Object> variables) {
		return refused(() -> execute(document, variables));
	}

	/**
	 * Asserts that the request is refused as too complex, alone, with no data, before any read and
	 * quickly; returns the message.
	 */
	static String refused(Supplier<GraphQlResponse> request) {
		request.get(); // warm-up: the first parse and validation of a document is slower
		long start = System.nanoTime();
		GraphQlResponse response = request.get();
		long millis = (System.nanoTime() - start) / 1_000_000;
		Errors.assertCode(response, "QUERY_TOO_COMPLEX");
		assertThat(response.getErrors()).hasSize(1);
		assertThat(response.toMap()).doesNotContainKey("data");
		assertThat(Errors.requests(response)).as("nothing read").isZero();
		assertThat(millis).as("answered in milliseconds").isLessThan(QUICKLY_MILLIS);
		return response.getErrors().get(0).getMessage();
	}

}
