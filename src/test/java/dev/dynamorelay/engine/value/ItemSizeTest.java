package dev.dynamorelay.engine.value;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import static org.assertj.core.api.Assertions.assertThat;

/** The Developer Guide's "DynamoDB item sizes and formats", rule by rule. */
class ItemSizeTest {

	@Test
	void countsStringsAndNamesInUtf8Bytes() {
		assertThat(ItemSize.of(Map.of("a", AttributeValue.fromS("abc")))).isEqualTo(4);
		// ü is two bytes in UTF-8, one unit in UTF-16 (dynalite would say 2 for the value)
		assertThat(ItemSize.of(Map.of("ü", AttributeValue.fromS("ü")))).isEqualTo(4);
		// an emoji is four bytes in UTF-8, two units in UTF-16
		assertThat(ItemSize.of(Map.of("k", AttributeValue.fromS("😀")))).isEqualTo(5);
		assertThat(ItemSize.utf8Length("€")).isEqualTo(3);
		assertThat(ItemSize.of(Map.of("k", AttributeValue.fromS("")))).isEqualTo(1);
	}

	@ParameterizedTest
	@CsvSource({ "0,1", "1,2", "-1,3", "12,2", "123,3", "1.2,3", "10.5,3", "0.05,2", "1234,3", "12345,4",
			"100,2", "0.001,2", "99.99,3", "-99.99,4",
			"12345678901234567890123456789012345678,20", "1E+125,2", "1E-130,2", "1.5E3,2" })
	void countsNumbersOneBytePerTwoSignificantDigitsPlusOne(String number, int size) {
		assertThat(ItemSize.number(number)).isEqualTo(size);
	}

	@Test
	void countsBinariesByTheirRawBytes() {
		assertThat(ItemSize.value(AttributeValue.fromB(SdkBytes.fromByteArray(new byte[10])))).isEqualTo(10);
	}

	@Test
	void countsNullAndBooleanAsOneByte() {
		assertThat(ItemSize.value(AttributeValue.fromNul(true))).isEqualTo(1);
		assertThat(ItemSize.value(AttributeValue.fromBool(false))).isEqualTo(1);
	}

	@Test
	void countsSetsAsTheSumOfTheirMembers() {
		assertThat(ItemSize.value(AttributeValue.fromSs(List.of("ab", "c")))).isEqualTo(3);
		assertThat(ItemSize.value(AttributeValue.fromNs(List.of("1", "123")))).isEqualTo(5);
		assertThat(ItemSize.value(AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("xy"))))).isEqualTo(2);
	}

	@Test
	void countsThreeBytesAListOrMapAndOneByteAMember() {
		assertThat(ItemSize.value(AttributeValue.fromL(List.of()))).isEqualTo(3);
		assertThat(ItemSize.value(AttributeValue.fromM(Map.of()))).isEqualTo(3);
		assertThat(ItemSize.value(AttributeValue.fromL(List.of(AttributeValue.fromS("ab"), AttributeValue.fromN("1")))))
			.isEqualTo(3 + 2 + 2 + 2);
		Map<String, AttributeValue> nested = new LinkedHashMap<>();
		nested.put("x", AttributeValue.fromS("ab"));
		nested.put("yy", AttributeValue.fromM(Map.of("z", AttributeValue.fromBool(true))));
		// map: 3 + 2 members + (1 + 2) + (2 + (3 + 1 + (1 + 1)))
		assertThat(ItemSize.of(Map.of("m", AttributeValue.fromM(nested)))).isEqualTo(1 + 3 + 2 + 3 + 2 + 6);
	}


	/** Page sizes as dynalite's itemSize(item, true, true, rangeKey) gives them, run under Node. */
	@Test
	void measuresThePageSizeAsDynaliteMeasuredDynamoDb() {
		assertThat(ItemSize.pageSize(Map.of("a", AttributeValue.fromS("x")), null)).isEqualTo(23);
		Map<String, AttributeValue> large = new LinkedHashMap<>();
		large.put("a", AttributeValue.fromS("abc"));
		large.put("b", AttributeValue.fromS("01"));
		large.put("e", AttributeValue.fromS("e".repeat(41645)));
		assertThat(ItemSize.pageSize(large, "b")).isEqualTo(41936);
		assertThat(ItemSize.pageSize(Map.of("a", AttributeValue.fromS("id"), "n", AttributeValue.fromN("123.45"), "neg", AttributeValue.fromN("-1"),
				"z", AttributeValue.fromN("0")), null)).isEqualTo(38);
		assertThat(ItemSize.pageSize(Map.of("a", AttributeValue.fromS("id"), "bin", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { 0, 1, 2 })),
				"t", AttributeValue.fromBool(true), "nul", AttributeValue.fromNul(true)), null)).isEqualTo(32);
		assertThat(ItemSize.pageSize(Map.of("a", AttributeValue.fromS("id"), "ss", AttributeValue.fromSs(List.of("a", "bb")), "ns",
				AttributeValue.fromNs(List.of("1", "22")), "bs", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[] { 0 }),
						SdkBytes.fromByteArray(new byte[] { 0, 1 })))), null)).isEqualTo(46);
		assertThat(ItemSize.pageSize(Map.of("a", AttributeValue.fromS("id"), "l", AttributeValue.fromL(List.of(AttributeValue.fromS("x"),
				AttributeValue.fromN("1"), AttributeValue.fromL(List.of()))), "m", AttributeValue.fromM(Map.of("k", AttributeValue.fromS("v"), "n",
						AttributeValue.fromNul(true)))), null)).isEqualTo(49);
		assertThat(ItemSize.pageSize(Map.of("a", AttributeValue.fromS("id"), "s", AttributeValue.fromS("y".repeat(200)), "big",
				AttributeValue.fromS("z".repeat(20000))), null)).isEqualTo(20339);
		assertThat(ItemSize.pageSize(Map.of("a", AttributeValue.fromS("id"), "r", AttributeValue.fromN("42"), "s", AttributeValue.fromS("y".repeat(5000))),
				"r")).isEqualTo(5049);
	}

}
