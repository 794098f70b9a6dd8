package dev.dynamorelay.transport.graphql;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import graphql.GraphQLError;
import graphql.execution.DataFetcherResult;
import graphql.schema.DataFetchingEnvironment;
import graphql.schema.FieldCoordinates;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.LightDataFetcher;
import graphql.schema.TypeResolver;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.TypeRuntimeWiring;
import org.springframework.graphql.execution.RuntimeWiringConfigurer;
import org.springframework.stereotype.Component;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.access.Access;
import dev.dynamorelay.access.Caller;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.declaration.DeclaredLookup;
import dev.dynamorelay.declaration.Scalars;
import dev.dynamorelay.dynamodb.ItemLoader.ItemKey;
import dev.dynamorelay.dynamodb.ItemLoader;
import dev.dynamorelay.dynamodb.tables.DeclaredTables;
import dev.dynamorelay.error.AccessDeniedException;
import dev.dynamorelay.error.GraphQlErrors;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.model.NodeIds;
import dev.dynamorelay.pagination.ConnectionQueries;
import dev.dynamorelay.pagination.ConnectionQuery;
import dev.dynamorelay.pagination.Edge;
import dev.dynamorelay.transport.graphql.ConnectionFetcher.RelayArguments;
import dev.dynamorelay.transport.request.RequestScope;

/**
 * Gives every declared field its data fetcher: attributes, ids, connections (through the one
 * {@link ConnectionFetcher}), lookups and {@code node}/{@code nodes}; and every interface and union
 * that declared types belong to its type resolver.
 */
@Component
class DeclaredWiring implements RuntimeWiringConfigurer {


	private static final FieldCoordinates NODE = FieldCoordinates.coordinates("Query", "node");

	private static final FieldCoordinates NODES = FieldCoordinates.coordinates("Query", "nodes");

	private final Declarations declarations;

	private final DeclaredTables tables;

	private final ConnectionFetcher connections;

	private final ItemLoader items;

	private final Access access;

	/** Each table's item typing, for items loaded by key (lookups, node ids), by declared table name. */
	private final Map<String, Function<Map<String, AttributeValue>, Item>> typings = new HashMap<>();

	DeclaredWiring(DeclaredTables tables, ConnectionFetcher connections, ItemLoader items, Access access) {
		this.declarations = tables.declarations();
		this.tables = tables;
		this.connections = connections;
		this.items = items;
		this.access = access;
		for (var table : this.declarations.tables().values()) {
			List<Entity> inTable = this.declarations.entitiesIn(table);
			this.typings.put(table.name(), Declarations.typing(inTable, inTable));
		}
	}

	@Override
	public void configure(RuntimeWiring.Builder wiring) {
		Scalars.wire(wiring);
		for (Entity entity : this.declarations.entities().values()) {
			TypeRuntimeWiring.Builder type = TypeRuntimeWiring.newTypeWiring(entity.name());
			for (AttributeField field : entity.fields().values()) {
				type.dataFetcher(field.name(), new AttributeReader(field));
			}
			if (entity.node()) {
				type.dataFetcher("id", new IdReader());
			}
			wiring.type(type);
		}
		for (DeclaredConnection connection : this.declarations.connections()) {
			wiring.type(TypeRuntimeWiring.newTypeWiring(connection.coordinates().getTypeName())
				.dataFetcher(connection.coordinates().getFieldName(),
						(environment) -> connection(connection, environment)));
		}
		for (DeclaredLookup lookup : this.declarations.lookups()) {
			wiring.type(TypeRuntimeWiring.newTypeWiring(lookup.coordinates().getTypeName())
				.dataFetcher(lookup.coordinates().getFieldName(), (environment) -> lookup(lookup, environment)));
		}
		wiring.type(TypeRuntimeWiring.newTypeWiring("Query")
			.dataFetcher("node", (environment) -> node(environment.getArgument("id"), environment))
			.dataFetcher("nodes", this::nodes));
		TypeResolver byItem = (environment) -> {
			Object source = environment.getObject();
			return (source instanceof Item item) ? environment.getSchema().getObjectType(item.typeName()) : null;
		};
		java.util.Set<String> abstractTypes = new java.util.TreeSet<>(this.declarations.abstractTypes().keySet());
		abstractTypes.add("Node");
		for (String type : abstractTypes) {
			wiring.type(TypeRuntimeWiring.newTypeWiring(type).typeResolver(byItem));
		}
	}

