package dev.dynamorelay.bench.fairness;

import java.util.Map;

import dev.dynamorelay.bench.support.BenchData;
import dev.dynamorelay.bench.support.GraphQl;

/**
 * The hostile kinds of issue 13, which the cost limits refuse, and the heaviest requests they let through, which the
 * request budget cuts or serves: what the fairness section's hostile clients send, and the abuse section's heavy ones.
 */
public enum Hostile {

	/** 200 aliases of one filtered movies page: 200 root fields (limit 20), 200,000 items (limit 25,000). */
	ALIASES_200("200 aliases of a filtered movies page", Outcome.REFUSED, aliases(200)),

	/** users -> purchases -> user -> purchases -> user -> purchases, 100 each: 102,020,100 items. */
	CYCLE("users > purchases > user > purchases > user > purchases, first: 100", Outcome.REFUSED, """
			{ users(first: 100) { edges { node { purchases(first: 100) { edges { node { user {
			  purchases(first: 100) { edges { node { user { purchases(first: 100) { edges { node { id } } } } } } } } } } } } } } }"""),

	/** 20 filtered pages of 100 that match nothing: 20 x 1,000 read budget = 20,000 items, cut at the request's. */
	ALIASES_20("20 aliases of a filtered movies page matching nothing", Outcome.CUT, aliases(20)),

	/** 100 users x 100 purchases x their user: 20,100 items by the estimate; about 10,100 read, 102 calls. */
	NESTED("100 users x 100 purchases x user", Outcome.SERVED, """
			{ users(first: 100) { edges { node { userId purchases(first: 100) { edges { node { id amount user { name } } } } } } } }"""),

	/** Two counted categories of 25,000: 2 x 10,001 items by the estimate; the request's budget nulls them. */
	COUNTS("2 totalCounts of 25,000-item categories", Outcome.CUT, """
			{ a: purchasesByCategory(category: "cat-1", first: 1) { totalCount edges { cursor } }
			  b: purchasesByCategory(category: "cat-2", first: 1) { totalCount edges { cursor } } }""");

	public final String description;

	public final Outcome expected;

	public final byte[] body;

	Hostile(String description, Outcome expected, String document) {
		this.description = description;
		this.expected = expected;
		this.body = GraphQl.body(document, Map.of());
	}

	private static String aliases(int count) {
		StringBuilder document = new StringBuilder("{");
		for (int i = 0; i < count; i++) {
			document.append(" m").append(i).append(": movies(year: ").append(BenchData.MOVIE_YEAR)
				.append(", first: 100, minRating: 9.5) { edges { cursor node { title rating } } pageInfo { hasNextPage endCursor } }");
		}
		return document.append(" }").toString();
	}

}
