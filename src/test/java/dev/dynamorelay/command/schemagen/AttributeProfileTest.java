package dev.dynamorelay.command.schemagen;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import static org.assertj.core.api.Assertions.assertThat;

class AttributeProfileTest {

	@Test
	void numbersTakeTheNarrowestTypeThatHoldsEveryValue() {
		assertThat(numbers("1", "-7", "2147483647", "-2147483648", "1.0", "1E+2").graphQlType()).isEqualTo("Int");
		assertThat(numbers("1", "2147483648").graphQlType()).isEqualTo("Long");
		assertThat(numbers("-2147483649").graphQlType()).isEqualTo("Long");
		assertThat(numbers("9223372036854775807").graphQlType()).isEqualTo("Long");
		assertThat(numbers("9223372036854775808").graphQlType()).isEqualTo("Decimal");
		assertThat(numbers("1", "1.5").graphQlType()).isEqualTo("Float");
		assertThat(numbers("0.000001").graphQlType()).isEqualTo("Float");
		assertThat(numbers("3").numberType()).isEqualTo("Int");
		assertThat(new AttributeProfile().numberType()).isEqualTo("Long");
	}

	@Test
	void numbersADoubleWouldRoundAreDecimal() {
		// 23 digits: as a Float they would be served as 1.2345678901234568E22.
		assertThat(numbers("12345678901234567890123").graphQlType()).isEqualTo("Decimal");
		assertThat(numbers("12345678901234567890123", "0.5").graphQlType()).isEqualTo("Decimal");
		assertThat(numbers("12345678901234567890123").numberType()).isEqualTo("Decimal");
		// 19 significant digits with a fraction; a whole number a double rounds, next to a fraction.
		assertThat(numbers("0.1", "1234567890.123456789").graphQlType()).isEqualTo("Decimal");
		assertThat(numbers("9007199254740993", "0.5").graphQlType()).isEqualTo("Decimal");
		assertThat(numbers("9223372036854775807", "1.5").graphQlType()).isEqualTo("Decimal");
		assertThat(profile(AttributeValue.fromNs(List.of("0.5", "12345678901234567890123"))).graphQlType())
			.isEqualTo("[Decimal!]");
	}

	@Test
	void numbersADoubleHoldsExactlyAreFloat() {
		assertThat(numbers("0.1", "2.5", "-7").graphQlType()).isEqualTo("Float");
		assertThat(numbers("3.141592653589793").graphQlType()).isEqualTo("Float");
		assertThat(numbers("9007199254740992", "0.5").graphQlType()).isEqualTo("Float");
		assertThat(numbers("1E+30").graphQlType()).isEqualTo("Float");
		assertThat(numbers("1E-130", "9.99E+125").graphQlType()).isEqualTo("Float");
		// Whole numbers in range stay whole, however many digits.
		assertThat(numbers("9007199254740993").graphQlType()).isEqualTo("Long");
	}

	@Test
	void eachDynamoDbTypeHasItsGraphQlType() {
		assertThat(profile(AttributeValue.fromS("a")).graphQlType()).isEqualTo("String");
		assertThat(profile(AttributeValue.fromBool(true)).graphQlType()).isEqualTo("Boolean");
		assertThat(profile(AttributeValue.fromB(SdkBytes.fromUtf8String("x"))).graphQlType()).isEqualTo("Bytes");
		assertThat(profile(AttributeValue.fromSs(List.of("a"))).graphQlType()).isEqualTo("[String!]");
		assertThat(profile(AttributeValue.fromNs(List.of("1", "2"))).graphQlType()).isEqualTo("[Int!]");
		assertThat(profile(AttributeValue.fromNs(List.of("1", "5000000000"))).graphQlType()).isEqualTo("[Long!]");
		assertThat(profile(AttributeValue.fromNs(List.of("0.5"))).graphQlType()).isEqualTo("[Float!]");
		assertThat(profile(AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("x")))).graphQlType())
			.isEqualTo("[Bytes!]");
		assertThat(profile(AttributeValue.fromL(List.of(AttributeValue.fromS("a")))).graphQlType()).isEqualTo("JSON");
		assertThat(profile(AttributeValue.fromM(Map.of("a", AttributeValue.fromS("a")))).graphQlType())
			.isEqualTo("JSON");
	}

	@Test
	void mixedAndNullOnlyAttributesAreJson() {
		AttributeProfile mixed = profile(AttributeValue.fromS("a"), AttributeValue.fromN("1"));
		assertThat(mixed.graphQlType()).isEqualTo("JSON");
		assertThat(mixed.isMixed()).isTrue();
		assertThat(mixed.seenTypes()).isEqualTo("N, S");
		assertThat(profile(AttributeValue.fromN("1"), AttributeValue.fromNs(List.of("1"))).graphQlType())
			.isEqualTo("JSON");
		AttributeProfile nullOnly = profile(AttributeValue.fromNul(true));
		assertThat(nullOnly.graphQlType()).isEqualTo("JSON");
		assertThat(nullOnly.seenTypes()).isEqualTo("NULL");
		AttributeProfile sometimesNull = profile(AttributeValue.fromS("a"), AttributeValue.fromNul(true));
		assertThat(sometimesNull.graphQlType()).isEqualTo("String");
		assertThat(sometimesNull.isMixed()).isFalse();
		assertThat(sometimesNull.items()).isEqualTo(2);
	}

	private static AttributeProfile numbers(String... numbers) {
		AttributeProfile profile = new AttributeProfile();
		for (String number : numbers) {
			profile.observe(AttributeValue.fromN(number));
		}
		return profile;
	}

	private static AttributeProfile profile(AttributeValue... values) {
		AttributeProfile profile = new AttributeProfile();
		for (AttributeValue value : values) {
			profile.observe(value);
		}
		return profile;
	}

}
