package dev.dynamorelay.model;

import java.math.BigDecimal;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The edges of DynamoDB's Number range (Developer Guide, "Supported data types and naming rules", Number: 38
 * digits of precision, leading and trailing zeros trimmed, magnitudes from 1E-130 to below 1E+126), each stored
 * or refused with a ValidationException by a PutItem of it as a key.
 */
class DynamoDbNumbersTest {

	@Test
	void storesWhatDynamoDbStores() {
		List<String> stored = List.of("12345678901234567890123456789012345678", // 38 digits
				"1" + "0".repeat(38), // 39 digits, 1 significant
				"1." + "0".repeat(38), // 39 digits, 1 significant
				"1.0000000000000000000000000000000000001", // 38 significant
				"9.9999999999999999999999999999999999999E+125", "-9.9999999999999999999999999999999999999E+125",
				"1" + "0".repeat(125), "1E-130", "-1E-130", "0." + "0".repeat(129) + "1", "0", "-0", "0.000", "0E+200",
				"00001", "1.5e3");
		for (String number : stored) {
			assertThat(DynamoDbNumbers.refusal(new BigDecimal(number))).as(number).isEmpty();
		}
	}

	@Test
	void refusesWhatDynamoDbRefuses() {
		assertThat(DynamoDbNumbers.refusal(new BigDecimal("123456789012345678901234567890123456789")))
			.hasValueSatisfying((reason) -> assertThat(reason).contains("38 significant digits"));
		assertThat(DynamoDbNumbers.refusal(new BigDecimal("1.00000000000000000000000000000000000001"))).isPresent();
		assertThat(DynamoDbNumbers.refusal(new BigDecimal("1" + "0".repeat(40) + "1"))).isPresent();
		for (String number : List.of("1E+126", "-1E+126", "1" + "0".repeat(126), "1E+999999999")) {
			assertThat(DynamoDbNumbers.refusal(new BigDecimal(number))).as(number)
				.hasValueSatisfying((reason) -> assertThat(reason).contains("larger"));
		}
		for (String number : List.of("1E-131", "-1E-131", "0." + "0".repeat(130) + "1", "1E-999999999")) {
			assertThat(DynamoDbNumbers.refusal(new BigDecimal(number))).as(number)
				.hasValueSatisfying((reason) -> assertThat(reason).contains("closer to 0"));
		}
	}

}
