package dev.dynamorelay.engine.value;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Order-preserving byte encodings of key values (S, N, B), so that keys compare as unsigned bytes in DynamoDB's
 * order: strings by their UTF-8 bytes, binaries by their bytes, numbers by value. Each encoding is
 * self-delimiting and no encoding is a prefix of another, so that keys made of several values (a partition key
 * then a sort key) still compare value by value.
 *
 * <p>Strings and binaries: their bytes with {@code 00} written {@code 00 FF}, then {@code 00 01}. Numbers: a
 * sign byte ({@code 01} negative, {@code 02} zero, {@code 03} positive), then for a positive number the
 * exponent of its first significant digit plus 130 and one byte a significant digit (the digit plus one),
 * ended by {@code 00}; for a negative number the same inverted (255 minus the exponent byte, eleven minus each
 * digit, ended by {@code FF}), so that a larger magnitude sorts first.
 */
public final class KeyBytes {

	private KeyBytes() {
	}

	/** The encoding of one key value. */
	public static byte[] of(AttributeValue value) {
		ByteSink out = new ByteSink(32);
		write(out, value);
		return out.toByteArray();
	}

	/**
	 * Appends the encoding of a key value.
	 * @throws IllegalArgumentException for a value that is not S, N or B
	 */
	public static void write(ByteSink out, AttributeValue value) {
		if (value.s() != null) {
			writeEscaped(out, value.s().getBytes(StandardCharsets.UTF_8));
			out.write(0);
			out.write(1);
		}
		else if (value.b() != null) {
			writeEscaped(out, value.b().asByteArrayUnsafe());
			out.write(0);
			out.write(1);
		}
		else if (value.n() != null) {
			writeNumber(out, new BigDecimal(value.n()));
		}
		else {
			throw new IllegalArgumentException("not a key value: " + value);
		}
	}

	/**
	 * Appends the encoding of a string's or binary's leading bytes, without the end: every value that begins
	 * with {@code prefix} has an encoding that begins with these bytes, and no other value has.
	 */
	public static void writePrefix(ByteSink out, AttributeValue prefix) {
		if (prefix.s() != null) {
			writeEscaped(out, prefix.s().getBytes(StandardCharsets.UTF_8));
		}
		else if (prefix.b() != null) {
			writeEscaped(out, prefix.b().asByteArrayUnsafe());
		}
		else {
			throw new IllegalArgumentException("begins_with needs a string or binary: " + prefix);
		}
	}

	/**
	 * The smallest byte array greater than every array that begins with {@code prefix}; null when there is
	 * none (the prefix is all {@code FF}).
	 */
	public static byte[] successor(byte[] prefix) {
		for (int i = prefix.length - 1; i >= 0; i--) {
			if (prefix[i] != (byte) 0xFF) {
				byte[] next = java.util.Arrays.copyOf(prefix, i + 1);
				next[i]++;
				return next;
			}
		}
		return null;
	}

	private static void writeEscaped(ByteSink out, byte[] bytes) {
		for (byte b : bytes) {
			out.write(b);
			if (b == 0) {
				out.write(0xFF);
			}
		}
	}

	private static void writeNumber(ByteSink out, BigDecimal number) {
		if (number.signum() == 0) {
			out.write(2);
			return;
		}
		BigDecimal stripped = number.stripTrailingZeros();
		String digits = stripped.unscaledValue().abs().toString();
		int exponent = digits.length() - 1 - stripped.scale();
		boolean negative = stripped.signum() < 0;
		out.write(negative ? 1 : 3);
		int exponentByte = exponent + 130;
		out.write(negative ? 255 - exponentByte : exponentByte);
		for (int i = 0; i < digits.length(); i++) {
			int digit = digits.charAt(i) - '0';
			out.write(negative ? 11 - digit : digit + 1);
		}
		out.write(negative ? 0xFF : 0);
	}

}
