package dev.dynamorelay.engine.value;

import java.util.List;
import java.util.Map;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DynamoDB's item size rules, which decide the 400 KB item limit, capacity units, the 1 MB page of a Query or
 * Scan and the 16 MB of a BatchGetItem: the sum of the attribute names' UTF-8 bytes and the values' sizes.
 * A string is its UTF-8 bytes; a number one byte per two significant digits plus one (DynamoDB's base-100
 * form: one exponent byte, the digits paired from the decimal point, a negative number's end byte); a binary
 * its raw bytes; null and Boolean one byte; a set the sum of its members; a list or map three bytes, one byte
 * a member, and its members (a map's names counted as an item's are).
 *
 * <p>See the Developer Guide, "DynamoDB item sizes and formats".
 */
// differs from dynalite (db/index.js valSize): dynalite counts strings and names in UTF-16 code units; the
// Developer Guide says UTF-8 bytes, which is what this counts.
public final class ItemSize {

	/** The largest item DynamoDB stores: 400 KB. */
	public static final int MAX_ITEM_BYTES = 400 * 1024;

	private ItemSize() {
	}

	/** The size of an item (or a key, or a map's members without the map's own overhead). */
	public static long of(Map<String, AttributeValue> item) {
		long size = 0;
		for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
			size += utf8Length(attribute.getKey()) + value(attribute.getValue());
		}
		return size;
	}

	/** The size of one value, without its attribute name. */
	public static long value(AttributeValue value) {
		if (value.s() != null) {
			return utf8Length(value.s());
		}
		if (value.n() != null) {
			return number(value.n());
		}
		if (value.b() != null) {
			return value.b().asByteArrayUnsafe().length;
		}
		if (value.hasSs()) {
			long size = 0;
			for (String member : value.ss()) {
				size += utf8Length(member);
			}
			return size;
		}
		if (value.hasNs()) {
			long size = 0;
			for (String member : value.ns()) {
				size += number(member);
			}
			return size;
		}
		if (value.hasBs()) {
			long size = 0;
			for (SdkBytes member : value.bs()) {
				size += member.asByteArrayUnsafe().length;
			}
			return size;
		}
		if (value.hasM()) {
			Map<String, AttributeValue> members = value.m();
			return 3 + members.size() + of(members);
		}
		if (value.hasL()) {
			List<AttributeValue> members = value.l();
			long size = 3 + members.size();
			for (AttributeValue member : members) {
				size += value(member);
			}
			return size;
		}
		// BOOL and NULL
		return 1;
	}

	/**
	 * The size of a number in DynamoDB's form: one byte of exponent, then its significant digits paired from
	 * the decimal point (so 1.2 takes two bytes of digits, 12 one), and one more byte when negative; zero is
	 * one byte.
	 */
	public static int number(String text) {
		int start = 0;
		boolean negative = false;
		if (text.charAt(0) == '-') {
			negative = true;
			start = 1;
		}
		int point = text.indexOf('.');
		int exponentMark = Math.max(text.indexOf('e'), text.indexOf('E'));
		int end = (exponentMark < 0) ? text.length() : exponentMark;
		int integerEnd = (point < 0) ? end : point;
		// The first and last significant digits, and where the first stands against the decimal point.
		int first = -1;
		int last = -1;
		int firstPosition = 0;
		int digits = 0;
		for (int i = start; i < end; i++) {
			char c = text.charAt(i);
			if (c == '.') {
				continue;
			}
			if (c != '0') {
				if (first < 0) {
					first = i;
					firstPosition = (i < integerEnd) ? integerEnd - i - 1 : -(i - integerEnd);
				}
				last = i;
			}
		}
		if (first < 0) {
			return 1;
		}
		for (int i = first; i <= last; i++) {
			if (text.charAt(i) != '.') {
				digits++;
			}
		}
		int exponent = firstPosition + ((exponentMark < 0) ? 0 : Integer.parseInt(text.substring(exponentMark + 1)));
		int size = 1 + (digits + 1) / 2;
		if (digits % 2 == 0 && exponent % 2 == 0) {
			size++;
		}
		return negative ? size + 1 : size;
	}

	/**
	 * The size an item counts for against the 1 MB a Query or Scan reads: DynamoDB's stored size, larger than its
	 * documented size (each attribute's type and length bytes, a name counted as one byte, some bytes of
	 * metadata a 3 KB block), as dynalite's tests measured it on DynamoDB (db/index.js itemSize with its
	 * compress and metadata flags). The table's sort key, {@code rangeKey} (null when none), counts in the
	 * metadata instead of the attributes.
	 */
	public static long pageSize(Map<String, AttributeValue> item, String rangeKey) {
		long rangeKeySize = 0;
		long size = 0;
		for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
			if (attribute.getKey().equals(rangeKey)) {
				rangeKeySize = value(attribute.getValue());
				continue;
			}
			size += stored(attribute.getValue()) + 1;
		}
		return 2 + size + (1 + (1 + size) / 3072) * (18 + rangeKeySize);
	}

	/** A value's stored size: its size with its type and length bytes (dynalite's valSizeWithStorage, compressed). */
	private static long stored(AttributeValue value) {
		if (value.s() != null) {
			long size = utf8Length(value.s());
			return size + ((size < 128) ? 1 : (size < 16384) ? 2 : 3);
		}
		if (value.n() != null || value.b() != null) {
			return value(value) + 1;
		}
		if (value.hasSs()) {
			return value(value) + value.ss().size() + 1;
		}
		if (value.hasNs()) {
			return value(value) + value.ns().size() + 1;
		}
		if (value.hasBs()) {
			return value(value) + value.bs().size() + 1;
		}
		if (value.hasL()) {
			long size = 3;
			for (AttributeValue member : value.l()) {
				size += 1 + stored(member);
			}
			return size;
		}
		if (value.hasM()) {
			long size = 3 + value.m().size();
			for (AttributeValue member : value.m().values()) {
				size += stored(member) + 1;
			}
			return size;
		}
		if (value.bool() != null) {
			return 1;
		}
		// NULL
		return 0;
	}

	/** The length of {@code text} in UTF-8, without encoding it. */
	public static int utf8Length(String text) {
		int length = text.length();
		int bytes = length;
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			if (c >= 0x80) {
				if (c < 0x800) {
					bytes += 1;
				}
				else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
					// a pair of UTF-16 units is four bytes: the two units counted already, two more
					bytes += 2;
					i++;
				}
				else {
					bytes += 2;
				}
			}
		}
		return bytes;
	}

}
