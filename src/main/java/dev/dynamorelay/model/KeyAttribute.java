package dev.dynamorelay.model;

import java.util.Objects;

import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * One attribute of an item's position: a table or index key attribute with its DynamoDB type.
 *
 * @param name the attribute name
 * @param type {@code S}, {@code N} or {@code B}
 */
public record KeyAttribute(String name, ScalarAttributeType type) {

	public KeyAttribute {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(type, "type");
	}

	public static KeyAttribute string(String name) {
		return new KeyAttribute(name, ScalarAttributeType.S);
	}

	public static KeyAttribute number(String name) {
		return new KeyAttribute(name, ScalarAttributeType.N);
	}

}
