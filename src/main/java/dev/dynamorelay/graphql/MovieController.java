package dev.dynamorelay.graphql;

import java.util.concurrent.CompletableFuture;

import graphql.schema.DataFetchingEnvironment;
import org.springframework.graphql.data.method.annotation.Argument;
import org.springframework.graphql.data.method.annotation.QueryMapping;
import org.springframework.stereotype.Controller;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.graphql.ConnectionFetcher.RelayArguments;
import dev.dynamorelay.pagination.ConnectionQuery;
import dev.dynamorelay.pagination.SortOrder;

/** {@code movies}: a Query on {@code Movies} by year, titles by prefix, filtered by rating. */
@Controller
class MovieController {

	private final ConnectionFetcher connections;

	private final Connections declared;

	MovieController(ConnectionFetcher connections, Connections declared) {
		this.connections = connections;
		this.declared = declared;
	}

	@QueryMapping
	CompletableFuture<ConnectionResult<Movie>> movies(@Argument int year, @Argument Integer first,
			@Argument String after, @Argument Integer last, @Argument String before, @Argument String titlePrefix,
			@Argument Double minRating, @Argument SortOrder order, DataFetchingEnvironment environment) {
		ConnectionQuery query = ConnectionQuery
			.partition(AttributeValue.fromN(Integer.toString(year)), KeyArguments.order(order))
			.withPrefix(KeyArguments.prefix("titlePrefix", titlePrefix))
			.withFilter(KeyArguments.minimum("minRating", "rating", minRating));
		return this.connections.fetch(this.declared.movies, query, new RelayArguments(first, after, last, before),
				environment);
	}

}
