package dev.dynamorelay.model;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Compares attribute values as DynamoDB's conditions do, so that the server can tell in memory what a
 * condition would tell on DynamoDB: whether a written item, or a stream record's image, is in a connection.
 *
 * <p>Numbers compare by value ({@code 10} equals {@code 10.0}), strings by their UTF-8 bytes, binary values
 * by their unsigned bytes; values of different types never compare. Sets are equal whatever their order.
 */
public final class AttributeValues {

	private AttributeValues() {
	}

	/**
	 * How {@code a} orders against {@code b} (negative, zero, positive), if both are scalars of one type
	 * (S, N or B): empty for values that DynamoDB does not compare with {@code <}.
	 */
	public static Optional<Integer> compare(AttributeValue a, AttributeValue b) {
		if (a == null || b == null) {
			return Optional.empty();
		}
		if (a.s() != null && b.s() != null) {
			return Optional.of(unsigned(a.s().getBytes(StandardCharsets.UTF_8), b.s().getBytes(StandardCharsets.UTF_8)));
		}
		if (a.n() != null && b.n() != null) {
			return Optional.of(new BigDecimal(a.n()).compareTo(new BigDecimal(b.n())));
		}
		if (a.b() != null && b.b() != null) {
			return Optional.of(unsigned(a.b().asByteArrayUnsafe(), b.b().asByteArrayUnsafe()));
		}
		return Optional.empty();
	}

	/** Whether {@code a} equals {@code b} as DynamoDB's {@code =} says (numbers by value, sets by members). */
	public static boolean equal(AttributeValue a, AttributeValue b) {
		if (a == null || b == null) {
			return false;
		}
		Optional<Integer> scalar = compare(a, b);
		if (scalar.isPresent()) {
			return scalar.get() == 0;
		}
		if (a.type() != b.type()) {
			return false;
		}
		return switch (a.type()) {
			case BOOL -> a.bool().equals(b.bool());
			case NUL -> true;
			case SS -> new HashSet<>(a.ss()).equals(new HashSet<>(b.ss()));
			case NS -> numbers(a.ns()).equals(numbers(b.ns()));
			case BS -> new HashSet<>(a.bs()).equals(new HashSet<>(b.bs()));
			case L -> list(a.l(), b.l());
			case M -> map(a.m(), b.m());
			default -> false;
		};
	}

	/** DynamoDB's {@code begins_with}: a string prefix, or a binary one. */
	public static boolean beginsWith(AttributeValue value, AttributeValue prefix) {
		if (value == null || prefix == null) {
			return false;
		}
		if (value.s() != null && prefix.s() != null) {
			return value.s().startsWith(prefix.s());
		}
		if (value.b() != null && prefix.b() != null) {
			byte[] bytes = value.b().asByteArrayUnsafe();
			byte[] start = prefix.b().asByteArrayUnsafe();
			if (start.length > bytes.length) {
				return false;
			}
			for (int i = 0; i < start.length; i++) {
				if (bytes[i] != start[i]) {
					return false;
				}
			}
			return true;
		}
		return false;
	}

	/** DynamoDB's {@code contains}: a substring of a string, or an element of a set or list. */
	public static boolean contains(AttributeValue value, AttributeValue operand) {
		if (value == null || operand == null) {
			return false;
		}
		if (value.s() != null) {
			return operand.s() != null && value.s().contains(operand.s());
		}
		if (value.hasSs()) {
			return operand.s() != null && value.ss().contains(operand.s());
		}
		if (value.hasNs()) {
			return operand.n() != null && value.ns().stream().anyMatch((n) -> new BigDecimal(n).compareTo(new BigDecimal(operand.n())) == 0);
		}
		if (value.hasBs()) {
			return operand.b() != null && value.bs().contains(operand.b());
		}
		if (value.hasL()) {
			return value.l().stream().anyMatch((element) -> equal(element, operand));
		}
		return false;
	}

	private static int unsigned(byte[] a, byte[] b) {
		int length = Math.min(a.length, b.length);
		for (int i = 0; i < length; i++) {
			int difference = (a[i] & 0xff) - (b[i] & 0xff);
			if (difference != 0) {
				return difference;
			}
		}
		return a.length - b.length;
	}

	private static HashSet<BigDecimal> numbers(List<String> numbers) {
		HashSet<BigDecimal> values = new HashSet<>();
		numbers.forEach((n) -> values.add(new BigDecimal(n).stripTrailingZeros()));
		return values;
	}

	private static boolean list(List<AttributeValue> a, List<AttributeValue> b) {
		if (a.size() != b.size()) {
			return false;
		}
		for (int i = 0; i < a.size(); i++) {
			if (!equal(a.get(i), b.get(i))) {
				return false;
			}
		}
		return true;
	}

	private static boolean map(Map<String, AttributeValue> a, Map<String, AttributeValue> b) {
		return a.keySet().equals(b.keySet()) && a.entrySet().stream().allMatch((entry) -> equal(entry.getValue(), b.get(entry.getKey())));
	}

	/** A binary value's bytes, for callers that build one. */
	static SdkBytes bytes(byte[] value) {
		return SdkBytes.fromByteArray(value);
	}

}
