package dev.dynamorelay.transport.graphql;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import graphql.schema.DataFetchingEnvironment;
import graphql.schema.PropertyDataFetcher;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.TypeRuntimeWiring;
import org.springframework.graphql.execution.RuntimeWiringConfigurer;
import org.springframework.stereotype.Component;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.access.Access;
import dev.dynamorelay.access.Caller;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.declaration.DeclaredMutation.Answer;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.dynamodb.tables.DeclaredTables;
import dev.dynamorelay.error.AccessDeniedException;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.pagination.ConnectionQueries;
import dev.dynamorelay.pagination.ConnectionQuery;
import dev.dynamorelay.pagination.Edge;
import dev.dynamorelay.pagination.Paginator;
import dev.dynamorelay.transport.request.RequestScope;
import dev.dynamorelay.write.MutationInput;
import dev.dynamorelay.write.Mutations;
import dev.dynamorelay.write.Ownership;
import dev.dynamorelay.write.Written;

/**
 * Gives every declared mutation field its data fetcher: its arguments read once into the write engine's typed
 * input ({@link MutationArguments}), the engine writes, and the field answers the item (a list of them), its id,
 * or a payload: the engine's {@link Written} itself, whose fields (the item, its edges in connections, the
 * deleted id and the client's mutation id) resolve by property name.
 *
 * <p>An edge is the written item's place in a connection with the edge field's arguments: its cursor is
 * the one a page of that connection gives the item (owner filters included, as the caller's read of it
 * would add them), so a client that puts the edge in the list it shows pages on from it exactly; null when
 * the item is not in that connection.
 */
@Component
class MutationWiring implements RuntimeWiringConfigurer {

	private final Declarations declarations;

	private final Mutations mutations;

	private final Paginator paginator;

	private final Access access;

	MutationWiring(DeclaredTables tables, Mutations mutations, Paginator paginator, Access access) {
		this.declarations = tables.declarations();
		this.mutations = mutations;
		this.paginator = paginator;
		this.access = access;
	}

	@Override
	public void configure(RuntimeWiring.Builder wiring) {
		for (DeclaredMutation mutation : this.declarations.mutations()) {
			wiring.type(TypeRuntimeWiring.newTypeWiring(mutation.coordinates().getTypeName())
				.dataFetcher(mutation.coordinates().getFieldName(), (environment) -> write(mutation, environment)));
			if (mutation.answer() instanceof Answer.Payload payload) {
				TypeRuntimeWiring.Builder type = payload(payload);
				payload.edges()
					.forEach((edge) -> type.dataFetcher(edge.name(), (environment) -> edge(edge.connection(), environment)));
				wiring.type(type);
			}
		}
	}

	private CompletableFuture<Object> write(DeclaredMutation mutation, DataFetchingEnvironment environment) {
		RequestScope scope = RequestScope.of(environment);
		this.access.ownRules(mutation.coordinates(), scope.caller(), environment::getArgument);
		Ownership.Owners owners = owners(mutation, scope.caller());
		MutationInput input = MutationArguments.input(mutation, environment.getArguments());
		return this.mutations.run(mutation, input, owners, writer(scope.caller()), scope.stats())
			.thenApply((written) -> mutation.input().many() ? written.stream().map((each) -> answer(mutation, each)).toList()
					: answer(mutation, written.get(0)));
	}

	/**
	 * A payload type answers the write engine's {@link Written} as it is, its fields read by property name as
	 * graphql-java reads a record: the item ({@code item}), the deleted id ({@code id}), the client's mutation id
	 * ({@code clientMutationId}); an edge field places the item in its connection.
	 */
	static TypeRuntimeWiring.Builder payload(Answer.Payload payload) {
		TypeRuntimeWiring.Builder type = TypeRuntimeWiring.newTypeWiring(payload.typeName());
		payload.node().ifPresent((field) -> type.dataFetcher(field, PropertyDataFetcher.fetching("item")));
		payload.deletedId().ifPresent((field) -> type.dataFetcher(field, PropertyDataFetcher.fetching("id")));
		payload.clientMutationId()
			.ifPresent((field) -> type.dataFetcher(field, PropertyDataFetcher.fetching("clientMutationId")));
		return type;
	}

	/**
	 * Whose items the caller may write, and under whose: the types' rules (the field's own are checked before
	 * it runs).
	 */
	private Ownership.Owners owners(DeclaredMutation mutation, Caller caller) {
		return new Ownership.Owners() {

			@Override
			public Optional<Ownership> of(Entity entity) {
				return MutationWiring.this.access.write(mutation.coordinates(), entity, caller)
					.map((owner) -> new Ownership(owner.field(), owner.identity()));
			}

			@Override
			public Optional<Ownership> under(Entity parent) {
				return MutationWiring.this.access.writeUnder(mutation.coordinates(), parent, caller)
					.map((owner) -> new Ownership(owner.field(), owner.identity()));
			}

		};
	}

	/**
	 * Whose idempotency keys a caller's are: its token's issuer and subject; without a subject, its claims but
	 * those that change from token to token; the same for every caller without a token.
	 */
	static String writer(Caller caller) {
		if (caller.claims().isEmpty()) {
			return "";
		}
		Map<String, Object> claims = caller.claims().get();
		Object subject = claims.get("sub");
		if (subject != null) {
			String issuer = String.valueOf(claims.getOrDefault("iss", ""));
			return "sub " + issuer.length() + ":" + issuer + subject;
		}
		Map<String, Object> lasting = new java.util.TreeMap<>(claims);
		lasting.keySet().removeAll(List.of("exp", "iat", "nbf", "jti", "auth_time"));
		return "claims\n" + lasting;
	}

	/**
	 * What the field answers for one input object: the item, its id, or the engine's answer itself for a payload
	 * ({@link #payload}).
	 */
	private static Object answer(DeclaredMutation mutation, Written written) {
		Answer answer = mutation.answer();
		if (answer instanceof Answer.Id) {
			return written.id().orElse(null);
		}
		if (answer instanceof Answer.Payload) {
			return written;
		}
		return written.item().orElse(null);
	}

	/** The written item's edge in {@code connection} with the edge field's arguments, or null. */
	private Edge<Item> edge(DeclaredConnection connection, DataFetchingEnvironment environment) {
		Written written = environment.getSource();
		if (written.item().isEmpty()) {
			return null;
		}
		Item item = written.item().get();
		Optional<AttributeValue> partition = connection.definition()
			.partitionKey()
			.map((key) -> item.attributes().get(key.name()));
		if (connection.definition().partitionKey().isPresent() && partition.isEmpty()) {
			return null;
		}
		Map<String, Object> arguments = environment.getArguments();
		List<Filter> owned;
		try {
			owned = this.access.connection(connection, partition, RequestScope.of(environment).caller(), arguments::get,
					null);
		}
		catch (AccessDeniedException ex) {
			return null; // a connection the caller may not read holds no edge for it
		}
		ConnectionQuery query = ConnectionQueries.query(connection, partition, arguments::get, owned);
		return this.paginator.edge(connection.definition(), query, item.attributes()).orElse(null);
	}

}
