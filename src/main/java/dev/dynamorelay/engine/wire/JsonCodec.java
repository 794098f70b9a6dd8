package dev.dynamorelay.engine.wire;

import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.dynamorelay.engine.action.AwsError;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallingType;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.core.traits.TraitType;
import software.amazon.awssdk.core.util.SdkAutoConstructList;
import software.amazon.awssdk.core.util.SdkAutoConstructMap;
import software.amazon.awssdk.utils.builder.SdkBuilder;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;

/**
 * DynamoDB's JSON (AWS JSON 1.0) to and from the AWS SDK's model classes, for every shape at once: what a
 * member is called on the wire, its type, the element type of a list or map and the builder of a nested
 * structure all come from the SDK's own field metadata ({@link SdkPojo#sdkFields()}), so the wire format is
 * described once, by the SDK. Reading streams the body (Jackson's parser) straight into the operation's request
 * builder; writing streams an answer's fields, leaving out what is absent.
 *
 * <p>Reading follows DynamoDB: a member it does not know is ignored, {@code null} is the same as absent, and a
 * value of the wrong JSON type is a {@code SerializationException} whose message is DynamoDB's own for that case
 * ({@code NUMBER_VALUE cannot be converted to String}, {@code Unexpected field type}, ...), reported only once
 * the whole body is known to be JSON (a body that is not JSON is a {@code SerializationException} without a
 * message, as DynamoDB answers it). Values are kept as they were sent, for the store's validation to judge: an
 * AttributeValue with two types set, or none, reaches it as such, and an empty set stays an empty set.
 */
public final class JsonCodec {

	/** Where DynamoDB's Java model classes live, as its serialization messages name them. */
	private static final String MODEL = "com.amazonaws.dynamodb.v20120810.";

	/**
	 * The message of a list or map met where a map or list is the value of another list or map: DynamoDB's
	 * deserializer fails there on a cast, and says so.
	 */
	private static final String PARAMETERIZED_CAST = "class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl "
			+ "cannot be cast to class java.lang.Class (sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and "
			+ "java.lang.Class are in module java.base of loader 'bootstrap')";

	private static final String START_OF_STRUCTURE = "Start of structure or map found where not expected";

	private final JsonFactory json;

	private final Map<Class<?>, Shape> shapes = new ConcurrentHashMap<>();

	public JsonCodec() {
		// A request is at most 16 MB; DynamoDB's own limit on nesting (32 levels of attribute values) is checked
		// by the store with DynamoDB's message, so the parser's bounds sit well above both.
		this.json = JsonFactory.builder()
			.streamReadConstraints(StreamReadConstraints.builder()
				.maxNestingDepth(2_000)
				.maxStringLength(32 * 1024 * 1024)
				.maxDocumentLength(32L * 1024 * 1024)
				.build())
			.build();
	}

	/** The JSON factory, for the wire's own small bodies. */
	JsonFactory factory() {
		return this.json;
	}

	// ---------------------------------------------------------------------------------------------------------
	// Reading

	/**
	 * Fills {@code builder} (an SDK request builder) from the JSON object in {@code body}.
	 * @throws AwsError {@code SerializationException}: without a message when the body is not JSON, with
	 * DynamoDB's message when a member's value has the wrong type
	 */
	public void read(byte[] body, int offset, int length, SdkPojo builder) {
		try (JsonParser parser = this.json.createParser(ObjectReadContext.empty(), body, offset, length)) {
			AwsError typeError = null;
			try {
				JsonToken token = parser.nextToken();
				if (token == JsonToken.START_OBJECT) {
					readFields(parser, builder);
				}
				else if (token != null) {
					// differs from nothing known: a body that is JSON but not an object reads, as dynalite reads it,
					// as a request with no members (DynamoDB's own answer to it is not documented).
					parser.skipChildren();
				}
			}
			catch (AwsError error) {
				typeError = error;
			}
			// DynamoDB reads the whole document before it judges types: a body that is not JSON is refused as
			// such even when a type error comes first.
			while (parser.nextToken() != null) {
				// The rest of the document, only to check that it is JSON (and that nothing follows the object).
				if (typeError == null) {
					throw notJson();
				}
			}
			if (typeError != null) {
				throw typeError;
			}
		}
		catch (JacksonException notJson) {
			throw notJson();
		}
	}

	/**
	 * Whether {@code body} is one JSON document: DynamoDB answers a body that is not with a
	 * {@code SerializationException} before it looks at the operation.
	 */
	public boolean isJson(byte[] body, int offset, int length) {
		try (JsonParser parser = this.json.createParser(ObjectReadContext.empty(), body, offset, length)) {
			if (parser.nextToken() == null) {
				return false;
			}
			parser.skipChildren();
			return parser.nextToken() == null;
		}
		catch (JacksonException notJson) {
			return false;
		}
	}

	private static AwsError notJson() {
		return AwsError.serialization(null);
	}

