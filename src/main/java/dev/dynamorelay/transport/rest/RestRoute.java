package dev.dynamorelay.transport.rest;

import java.util.List;
import java.util.Optional;

import graphql.schema.FieldCoordinates;
import graphql.schema.GraphQLInputType;

import dev.dynamorelay.model.Entity;

/**
 * The REST path of one declared connection, and the GraphQL operation that serves it.
 *
 * @param path the path template, e.g. {@code /api/users/{userId}/purchases}
 * @param coordinates the connection field, e.g. {@code User.purchases}
 * @param itemsKey the name of the response's array, the connection field's name
 * @param parent the type whose item holds the connection (a nested connection), named by the path's
 * parameters; empty for a root connection
 * @param pathParameters the parent's key fields, in the path's order, with their types
 * @param queryParameters the connection's own arguments (key conditions, filters, order), with their types
 * @param nodeType the connection's node type (an object type, or an interface or union of them)
 * @param document the GraphQL operation: variables {@code first}, {@code after}, {@code id} (the
 * parent's node id) and one per query parameter; the page is aliased {@code page}, the parent {@code parent}
 */
record RestRoute(String path, FieldCoordinates coordinates, String itemsKey, Optional<Entity> parent,
		List<Parameter> pathParameters, List<Parameter> queryParameters, String nodeType, String document) {

	RestRoute {
		pathParameters = List.copyOf(pathParameters);
		queryParameters = List.copyOf(queryParameters);
	}

	/** The coordinates as people write them, e.g. {@code User.purchases}. */
	String field() {
		return this.coordinates.toString();
	}

	/**
	 * A path or query parameter.
	 *
	 * @param name its name: the parent's field, or the connection's argument
	 * @param type its GraphQL input type
	 * @param required whether it must be given (a non-null argument without a default, every path parameter)
	 * @param description the argument's or field's description, if any
	 */
	record Parameter(String name, GraphQLInputType type, boolean required, String description) {
	}

}
