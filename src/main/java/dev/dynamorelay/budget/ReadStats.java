package dev.dynamorelay.budget;

/**
 * One request's reads and writes of DynamoDB: what it may still spend ({@link RequestBudget}) and what it has
 * cost ({@link RequestCosts}), the one value every field of the request shares.
 */
public record ReadStats(RequestBudget budget, RequestCosts costs) {

	/** No budget (work outside any request), its costs counted. */
	public ReadStats() {
		this(new RequestBudget(), new RequestCosts());
	}

	/** A request's reads within {@code budget}, its costs counted from nothing. */
	public static ReadStats of(RequestBudget budget) {
		return new ReadStats(budget, new RequestCosts());
	}

}