	/** One page of a declared connection for this call's arguments and parent. */
	private CompletableFuture<ConnectionResult<Item>> connection(DeclaredConnection connection,
			DataFetchingEnvironment environment) {
		RelayArguments relay = new RelayArguments(environment.getArgument("first"), environment.getArgument("after"),
				environment.getArgument("last"), environment.getArgument("before"));
		Item parent = (environment.getSource() instanceof Item item) ? item : null;
		Function<String, Object> arguments = environment::getArgument;
		Optional<AttributeValue> partition = connection.partition().flatMap((key) -> key.value(arguments, parent));
		List<Filter> owned = this.access.connection(connection, partition, RequestScope.of(environment).caller(), arguments, parent);
		if (connection.partition().isPresent() && partition.isEmpty()) {
			// The parent stores no value for the key: nothing can be in the connection.
			return this.connections.empty(relay);
		}
		ConnectionQuery query = ConnectionQueries.query(connection, partition, arguments, owned);
		CompletableFuture<ConnectionResult<Item>> page = this.connections.fetch(connection.definition(), query, relay,
				environment);
		return this.tables.partial(connection.definition()) ? page.thenCompose((read) -> complete(read, environment))
				: page;
	}

	/**
	 * The page with each node's whole item, for a global index that projects only part of it: one
	 * BatchGetItem for the page's keys (not the request's DataLoader, which graphql-java no longer
	 * dispatches once the field's own fetcher has returned). An item deleted since keeps what the index
	 * held.
	 */
	private CompletableFuture<ConnectionResult<Item>> complete(ConnectionResult<Item> page,
			DataFetchingEnvironment environment) {
		List<ItemKey> keys = new ArrayList<>(page.edges().size());
		for (Edge<Item> edge : page.edges()) {
			Item item = edge.node();
			Map<String, AttributeValue> key = new HashMap<>();
			item.entity().table().primaryKey().forEach((attribute) -> key.put(attribute.name(),
					item.attributes().get(attribute.name())));
			keys.add(new ItemKey(item.entity().table().physicalName(), key));
		}
		if (keys.isEmpty()) {
			return CompletableFuture.completedFuture(page);
		}
		return this.items.load(keys, RequestScope.of(environment).stats()).thenApply((found) -> {
			List<Edge<Item>> edges = new ArrayList<>(keys.size());
			for (int i = 0; i < keys.size(); i++) {
				Edge<Item> edge = page.edges().get(i);
				Map<String, AttributeValue> whole = found.get(keys.get(i));
				edges.add((whole != null) ? new Edge<>(edge.cursor(), new Item(edge.node().entity(), whole)) : edge);
			}
			return new ConnectionResult<>(edges, page.pageInfo(), page.totalCount());
		});
	}

	/** The item of a lookup's key, batched with the request's other loads; null when there is none. */
	private CompletableFuture<Item> lookup(DeclaredLookup lookup, DataFetchingEnvironment environment) {
		Item parent = (environment.getSource() instanceof Item item) ? item : null;
		Function<String, Object> arguments = environment::getArgument;
		Map<String, AttributeValue> key = new HashMap<>();
		Optional<AttributeValue> partition = lookup.partition().value(arguments, parent);
		partition.ifPresent((value) -> key.put(lookup.target().table().partitionKey().name(), value));
		Optional<AttributeValue> sort = lookup.sort().flatMap((template) -> template.value(arguments, parent));
		sort.ifPresent((value) -> key.put(lookup.target().table().sortKey().orElseThrow().name(), value));
		UnaryOperator<Item> allowed = this.access.item(lookup.coordinates(), lookup.target(), key,
				RequestScope.of(environment).caller(), arguments, parent);
		if (partition.isEmpty() || (lookup.sort().isPresent() && sort.isEmpty())) {
			return CompletableFuture.completedFuture(null);
		}
		return load(lookup.target(), key, environment).thenApply(allowed);
	}

