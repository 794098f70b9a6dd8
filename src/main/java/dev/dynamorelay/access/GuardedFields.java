package dev.dynamorelay.access;

import java.util.HashSet;
import java.util.Set;

import graphql.schema.DataFetcher;
import graphql.schema.FieldCoordinates;
import graphql.schema.GraphQLCodeRegistry;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLFieldsContainer;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLSchemaElement;
import graphql.schema.GraphQLTypeVisitorStub;
import graphql.util.TraversalControl;
import graphql.util.TraverserContext;

import dev.dynamorelay.declaration.Declarations;

/**
 * Wraps the data fetcher of every field that reads no declared items and is a root field (a mutation, a
 * query wired in Java) or has {@code @auth} rules (an attribute, a field wired in Java) so that it
 * checks the field's rules before it runs: a root field without rules is closed. Declared connections,
 * lookups, {@code node} and {@code nodes} check themselves, with their items' type rules.
 */
final class GuardedFields extends GraphQLTypeVisitorStub {

	private static final Set<String> ROOT_TYPES = Set.of("Query", "Mutation", "Subscription");

	private final Access access;

	private final Set<FieldCoordinates> declared = new HashSet<>();

	GuardedFields(Access access, Declarations declarations) {
		this.access = access;
		declarations.connections().forEach((connection) -> this.declared.add(connection.coordinates()));
		declarations.lookups().forEach((lookup) -> this.declared.add(lookup.coordinates()));
		this.declared.add(FieldCoordinates.coordinates("Query", "node"));
		this.declared.add(FieldCoordinates.coordinates("Query", "nodes"));
	}

	@Override
	public TraversalControl visitGraphQLFieldDefinition(GraphQLFieldDefinition field,
			TraverserContext<GraphQLSchemaElement> context) {
		GraphQLFieldsContainer parent = (GraphQLFieldsContainer) context.getParentNode();
		if (!(parent instanceof GraphQLObjectType type)) {
			return TraversalControl.CONTINUE;
		}
		FieldCoordinates coordinates = FieldCoordinates.coordinates(type.getName(), field.getName());
		if (this.declared.contains(coordinates)
				|| (!ROOT_TYPES.contains(type.getName()) && this.access.rules(coordinates).isEmpty())) {
			return TraversalControl.CONTINUE;
		}
		GraphQLCodeRegistry.Builder registry = context.getVarFromParents(GraphQLCodeRegistry.Builder.class);
		DataFetcher<?> fetcher = registry.getDataFetcher(coordinates, field);
		Access access = this.access;
		registry.dataFetcher(coordinates, (DataFetcher<Object>) (environment) -> {
			access.field(coordinates, Caller.of(environment), environment::getArgument, environment.getSource());
			return fetcher.get(environment);
		});
		return TraversalControl.CONTINUE;
	}

}
