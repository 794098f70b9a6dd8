package dev.dynamorelay.graphql;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.pagination.ConnectionQuery.MinimumFilter;
import dev.dynamorelay.pagination.SortOrder;

/**
 * Checks arguments that become DynamoDB keys, key conditions and filter bounds, so that DynamoDB
 * never sees a value it would refuse: such a value is the client's mistake and gets
 * {@code INVALID_ARGUMENT}, not an internal error.
 */
final class KeyArguments {

	/** DynamoDB's limit on a partition key value. */
	static final int MAX_PARTITION_KEY_BYTES = 2048;

	/** DynamoDB's limit on a sort key value. */
	static final int MAX_SORT_KEY_BYTES = 1024;

	/** DynamoDB numbers: magnitudes from 1E-130 up to below 1E126. */
	private static final BigDecimal LARGEST = new BigDecimal("1E126");

	private static final BigDecimal SMALLEST = new BigDecimal("1E-130");

	private KeyArguments() {
	}

	/** A non-empty string partition key value. */
	static AttributeValue partitionKey(String argument, String value) {
		return AttributeValue.fromS(key(argument, value, MAX_PARTITION_KEY_BYTES));
	}

	/** A non-empty string key value of at most {@code maxBytes} UTF-8 bytes. */
	static String key(String argument, String value, int maxBytes) {
		if (value == null || value.isEmpty()) {
			throw new InvalidArgumentException("`%s` must not be empty.".formatted(argument));
		}
		if (value.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
			throw new InvalidArgumentException(
					"`%s` is longer than DynamoDB allows for a key (%d UTF-8 bytes).".formatted(argument, maxBytes));
		}
		return value;
	}

	/** A sort-key prefix; empty means none. */
	static String prefix(String argument, String value) {
		if (value != null && value.getBytes(StandardCharsets.UTF_8).length > MAX_SORT_KEY_BYTES) {
			throw new InvalidArgumentException("`%s` is longer than a sort key can be (%d UTF-8 bytes)."
				.formatted(argument, MAX_SORT_KEY_BYTES));
		}
		return value;
	}

	/** An inclusive lower bound on {@code attribute}, or none when the argument is absent. */
	static Optional<MinimumFilter> minimum(String argument, String attribute, Double value) {
		if (value == null) {
			return Optional.empty();
		}
		return Optional.of(new MinimumFilter(attribute, number(argument, value)));
	}

	/**
	 * The shortest decimal form of a GraphQL Float ({@code 0.1}, never its binary expansion), checked
	 * against DynamoDB's number range.
	 */
	static BigDecimal number(String argument, double value) {
		if (!Double.isFinite(value)) {
			throw new InvalidArgumentException("`%s` must be a finite number.".formatted(argument));
		}
		BigDecimal decimal = new BigDecimal(Double.toString(value));
		BigDecimal magnitude = decimal.abs();
		if (magnitude.signum() != 0 && (magnitude.compareTo(LARGEST) >= 0 || magnitude.compareTo(SMALLEST) < 0)) {
			throw new InvalidArgumentException(
					"`%s` is outside DynamoDB's number range (1E-130 to 9.9E125).".formatted(argument));
		}
		return decimal;
	}

	/** The order, ASC when left out or null. */
	static SortOrder order(SortOrder order) {
		return (order != null) ? order : SortOrder.ASC;
	}

}
