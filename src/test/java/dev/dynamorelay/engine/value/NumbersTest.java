package dev.dynamorelay.engine.value;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.dynamorelay.engine.action.AwsError;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NumbersTest {

	@ParameterizedTest
	@CsvSource({ "1E+2,100", "-0.50,-0.5", "007,7", ".5,0.5", "5.,5", "0.000,0", "-0,0",
			"12345678901234567890123456789012345678,12345678901234567890123456789012345678",
			"98765432109876543210.12345,98765432109876543210.12345", "1.2e3,1200", "1E0,1" })
	void writesNumbersInPlainNotationWithoutZerosAround(String given, String stored) {
		assertThat(Numbers.normalize(given)).isEqualTo(stored);
	}

	@Test
	void holdsTheEdgesOfTheRange() {
		assertThat(Numbers.normalize("1e-130")).isEqualTo("0." + "0".repeat(129) + "1");
		assertThat(Numbers.parse("9.9999999999999999999999999999999999999E+125")).isNotNull();
		assertThat(Numbers.parse("-9.9999999999999999999999999999999999999E+125")).isNotNull();
		assertThat(Numbers.parse("1E-130")).isEqualByComparingTo(new BigDecimal("1E-130"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "1E+126", "10E+125", "-1e126", "1e999999999999999999" })
	void refusesMagnitudesAboveTheRange(String given) {
		assertThatThrownBy(() -> Numbers.parse(given)).isInstanceOf(AwsError.class)
			.hasMessage("Number overflow. Attempting to store a number with magnitude larger than supported range");
	}

	@ParameterizedTest
	@ValueSource(strings = { "1E-131", "0.1e-130", "-1e-999999999999999999" })
	void refusesMagnitudesBelowTheRange(String given) {
		assertThatThrownBy(() -> Numbers.parse(given)).isInstanceOf(AwsError.class)
			.hasMessage("Number underflow. Attempting to store a number with magnitude smaller than supported range");
	}

	@Test
	void refusesAThirtyNinthSignificantDigitButNotTrailingZeros() {
		assertThatThrownBy(() -> Numbers.parse("123456789012345678901234567890123456789")).isInstanceOf(AwsError.class)
			.hasMessage("Attempting to store more than 38 significant digits in a Number");
		assertThat(Numbers.normalize("12345678901234567890123456789012345678000")).isEqualTo("12345678901234567890123456789012345678000");
	}

	@ParameterizedTest
	@ValueSource(strings = { "abc", "+5", " 5", "5 ", "1e", "e5", "--1", "1.2.3", "0x10", "Infinity", "NaN" })
	void refusesWhatIsNoNumber(String given) {
		assertThatThrownBy(() -> Numbers.parse(given)).isInstanceOf(AwsError.class)
			.hasMessage("The parameter cannot be converted to a numeric value: " + given)
			.extracting((error) -> ((AwsError) error).type())
			.isEqualTo("ValidationException");
	}

	@Test
	void refusesAnEmptyNumberWithoutAValue() {
		assertThatThrownBy(() -> Numbers.parse("")).hasMessage("The parameter cannot be converted to a numeric value");
	}

	@Test
	void checksTheResultsOfArithmetic() {
		assertThat(Numbers.check(new BigDecimal("1.500"))).isEqualTo(new BigDecimal("1.5"));
		assertThatThrownBy(() -> Numbers.check(new BigDecimal("1E+126"))).hasMessageStartingWith("Number overflow");
	}

}
