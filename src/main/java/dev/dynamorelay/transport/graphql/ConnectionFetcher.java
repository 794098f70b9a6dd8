package dev.dynamorelay.transport.graphql;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import graphql.schema.DataFetchingEnvironment;
import org.springframework.stereotype.Component;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.error.InvalidCursorException;
import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.pagination.ConnectionQuery;
import dev.dynamorelay.pagination.ConnectionRead;
import dev.dynamorelay.pagination.Direction;
import dev.dynamorelay.pagination.PageInfo;
import dev.dynamorelay.pagination.PageRequest;
import dev.dynamorelay.pagination.Paginator;
import dev.dynamorelay.transport.request.RequestScope;

/**
 * Serves any connection field: validates the Relay arguments and the cursor, then reads the page and,
 * only when {@code totalCount} is selected, the count, both at once.
 */
@Component
public class ConnectionFetcher {

	private final Paginator paginator;

	public ConnectionFetcher(Paginator paginator) {
		this.paginator = paginator;
	}

	/** One page of {@code definition} for {@code query}, as the Relay arguments ask. */
	public <T> CompletableFuture<ConnectionResult<T>> fetch(ConnectionDefinition<T> definition, ConnectionQuery query,
			RelayArguments arguments, DataFetchingEnvironment environment) {
		PageRequest request = this.paginator.request(arguments.first(), arguments.after(), arguments.last(),
				arguments.before());
		ConnectionRead<T> read = this.paginator.prepare(definition, query, request);
		RequestScope scope = RequestScope.of(environment);
		ReadStats stats = scope.stats();
		CompletableFuture<Integer> count = Selections.selects(environment, "totalCount")
				? read.count(stats).thenApply((total) -> total.orElse(null)) : CompletableFuture.completedFuture(null);
		return read.page(stats).thenApply((page) -> {
			if (page.cut()) {
				// How the REST view tells an exact hasNextPage from one that only says more may match.
				scope.pageCut();
			}
			return ConnectionResult.of(page, count);
		});
	}

	/**
	 * The page of a connection that cannot hold anything (its parent has no value for the key): no
	 * edges, after the Relay arguments are checked as for any page. It issues no cursor, so it accepts
	 * none.
	 */
	public <T> CompletableFuture<ConnectionResult<T>> empty(RelayArguments arguments) {
		PageRequest request = this.paginator.request(arguments.first(), arguments.after(), arguments.last(),
				arguments.before());
		if (request.continues()) {
			throw new InvalidCursorException("The cursor was not issued by this connection, which is empty: its parent "
					+ "has no value for the connection's key. Leave the cursor out.");
		}
		boolean forward = request.direction() == Direction.FORWARD;
		PageInfo info = new PageInfo(!forward && request.continues(), forward && request.continues(), null, null);
		return CompletableFuture.completedFuture(
				new ConnectionResult<>(List.of(), info, CompletableFuture.completedFuture(0)));
	}

	/**
	 * The four Relay arguments as the client sent them; any may be null.
	 */
	public record RelayArguments(Integer first, String after, Integer last, String before) {
	}

}
