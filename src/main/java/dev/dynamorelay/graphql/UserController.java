package dev.dynamorelay.graphql;

import java.util.concurrent.CompletableFuture;

import graphql.schema.DataFetchingEnvironment;
import org.springframework.graphql.data.method.annotation.Argument;
import org.springframework.graphql.data.method.annotation.QueryMapping;
import org.springframework.graphql.data.method.annotation.SchemaMapping;
import org.springframework.stereotype.Controller;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.dynamodb.Tables;
import dev.dynamorelay.graphql.ConnectionFetcher.RelayArguments;
import dev.dynamorelay.pagination.ConnectionQuery;
import dev.dynamorelay.pagination.SortOrder;

/** {@code user}, {@code users}, {@code User.purchases} and {@code Purchase.user}. */
@Controller
class UserController {

	private final ConnectionFetcher connections;

	private final Connections declared;

	private final Tables tables;

	UserController(ConnectionFetcher connections, Connections declared, Tables tables) {
		this.connections = connections;
		this.declared = declared;
		this.tables = tables;
	}

	@QueryMapping
	CompletableFuture<User> user(@Argument String userId, DataFetchingEnvironment environment) {
		KeyArguments.key("userId", userId, KeyArguments.MAX_PARTITION_KEY_BYTES);
		return loadUser(userId, environment);
	}

	@QueryMapping
	CompletableFuture<ConnectionResult<User>> users(@Argument Integer first, @Argument String after,
			@Argument Integer last, @Argument String before, DataFetchingEnvironment environment) {
		return this.connections.fetch(this.declared.users, ConnectionQuery.scan(),
				new RelayArguments(first, after, last, before), environment);
	}

	@SchemaMapping(typeName = "User")
	CompletableFuture<ConnectionResult<Purchase>> purchases(User user, @Argument Integer first, @Argument String after,
			@Argument Integer last, @Argument String before, @Argument Double minAmount, @Argument SortOrder order,
			DataFetchingEnvironment environment) {
		ConnectionQuery query = ConnectionQuery
			.partition(AttributeValue.fromS(user.userId()), KeyArguments.order(order))
			.withFilter(KeyArguments.minimum("minAmount", "amount", minAmount));
		return this.connections.fetch(this.declared.userPurchases, query,
				new RelayArguments(first, after, last, before), environment);
	}

	@SchemaMapping(typeName = "Purchase")
	CompletableFuture<User> user(Purchase purchase, DataFetchingEnvironment environment) {
		return loadUser(purchase.userId(), environment);
	}

	private CompletableFuture<User> loadUser(String userId, DataFetchingEnvironment environment) {
		return ItemLoaders.load(environment, new NodeId.UserId(userId).key(this.tables))
			.thenApply((item) -> item.map(User::from).orElse(null));
	}

}
