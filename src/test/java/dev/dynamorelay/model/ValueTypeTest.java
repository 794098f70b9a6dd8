package dev.dynamorelay.model;

import java.util.List;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.error.InvalidArgumentException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ValueTypeTest {

	private static final ValueType FLOAT = new ValueType.Number(ValueType.Number.Kind.FLOAT);

	@Test
	void floatBoundsBecomeTheirShortestDecimal() {
		assertThat(FLOAT.write("minAmount", 0.1).n()).isEqualTo("0.1");
		assertThat(FLOAT.write("minAmount", 100.0).n()).isEqualTo("100");
		assertThat(FLOAT.write("minAmount", 1e-7).n()).isEqualTo("0.0000001");
		assertThat(FLOAT.write("minAmount", -0.0).n()).isEqualTo("0");
	}

	@Test
	void refusesNumbersDynamoDbCannotStore() {
		assertThatThrownBy(() -> FLOAT.write("minAmount", 1e300)).isInstanceOf(InvalidArgumentException.class)
			.hasMessageContaining("minAmount");
		assertThatThrownBy(() -> FLOAT.write("minAmount", 1e-200)).isInstanceOf(InvalidArgumentException.class);
		assertThatThrownBy(() -> FLOAT.write("minAmount", Double.NaN)).isInstanceOf(InvalidArgumentException.class);
	}

	@Test
	void countsSignificantDigitsAsDynamoDbDoes() {
		ValueType decimal = new ValueType.Number(ValueType.Number.Kind.DECIMAL);
		assertThat(decimal.write("total", new java.math.BigDecimal("1" + "0".repeat(38))).n()).isEqualTo("1" + "0".repeat(38));
		assertThat(decimal.write("total", "1." + "0".repeat(38)).n()).isEqualTo("1");
		assertThatThrownBy(() -> decimal.write("total", "1" + "0".repeat(37) + "1"))
			.isInstanceOf(InvalidArgumentException.class)
			.hasMessageContaining("`total` has more than the 38 significant digits");
		assertThatThrownBy(() -> decimal.write("total", "1E+126")).isInstanceOf(InvalidArgumentException.class);
		assertThat(decimal.write("total", "-9.9999999999999999999999999999999999999E+125").n()).startsWith("-99");
	}

	@Test
	void refusesEmptyAndOversizedKeys() {
		assertThatThrownBy(() -> ValueType.checkKey("category", AttributeValue.fromS(""), KeyValue.MAX_PARTITION_KEY_BYTES))
			.isInstanceOf(InvalidArgumentException.class)
			.hasMessageContaining("`category` must not be empty");
		assertThatThrownBy(() -> ValueType.checkKey("category", AttributeValue.fromS("x".repeat(2049)),
				KeyValue.MAX_PARTITION_KEY_BYTES))
			.isInstanceOf(InvalidArgumentException.class);
		assertThatThrownBy(() -> ValueType.checkKey("titlePrefix", AttributeValue.fromS("é".repeat(513)),
				KeyValue.MAX_SORT_KEY_BYTES))
			.isInstanceOf(InvalidArgumentException.class);
	}

	@Test
	void readsWhatAnyWriterStored() {
		assertThat(new ValueType.Number(ValueType.Number.Kind.INT).read(AttributeValue.fromN("1.5"))).isNull();
		assertThat(new ValueType.Number(ValueType.Number.Kind.LONG).read(AttributeValue.fromN("9007199254740993")))
			.isEqualTo(9007199254740993L);
		assertThat(new ValueType.Number(ValueType.Number.Kind.DECIMAL).read(AttributeValue.fromN("12.50")))
			.isEqualTo("12.50");
		assertThat(FLOAT.read(AttributeValue.fromS("not a number"))).isNull();
		assertThat(FLOAT.read(null)).isNull();
		assertThat(new ValueType.ListOf(new ValueType.Text()).read(AttributeValue.fromSs(List.of("b", "a"))))
			.isEqualTo(List.of("a", "b"));
		assertThat(new ValueType.ListOf(new ValueType.Number(ValueType.Number.Kind.INT))
			.read(AttributeValue.fromNs(List.of("10", "9")))).isEqualTo(List.of(9, 10));
		assertThat(new ValueType.Timestamp(ValueType.Timestamp.Format.EPOCH_SECONDS).read(AttributeValue.fromN("1735722000")))
			.isEqualTo("2025-01-01T09:00:00.000Z");
		assertThat(new ValueType.Timestamp(ValueType.Timestamp.Format.ISO).read(AttributeValue.fromS("2025-01-01T10:00:00+01:00")))
			.isEqualTo("2025-01-01T09:00:00.000Z");
		assertThat(new ValueType.Json().read(AttributeValue.fromM(java.util.Map.of("n", AttributeValue.fromN("1.10"),
				"l", AttributeValue.fromL(List.of(AttributeValue.fromBool(true)))))))
			.isEqualTo(java.util.Map.of("l", List.of(true), "n", new java.math.BigDecimal("1.10")));
	}

	@Test
	void timestampsArgumentsBecomeTheirStoredForm() {
		assertThat(new ValueType.Timestamp(ValueType.Timestamp.Format.EPOCH_MILLIS).write("since", "2025-01-01T10:00:00.123+01:00").n())
			.isEqualTo("1735722000123");
		assertThat(new ValueType.Timestamp(ValueType.Timestamp.Format.EPOCH_SECONDS).write("since", "2025-01-01T09:00:00Z").n())
			.isEqualTo("1735722000");
		assertThatThrownBy(() -> new ValueType.Timestamp(ValueType.Timestamp.Format.EPOCH_MILLIS).write("since", "yesterday"))
			.isInstanceOf(InvalidArgumentException.class)
			.hasMessageContaining("since");
	}

	@Test
	void isoTimestampArgumentsAreWrittenAsTheServerServesThem() {
		ValueType iso = new ValueType.Timestamp(ValueType.Timestamp.Format.ISO);
		assertThat(iso.write("since", "2025-01-01T09:00:00Z").s()).isEqualTo("2025-01-01T09:00:00.000Z");
		assertThat(iso.write("since", "2025-01-01T10:00:00.5+01:00").s()).isEqualTo("2025-01-01T09:00:00.500Z");
		assertThat(iso.write("since", "2024-12-31T23:00:00.123456-10:00").s()).isEqualTo("2025-01-01T09:00:00.123Z");
		// As text, the bound sorts below an instant stored later in the same second.
		assertThat(iso.write("since", "2025-01-01T09:00:00Z").s()).isLessThan("2025-01-01T09:00:00.500Z");
		assertThatThrownBy(() -> iso.write("since", "2025-01-01T09:00:00")).isInstanceOf(InvalidArgumentException.class)
			.hasMessageContaining("since");
	}

	@Test
	void refusesInstantsBeyondEpochMilliseconds() {
		for (ValueType.Timestamp.Format format : ValueType.Timestamp.Format.values()) {
			assertThatThrownBy(() -> new ValueType.Timestamp(format).write("since", "+300000000-01-01T00:00:00Z"))
				.as(format.name())
				.isInstanceOf(InvalidArgumentException.class)
				.hasMessageContaining("`since`");
		}
	}

	@Test
	void epochTimestampsOfFractionalNumbersReadFloored() {
		ValueType millis = new ValueType.Timestamp(ValueType.Timestamp.Format.EPOCH_MILLIS);
		ValueType seconds = new ValueType.Timestamp(ValueType.Timestamp.Format.EPOCH_SECONDS);
		assertThat(millis.read(AttributeValue.fromN("1735722000000.5"))).isEqualTo("2025-01-01T09:00:00.000Z");
		assertThat(millis.read(AttributeValue.fromN("-0.5"))).isEqualTo("1969-12-31T23:59:59.999Z");
		assertThat(seconds.read(AttributeValue.fromN("1735722000.0129"))).isEqualTo("2025-01-01T09:00:00.012Z");
		assertThat(seconds.read(AttributeValue.fromN("-0.0005"))).isEqualTo("1969-12-31T23:59:59.999Z");
		assertThat(millis.read(AttributeValue.fromN("1E+30"))).isNull();
		assertThat(seconds.read(AttributeValue.fromN("1E+30"))).isNull();
	}

	@Test
	void listElementsThatDoNotReadAreLeftOut() {
		ValueType ints = new ValueType.ListOf(new ValueType.Number(ValueType.Number.Kind.INT));
		assertThat(ints.read(AttributeValue.fromL(List.of(AttributeValue.fromN("3"), AttributeValue.fromS("x"),
				AttributeValue.fromN("1"), AttributeValue.fromN("1.5"), AttributeValue.fromNul(true)))))
			.isEqualTo(List.of(3, 1));
		assertThat(ints.read(AttributeValue.fromNs(List.of("10", "2.5", "9")))).isEqualTo(List.of(9, 10));
		assertThat(ints.read(AttributeValue.fromSs(List.of("a")))).isEqualTo(List.of());
		ValueType strings = new ValueType.ListOf(new ValueType.Text());
		assertThat(strings.read(AttributeValue.fromL(List.of(AttributeValue.fromS("b"), AttributeValue.fromBool(true),
				AttributeValue.fromM(java.util.Map.of()), AttributeValue.fromS("a")))))
			.isEqualTo(List.of("b", "a"));
		ValueType colours = new ValueType.ListOf(new ValueType.Enumeration(java.util.Set.of("RED", "BLUE")));
		assertThat(colours.read(AttributeValue.fromSs(List.of("RED", "PINK", "BLUE")))).isEqualTo(List.of("BLUE", "RED"));
	}

}
