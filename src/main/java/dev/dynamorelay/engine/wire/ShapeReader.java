package dev.dynamorelay.engine.wire;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.wire.Shapes.Kind;
import dev.dynamorelay.engine.wire.Shapes.Member;
import dev.dynamorelay.engine.wire.Shapes.Shape;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.utils.builder.SdkBuilder;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Reads a JSON object's members, as Jackson's parser streams them, into an SDK builder by its shape, as DynamoDB
 * reads them: a member it does not know is ignored, {@code null} is the same as absent, and a value of the wrong
 * JSON type is a {@code SerializationException} whose message is DynamoDB's own for that case and that place (a
 * structure's member, or an element of a list or map).
 */
final class ShapeReader {

	/**
	 * The message of a list or map met where a map or list is the value of another list or map: DynamoDB's
	 * deserializer fails there on a cast, and says so.
	 */
	private static final String PARAMETERIZED_CAST = "class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl "
			+ "cannot be cast to class java.lang.Class (sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and "
			+ "java.lang.Class are in module java.base of loader 'bootstrap')";

	private static final String START_OF_STRUCTURE = "Start of structure or map found where not expected";

	private final Shapes shapes;

	ShapeReader(Shapes shapes) {
		this.shapes = shapes;
	}

	/** DynamoDB's answer to a body that is not JSON: a {@code SerializationException} without a message. */
	static AwsError notJson() {
		return AwsError.serialization(null);
	}

	/** Reads the members of the object the parser is in (after its start) into {@code builder}. */
	void readFields(JsonParser parser, SdkPojo builder) {
		Shape shape = this.shapes.of(builder);
		String name;
		while ((name = parser.nextName()) != null) {
			Member member = shape.byName.get(name);
			JsonToken token = parser.nextToken();
			if (member == null) {
				parser.skipChildren();
				continue;
			}
			Object value = readValue(parser, token, member, false);
			if (value != null) {
				member.field.set(builder, value);
			}
		}
		if (parser.currentToken() != JsonToken.END_OBJECT) {
			throw notJson();
		}
	}

	/**
	 * Reads one value of {@code member}'s type; null for JSON {@code null}.
	 * @param inCollection whether the value is an element of a list or the value of a map entry, where
	 * DynamoDB's messages differ from those of a structure's member
	 */
	private Object readValue(JsonParser parser, JsonToken token, Member member, boolean inCollection) {
		if (token == JsonToken.VALUE_NULL) {
			return null;
		}
		switch (member.kind) {
			case STRING:
				if (token == JsonToken.VALUE_STRING) {
					return parser.getString();
				}
				throw scalarMismatch(token, "String", "class java.lang.String");
			case BOOLEAN:
				return readBoolean(parser, token);
			case INTEGER:
			case SHORT:
			case LONG:
				return readInteger(parser, token, member.kind);
			case DOUBLE:
			case FLOAT:
			case BIG_DECIMAL:
				return readDecimal(parser, token, member.kind);
			case INSTANT:
				return readInstant(parser, token);
			case BYTES:
				return readBytes(parser, token);
			case POJO:
				return readStructure(parser, token, member, inCollection);
			case LIST:
				return readList(parser, token, member, inCollection);
			case MAP:
				return readMap(parser, token, member, inCollection);
			default:
				// A type the DynamoDB model does not use (documents): refused rather than misread.
				parser.skipChildren();
				throw AwsError.serialization("Unexpected field type");
		}
	}

	private static AwsError scalarMismatch(JsonToken token, String type, String collectionClass) {
		return switch (token) {
			case VALUE_TRUE -> AwsError.serialization("TRUE_VALUE cannot be converted to " + type);
			case VALUE_FALSE -> AwsError.serialization("FALSE_VALUE cannot be converted to " + type);
			case VALUE_NUMBER_INT -> AwsError.serialization("NUMBER_VALUE cannot be converted to " + type);
			case VALUE_NUMBER_FLOAT -> AwsError.serialization("DECIMAL_VALUE cannot be converted to " + type);
			case VALUE_STRING -> AwsError.serialization("STRING_VALUE cannot be converted to " + type);
			case START_ARRAY -> AwsError.serialization("Unrecognized collection type " + collectionClass);
			default -> AwsError.serialization(START_OF_STRUCTURE);
		};
	}

	private static Boolean readBoolean(JsonParser parser, JsonToken token) {
		switch (token) {
			case VALUE_TRUE:
				return Boolean.TRUE;
			case VALUE_FALSE:
				return Boolean.FALSE;
			case VALUE_STRING:
				// DynamoDB's deserializer takes these spellings of a boolean in a string, and no others.
				String text = parser.getString().toUpperCase(java.util.Locale.ROOT);
				if (text.equals("TRUE") || text.equals("1") || text.equals("YES")) {
					return Boolean.TRUE;
				}
				if (text.equals("FALSE") || text.equals("0") || text.equals("NO")) {
					return Boolean.FALSE;
				}
				throw AwsError.serialization("Unexpected token received from parser");
			default:
				throw scalarMismatch(token, "Boolean", "class java.lang.Boolean");
		}
	}

