package dev.dynamorelay.it;

import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.model.NodeIds;

/** Node ids of the sample's items, as the server issues them. */
public final class Ids {

	private final Declarations declarations;

	public Ids(Declarations declarations) {
		this.declarations = declarations;
	}

	public String user(String userId) {
		return NodeIds.encode(this.declarations.entity("User"), Map.of("userId", AttributeValue.fromS(userId)));
	}

	public String purchase(String userId, long purchasedAt) {
		return NodeIds.encode(this.declarations.entity("Purchase"), Map.of("userId", AttributeValue.fromS(userId),
				"purchasedAt", AttributeValue.fromN(Long.toString(purchasedAt))));
	}

	public String movie(int year, String title) {
		return NodeIds.encode(this.declarations.entity("Movie"),
				Map.of("year", AttributeValue.fromN(Integer.toString(year)), "title", AttributeValue.fromS(title)));
	}

}
