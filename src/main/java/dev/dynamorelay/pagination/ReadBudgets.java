package dev.dynamorelay.pagination;

import java.time.Duration;
import java.util.Objects;

/**
 * How much one connection field may read from DynamoDB, and for how long.
 *
 * @param readItems items DynamoDB may scan ({@code ScannedCount}) for one page
 * @param countItems items DynamoDB may scan for one {@code totalCount}
 * @param timeout bound of one field's reading, retries included; past it the field is UNAVAILABLE
 */
public record ReadBudgets(int readItems, int countItems, Duration timeout) {

	public ReadBudgets {
		Objects.requireNonNull(timeout, "timeout");
		if (readItems < 1 || countItems < 1) {
			throw new IllegalArgumentException("read and count budgets must be at least 1");
		}
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("the DynamoDB timeout must be positive");
		}
	}

}
