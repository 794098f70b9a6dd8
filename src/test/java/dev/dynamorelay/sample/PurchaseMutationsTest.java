package dev.dynamorelay.sample;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.error.InvalidArgumentException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PurchaseMutationsTest {

	@Test
	void parsesInstantsWithZoneOrOffsetUpToMilliseconds() {
		assertThat(PurchaseMutations.parseInstant("2025-01-01T09:00:00Z")).isEqualTo(1735722000000L);
		assertThat(PurchaseMutations.parseInstant("2025-01-01T10:00:00.123+01:00")).isEqualTo(1735722000123L);
		for (String bad : new String[] { "2025-01-01", "2025-01-01T09:00:00", "2025-01-01T09:00:00.0001Z",
				"yesterday", "1735722000000", "" }) {
			assertThatThrownBy(() -> PurchaseMutations.parseInstant(bad)).as(bad)
				.isInstanceOf(InvalidArgumentException.class);
		}
	}

}