	private CompletableFuture<Item> node(String id, DataFetchingEnvironment environment) {
		NodeIds.Key key = this.declarations.decode(id);
		UnaryOperator<Item> allowed = this.access.item(NODE, key.entity(), key.key(), RequestScope.of(environment).caller(),
				environment::getArgument, null);
		return load(key.entity(), key.key(), environment).thenApply(allowed);
	}

	private CompletableFuture<DataFetcherResult<List<Item>>> nodes(DataFetchingEnvironment environment) {
		List<String> ids = environment.getArgument("ids");
		if (ids.size() > NodeIds.MAX_PER_REQUEST) {
			throw new InvalidArgumentException("`nodes` takes at most %d ids, got %d.".formatted(NodeIds.MAX_PER_REQUEST, ids.size()));
		}
		List<NodeIds.Key> keys = ids.stream().map(this.declarations::decode).toList();
		Caller caller = RequestScope.of(environment).caller();
		List<CompletableFuture<Item>> loads = new ArrayList<>(keys.size());
		for (NodeIds.Key key : keys) {
			CompletableFuture<Item> load;
			try {
				UnaryOperator<Item> allowed = this.access.item(NODES, key.entity(), key.key(), caller,
						environment::getArgument, null);
				load = load(key.entity(), key.key(), environment).thenApply(allowed);
			}
			catch (AccessDeniedException ex) {
				load = CompletableFuture.failedFuture(ex);
			}
			loads.add(load);
		}
		return CompletableFuture.allOf(loads.stream()
			.map((load) -> load.exceptionally((failure) -> null))
			.toArray(CompletableFuture[]::new)).thenApply((done) -> positions(loads, environment));
	}

	/**
	 * The items of {@code nodes} in order: a position the caller may not read is null, with its error at
	 * its index; any other failure fails the field.
	 */
	private static DataFetcherResult<List<Item>> positions(List<CompletableFuture<Item>> loads,
			DataFetchingEnvironment environment) {
		List<Item> found = new ArrayList<>(loads.size());
		List<GraphQLError> errors = new ArrayList<>(0);
		for (int i = 0; i < loads.size(); i++) {
			try {
				found.add(loads.get(i).join());
			}
			catch (java.util.concurrent.CompletionException ex) {
				if (!(ex.getCause() instanceof AccessDeniedException denied)) {
					throw ex;
				}
				found.add(null);
				errors.add(GraphQlErrors.builder(environment, denied.code())
					.path(environment.getExecutionStepInfo().getPath().segment(i))
					.message(denied.getMessage())
					.build());
			}
		}
		return DataFetcherResult.<List<Item>>newResult().data(found).errors(errors).build();
	}

	/**
	 * An item of {@code entity} by key; null when absent or when the item there is of another type of
	 * the table (told apart as connections tell them).
	 */
	private CompletableFuture<Item> load(Entity entity, Map<String, AttributeValue> key,
			DataFetchingEnvironment environment) {
		Function<Map<String, AttributeValue>, Item> typing = this.typings.get(entity.table().name());
		return ItemLoaders.load(environment, new ItemKey(entity.table().physicalName(), key))
			.thenApply((found) -> found.map(typing).filter((item) -> item.entity() == entity).orElse(null));
	}

	/** Reads the global id of the source item. */
	private static final class IdReader implements LightDataFetcher<String> {

		@Override
		public String get(GraphQLFieldDefinition definition, Object source, Supplier<DataFetchingEnvironment> environment) {
			return (source instanceof Item item) ? NodeIds.encode(item.entity(), item.attributes()) : null;
		}

		@Override
		public String get(DataFetchingEnvironment environment) {
			return get(environment.getFieldDefinition(), environment.getSource(), () -> environment);
		}

	}

	/** Reads one declared attribute of the source item. */
	private record AttributeReader(AttributeField field) implements LightDataFetcher<Object> {

		@Override
		public Object get(GraphQLFieldDefinition definition, Object source, Supplier<DataFetchingEnvironment> environment) {
			if (!(source instanceof Item item)) {
				return null;
			}
			return item.entity().read(item.attributes(), this.field);
		}

		@Override
		public Object get(DataFetchingEnvironment environment) {
			return get(environment.getFieldDefinition(), environment.getSource(), () -> environment);
		}

	}

}
