package dev.dynamorelay.transport.rest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import graphql.schema.GraphQLArgument;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLFieldsContainer;
import graphql.schema.GraphQLInputType;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLTypeUtil;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.pagination.ConnectionQueries;
import dev.dynamorelay.transport.rest.RestRoute.Parameter;

/**
 * Derives the REST path of every declared connection from the schema, by one rule:
 *
 * <ul>
 * <li>a root connection {@code Query.f} is at {@code /api/f};
 * <li>a connection {@code T.f} of a stored type is under its parent's key: {@code /api/ts/{k1}/.../f},
 * where {@code ts} is the type's name with a lower-case first letter, in the plural ({@code User} ->
 * {@code users}, {@code OrderItem} -> {@code orderItems}, {@code Category} -> {@code categories}), and
 * {@code k1...} are the fields of its partition and sort key templates, in order
 * ({@code User.purchases} -> {@code /api/users/{userId}/purchases});
 * <li>the connection's arguments other than {@code first}/{@code after}/{@code last}/{@code before} are
 * query parameters of the same names; {@code limit} is the page size, {@code nextToken} the cursor.
 * </ul>
 *
 * <p>A nested connection is read through its parent's {@code node(id)}, so its type must implement
 * {@code Node} and the schema must have {@code Query.node}; a connection that has no path by this rule
 * (or whose path another one already has) is listed in {@link #skipped()} with the reason.
 */
final class RestRoutes {

	/** The query parameters every route has. */
	static final Set<String> PAGING = Set.of("limit", "nextToken");

	private final List<RestRoute> routes;

	private final Map<String, String> skipped;

	private RestRoutes(List<RestRoute> routes, Map<String, String> skipped) {
		this.routes = List.copyOf(routes);
		this.skipped = Map.copyOf(skipped);
	}

	/** The routes of every declared connection of {@code schema}. */
	static RestRoutes of(Declarations declarations, GraphQLSchema schema) {
		List<RestRoute> routes = new ArrayList<>();
		Map<String, String> skipped = new LinkedHashMap<>();
		Map<String, String> paths = new LinkedHashMap<>();
		for (DeclaredConnection connection : declarations.connections()) {
			String coordinates = connection.name();
			try {
				RestRoute route = route(declarations, schema, connection);
				String taken = paths.putIfAbsent(route.path().replaceAll("\\{[^}]*}", "{}"), coordinates);
				if (taken != null) {
					throw new NoPath("its path %s is already `%s`'s".formatted(route.path(), taken));
				}
				routes.add(route);
			}
			catch (NoPath ex) {
				skipped.put(coordinates, ex.getMessage());
			}
		}
		return new RestRoutes(routes, skipped);
	}

	/** Why a connection has no REST path. */
	private static final class NoPath extends Exception {

		NoPath(String reason) {
			super(reason, null, false, false);
		}

	}

	/** The route of one connection, by the rule. */
	private static RestRoute route(Declarations declarations, GraphQLSchema schema, DeclaredConnection connection)
			throws NoPath {
		String typeName = connection.coordinates().getTypeName();
		String fieldName = connection.coordinates().getFieldName();
		GraphQLObjectType type = schema.getObjectType(typeName);
		GraphQLFieldDefinition field = (type != null) ? type.getFieldDefinition(fieldName) : null;
		if (field == null) {
			throw new NoPath("the schema has no such field");
		}
		boolean root = typeName.equals(schema.getQueryType().getName());
		List<Parameter> queryParameters = queryParameters(field, root);
		String nodeType = nodeType(field);
		if (root) {
			return new RestRoute("/api/" + fieldName, connection.coordinates(), fieldName, Optional.empty(), List.of(),
					queryParameters, nodeType, document(schema, field, connection, Optional.empty(), queryParameters, nodeType));
		}
		Entity entity = declarations.entities().get(typeName);
		if (entity == null || !entity.node() || schema.getQueryType().getFieldDefinition("node") == null) {
			throw new NoPath((entity == null) ? "`%s` is stored in no table".formatted(typeName)
					: !entity.node() ? "`%s` does not implement Node, so the view cannot read it by its key".formatted(typeName)
					: "the schema has no `Query.node(id: ID!)` to read `%s` by its key".formatted(typeName));
		}
		List<Parameter> pathParameters = pathParameters(type, entity);
		StringBuilder path = new StringBuilder("/api/").append(collection(typeName));
		pathParameters.forEach((parameter) -> path.append("/{").append(parameter.name()).append('}'));
		path.append('/').append(fieldName);
		return new RestRoute(path.toString(), connection.coordinates(), fieldName, Optional.of(entity), pathParameters,
				queryParameters, nodeType, document(schema, field, connection, Optional.of(entity), queryParameters, nodeType));
	}

	/** The connection's own arguments; none may have the name of a variable of the view's own. */
	private static List<Parameter> queryParameters(GraphQLFieldDefinition field, boolean root) throws NoPath {
		List<Parameter> parameters = new ArrayList<>();
		String clash = null;
		for (GraphQLArgument argument : field.getArguments()) {
			if (ConnectionQueries.RELAY_ARGUMENTS.contains(argument.getName())) {
				continue;
			}
			if (PAGING.contains(argument.getName())) {
				clash = argument.getName();
			}
			boolean required = GraphQLTypeUtil.isNonNull(argument.getType()) && !argument.hasSetDefaultValue();
			parameters.add(new Parameter(argument.getName(), argument.getType(), required, argument.getDescription()));
		}
		if (!root && field.getArgument("id") != null) {
			clash = "id";
		}
		if (clash != null) {
			throw new NoPath("its argument `%s` has the name of a variable of the REST view's own".formatted(clash));
		}
		return parameters;
	}

