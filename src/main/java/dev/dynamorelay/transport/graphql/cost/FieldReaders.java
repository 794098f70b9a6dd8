package dev.dynamorelay.transport.graphql.cost;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import graphql.schema.GraphQLFieldsContainer;
import graphql.schema.GraphQLInterfaceType;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLSchema;

import dev.dynamorelay.transport.graphql.cost.RequestCost.Kind;
import dev.dynamorelay.transport.graphql.cost.RequestCost.Reader;

/**
 * Which fields of an operation read from DynamoDB, and how: the readers declared by {@code Type.field}, and
 * for a field of an interface, the costliest of its implementations' fields. Each field of a type is looked
 * up once for an operation.
 */
final class FieldReaders {

	private final Map<String, Reader> byCoordinates;

	private final GraphQLSchema schema;

	private final Map<FieldOf, Optional<Reader>> known = new HashMap<>();

	/**
	 * @param byCoordinates the fields that read, by {@code Type.field}
	 */
	FieldReaders(Map<String, Reader> byCoordinates, GraphQLSchema schema) {
		this.byCoordinates = byCoordinates;
		this.schema = schema;
	}

	/** The reader of {@code field} of {@code container}; null for a field that reads nothing. */
	Reader of(GraphQLFieldsContainer container, String field) {
		return this.known.computeIfAbsent(new FieldOf(container, field),
				(key) -> Optional.ofNullable(lookUp(container, field))).orElse(null);
	}

	/** The reader of a field; on an interface, the costliest reader of its implementations' field. */
	private Reader lookUp(GraphQLFieldsContainer container, String field) {
		Reader reader = this.byCoordinates.get(container.getName() + '.' + field);
		if (reader != null || !(container instanceof GraphQLInterfaceType face)) {
			return reader;
		}
		Set<String> filters = new HashSet<>();
		boolean ownerFiltered = false;
		Reader costliest = null;
		for (GraphQLObjectType implementation : this.schema.getImplementations(face)) {
			Reader each = this.byCoordinates.get(implementation.getName() + '.' + field);
			if (each == null) {
				continue;
			}
			filters.addAll(each.filterArguments());
			ownerFiltered |= each.ownerFiltered();
			if (costliest == null || each.kind() == Kind.CONNECTION) {
				costliest = each;
			}
		}
		return (costliest != null) ? new Reader(costliest.kind(), filters, ownerFiltered) : null;
	}

	/** A field of a type. */
	private record FieldOf(GraphQLFieldsContainer container, String field) {
	}

}
