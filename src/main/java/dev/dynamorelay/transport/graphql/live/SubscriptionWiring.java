package dev.dynamorelay.transport.graphql.live;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import graphql.execution.DataFetcherResult;
import graphql.schema.DataFetchingEnvironment;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.TypeRuntimeWiring;
import org.springframework.graphql.execution.RuntimeWiringConfigurer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.access.Access;
import dev.dynamorelay.access.Caller;
import dev.dynamorelay.budget.RequestBudgets;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.declaration.DeclaredSubscription;
import dev.dynamorelay.error.AccessDeniedException;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.error.InvalidCursorException;
import dev.dynamorelay.live.Change;
import dev.dynamorelay.live.LiveConnections;
import dev.dynamorelay.live.LiveMemory;
import dev.dynamorelay.live.LiveQuery;
import dev.dynamorelay.live.StreamPosition;
import dev.dynamorelay.live.SubscriberId;
import dev.dynamorelay.pagination.ConnectionQueries;
import dev.dynamorelay.pagination.ConnectionQuery;
import dev.dynamorelay.transport.request.RequestScope;

/**
 * Gives every {@code @live} subscription field its data fetcher: it checks the caller's rules as a read of the
 * connection would (another owner's partition is FORBIDDEN; owner filters join the connection's own), and the
 * limits, when the client subscribes; then publishes the connection's changes, each with a scope of its own,
 * until the client stops or the caller's token expires (then {@code UNAUTHENTICATED}).
 */
class SubscriptionWiring implements RuntimeWiringConfigurer {

	/** The property of a {@link Change} that holds its edge. */
	private static final String EDGE = "edge";

	private final Declarations declarations;

	private final LiveConnections live;

	private final Access access;

	/** The budget each change's answer starts with: each is read as a request of its own. */
	private final RequestBudgets budgets;

	SubscriptionWiring(Declarations declarations, LiveConnections live, Access access, RequestBudgets budgets) {
		this.declarations = declarations;
		this.live = live;
		this.access = access;
		this.budgets = budgets;
	}

	@Override
	public void configure(RuntimeWiring.Builder wiring) {
		for (DeclaredSubscription subscription : this.declarations.subscriptions()) {
			wiring.type(TypeRuntimeWiring.newTypeWiring(subscription.coordinates().getTypeName())
				.dataFetcher(subscription.coordinates().getFieldName(), (environment) -> subscribe(subscription, environment)));
			changeFields(wiring, subscription.change());
		}
	}

	/**
	 * Wires a change type: its fields are a {@link Change}'s properties by name, as graphql-java reads a record (an
	 * empty value is null); an edge field of another name reads its edge.
	 */
	static void changeFields(RuntimeWiring.Builder wiring, DeclaredSubscription.ChangeType type) {
		type.edge()
			.filter((field) -> !field.equals(EDGE))
			.ifPresent((field) -> wiring.type(TypeRuntimeWiring.newTypeWiring(type.name())
				.dataFetcher(field, (environment) -> environment.<Change>getSource().edge().orElse(null))));
	}

	private Flux<DataFetcherResult<Change>> subscribe(DeclaredSubscription subscription,
			DataFetchingEnvironment environment) {
		RequestScope scope = RequestScope.of(environment);
		Caller caller = scope.caller();
		Optional<Instant> expires = caller.expiresAt();
		if (expires.isPresent() && !expires.get().isAfter(Instant.now())) {
			throw AccessDeniedException.unauthenticated("The token has expired: subscribe again with a valid one.");
		}
		Map<String, Object> arguments = environment.getArguments();
		this.access.ownRules(subscription.coordinates(), caller, arguments::get);
		DeclaredConnection connection = subscription.connection();
		Optional<AttributeValue> partition = subscription.partition().map((key) -> key.value(arguments::get, null)
			.orElseThrow(() -> new InvalidArgumentException("Pass the partition's values: they select the items.")));
		ConnectionQuery query = ConnectionQueries.query(connection, partition, arguments::get,
				this.access.connection(connection, partition, caller, arguments::get, null));
		Optional<StreamPosition> after = subscription.after().map(arguments::get).map((text) -> StreamPosition
			.of(text.toString())
			.orElseThrow(() -> new InvalidCursorException("`after` is not an eventId this server issued: pass the "
					+ "eventId of the last change received, or leave it out to start from now.")));
		Flux<Change> changes = this.live.subscribe(new LiveQuery(subscription.name(), connection.definition(), query),
				owner(scope), after, outlet(environment));
		if (expires.isPresent()) {
			Duration left = Duration.between(Instant.now(), expires.get());
			changes = changes.mergeWith(Mono.delay(left)
				.then(Mono.error(AccessDeniedException.unauthenticated("The token has expired: the subscription ended. "
						+ "Subscribe again with a new token, with `after` set to the last eventId received."))));
		}
		// One change at a time off the reader's thread: the subscriber upstream holds what waits (a larger prefetch is
		// a queue of Reactor's for every subscription, 570 bytes at 32, idle or not).
		return changes.publishOn(Schedulers.parallel(), 1)
			.map((change) -> DataFetcherResult.<Change>newResult()
				.data(change)
				.localContext(scope.event(this.budgets.start()))
				.build());
	}

	/**
	 * Where the subscription's messages go: the connection its transport left in the execution's context
	 * ({@link LiveOutlets}); an execution of the server's own has none, and counts what it hands on as written.
	 */
	private LiveMemory.Outlet outlet(DataFetchingEnvironment environment) {
		LiveMemory.Outlet outlet = environment.getGraphQlContext().get(LiveMemory.Outlet.class);
		return (outlet != null) ? outlet : new LiveMemory.Outlet(this.live.memory().detached(), "detached");
	}

	/**
	 * Whose subscriptions count together against the per-caller limit: the token's subject, else the client's
	 * address (anonymous callers behind one address share it).
	 */
	private static SubscriberId owner(RequestScope scope) {
		return scope.caller()
			.text("sub")
			.map(SubscriberId::subject)
			.orElseGet(() -> SubscriberId.address(scope.client().orElse("unknown")));
	}

}
