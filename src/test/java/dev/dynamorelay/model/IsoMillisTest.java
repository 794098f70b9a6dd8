package dev.dynamorelay.model;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class IsoMillisTest {

	private static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	@Test
	void formatsPurchasedAtAsTheIsoPatternDoes() {
		long[] edges = { 0, -1, 1, 999, 1000, -1000, -1001, 1735722000000L, 1735689599999L, 951782400000L,
				253402300799999L, 253402300800000L, -62167219200000L, -62167219200001L, Long.MAX_VALUE / 1000,
				Long.MIN_VALUE / 1000 };
		for (long millis : edges) {
			assertThat(IsoMillis.format(millis)).as("%d", millis).isEqualTo(ISO_MILLIS.format(Instant.ofEpochMilli(millis)));
		}
		SplittableRandom random = new SplittableRandom(42);
		for (int i = 0; i < 200_000; i++) {
			long millis = random.nextLong(-62_167_219_200_000L * 2, 253_402_300_800_000L * 2);
			assertThat(IsoMillis.format(millis)).as("%d", millis).isEqualTo(ISO_MILLIS.format(Instant.ofEpochMilli(millis)));
		}
	}

	@Test
	void formatsTheContractsExample() {
		assertThat(new ValueType.Timestamp(ValueType.Timestamp.Format.EPOCH_MILLIS).read(
				software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN("1735725600000")))
			.isEqualTo("2025-01-01T10:00:00.000Z");
	}

}
