package dev.dynamorelay.transport.graphql;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import graphql.schema.DataFetchingEnvironment;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.TypeRuntimeWiring;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.graphql.execution.RuntimeWiringConfigurer;
import org.springframework.stereotype.Component;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.access.Access;
import dev.dynamorelay.access.Caller;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.declaration.DeclaredMutation.Answer;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.dynamodb.tables.DeclaredTables;
import dev.dynamorelay.error.AccessDeniedException;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.model.NodeIds;
import dev.dynamorelay.pagination.ConnectionQueries;
import dev.dynamorelay.pagination.ConnectionQuery;
import dev.dynamorelay.pagination.Edge;
import dev.dynamorelay.pagination.Paginator;
import dev.dynamorelay.transport.request.RequestScope;
import dev.dynamorelay.write.Mutations;
import dev.dynamorelay.write.Ownership;
import dev.dynamorelay.write.WriteAttempts;
import dev.dynamorelay.write.WriteMeters;

/**
 * Gives every declared mutation field its data fetcher: the write engine writes, and the field answers the
 * item (a list of them), its id, or a payload holding the item, its edges in connections, the deleted id
 * and the client's mutation id.
 *
 * <p>An edge is the written item's place in a connection with the edge field's arguments: its cursor is
 * the one a page of that connection gives the item (owner filters included, as the caller's read of it
 * would add them), so a client that puts the edge in the list it shows pages on from it exactly; null when
 * the item is not in that connection.
 */
@Component
class MutationWiring implements RuntimeWiringConfigurer {

	/** The payload's key of the written item, for its edge fields. */
	private static final String WRITTEN = MutationWiring.class.getName() + ".written";

	private final Declarations declarations;

	private final Mutations mutations;

	private final Paginator paginator;

	private final Access access;

	MutationWiring(DeclaredTables tables, DynamoDbAsyncClient dynamoDb, DynamoDbProperties dynamoDbProperties,
			Paginator paginator, Access access, ObjectProvider<WriteMeters.Source> meters) {
		this.declarations = tables.declarations();
		this.mutations = new Mutations(dynamoDb, this.declarations, dynamoDbProperties.timeout(), Clock.systemUTC(),
				meters.getIfAvailable(() -> WriteMeters.Source.NONE));
		this.paginator = paginator;
		this.access = access;
	}

	@Override
	public void configure(RuntimeWiring.Builder wiring) {
		for (DeclaredMutation mutation : this.declarations.mutations()) {
			wiring.type(TypeRuntimeWiring.newTypeWiring(mutation.coordinates().getTypeName())
				.dataFetcher(mutation.coordinates().getFieldName(), (environment) -> write(mutation, environment)));
			if (mutation.answer() instanceof Answer.Payload payload) {
				TypeRuntimeWiring.Builder type = TypeRuntimeWiring.newTypeWiring(payload.typeName());
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
		return this.mutations.run(mutation, environment.getArguments(), owners, writer(scope.caller()), scope.stats())
			.thenApply((written) -> mutation.input().many() ? written.stream().map((each) -> answer(mutation, each)).toList()
					: answer(mutation, written.get(0)));
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

	/** Counts the attempts of the write engine's calls, which the server's DynamoDB client takes as a bean. */
	@Bean
	static ExecutionInterceptor writeAttempts() {
		return new WriteAttempts();
	}

	private Object answer(DeclaredMutation mutation, Mutations.Written written) {
		Optional<Item> item = written.item().map((attributes) -> new Item(written.entity(), attributes));
		Answer answer = mutation.answer();
		if (answer instanceof Answer.Id) {
			return item.map(this::id).orElse(null);
		}
		if (answer instanceof Answer.Payload payload) {
			Map<String, Object> fields = new LinkedHashMap<>();
			payload.node().ifPresent((field) -> fields.put(field, item.orElse(null)));
			payload.deletedId().ifPresent((field) -> fields.put(field, item.map(this::id).orElse(null)));
			payload.clientMutationId().ifPresent((field) -> fields.put(field, written.clientMutationId().orElse(null)));
			fields.put(WRITTEN, item.orElse(null));
			return fields;
		}
		return item.orElse(null);
	}

	private String id(Item item) {
		return NodeIds.encode(item.entity(), item.attributes());
	}

	/** The written item's edge in {@code connection} with the edge field's arguments, or null. */
	private Map<String, Object> edge(DeclaredConnection connection, DataFetchingEnvironment environment) {
		Map<?, ?> payload = environment.getSource();
		if (!(payload.get(WRITTEN) instanceof Item item)) {
			return null;
		}
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
		Optional<Edge<Item>> edge = this.paginator.edge(connection.definition(), query, item.attributes());
		return edge.map((found) -> Map.<String, Object>of("cursor", found.cursor(), "node", found.node())).orElse(null);
	}

}
