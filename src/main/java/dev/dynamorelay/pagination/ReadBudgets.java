package dev.dynamorelay.pagination;

import java.time.Duration;
import java.util.Objects;

import dev.dynamorelay.budget.ReadStats;

/**
 * How much connection fields may read from DynamoDB, and for how long.
 *
 * <p>A read's {@code Limit} is at most what is left of its field's budget ({@code readItems} for a
 * page, {@code countItems} for a count) and of its request's ({@code requestItems}, shared by all the
 * request's connection fields and counts and held in its {@link ReadStats}); a page that runs out of
 * either is cut with a cursor to continue from, a count is null.
 *
 * @param readItems items DynamoDB may scan ({@code ScannedCount}) for one page
 * @param countItems items DynamoDB may scan for one {@code totalCount}
 * @param requestItems items DynamoDB may scan for all the pages and counts of one GraphQL request
 * @param timeout bound of one field's reading, retries included; past it the field is UNAVAILABLE
 */
public record ReadBudgets(int readItems, int countItems, long requestItems, Duration timeout) {

	public ReadBudgets {
		Objects.requireNonNull(timeout, "timeout");
		if (readItems < 1 || countItems < 1 || requestItems < 1) {
			throw new IllegalArgumentException("read, count and request budgets must be at least 1");
		}
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("the DynamoDB timeout must be positive");
		}
	}

}
