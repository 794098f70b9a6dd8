package dev.dynamorelay.graphql;

import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The GraphQL {@code User}: an item of the {@code Users} table. */
public record User(String userId, String name, String email) {

	static User from(Map<String, AttributeValue> item) {
		return new User(Items.string(item, "userId"), Items.string(item, "name"), Items.string(item, "email"));
	}

	public String id() {
		return new NodeId.UserId(this.userId).encode();
	}

}
