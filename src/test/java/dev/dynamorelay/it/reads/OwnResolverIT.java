package dev.dynamorelay.it.reads;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Import;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.graphql.data.method.annotation.Argument;
import org.springframework.graphql.data.method.annotation.QueryMapping;
import org.springframework.stereotype.Controller;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Item;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A resolver of one's own beside the declarations, as docs/declaration-language.md shows it: an ordinary
 * Spring GraphQL controller for a field the schema adds, which returns a declared item; the declared fields of
 * its type serve it (ids, timestamps, nested connections).
 */
@TestPropertySource(properties = "dynamo-relay.schema.locations=classpath:sample-schema/,classpath:own-resolver/")
@Import(OwnResolverIT.LatestPurchase.class)
class OwnResolverIT extends IntegrationTest {

	@Test
	void anItemReturnedByOnesOwnResolverIsServedByTheDeclaredFields() {
		String userId = this.fixtures.buyer("own");
		this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, 1_760_005_000_000L, "books", "1"),
				Fixtures.purchase(userId, 1_760_005_100_000L, "books", "2")));
		GraphQlResponse own = execute("{ latestPurchase(userId: \"" + userId + "\") { id purchasedAt amount user { userId } } }");
		GraphQlResponse declared = execute("{ user(userId: \"" + userId + "\") { purchases(last: 1) { edges { node { id "
				+ "purchasedAt amount user { userId } } } } } }");
		assertThat(own.getErrors()).isEmpty();
		assertThat(own.field("latestPurchase").<Map<String, Object>>getValue()).containsEntry("amount", 2.0)
			.isEqualTo(declared.field("user.purchases.edges[0].node").getValue());
	}

	/** The example of docs/declaration-language.md, "Your own resolvers". */
	@Controller
	static class LatestPurchase {

		private final DynamoDbAsyncClient dynamoDb;

		private final Declarations declarations;

		LatestPurchase(DynamoDbAsyncClient dynamoDb, Declarations declarations) {
			this.dynamoDb = dynamoDb;
			this.declarations = declarations;
		}

		@QueryMapping
		CompletableFuture<Item> latestPurchase(@Argument String userId) {
			Entity purchase = this.declarations.entity("Purchase");
			return this.dynamoDb.query((query) -> query.tableName(purchase.table().physicalName())
				.keyConditionExpression("userId = :userId")
				.expressionAttributeValues(Map.of(":userId", AttributeValue.fromS(userId)))
				.scanIndexForward(false)
				.limit(1))
				.thenApply((response) -> response.items().isEmpty() ? null : new Item(purchase, response.items().get(0)));
		}

	}

}
