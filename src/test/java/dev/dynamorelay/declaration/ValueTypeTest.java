package dev.dynamorelay.graphql;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.error.InvalidArgumentException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyArgumentsTest {

	@Test
	void floatBoundsBecomeTheirShortestDecimal() {
		assertThat(KeyArguments.minimum("minAmount", "amount", 0.1).orElseThrow().number()).isEqualTo("0.1");
		assertThat(KeyArguments.minimum("minAmount", "amount", 100.0).orElseThrow().number()).isEqualTo("100");
		assertThat(KeyArguments.minimum("minAmount", "amount", 1e-7).orElseThrow().number()).isEqualTo("0.0000001");
		assertThat(KeyArguments.minimum("minAmount", "amount", -0.0).orElseThrow().number()).isEqualTo("0");
		assertThat(KeyArguments.minimum("minAmount", "amount", null)).isEmpty();
	}

	@Test
	void refusesNumbersDynamoDbCannotStore() {
		assertThatThrownBy(() -> KeyArguments.number("minAmount", 1e300)).isInstanceOf(InvalidArgumentException.class)
			.hasMessageContaining("minAmount");
		assertThatThrownBy(() -> KeyArguments.number("minAmount", 1e-200)).isInstanceOf(InvalidArgumentException.class);
	}

	@Test
	void refusesEmptyAndOversizedKeys() {
		assertThatThrownBy(() -> KeyArguments.partitionKey("category", "")).isInstanceOf(InvalidArgumentException.class)
			.hasMessageContaining("`category` must not be empty");
		assertThatThrownBy(() -> KeyArguments.partitionKey("category", "x".repeat(2049)))
			.isInstanceOf(InvalidArgumentException.class);
		assertThatThrownBy(() -> KeyArguments.prefix("titlePrefix", "é".repeat(513)))
			.isInstanceOf(InvalidArgumentException.class);
		assertThat(KeyArguments.prefix("titlePrefix", "")).isEmpty();
	}

	@Test
	void parsesInstantsWithZoneOrOffsetUpToMilliseconds() {
		assertThat(PurchaseController.parseInstant("2025-01-01T09:00:00Z")).isEqualTo(1735722000000L);
		assertThat(PurchaseController.parseInstant("2025-01-01T10:00:00.123+01:00")).isEqualTo(1735722000123L);
		for (String bad : new String[] { "2025-01-01", "2025-01-01T09:00:00", "2025-01-01T09:00:00.0001Z",
				"yesterday", "1735722000000", "" }) {
			assertThatThrownBy(() -> PurchaseController.parseInstant(bad)).as(bad)
				.isInstanceOf(InvalidArgumentException.class);
		}
	}

}
