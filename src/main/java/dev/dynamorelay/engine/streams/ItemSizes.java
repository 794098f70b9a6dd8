package dev.dynamorelay.engine.streams;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The size of items by DynamoDB's rules, for a stream record's {@code SizeBytes} (the sizes of its keys and
 * images): names and strings by their UTF-8 bytes, binaries by their bytes, a number one byte per two
 * significant digits plus one, booleans and nulls one byte, lists and maps three bytes plus one a member.
 *
 * <p>See the Developer Guide, "Item sizes and formats". The API Reference's GetRecords example gives
 * {@code SizeBytes} 41 for the keys {@code ForumName: "DynamoDB"} and {@code Subject: "DynamoDB Thread 3"} of a
 * KEYS_ONLY record: 9 + 8 + 7 + 17, the keys' size by these rules.
 */
final class ItemSizes {

	private ItemSizes() {
	}

	static long of(Map<String, AttributeValue> item) {
		long size = 0;
		for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
			size += utf8(attribute.getKey()) + of(attribute.getValue());
		}
		return size;
	}

	static long of(AttributeValue value) {
		return switch (value.type()) {
			case S -> utf8(value.s());
			case N -> number(value.n());
			case B -> value.b().asByteArrayUnsafe().length;
			case BOOL, NUL -> 1;
			case SS -> value.ss().stream().mapToLong(ItemSizes::utf8).sum();
			case NS -> value.ns().stream().mapToLong(ItemSizes::number).sum();
			case BS -> value.bs().stream().mapToLong((element) -> element.asByteArrayUnsafe().length).sum();
			case L -> list(value.l());
			case M -> 3 + value.m().size() + of(value.m());
			default -> 0;
		};
	}

	private static long list(List<AttributeValue> elements) {
		long size = 3;
		for (AttributeValue element : elements) {
			size += 1 + of(element);
		}
		return size;
	}

	/**
	 * A number: one byte, plus a byte for each pair of significant digits as DynamoDB packs them (in base 100,
	 * aligned on the decimal point, so that 1 digit at an odd position takes a byte of its own), plus one for a
	 * negative number's terminator.
	 */
	static long number(String text) {
		BigDecimal value = new BigDecimal(text);
		if (value.signum() == 0) {
			return 1;
		}
		BigDecimal stripped = value.stripTrailingZeros();
		int digits = stripped.precision();
		// The exponent of the first significant digit.
		int exponent = digits - stripped.scale() - 1;
		int pairs = (digits + 1) / 2 + (((digits % 2) == 0 && Math.floorMod(exponent, 2) == 0) ? 1 : 0);
		return 1 + pairs + (value.signum() < 0 ? 1 : 0);
	}

	private static long utf8(String text) {
		int length = text.length();
		long bytes = length;
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			if (c >= 0x80) {
				if (c < 0x800) {
					bytes += 1;
				}
				else if (Character.isHighSurrogate(c)) {
					// A pair of UTF-16 units: four UTF-8 bytes in all.
					bytes += 1;
				}
				else if (!Character.isLowSurrogate(c)) {
					bytes += 2;
				}
				else {
					bytes += 1;
				}
			}
		}
		return bytes;
	}

}
