package dev.dynamorelay.engine.wire;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.dynamorelay.engine.wire.Shapes.Member;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.util.SdkAutoConstructList;
import software.amazon.awssdk.core.util.SdkAutoConstructMap;
import tools.jackson.core.JsonGenerator;

/**
 * Writes an SDK model object as a JSON object by its shape, member by member as the SDK orders them, leaving out
 * what is absent (and the lists and maps an answer never set, as the SDK does); timestamps as seconds since the
 * epoch with their fraction, as AWS JSON 1.0 writes them.
 */
final class ShapeWriter {

	private final Shapes shapes;

	ShapeWriter(Shapes shapes) {
		this.shapes = shapes;
	}

	/** Writes {@code pojo} as a JSON object. */
	void writeObject(JsonGenerator generator, SdkPojo pojo) {
		generator.writeStartObject();
		writeMembers(generator, pojo);
		generator.writeEndObject();
	}

	/** Writes the members of {@code pojo} that are present, into the object the generator is in. */
	void writeMembers(JsonGenerator generator, SdkPojo pojo) {
		for (Member member : this.shapes.of(pojo).members) {
			Object value = member.field.getValueOrDefault(pojo);
			if (value == null || value instanceof SdkAutoConstructList || value instanceof SdkAutoConstructMap) {
				// Absent, or a list or map the answer never set: the SDK itself leaves these out.
				continue;
			}
			generator.writeName(member.field.locationName());
			writeValue(generator, member, value);
		}
	}

	/** Writes the value of one member, described by its SDK field (a list of reasons, a map of attributes). */
	void writeField(JsonGenerator generator, SdkField<?> field, Object value) {
		writeValue(generator, Shapes.member(field), value);
	}

	private void writeValue(JsonGenerator generator, Member member, Object value) {
		if (value == null) {
			generator.writeNull();
			return;
		}
		switch (member.kind) {
			case STRING -> generator.writeString(value.toString());
			case BOOLEAN -> generator.writeBoolean((Boolean) value);
			case INTEGER, SHORT -> generator.writeNumber(((Number) value).intValue());
			case LONG -> generator.writeNumber(((Number) value).longValue());
			case DOUBLE -> generator.writeNumber(((Number) value).doubleValue());
			case FLOAT -> generator.writeNumber(((Number) value).floatValue());
			case BIG_DECIMAL -> generator.writeNumber((BigDecimal) value);
			case INSTANT -> writeInstant(generator, (Instant) value);
			case BYTES -> generator.writeBinary(((SdkBytes) value).asByteArrayUnsafe());
			case POJO -> writeObject(generator, (SdkPojo) value);
			case LIST -> {
				generator.writeStartArray();
				for (Object element : (List<?>) value) {
					writeValue(generator, member.element, element);
				}
				generator.writeEndArray();
			}
			case MAP -> {
				generator.writeStartObject();
				for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
					generator.writeName(entry.getKey().toString());
					writeValue(generator, member.element, entry.getValue());
				}
				generator.writeEndObject();
			}
			default -> throw new IllegalStateException("No JSON form for " + member.field.marshallingType());
		}
	}

	/** Seconds since the epoch with their fraction, as AWS JSON 1.0 writes a timestamp. */
	private static void writeInstant(JsonGenerator generator, Instant instant) {
		if (instant.getNano() == 0) {
			generator.writeNumber(instant.getEpochSecond());
		}
		else {
			generator.writeNumber(BigDecimal.valueOf(instant.getEpochSecond())
				.add(BigDecimal.valueOf(instant.getNano(), 9))
				.stripTrailingZeros());
		}
	}

}