	private void readFields(JsonParser parser, SdkPojo builder) {
		Shape shape = shape(builder);
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
			throw AwsError.serialization("Unrecognized collection type class " + MODEL + member.shapeName());
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

	// ---------------------------------------------------------------------------------------------------------
	// Writing

	/** Writes {@code pojo} (an answer, or a structure in one) as a JSON object to {@code out}. */
	public void write(SdkPojo pojo, OutputStream out) {
		try (JsonGenerator generator = this.json.createGenerator(ObjectWriteContext.empty(), out)) {
			writeObject(generator, pojo);
		}
	}

	/** A generator on {@code out}, for bodies the wire writes member by member (errors). */
	JsonGenerator generator(OutputStream out) {
		return this.json.createGenerator(ObjectWriteContext.empty(), out);
	}

	void writeObject(JsonGenerator generator, SdkPojo pojo) {
		generator.writeStartObject();
		writeMembers(generator, pojo);
		generator.writeEndObject();
	}

	/** Writes the members of {@code pojo} that are present, into the object the generator is in. */
	void writeMembers(JsonGenerator generator, SdkPojo pojo) {
		for (Member member : shape(pojo).members) {
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
		writeValue(generator, member(field), value);
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

	// ---------------------------------------------------------------------------------------------------------
	// The shapes, compiled once per class from the SDK's field metadata

	/** The shape of a builder or model class, compiled on first use from an instance of it. */
	private Shape shape(SdkPojo pojo) {
		Shape shape = this.shapes.get(pojo.getClass());
		if (shape == null) {
			shape = this.shapes.computeIfAbsent(pojo.getClass(), (type) -> new Shape(pojo.sdkFields()));
		}
		return shape;
	}

	private enum Kind {

		STRING, BOOLEAN, INTEGER, SHORT, LONG, DOUBLE, FLOAT, BIG_DECIMAL, INSTANT, BYTES, POJO, LIST, MAP, OTHER

	}

	private static Kind kind(MarshallingType<?> type) {
		if (type == MarshallingType.STRING) {
			return Kind.STRING;
		}
		if (type == MarshallingType.BOOLEAN) {
			return Kind.BOOLEAN;
		}
		if (type == MarshallingType.INTEGER) {
			return Kind.INTEGER;
		}
		if (type == MarshallingType.SHORT) {
			return Kind.SHORT;
		}
		if (type == MarshallingType.LONG) {
			return Kind.LONG;
		}
		if (type == MarshallingType.DOUBLE) {
			return Kind.DOUBLE;
		}
		if (type == MarshallingType.FLOAT) {
			return Kind.FLOAT;
		}
		if (type == MarshallingType.BIG_DECIMAL) {
			return Kind.BIG_DECIMAL;
		}
		if (type == MarshallingType.INSTANT) {
			return Kind.INSTANT;
		}
		if (type == MarshallingType.SDK_BYTES) {
			return Kind.BYTES;
		}
		if (type == MarshallingType.SDK_POJO) {
			return Kind.POJO;
		}
		if (type == MarshallingType.LIST) {
			return Kind.LIST;
		}
		if (type == MarshallingType.MAP) {
			return Kind.MAP;
		}
		return Kind.OTHER;
	}

	private static Member member(SdkField<?> field) {
		Kind kind = kind(field.marshallingType());
		Member element = null;
		if (kind == Kind.LIST) {
			element = member(field.getRequiredTrait(ListTrait.class, TraitType.LIST_TRAIT).memberFieldInfo());
		}
		else if (kind == Kind.MAP) {
			element = member(field.getRequiredTrait(MapTrait.class, TraitType.MAP_TRAIT).valueFieldInfo());
		}
		return new Member(field, kind, element, (kind == Kind.POJO) ? field.constructor() : null);
	}

	/** One member of a shape (or the element of a list or map): its SDK field and what it holds. */
	private static final class Member {

		final SdkField<?> field;

		final Kind kind;

		/** The element of a list, the value of a map. */
		final Member element;

		/** A new builder of a nested structure. */
		final Supplier<SdkPojo> constructor;

		private volatile String shapeName;

		Member(SdkField<?> field, Kind kind, Member element, Supplier<SdkPojo> constructor) {
			this.field = field;
			this.kind = kind;
			this.element = element;
			this.constructor = constructor;
		}

		/** The structure's name in DynamoDB's model (the SDK's class name), for messages. */
		String shapeName() {
			String name = this.shapeName;
			if (name == null) {
				Class<?> builder = this.constructor.get().getClass();
				Class<?> model = builder.getEnclosingClass();
				name = (model != null ? model : builder).getSimpleName();
				this.shapeName = name;
			}
			return name;
		}

		/** The Java type DynamoDB's own model gives this value, as its serialization messages name it. */
		String javaType() {
			return switch (this.kind) {
				case STRING -> "java.lang.String";
				case BOOLEAN -> "java.lang.Boolean";
				case INTEGER -> "java.lang.Integer";
				case SHORT -> "java.lang.Short";
				case LONG -> "java.lang.Long";
				case DOUBLE -> "java.lang.Double";
				case FLOAT -> "java.lang.Float";
				case BIG_DECIMAL -> "java.math.BigDecimal";
				case INSTANT -> "java.util.Date";
				case BYTES -> "java.nio.ByteBuffer";
				case POJO -> MODEL + shapeName();
				case LIST -> "java.util.List<" + this.element.javaType() + ">";
				case MAP -> "java.util.Map<java.lang.String, " + this.element.javaType() + ">";
				default -> "java.lang.Object";
			};
		}

	}

	/** The members of one class, in the SDK's order (for writing) and by wire name (for reading). */
	private static final class Shape {

		final Member[] members;

		final Map<String, Member> byName;

		Shape(List<SdkField<?>> fields) {
			this.members = new Member[fields.size()];
			this.byName = new HashMap<>();
			for (int i = 0; i < this.members.length; i++) {
				this.members[i] = member(fields.get(i));
				this.byName.put(fields.get(i).locationName(), this.members[i]);
			}
		}

	}

}
