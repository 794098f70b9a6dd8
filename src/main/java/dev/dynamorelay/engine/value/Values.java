package dev.dynamorelay.engine.value;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DynamoDB's order and equality of attribute values: numbers by value, strings by their UTF-8 bytes, binaries
 * by their bytes unsigned; sets equal whatever their order, lists in order, maps by their entries.
 *
 * <p>See the Developer Guide, "Comparison operator and function reference": "Strings are compared
 * lexicographically ... based on the UTF-8 encoding of the characters", "DynamoDB treats each byte of the
 * binary data as unsigned".
 */
public final class Values {

	private Values() {
	}

	/**
	 * The order of two scalars of one type (S, N or B).
	 * @throws IllegalArgumentException when they are not scalars of one type
	 */
	public static int compare(AttributeValue a, AttributeValue b) {
		AttributeValue.Type type = a.type();
		if (type != b.type()) {
			throw new IllegalArgumentException("values of types " + type + " and " + b.type() + " have no order");
		}
		return switch (type) {
			case S -> compareStrings(a.s(), b.s());
			case N -> number(a.n()).compareTo(number(b.n()));
			case B -> compareBytes(a.b(), b.b());
			default -> throw new IllegalArgumentException("values of type " + type + " have no order");
		};
	}

	/** Strings in the order of their UTF-8 bytes, which is the order of their code points. */
	public static int compareStrings(String a, String b) {
		int i = 0;
		int j = 0;
		while (i < a.length() && j < b.length()) {
			int x = a.codePointAt(i);
			int y = b.codePointAt(j);
			if (x != y) {
				return Integer.compare(x, y);
			}
			i += Character.charCount(x);
			j += Character.charCount(y);
		}
		return Integer.compare(a.length() - i, b.length() - j);
	}

	/** Binaries byte by byte, each byte unsigned; a prefix first. */
	public static int compareBytes(SdkBytes a, SdkBytes b) {
		return java.util.Arrays.compareUnsigned(a.asByteArrayUnsafe(), b.asByteArrayUnsafe());
	}

	/** Whether two values are equal as DynamoDB compares them (types must match; numbers by value). */
	public static boolean equal(AttributeValue a, AttributeValue b) {
		if (a.type() != b.type()) {
			return false;
		}
		return switch (a.type()) {
			case S -> a.s().equals(b.s());
			case N -> number(a.n()).compareTo(number(b.n())) == 0;
			case B -> a.b().equals(b.b());
			case BOOL -> a.bool().equals(b.bool());
			case NUL -> true;
			case SS -> Set.copyOf(a.ss()).equals(Set.copyOf(b.ss())) && a.ss().size() == b.ss().size();
			case BS -> Set.copyOf(a.bs()).equals(Set.copyOf(b.bs())) && a.bs().size() == b.bs().size();
			case NS -> numberSet(a.ns()).equals(numberSet(b.ns())) && a.ns().size() == b.ns().size();
			case L -> equalLists(a.l(), b.l());
			case M -> equalMaps(a.m(), b.m());
			default -> false;
		};
	}

	/** Whether two items (or maps) hold equal values under the same names. */
	public static boolean equalMaps(Map<String, AttributeValue> a, Map<String, AttributeValue> b) {
		if (a.size() != b.size()) {
			return false;
		}
		for (Map.Entry<String, AttributeValue> entry : a.entrySet()) {
			AttributeValue other = b.get(entry.getKey());
			if (other == null || !equal(entry.getValue(), other)) {
				return false;
			}
		}
		return true;
	}

	private static boolean equalLists(List<AttributeValue> a, List<AttributeValue> b) {
		if (a.size() != b.size()) {
			return false;
		}
		Iterator<AttributeValue> i = a.iterator();
		Iterator<AttributeValue> j = b.iterator();
		while (i.hasNext()) {
			if (!equal(i.next(), j.next())) {
				return false;
			}
		}
		return true;
	}

	private static Set<BigDecimal> numberSet(List<String> numbers) {
		Set<BigDecimal> set = new HashSet<>();
		for (String number : numbers) {
			set.add(number(number).stripTrailingZeros());
		}
		return set;
	}

	/** A stored number's value (stored numbers are valid; one from a request was checked by {@link Numbers}). */
	public static BigDecimal number(String text) {
		return new BigDecimal(text);
	}

}