	/** The parent's key fields, in order, as path parameters. */
	private static List<Parameter> pathParameters(GraphQLObjectType type, Entity entity) throws NoPath {
		List<Parameter> parameters = new ArrayList<>();
		for (String key : entity.keyFields()) {
			GraphQLFieldDefinition keyField = type.getFieldDefinition(key);
			if (keyField == null) {
				throw new NoPath("`%s`'s key field `%s` is no field of the type".formatted(type.getName(), key));
			}
			parameters.add(new Parameter(key, (GraphQLInputType) GraphQLTypeUtil.unwrapAll(keyField.getType()), true,
					keyField.getDescription()));
		}
		return parameters;
	}

	List<RestRoute> routes() {
		return this.routes;
	}

	/** Connections with no REST path, with why, by coordinates. */
	Map<String, String> skipped() {
		return this.skipped;
	}

	/** A type's collection segment: its name with a lower-case first letter, in the plural. */
	static String collection(String typeName) {
		String name = Character.toLowerCase(typeName.charAt(0)) + typeName.substring(1);
		String lower = name.toLowerCase(Locale.ROOT);
		if (lower.endsWith("s") || lower.endsWith("x") || lower.endsWith("z") || lower.endsWith("ch")
				|| lower.endsWith("sh")) {
			return name + "es";
		}
		if (lower.endsWith("y") && lower.length() > 1 && "aeiou".indexOf(lower.charAt(lower.length() - 2)) < 0) {
			return name.substring(0, name.length() - 1) + "ies";
		}
		return name + "s";
	}

	/** The node type of a connection field: its type's {@code edges}' {@code node}. */
	private static String nodeType(GraphQLFieldDefinition field) {
		GraphQLFieldsContainer connection = (GraphQLFieldsContainer) GraphQLTypeUtil.unwrapAll(field.getType());
		GraphQLFieldsContainer edge = (GraphQLFieldsContainer) GraphQLTypeUtil
			.unwrapAll(connection.getFieldDefinition("edges").getType());
		return GraphQLTypeUtil.unwrapAll(edge.getFieldDefinition("node").getType()).getName();
	}

	/**
	 * The operation of a route: the page of the connection (through the parent's {@code node(id)} for a
	 * nested one), each node with every field that reads an attribute, and {@code hasNextPage}/{@code endCursor}.
	 */
	private static String document(GraphQLSchema schema, GraphQLFieldDefinition field, DeclaredConnection connection,
			Optional<Entity> parent, List<Parameter> parameters, String nodeType) {
		StringBuilder variables = new StringBuilder("$first: Int, $after: String");
		StringBuilder arguments = new StringBuilder("first: $first, after: $after");
		if (parent.isPresent()) {
			variables.insert(0, "$id: ID!, ");
		}
		for (Parameter parameter : parameters) {
			// An optional parameter left out is left out of the variables, so that the argument's default
			// applies; a required one is checked before the operation runs.
			variables.append(", $").append(parameter.name()).append(": ").append(GraphQLTypeUtil.simplePrint(
					parameter.required() ? parameter.type() : GraphQLTypeUtil.unwrapNonNull(parameter.type())));
			arguments.append(", ").append(parameter.name()).append(": $").append(parameter.name());
		}
		String page = "page: %s(%s) { edges { node { %s } } pageInfo { hasNextPage endCursor } }"
			.formatted(field.getName(), arguments, selection(schema, nodeType, connection.nodes()));
		if (parent.isPresent()) {
			page = "parent: node(id: $id) { ... on %s { %s } }".formatted(parent.get().name(), page);
		}
		return "query RestPage(%s) { %s }".formatted(variables, page);
	}

	/** Every field of the node type(s) that reads an attribute, and the type name of an abstract one. */
	private static String selection(GraphQLSchema schema, String nodeType, List<Entity> nodes) {
		if (nodes.size() == 1 && nodes.get(0).name().equals(nodeType)) {
			return fields(schema.getObjectType(nodeType), nodes.get(0));
		}
		StringBuilder selection = new StringBuilder("__typename");
		for (Entity entity : nodes) {
			selection.append(" ... on ").append(entity.name()).append(" { ")
				.append(fields(schema.getObjectType(entity.name()), entity)).append(" }");
		}
		return selection.toString();
	}

	/** A stored type's fields that read attributes (and its id), in the schema's order. */
	static String fields(GraphQLObjectType type, Entity entity) {
		StringBuilder fields = new StringBuilder();
		for (GraphQLFieldDefinition field : attributeFields(type, entity)) {
			fields.append((fields.length() > 0) ? " " : "").append(field.getName());
		}
		return fields.toString();
	}

	/** A stored type's fields that read attributes (and its id), in the schema's order. */
	static List<GraphQLFieldDefinition> attributeFields(GraphQLObjectType type, Entity entity) {
		List<GraphQLFieldDefinition> fields = new ArrayList<>();
		for (GraphQLFieldDefinition field : type.getFieldDefinitions()) {
			if ((entity.node() && field.getName().equals("id")) || entity.fields().containsKey(field.getName())) {
				fields.add(field);
			}
		}
		return fields;
	}

}