	private static Object readInteger(JsonParser parser, JsonToken token, Kind kind) {
		String type = kind == Kind.LONG ? "Long" : kind == Kind.SHORT ? "Short" : "Integer";
		if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
			throw scalarMismatch(token, type, "class java.lang." + type);
		}
		// A decimal is truncated to the integer below it, as DynamoDB's deserializer does.
		BigDecimal value = parser.getDecimalValue().setScale(0, RoundingMode.FLOOR);
		try {
			return switch (kind) {
				case LONG -> value.longValueExact();
				case SHORT -> value.shortValueExact();
				default -> value.intValueExact();
			};
		}
		catch (ArithmeticException overflow) {
			// differs from nothing known: DynamoDB's message for a number too large for its member is not
			// documented; the type's own message is the nearest.
			throw AwsError.serialization((token == JsonToken.VALUE_NUMBER_INT ? "NUMBER_VALUE" : "DECIMAL_VALUE")
					+ " cannot be converted to " + type);
		}
	}

	private static Object readDecimal(JsonParser parser, JsonToken token, Kind kind) {
		String type = kind == Kind.BIG_DECIMAL ? "BigDecimal" : kind == Kind.FLOAT ? "Float" : "Double";
		if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
			throw scalarMismatch(token, type, "class java.lang." + type);
		}
		return switch (kind) {
			case BIG_DECIMAL -> parser.getDecimalValue();
			case FLOAT -> parser.getFloatValue();
			default -> parser.getDoubleValue();
		};
	}

	private static Instant readInstant(JsonParser parser, JsonToken token) {
		if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
			throw scalarMismatch(token, "Date", "class java.util.Date");
		}
		// AWS JSON 1.0 sends timestamps as seconds since the epoch, with a fraction.
		BigDecimal seconds = parser.getDecimalValue();
		try {
			long whole = seconds.setScale(0, RoundingMode.FLOOR).longValueExact();
			long nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).setScale(0, RoundingMode.FLOOR)
				.longValueExact();
			return Instant.ofEpochSecond(whole, nanos);
		}
		catch (ArithmeticException | java.time.DateTimeException outOfRange) {
			throw AwsError.serialization("NUMBER_VALUE cannot be converted to Date");
		}
	}

	private static SdkBytes readBytes(JsonParser parser, JsonToken token) {
		switch (token) {
			case VALUE_STRING:
				break;
			case VALUE_TRUE:
			case VALUE_FALSE:
			case VALUE_NUMBER_INT:
			case VALUE_NUMBER_FLOAT:
				throw AwsError.serialization("only base-64-encoded strings are convertible to bytes");
			case START_ARRAY:
				throw AwsError.serialization("Unrecognized collection type class java.nio.ByteBuffer");
			default:
				throw AwsError.serialization(START_OF_STRUCTURE);
		}
		String text = parser.getString();
		if (text.length() % 4 != 0) {
			throw AwsError.serialization("Base64 encoded length is expected a multiple of 4 bytes but found: "
					+ text.length());
		}
		byte[] bytes;
		try {
			bytes = Base64.getDecoder().decode(text);
		}
		catch (IllegalArgumentException invalid) {
			bytes = null;
		}
		// DynamoDB refuses an encoding that is not the canonical one of its bytes (stray bits in the last
		// character); its message carries its own spelling.
		if (bytes == null || !Base64.getEncoder().encodeToString(bytes).equals(text)) {
			throw AwsError.serialization("Invalid last non-pad Base64 character dectected");
		}
		return SdkBytes.fromByteArrayUnsafe(bytes);
	}

	private Object readStructure(JsonParser parser, JsonToken token, Member member, boolean inCollection) {
		if (token == JsonToken.START_OBJECT) {
			SdkPojo builder = member.constructor.get();
			readFields(parser, builder);
			return ((SdkBuilder<?, ?>) builder).build();
		}
		if (token == JsonToken.START_ARRAY) {
			throw AwsError.serialization("Unrecognized collection type class " + Shapes.MODEL + member.shapeName());
		}
		throw AwsError.serialization(inCollection ? "Unexpected value type in payload" : "Unexpected field type");
	}

	private Object readList(JsonParser parser, JsonToken token, Member member, boolean inCollection) {
		if (token == JsonToken.START_OBJECT) {
			throw AwsError.serialization(START_OF_STRUCTURE);
		}
		if (token != JsonToken.START_ARRAY) {
			throw AwsError.serialization(inCollection ? PARAMETERIZED_CAST : "Unexpected field type");
		}
		List<Object> list = new ArrayList<>();
		JsonToken next;
		while ((next = parser.nextToken()) != JsonToken.END_ARRAY) {
			if (next == null) {
				throw notJson();
			}
			Object element = readElement(parser, next, member.element);
			if (element != null) {
				list.add(element);
			}
		}
		return list;
	}

	private Object readMap(JsonParser parser, JsonToken token, Member member, boolean inCollection) {
		if (token == JsonToken.START_ARRAY) {
			throw AwsError.serialization("Unrecognized collection type java.util.Map<java.lang.String, "
					+ member.element.javaType() + ">");
		}
		if (token != JsonToken.START_OBJECT) {
			throw AwsError.serialization(inCollection ? PARAMETERIZED_CAST : "Unexpected field type");
		}
		Map<String, Object> map = new LinkedHashMap<>();
		String name;
		while ((name = parser.nextName()) != null) {
			Object value = readElement(parser, parser.nextToken(), member.element);
			if (value != null) {
				map.put(name, value);
			}
		}
		if (parser.currentToken() != JsonToken.END_OBJECT) {
			throw notJson();
		}
		return map;
	}

	/**
	 * An element of a list or a value of a map. A {@code null} structure (an AttributeValue, say) stands as an
	 * empty one, so that the store refuses it with DynamoDB's message; a {@code null} scalar is left out.
	 */
	private Object readElement(JsonParser parser, JsonToken token, Member element) {
		if (token == JsonToken.VALUE_NULL && element.kind == Kind.POJO) {
			return ((SdkBuilder<?, ?>) element.constructor.get()).build();
		}
		return readValue(parser, token, element, true);
	}

}
