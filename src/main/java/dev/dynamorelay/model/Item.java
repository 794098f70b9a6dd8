package dev.dynamorelay.model;

import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A DynamoDB item as a node of its declared type: what every declared field reads from.
 *
 * @param entity the declared type the item was recognised as
 * @param attributes the item as DynamoDB returned it
 */
public record Item(Entity entity, Map<String, AttributeValue> attributes) {

	/** The GraphQL type name, for abstract types' type resolution. */
	public String typeName() {
		return this.entity.name();
	}

}
