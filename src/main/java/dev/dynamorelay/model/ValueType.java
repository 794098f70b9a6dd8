package dev.dynamorelay.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.error.InvalidArgumentException;

/**
 * How a declared field's value is stored in DynamoDB and served in GraphQL, both ways.
 *
 * <p>{@link #read} turns a stored attribute into the field's value; a missing attribute, or one stored
 * with another type by some other writer, reads as {@code null} rather than failing the page.
 * {@link #write} turns an argument into the attribute value DynamoDB compares, refusing what DynamoDB
 * would refuse as {@code INVALID_ARGUMENT}.
 */
public sealed interface ValueType {

	/** The field's value of a stored attribute; {@code null} when absent or of another type. */
	Object read(AttributeValue value);

	/**
	 * The attribute value of an argument's (already coerced) value.
	 * @throws InvalidArgumentException when DynamoDB could not store or compare it
	 */
	AttributeValue write(String argument, Object value);

	/** The DynamoDB type of the stored value when it can be a key: S, N or B; empty for other values. */
	default Optional<ScalarAttributeType> keyType() {
		return Optional.empty();
	}

	/** The value as it appears inside a composed (string) key. */
	default String keyText(AttributeValue value) {
		if (value.s() != null) {
			return value.s();
		}
		if (value.n() != null) {
			return value.n();
		}
		if (value.b() != null) {
			return Base64.getEncoder().encodeToString(value.b().asByteArray());
		}
		return null;
	}

	/** {@code String} and {@code ID}, and custom scalars and enums stored as strings. */
	record Text() implements ValueType {

		@Override
		public Object read(AttributeValue value) {
			if (value == null) {
				return null;
			}
			return (value.s() != null) ? value.s() : value.n();
		}

		@Override
		public AttributeValue write(String argument, Object value) {
			return AttributeValue.fromS(String.valueOf(value));
		}

		@Override
		public Optional<ScalarAttributeType> keyType() {
			return Optional.of(ScalarAttributeType.S);
		}

	}

	/** A GraphQL enum stored as its value's name; a stored string that is no value reads as null. */
	record Enumeration(Set<String> values) implements ValueType {

		@Override
		public Object read(AttributeValue value) {
			return (value != null && value.s() != null && this.values.contains(value.s())) ? value.s() : null;
		}

		@Override
		public AttributeValue write(String argument, Object value) {
			return AttributeValue.fromS((value instanceof Enum<?> constant) ? constant.name() : String.valueOf(value));
		}

		@Override
		public Optional<ScalarAttributeType> keyType() {
			return Optional.of(ScalarAttributeType.S);
		}

	}

	/** Numbers: {@code Int} (32 bits), {@code Long} (64 bits), {@code Float} and the exact {@code Decimal}. */
	record Number(Kind kind) implements ValueType {

		/** Which GraphQL number a stored N is served as. */
		public enum Kind {

			INT, LONG, FLOAT, DECIMAL

		}

		@Override
		public Object read(AttributeValue value) {
			if (value == null || value.n() == null) {
				return null;
			}
			BigDecimal number;
			try {
				number = new BigDecimal(value.n());
			}
			catch (NumberFormatException ex) {
				return null;
			}
			try {
				return switch (this.kind) {
					case INT -> number.intValueExact();
					case LONG -> number.longValueExact();
					case FLOAT -> number.doubleValue();
					case DECIMAL -> value.n();
				};
			}
			catch (ArithmeticException ex) {
				// Not whole, or too large for the declared type: another writer's value.
				return null;
			}
		}

		@Override
		public AttributeValue write(String argument, Object value) {
			return AttributeValue.fromN(plain(argument, decimal(argument, value)));
		}

		@Override
		public Optional<ScalarAttributeType> keyType() {
			return Optional.of(ScalarAttributeType.N);
		}

		/**
		 * The decimal of an argument value; a GraphQL Float by its shortest decimal form ({@code 0.1},
		 * never its binary expansion).
		 */
		static BigDecimal decimal(String argument, Object value) {
			if (value instanceof Double || value instanceof Float) {
				double number = ((java.lang.Number) value).doubleValue();
				if (!Double.isFinite(number)) {
					throw new InvalidArgumentException("`%s` must be a finite number.".formatted(argument));
				}
				return new BigDecimal(Double.toString(number));
			}
			if (value instanceof BigDecimal decimal) {
				return decimal;
			}
			if (value instanceof BigInteger integer) {
				return new BigDecimal(integer);
			}
			if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
				return BigDecimal.valueOf(((java.lang.Number) value).longValue());
			}
			try {
				return new BigDecimal(String.valueOf(value).trim());
			}
			catch (NumberFormatException ex) {
				throw new InvalidArgumentException("`%s` must be a number, got `%s`.".formatted(argument, value));
			}
		}

