package dev.dynamorelay.engine.value;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import static org.assertj.core.api.Assertions.assertThat;

/** Key encodings compare as unsigned bytes in DynamoDB's order of the values, alone and one after another. */
class KeyBytesTest {

	private static final Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

	@Test
	void ordersNumbersByValue() {
		List<String> numbers = new ArrayList<>(List.of("0", "1", "-1", "1.5", "-1.5", "1.55", "-1.55", "10", "-10", "9.99",
				"0.001", "-0.001", "1E+125", "9.9999999999999999999999999999999999999E+125", "-1E+125", "1E-130",
				"-1E-130", "100", "99", "-99", "-100", "2", "20", "0.2", "-0.2", "-0.02", "123456789012345678901234567890",
				"12345678901234567890123456789012345678", "-12345678901234567890123456789012345678", "0.5", "-0.5",
				"1.0000000000000000000000000000000000001", "-1.0000000000000000000000000000000000001"));
		Random random = new Random(32);
		for (int i = 0; i < 2000; i++) {
			BigDecimal value = new BigDecimal(random.nextLong()).movePointLeft(random.nextInt(60) - 30);
			numbers.add(Numbers.format(value.round(Numbers.ARITHMETIC)));
		}
		assertOrderedAlike(numbers.stream().map(AttributeValue::fromN).toList());
	}

	@Test
	void encodesEqualNumbersAlike() {
		assertThat(KeyBytes.of(AttributeValue.fromN("1.50"))).isEqualTo(KeyBytes.of(AttributeValue.fromN("1.5")));
		assertThat(KeyBytes.of(AttributeValue.fromN("1E2"))).isEqualTo(KeyBytes.of(AttributeValue.fromN("100")));
		assertThat(KeyBytes.of(AttributeValue.fromN("-0"))).isEqualTo(KeyBytes.of(AttributeValue.fromN("0")));
	}

	@Test
	void ordersStringsByUtf8BytesAndBinariesUnsigned() {
		List<AttributeValue> strings = new ArrayList<>();
		List<AttributeValue> binaries = new ArrayList<>();
		for (String text : List.of("", "a", "a\u0000", "a\u0000b", "ab", "b", "\uFFFF", "😀", "\uE000", "Z", "a b", "\u0000",
				"\u0000\u0000", "é")) {
			strings.add(AttributeValue.fromS(text));
		}
		Random random = new Random(3);
		for (int i = 0; i < 500; i++) {
			byte[] bytes = new byte[random.nextInt(5)];
			for (int j = 0; j < bytes.length; j++) {
				bytes[j] = (byte) (random.nextBoolean() ? 0 : random.nextInt(256));
			}
			binaries.add(AttributeValue.fromB(SdkBytes.fromByteArray(bytes)));
			strings.add(AttributeValue.fromS(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1)));
		}
		assertOrderedAlike(strings);
		assertOrderedAlike(binaries);
	}

	@Test
	void ordersPairsValueByValue() {
		Random random = new Random(5);
		for (int first = 0; first < 3; first++) {
			for (int second = 0; second < 3; second++) {
				List<AttributeValue[]> pairs = new ArrayList<>();
				for (int i = 0; i < 400; i++) {
					pairs.add(new AttributeValue[] { randomKey(random, first), randomKey(random, second) });
				}
				List<AttributeValue[]> byValues = new ArrayList<>(pairs);
				byValues.sort((a, b) -> {
					int order = Values.compare(a[0], b[0]);
					return (order != 0) ? order : Values.compare(a[1], b[1]);
				});
				List<AttributeValue[]> byBytes = new ArrayList<>(pairs);
				byBytes.sort(Comparator.comparing((AttributeValue[] pair) -> {
					ByteSink out = new ByteSink(16);
					KeyBytes.write(out, pair[0]);
					KeyBytes.write(out, pair[1]);
					return out.toByteArray();
				}, UNSIGNED));
				for (int i = 0; i < pairs.size(); i++) {
					assertThat(Values.compare(byBytes.get(i)[0], byValues.get(i)[0])).isZero();
					assertThat(Values.compare(byBytes.get(i)[1], byValues.get(i)[1])).isZero();
				}
			}
		}
	}

	@Test
	void beginsTheEncodingOfEveryValueThatBeginsWithAPrefix() {
		List<String> texts = List.of("", "a", "a\u0000", "a\u0000b", "ab", "abc", "b", "\u0000");
		for (String prefix : texts) {
			ByteSink out = new ByteSink(8);
			KeyBytes.writePrefix(out, AttributeValue.fromS(prefix));
			byte[] start = out.toByteArray();
			byte[] end = KeyBytes.successor(start);
			for (String text : texts) {
				byte[] encoded = KeyBytes.of(AttributeValue.fromS(text));
				boolean inRange = Arrays.compareUnsigned(encoded, start) >= 0
						&& (end == null || Arrays.compareUnsigned(encoded, end) < 0);
				assertThat(inRange).as("'%s' begins with '%s'", text, prefix).isEqualTo(text.startsWith(prefix));
			}
		}
	}

	@Test
	void findsTheSuccessorOfAPrefix() {
		assertThat(KeyBytes.successor(new byte[] { 1, 2 })).containsExactly(1, 3);
		assertThat(KeyBytes.successor(new byte[] { 1, (byte) 0xFF })).containsExactly(2);
		assertThat(KeyBytes.successor(new byte[] { (byte) 0xFF })).isNull();
	}

	private static AttributeValue randomKey(Random random, int type) {
		return switch (type) {
			case 0 -> AttributeValue.fromS(Integer.toString(random.nextInt(40), 3));
			case 1 -> AttributeValue.fromN(Integer.toString(random.nextInt(30) - 15));
			default -> AttributeValue.fromB(SdkBytes.fromByteArray(new byte[random.nextInt(3)]));
		};
	}

	private static void assertOrderedAlike(List<AttributeValue> values) {
		List<AttributeValue> byValue = new ArrayList<>(values);
		byValue.sort(Values::compare);
		List<AttributeValue> byBytes = new ArrayList<>(values);
		byBytes.sort(Comparator.comparing(KeyBytes::of, UNSIGNED));
		for (int i = 0; i < values.size(); i++) {
			assertThat(Values.compare(byBytes.get(i), byValue.get(i))).as("position %d", i).isZero();
		}
	}

}
