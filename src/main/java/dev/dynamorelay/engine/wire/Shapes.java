package dev.dynamorelay.engine.wire;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallingType;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.core.traits.TraitType;

/**
 * The shapes of the AWS SDK's model classes, compiled once per class from the SDK's own field metadata
 * ({@link SdkPojo#sdkFields()}): each member's name on the wire, its kind, the element of a list or map, and the
 * builder of a nested structure, so that the wire format is described once, by the SDK.
 */
final class Shapes {

	/** Where DynamoDB's Java model classes live, as its serialization messages name them. */
	static final String MODEL = "com.amazonaws.dynamodb.v20120810.";

	private final Map<Class<?>, Shape> shapes = new ConcurrentHashMap<>();

	/** The shape of a builder or model class, compiled on first use from an instance of it. */
	Shape of(SdkPojo pojo) {
		Shape shape = this.shapes.get(pojo.getClass());
		if (shape == null) {
			shape = this.shapes.computeIfAbsent(pojo.getClass(), (type) -> new Shape(pojo.sdkFields()));
		}
		return shape;
	}

	/** What a member holds, by the SDK's marshalling type. */
	enum Kind {

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

	static Member member(SdkField<?> field) {
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
	static final class Member {

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
	static final class Shape {

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
