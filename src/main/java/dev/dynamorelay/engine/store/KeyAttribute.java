package dev.dynamorelay.engine.store;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One attribute of a key schema (a table's or an index's): its name and its type, {@code S}, {@code N} or
 * {@code B}.
 *
 * @param name the attribute's name
 * @param type {@code S}, {@code N} or {@code B}
 */
public record KeyAttribute(String name, String type) {

	/** Whether {@code value} is of this attribute's type. */
	public boolean accepts(AttributeValue value) {
		return switch (this.type) {
			case "S" -> value.s() != null;
			case "N" -> value.n() != null;
			default -> value.b() != null;
		};
	}

	/** The value of this attribute's type in {@code value}, as DynamoDB's messages name a value's type. */
	static String typeOf(AttributeValue value) {
		String type = dev.dynamorelay.engine.value.ValueChecks.typeName(value);
		return (type != null) ? type : "null";
	}

}
