package dev.dynamorelay.transport.graphql;

import java.util.HashSet;
import java.util.Set;

import graphql.schema.DataFetcher;
import graphql.schema.FieldCoordinates;
import graphql.schema.GraphQLCodeRegistry;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLFieldsContainer;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLSchemaElement;
import graphql.schema.GraphQLTypeUtil;
import graphql.schema.GraphQLTypeVisitorStub;
import graphql.util.TraversalControl;
import graphql.util.TraverserContext;

import dev.dynamorelay.access.Access;
import dev.dynamorelay.access.Caller;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.transport.request.RequestScope;

/**
 * Wraps the data fetcher of every field that reads no declared items and is a root field (a mutation, a
 * query wired in Java), has {@code @auth} rules (an attribute, a field wired in Java) or is a field of a
 * root or stored type that returns stored items (wired in Java): it checks the field's rules before it runs (a root field without rules
 * is closed) and the type rules of the items it returns. Declared connections, lookups, {@code node}
 * and {@code nodes} check themselves, with their items' type rules.
 */
final class GuardedFields extends GraphQLTypeVisitorStub {

	private static final Set<String> ROOT_TYPES = Set.of("Query", "Mutation", "Subscription");

	private final Access access;

	private final Set<FieldCoordinates> declared = new HashSet<>();

	/** The stored types, and the interfaces and unions they belong to. */
	private final Set<String> itemTypes = new HashSet<>();

	private final Set<String> storedTypes;

	GuardedFields(Access access, Declarations declarations) {
		this.access = access;
		declarations.connections().forEach((connection) -> this.declared.add(connection.coordinates()));
		declarations.lookups().forEach((lookup) -> this.declared.add(lookup.coordinates()));
		// Declared mutations and live connections check their own rules, and their type's as they write or read
		// (Access#ownRules, #write, #connection).
		declarations.mutations().forEach((mutation) -> this.declared.add(mutation.coordinates()));
		declarations.subscriptions().forEach((subscription) -> this.declared.add(subscription.coordinates()));
		this.declared.add(FieldCoordinates.coordinates("Query", "node"));
		this.declared.add(FieldCoordinates.coordinates("Query", "nodes"));
		this.storedTypes = Set.copyOf(declarations.entities().keySet());
		this.itemTypes.addAll(declarations.entities().keySet());
		this.itemTypes.addAll(declarations.abstractTypes().keySet());
		this.itemTypes.add("Node");
	}

	@Override
	public TraversalControl visitGraphQLFieldDefinition(GraphQLFieldDefinition field,
			TraverserContext<GraphQLSchemaElement> context) {
		GraphQLFieldsContainer parent = (GraphQLFieldsContainer) context.getParentNode();
		if (!(parent instanceof GraphQLObjectType type)) {
			return TraversalControl.CONTINUE;
		}
		FieldCoordinates coordinates = FieldCoordinates.coordinates(type.getName(), field.getName());
		boolean root = ROOT_TYPES.contains(type.getName());
		boolean ruled = !this.access.rules(coordinates).isEmpty();
		// Fields of root and stored types only: a connection's edges hold items their connection checked.
		boolean returnsItems = (root || this.storedTypes.contains(type.getName()))
				&& this.itemTypes.contains(GraphQLTypeUtil.unwrapAll(field.getType()).getName());
		if (this.declared.contains(coordinates) || !(root || ruled || returnsItems)) {
			return TraversalControl.CONTINUE;
		}
		GraphQLCodeRegistry.Builder registry = context.getVarFromParents(GraphQLCodeRegistry.Builder.class);
		DataFetcher<?> fetcher = registry.getDataFetcher(coordinates, field);
		Access access = this.access;
		registry.dataFetcher(coordinates, (DataFetcher<Object>) (environment) -> {
			Caller caller = RequestScope.of(environment).caller();
			if (root || ruled) {
				access.field(coordinates, caller, environment::getArgument, environment.getSource());
			}
			Object value = fetcher.get(environment);
			return returnsItems ? access.returned(coordinates, caller, value) : value;
		});
		return TraversalControl.CONTINUE;
	}

}
