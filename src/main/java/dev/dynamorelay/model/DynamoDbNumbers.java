package dev.dynamorelay.model;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * DynamoDB's Number range: up to 38 significant digits, magnitudes from 1E-130 to
 * 9.9999999999999999999999999999999999999E+125, negatives likewise, and 0.
 *
 * <p>Every number a client sends that becomes an N value (an argument, a key in a node id) is checked
 * here before it is read with, so that a number DynamoDB would refuse with a ValidationException is the
 * client's {@code INVALID_ARGUMENT} and never reaches DynamoDB. Trailing zeros are not significant
 * digits: DynamoDB trims leading and trailing zeros (Developer Guide, "Supported data types", Number), so it
 * stores {@code 1} followed by 38 zeros, and {@code 1.000…0} with 38 zeros after the point, as it does
 * {@code 1E+38} and {@code 1}.
 */
public final class DynamoDbNumbers {

	/** The most significant digits DynamoDB stores. */
	public static final int MAX_DIGITS = 38;

	/** The smallest magnitude too large for DynamoDB. */
	private static final BigDecimal OVERFLOW = new BigDecimal("1E126");

	/** The smallest magnitude DynamoDB stores other than 0. */
	private static final BigDecimal SMALLEST = new BigDecimal("1E-130");

	private DynamoDbNumbers() {
	}

	/**
	 * Why DynamoDB would refuse {@code number}, as the end of a sentence about it; empty when it stores it.
	 */
	public static Optional<String> refusal(BigDecimal number) {
		if (number.signum() == 0) {
			return Optional.empty();
		}
		BigDecimal magnitude = number.abs();
		if (magnitude.compareTo(OVERFLOW) >= 0) {
			return Optional.of("is larger than DynamoDB's numbers (at most 9.9999999999999999999999999999999999999E+125)");
		}
		if (magnitude.compareTo(SMALLEST) < 0) {
			return Optional.of("is closer to 0 than DynamoDB's numbers (at least 1E-130, or 0)");
		}
		if (magnitude.stripTrailingZeros().precision() > MAX_DIGITS) {
			return Optional.of("has more than the 38 significant digits DynamoDB stores");
		}
		return Optional.empty();
	}

	/** Whether DynamoDB stores {@code number}. */
	public static boolean stores(BigDecimal number) {
		return refusal(number).isEmpty();
	}

}
