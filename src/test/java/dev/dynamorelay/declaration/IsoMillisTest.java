package dev.dynamorelay.graphql;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PurchaseTest {

	private static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	@Test
	void formatsPurchasedAtAsTheIsoPatternDoes() {
		long[] edges = { 0, -1, 1, 999, 1000, -1000, -1001, 1735722000000L, 1735689599999L, 951782400000L,
				253402300799999L, 253402300800000L, -62167219200000L, -62167219200001L, Long.MAX_VALUE / 1000,
				Long.MIN_VALUE / 1000 };
		for (long millis : edges) {
			assertThat(Purchase.isoMillis(millis)).as("%d", millis).isEqualTo(ISO_MILLIS.format(Instant.ofEpochMilli(millis)));
		}
		SplittableRandom random = new SplittableRandom(42);
		for (int i = 0; i < 200_000; i++) {
			long millis = random.nextLong(-62_167_219_200_000L * 2, 253_402_300_800_000L * 2);
			assertThat(Purchase.isoMillis(millis)).as("%d", millis).isEqualTo(ISO_MILLIS.format(Instant.ofEpochMilli(millis)));
		}
	}

	@Test
	void formatsTheContractsExample() {
		assertThat(new Purchase("user-01", 1735725600000L, "p", "c", 1.0).purchasedAt())
			.isEqualTo("2025-01-01T10:00:00.000Z");
	}

}
