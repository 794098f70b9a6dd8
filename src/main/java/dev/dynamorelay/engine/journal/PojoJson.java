package dev.dynamorelay.engine.journal;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallingType;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.core.util.SdkAutoConstructList;
import software.amazon.awssdk.core.util.SdkAutoConstructMap;
import software.amazon.awssdk.utils.builder.SdkBuilder;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * An SDK model object (a {@code TableDescription}) as the JSON DynamoDB's wire writes it, by the SDK's own field
 * metadata: the journal keeps table descriptions so, a form that does not change with the SDK's classes.
 * Timestamps are epoch milliseconds, binaries base64; members the object does not set are left out.
 */
final class PojoJson {

	private static final JsonFactory JSON = new JsonFactory();

	private PojoJson() {
	}

	static byte[] write(SdkPojo pojo) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
		try (JsonGenerator json = JSON.createGenerator(ObjectWriteContext.empty(), bytes)) {
			writePojo(json, pojo);
		}
		return bytes.toByteArray();
	}

	/** Reads what {@link #write} wrote into a new builder and builds it. */
	@SuppressWarnings("unchecked")
	static <T> T read(byte[] bytes, Supplier<? extends SdkBuilder<?, T>> builder) {
		try (JsonParser json = JSON.createParser(ObjectReadContext.empty(), bytes)) {
			json.nextToken();
			SdkBuilder<?, T> target = builder.get();
			readPojo(json, (SdkPojo) target);
			return target.build();
		}
	}

	private static void writePojo(JsonGenerator json, SdkPojo pojo) {
		json.writeStartObject();
		for (SdkField<?> field : pojo.sdkFields()) {
			Object value = field.getValueOrDefault(pojo);
			if (value == null || value instanceof SdkAutoConstructList || value instanceof SdkAutoConstructMap) {
				continue;
			}
			json.writeName(field.locationName());
			writeValue(json, field, value);
		}
		json.writeEndObject();
	}

	private static void writeValue(JsonGenerator json, SdkField<?> field, Object value) {
		MarshallingType<?> type = field.marshallingType();
		if (value == null) {
			json.writeNull();
		}
		else if (type == MarshallingType.SDK_POJO) {
			writePojo(json, (SdkPojo) value);
		}
		else if (type == MarshallingType.LIST) {
			SdkField<?> member = field.getRequiredTrait(ListTrait.class).memberFieldInfo();
			json.writeStartArray();
			for (Object element : (List<?>) value) {
				writeValue(json, member, element);
			}
			json.writeEndArray();
		}
		else if (type == MarshallingType.MAP) {
			SdkField<?> member = field.getRequiredTrait(MapTrait.class).valueFieldInfo();
			json.writeStartObject();
			for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
				json.writeName((String) entry.getKey());
				writeValue(json, member, entry.getValue());
			}
			json.writeEndObject();
		}
		else if (type == MarshallingType.INSTANT) {
			json.writeNumber(((Instant) value).toEpochMilli());
		}
		else if (type == MarshallingType.SDK_BYTES) {
			json.writeBinary(((SdkBytes) value).asByteArrayUnsafe());
		}
		else if (type == MarshallingType.BOOLEAN) {
			json.writeBoolean((Boolean) value);
		}
		else if (type == MarshallingType.INTEGER || type == MarshallingType.LONG || type == MarshallingType.SHORT
				|| type == MarshallingType.BYTE) {
			json.writeNumber(((Number) value).longValue());
		}
		else if (type == MarshallingType.DOUBLE || type == MarshallingType.FLOAT || type == MarshallingType.BIG_DECIMAL) {
			json.writeNumber(new BigDecimal(value.toString()));
		}
		else {
			json.writeString(value.toString());
		}
	}

	private static void readPojo(JsonParser json, SdkPojo builder) {
		Map<String, SdkField<?>> fields = new LinkedHashMap<>();
		for (SdkField<?> field : builder.sdkFields()) {
			fields.put(field.locationName(), field);
		}
		while (json.nextToken() == JsonToken.PROPERTY_NAME) {
			SdkField<?> field = fields.get(json.currentName());
			json.nextToken();
			if (field == null) {
				// A member this SDK does not know (written by a newer one): skipped.
				json.skipChildren();
				continue;
			}
			field.set(builder, readValue(json, field));
		}
	}

	private static Object readValue(JsonParser json, SdkField<?> field) {
		if (json.currentToken() == JsonToken.VALUE_NULL) {
			return null;
		}
		MarshallingType<?> type = field.marshallingType();
		if (type == MarshallingType.SDK_POJO) {
			SdkPojo builder = field.constructor().get();
			readPojo(json, builder);
			return ((SdkBuilder<?, ?>) builder).build();
		}
		if (type == MarshallingType.LIST) {
			SdkField<?> member = field.getRequiredTrait(ListTrait.class).memberFieldInfo();
			List<Object> list = new ArrayList<>();
			while (json.nextToken() != JsonToken.END_ARRAY) {
				list.add(readValue(json, member));
			}
			return list;
		}
		if (type == MarshallingType.MAP) {
			SdkField<?> member = field.getRequiredTrait(MapTrait.class).valueFieldInfo();
			Map<String, Object> map = new LinkedHashMap<>();
			while (json.nextToken() == JsonToken.PROPERTY_NAME) {
				String key = json.currentName();
				json.nextToken();
				map.put(key, readValue(json, member));
			}
			return map;
		}
		if (type == MarshallingType.INSTANT) {
			return Instant.ofEpochMilli(json.getLongValue());
		}
		if (type == MarshallingType.SDK_BYTES) {
			return SdkBytes.fromByteArrayUnsafe(json.getBinaryValue());
		}
		if (type == MarshallingType.BOOLEAN) {
			return json.getBooleanValue();
		}
		if (type == MarshallingType.INTEGER) {
			return json.getIntValue();
		}
		if (type == MarshallingType.LONG) {
			return json.getLongValue();
		}
		if (type == MarshallingType.SHORT) {
			return (short) json.getIntValue();
		}
		if (type == MarshallingType.BYTE) {
			return (byte) json.getIntValue();
		}
		if (type == MarshallingType.DOUBLE) {
			return json.getDoubleValue();
		}
		if (type == MarshallingType.FLOAT) {
			return json.getFloatValue();
		}
		if (type == MarshallingType.BIG_DECIMAL) {
			return json.getDecimalValue();
		}
		return json.getString();
	}

}