		/** The plain shortest form DynamoDB stores ({@code 0.1}, {@code 100}), checked against its range. */
		static String plain(String argument, BigDecimal number) {
			DynamoDbNumbers.refusal(number).ifPresent((reason) -> {
				// The number as sent, in its exact decimal: scientific where it is large, so never a megabyte of zeros.
				throw new InvalidArgumentException("`%s` %s: `%s`.".formatted(argument, reason, number));
			});
			BigDecimal stripped = number.stripTrailingZeros();
			return (stripped.signum() == 0) ? "0" : stripped.toPlainString();
		}

	}

	/** {@code Boolean}: BOOL. */
	record Bool() implements ValueType {

		@Override
		public Object read(AttributeValue value) {
			return (value != null) ? value.bool() : null;
		}

		@Override
		public AttributeValue write(String argument, Object value) {
			if (value instanceof Boolean bool) {
				return AttributeValue.fromBool(bool);
			}
			throw new InvalidArgumentException("`%s` must be true or false.".formatted(argument));
		}

	}

	/** {@code Bytes}: B, served as base64. */
	record Binary() implements ValueType {

		@Override
		public Object read(AttributeValue value) {
			return (value != null && value.b() != null) ? Base64.getEncoder().encodeToString(value.b().asByteArray())
					: null;
		}

		@Override
		public AttributeValue write(String argument, Object value) {
			try {
				return AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode(String.valueOf(value))));
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidArgumentException("`%s` must be base64.".formatted(argument));
			}
		}

		@Override
		public Optional<ScalarAttributeType> keyType() {
			return Optional.of(ScalarAttributeType.B);
		}

	}

	/**
	 * A timestamp stored as epoch milliseconds, epoch seconds (N) or an ISO-8601 string (S), served as
	 * ISO-8601 UTC with three fraction digits.
	 */
	record Timestamp(Format format) implements ValueType {

		private static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
			.withZone(ZoneOffset.UTC);

		/** The storage of a timestamp, as {@code DynamoTimestamp} names it. */
		public enum Format {

			EPOCH_MILLIS, EPOCH_SECONDS, ISO

		}

		@Override
		public Object read(AttributeValue value) {
			if (value == null) {
				return null;
			}
			try {
				return switch (this.format) {
					case EPOCH_MILLIS -> (value.n() != null) ? IsoMillis.format(floor(new BigDecimal(value.n()))) : null;
					case EPOCH_SECONDS -> (value.n() != null)
							? IsoMillis.format(floor(new BigDecimal(value.n()).movePointRight(3))) : null;
					case ISO -> (value.s() != null) ? iso(value.s()) : null;
				};
			}
			catch (ArithmeticException | NumberFormatException ex) {
				return null;
			}
		}

		@Override
		public AttributeValue write(String argument, Object value) {
			String text = String.valueOf(value);
			long millis;
			try {
				millis = parse(argument, text).toEpochMilli();
			}
			catch (ArithmeticException ex) {
				throw new InvalidArgumentException(("`%s` is too far from 1970 for a timestamp: it must be within about "
						+ "292 million years, in milliseconds of 64 bits; got `%s`.").formatted(argument, text));
			}
			return switch (this.format) {
				case EPOCH_MILLIS -> AttributeValue.fromN(Long.toString(millis));
				case EPOCH_SECONDS -> AttributeValue
					.fromN(BigDecimal.valueOf(millis).movePointLeft(3).stripTrailingZeros().toPlainString());
				// Compared as text: written as the field serves it (UTC, milliseconds), whatever the client's spelling.
				case ISO -> AttributeValue.fromS(IsoMillis.format(millis));
			};
		}

		@Override
		public Optional<ScalarAttributeType> keyType() {
			return Optional.of((this.format == Format.ISO) ? ScalarAttributeType.S : ScalarAttributeType.N);
		}

		/** Whole milliseconds, rounded down; another writer's fraction of a millisecond is dropped. */
		private static long floor(BigDecimal millis) {
			return millis.setScale(0, RoundingMode.FLOOR).longValueExact();
		}

		private static String iso(String stored) {
			try {
				return ISO_MILLIS.format(OffsetDateTime.parse(stored, DateTimeFormatter.ISO_OFFSET_DATE_TIME));
			}
			catch (DateTimeParseException ex) {
				return stored;
			}
		}

		/** An ISO-8601 instant with {@code Z} or an offset. */
		public static Instant parse(String argument, String value) {
			try {
				return OffsetDateTime.parse(value, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
			}
			catch (DateTimeParseException ex) {
				throw new InvalidArgumentException(("`%s` must be an ISO-8601 instant with `Z` or an offset, "
						+ "such as 2025-01-01T09:00:00.000Z; got `%s`.").formatted(argument, value));
			}
		}

	}

	/**
	 * A list: an L of elements, or a set (SS, NS, BS). Sets have no order in DynamoDB, so they are served
	 * sorted. Elements that do not read as the element type (another writer's values, NULs) are left out
	 * rather than served as nulls.
	 */
	record ListOf(ValueType element) implements ValueType {

		@Override
		public Object read(AttributeValue value) {
			if (value == null) {
				return null;
			}
			Stream<AttributeValue> elements;
			if (value.hasL()) {
				elements = value.l().stream();
			}
			else if (value.hasSs()) {
				elements = value.ss().stream().sorted().map(AttributeValue::fromS);
			}
			else if (value.hasNs()) {
				elements = value.ns().stream().sorted(Comparator.comparing(BigDecimal::new)).map(AttributeValue::fromN);
			}
			else if (value.hasBs()) {
				List<Object> bytes = value.bs()
					.stream()
					.map(AttributeValue::fromB)
					.map(this.element::read)
					.filter(Objects::nonNull)
					.collect(Collectors.toCollection(ArrayList::new));
				bytes.sort(Comparator.comparing(String::valueOf));
				return bytes;
			}
			else {
				return null;
			}
			return elements.map(this.element::read).filter(Objects::nonNull).collect(Collectors.toCollection(ArrayList::new));
		}

		@Override
		public AttributeValue write(String argument, Object value) {
			return this.element.write(argument, value);
		}

	}

	/** {@code JSON}: any attribute, maps as objects, lists and sets as arrays, numbers exact. */
	record Json() implements ValueType {

		@Override
		public Object read(AttributeValue value) {
			if (value == null) {
				return null;
			}
			return switch (value.type()) {
				case S -> value.s();
				case N -> new BigDecimal(value.n());
				case BOOL -> value.bool();
				case NUL -> null;
				case B -> Base64.getEncoder().encodeToString(value.b().asByteArray());
				case SS -> value.ss().stream().sorted().toList();
				case NS -> value.ns().stream().map(BigDecimal::new).sorted().toList();
				case BS -> value.bs()
					.stream()
					.map((bytes) -> Base64.getEncoder().encodeToString(bytes.asByteArray()))
					.sorted()
					.toList();
				case L -> value.l().stream().map(this::read).toList();
				case M -> {
					Map<String, Object> map = new LinkedHashMap<>();
					value.m().entrySet().stream().sorted(Map.Entry.comparingByKey())
						.forEach((entry) -> map.put(entry.getKey(), read(entry.getValue())));
					yield map;
				}
				default -> null;
			};
		}

		@Override
		public AttributeValue write(String argument, Object value) {
			if (value instanceof String text) {
				return AttributeValue.fromS(text);
			}
			if (value instanceof Boolean bool) {
				return AttributeValue.fromBool(bool);
			}
			if (value instanceof java.lang.Number) {
				return AttributeValue.fromN(Number.plain(argument, Number.decimal(argument, value)));
			}
			throw new InvalidArgumentException("`%s` compares only a string, number or boolean.".formatted(argument));
		}

	}

	/** Checks a key value the way DynamoDB would, so that a refused key is the client's error. */
	public static AttributeValue checkKey(String argument, AttributeValue value, int maxBytes) {
		if (value.s() != null) {
			if (value.s().isEmpty()) {
				throw new InvalidArgumentException("`%s` must not be empty.".formatted(argument));
			}
			if (value.s().getBytes(StandardCharsets.UTF_8).length > maxBytes) {
				throw new InvalidArgumentException("`%s` is longer than DynamoDB allows for a key (%d UTF-8 bytes)."
					.formatted(argument, maxBytes));
			}
		}
		else if (value.b() != null) {
			if (value.b().asByteArray().length == 0) {
				throw new InvalidArgumentException("`%s` must not be empty.".formatted(argument));
			}
			if (value.b().asByteArray().length > maxBytes) {
				throw new InvalidArgumentException(
						"`%s` is longer than DynamoDB allows for a key (%d bytes).".formatted(argument, maxBytes));
			}
		}
		return value;
	}

}
