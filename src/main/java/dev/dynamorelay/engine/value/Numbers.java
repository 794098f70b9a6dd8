package dev.dynamorelay.engine.value;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.dynamorelay.engine.action.AwsError;

/**
 * DynamoDB's numbers: up to 38 significant digits, magnitudes from 1E-130 to below 1E+126 (and zero), held
 * exactly as decimals, and written back in plain notation without leading or trailing zeros ({@code "1E+2"} is
 * stored and returned as {@code "100"}, {@code "-0.50"} as {@code "-0.5"}).
 *
 * <p>See the Developer Guide, "Supported data types and naming rules in Amazon DynamoDB", Number.
 */
public final class Numbers {

	/** The most significant digits a number holds. */
	public static final int MAX_DIGITS = 38;

	/** The largest decimal exponent of a number's first significant digit. */
	public static final int MAX_EXPONENT = 125;

	/** The smallest decimal exponent of a number's first significant digit. */
	public static final int MIN_EXPONENT = -130;

	/** DynamoDB's arithmetic: 38 digits, rounded half even (an {@code ADD} or {@code SET a = b + c} result). */
	public static final MathContext ARITHMETIC = new MathContext(MAX_DIGITS);

	/** What DynamoDB reads as a number: no sign but minus, digits with at most one point, an optional exponent. */
	private static final Pattern NUMBER = Pattern.compile("(-?)(\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE]([+-]?\\d+))?");

	private Numbers() {
	}

	/**
	 * The number {@code text} names, checked against DynamoDB's range and precision.
	 * @throws AwsError a {@code ValidationException} with DynamoDB's message when it is not a number DynamoDB
	 * holds
	 */
	public static BigDecimal parse(String text) {
		if (text == null || text.isEmpty()) {
			throw AwsError.validation("The parameter cannot be converted to a numeric value");
		}
		Matcher matcher = NUMBER.matcher(text);
		if (!matcher.matches()) {
			throw AwsError.validation("The parameter cannot be converted to a numeric value: " + text);
		}
		String digits = matcher.group(2);
		int point = digits.indexOf('.');
		String unscaled = (point < 0) ? digits : digits.substring(0, point) + digits.substring(point + 1);
		int fraction = (point < 0) ? 0 : digits.length() - point - 1;
		BigInteger mantissa = new BigInteger(unscaled);
		if (mantissa.signum() == 0) {
			return BigDecimal.ZERO;
		}
		if (!matcher.group(1).isEmpty()) {
			mantissa = mantissa.negate();
		}
		// The exponent may be larger than an int: only its comparison with the range matters then.
		BigInteger exponent = (matcher.group(3) != null) ? new BigInteger(matcher.group(3)) : BigInteger.ZERO;
		BigInteger scale = BigInteger.valueOf(fraction).subtract(exponent);
		int precision = new BigDecimal(mantissa).stripTrailingZeros().precision();
		int trailingZeros = mantissa.abs().toString().length() - precision;
		// The exponent of the first significant digit: digits - 1 - scale, counting from the unscaled value.
		BigInteger first = BigInteger.valueOf(mantissa.abs().toString().length() - 1L).subtract(scale);
		if (first.compareTo(BigInteger.valueOf(MAX_EXPONENT)) > 0) {
			throw overflow();
		}
		if (first.compareTo(BigInteger.valueOf(MIN_EXPONENT)) < 0) {
			throw underflow();
		}
		if (precision > MAX_DIGITS) {
			throw tooManyDigits();
		}
		BigDecimal value = new BigDecimal(mantissa, scale.intValueExact());
		return (trailingZeros > 0) ? value.stripTrailingZeros() : value;
	}

	/**
	 * {@code value} checked against DynamoDB's range and precision, as the result of arithmetic is.
	 * @throws AwsError a {@code ValidationException} with DynamoDB's message when it is not a number DynamoDB
	 * holds
	 */
	public static BigDecimal check(BigDecimal value) {
		if (value.signum() == 0) {
			return BigDecimal.ZERO;
		}
		BigDecimal stripped = value.stripTrailingZeros();
		long first = (long) stripped.precision() - 1 - stripped.scale();
		if (first > MAX_EXPONENT) {
			throw overflow();
		}
		if (first < MIN_EXPONENT) {
			throw underflow();
		}
		if (stripped.precision() > MAX_DIGITS) {
			throw tooManyDigits();
		}
		return stripped;
	}

	/** The number in DynamoDB's form: plain notation, no trailing zeros after the point, zero as {@code 0}. */
	public static String format(BigDecimal value) {
		if (value.signum() == 0) {
			return "0";
		}
		return value.stripTrailingZeros().toPlainString();
	}

	/** {@code text} in DynamoDB's form, checked: what DynamoDB stores and returns for it. */
	public static String normalize(String text) {
		return format(parse(text));
	}

	private static AwsError overflow() {
		return AwsError.validation("Number overflow. Attempting to store a number with magnitude larger than supported range");
	}

	private static AwsError underflow() {
		return AwsError.validation("Number underflow. Attempting to store a number with magnitude smaller than supported range");
	}

	private static AwsError tooManyDigits() {
		return AwsError.validation("Attempting to store more than 38 significant digits in a Number");
	}

}
