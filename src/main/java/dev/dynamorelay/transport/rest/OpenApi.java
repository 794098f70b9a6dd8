package dev.dynamorelay.transport.rest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import graphql.schema.GraphQLEnumType;
import graphql.schema.GraphQLEnumValueDefinition;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLList;
import graphql.schema.GraphQLNamedType;
import graphql.schema.GraphQLNonNull;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLType;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.Problems;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.transport.rest.RestRoute.Parameter;

/**
 * The OpenAPI 3.1 document of the REST view, generated from the same routes that serve it: one
 * {@code GET} per route with its path and query parameters, the page object, a schema per node type
 * (its fields as the GraphQL schema types them) and the problem responses.
 *
 * <p>Written out as plain maps: the document follows from the GraphQL schema, not from Java
 * controllers, which is what OpenAPI generators (springdoc) read.
 */
final class OpenApi {

	private OpenApi() {
	}

	static Map<String, Object> document(RestRoutes routes, Declarations declarations, GraphQLSchema schema,
			int defaultSize, int maxSize, boolean secured) {
		Map<String, Object> document = new LinkedHashMap<>();
		document.put("openapi", "3.1.0");
		document.put("info", Map.of("title", "dynamo-relay REST view", "version", "1",
				"description", "Every declared connection, one page per request: pass `nextToken` from one answer to get "
						+ "the next page; it is null exactly at the end. `nextToken` is the connection's GraphQL `endCursor`; "
						+ "either works in the other."));
		Map<String, Object> paths = new LinkedHashMap<>();
		Map<String, Object> schemas = new LinkedHashMap<>();
		for (RestRoute route : routes.routes()) {
			paths.put(route.path(), Map.of("get", operation(route, schema, defaultSize, maxSize, secured)));
			nodeSchemas(route.nodeType(), declarations, schema, schemas);
		}
		schemas.put("Problem", problemSchema());
		document.put("paths", paths);
		Map<String, Object> components = new LinkedHashMap<>();
		components.put("schemas", schemas);
		Map<String, Object> responses = new LinkedHashMap<>();
		for (int status : new int[] { 400, 401, 403, 404, 500, 503 }) {
			responses.put("Problem" + status, Map.of("description", description(status), "content",
					Map.of(Problems.MEDIA_TYPE.toString(), Map.of("schema", ref("Problem")))));
		}
		components.put("responses", responses);
		if (secured) {
			components.put("securitySchemes", Map.of("bearer", Map.of("type", "http", "scheme", "bearer",
					"bearerFormat", "JWT")));
		}
		document.put("components", components);
		return document;
	}

	private static Map<String, Object> operation(RestRoute route, GraphQLSchema schema, int defaultSize, int maxSize,
			boolean secured) {
		GraphQLObjectType type = schema.getObjectType(route.coordinates().getTypeName());
		GraphQLFieldDefinition field = type.getFieldDefinition(route.coordinates().getFieldName());
		Map<String, Object> operation = new LinkedHashMap<>();
		operation.put("operationId", route.coordinates().getTypeName() + "." + route.coordinates().getFieldName());
		operation.put("summary", "A page of `%s`".formatted(route.field()));
		if (field.getDescription() != null) {
			operation.put("description", field.getDescription());
		}
		List<Object> parameters = new ArrayList<>();
		for (Parameter parameter : route.pathParameters()) {
			parameters.add(parameter(parameter, "path"));
		}
		for (Parameter parameter : route.queryParameters()) {
			parameters.add(parameter(parameter, "query"));
		}
		parameters.add(Map.of("name", "limit", "in", "query", "description", "Items in the page at most.",
				"schema", Map.of("type", "integer", "minimum", 1, "maximum", maxSize, "default", defaultSize)));
		parameters.add(Map.of("name", "nextToken", "in", "query", "description",
				"Where the page starts: the `nextToken` of the page before (or a GraphQL `endCursor` of the same connection). "
						+ "Leave it out for the first page: an empty one is refused as INVALID_CURSOR.",
				"schema", Map.of("type", "string", "minLength", 1)));
		operation.put("parameters", parameters);
		Map<String, Object> page = new LinkedHashMap<>();
		page.put("type", "object");
		page.put("required", List.of(route.itemsKey(), "nextToken"));
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put(route.itemsKey(), Map.of("type", "array", "items", ref(route.nodeType())));
		properties.put("nextToken", Map.of("type", List.of("string", "null"),
				"description", "The next page's `nextToken`; null at the end."));
		page.put("properties", properties);
		Map<String, Object> responses = new LinkedHashMap<>();
		responses.put("200", Map.of("description", "One page", "content",
				Map.of("application/json", Map.of("schema", page))));
		for (int status : new int[] { 400, 401, 403, 404, 500, 503 }) {
			responses.put(Integer.toString(status), Map.of("$ref", "#/components/responses/Problem" + status));
		}
		operation.put("responses", responses);
		if (secured) {
			operation.put("security", List.of(Map.of(), Map.of("bearer", List.of())));
		}
		return operation;
	}

	private static Map<String, Object> parameter(Parameter parameter, String in) {
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("name", parameter.name());
		result.put("in", in);
		result.put("required", parameter.required());
		if (parameter.description() != null) {
			result.put("description", parameter.description());
		}
		result.put("schema", schema(parameter.type(), false));
		return result;
	}

	/** The node type's schema and, for an interface or union, its members'. */
	private static void nodeSchemas(String nodeType, Declarations declarations, GraphQLSchema schema,
			Map<String, Object> schemas) {
		if (schemas.containsKey(nodeType)) {
			return;
		}
		Entity entity = declarations.entities().get(nodeType);
		if (entity != null) {
			schemas.put(nodeType, objectSchema(schema.getObjectType(nodeType), entity, false));
			return;
		}
		List<Object> members = new ArrayList<>();
		for (Entity member : declarations.abstractTypes().getOrDefault(nodeType, List.of())) {
			String name = nodeType + "." + member.name();
			schemas.put(name, objectSchema(schema.getObjectType(member.name()), member, true));
			members.add(ref(name));
		}
		schemas.put(nodeType, Map.of("oneOf", members, "discriminator", Map.of("propertyName", "__typename")));
	}

	private static Map<String, Object> objectSchema(GraphQLObjectType type, Entity entity, boolean typed) {
		Map<String, Object> object = new LinkedHashMap<>();
		object.put("type", "object");
		if (type.getDescription() != null) {
			object.put("description", type.getDescription());
		}
		Map<String, Object> properties = new LinkedHashMap<>();
		List<String> required = new ArrayList<>();
		if (typed) {
			properties.put("__typename", Map.of("const", entity.name()));
			required.add("__typename");
		}
		for (GraphQLFieldDefinition field : RestRoutes.attributeFields(type, entity)) {
			Map<String, Object> property = new LinkedHashMap<>(schema(field.getType(), true));
			if (field.getDescription() != null) {
				property.put("description", field.getDescription());
			}
			properties.put(field.getName(), property);
			if (field.getType() instanceof GraphQLNonNull) {
				required.add(field.getName());
			}
		}
		object.put("properties", properties);
		object.put("required", required);
		return object;
	}

	/** The JSON schema of a GraphQL type's values; {@code nullable} adds null unless the type is non-null. */
	static Map<String, Object> schema(GraphQLType type, boolean nullable) {
		if (type instanceof GraphQLNonNull nonNull) {
			return schema(nonNull.getWrappedType(), false);
		}
		Map<String, Object> schema = new LinkedHashMap<>();
		String jsonType;
		if (type instanceof GraphQLList list) {
			jsonType = "array";
			schema.put("items", schema(list.getWrappedType(), true));
		}
		else if (type instanceof GraphQLEnumType enumType) {
			jsonType = "string";
			schema.put("enum", enumType.getValues().stream().map(GraphQLEnumValueDefinition::getName).toList());
		}
		else {
			String name = ((GraphQLNamedType) type).getName();
			switch (name) {
				case "Int" -> {
					jsonType = "integer";
					schema.put("format", "int32");
				}
				case "Long" -> {
					jsonType = "integer";
					schema.put("format", "int64");
				}
				case "Float" -> jsonType = "number";
				case "Boolean" -> jsonType = "boolean";
				case "Decimal" -> {
					jsonType = "string";
					schema.put("format", "decimal");
				}
				case "Bytes" -> {
					jsonType = "string";
					schema.put("contentEncoding", "base64");
				}
				case "JSON" -> {
					// Any JSON value.
					return nullable ? Map.of() : Map.of("not", Map.of("type", "null"));
				}
				default -> jsonType = "string";
			}
		}
		schema.put("type", nullable ? List.of(jsonType, "null") : jsonType);
		return schema;
	}

	private static Map<String, Object> problemSchema() {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("type", Map.of("type", "string"));
		properties.put("title", Map.of("type", "string"));
		properties.put("status", Map.of("type", "integer"));
		properties.put("detail", Map.of("type", "string", "description", "What went wrong and what to do."));
		properties.put("instance", Map.of("type", "string"));
		properties.put("code", Map.of("type", "string", "enum",
				java.util.Arrays.stream(ErrorCode.values()).map(Enum::name).toList()));
		return Map.of("type", "object", "description", "RFC 9457 problem details with the error code of the GraphQL API.",
				"required", List.of("status", "detail", "code"), "properties", properties);
	}

	private static String description(int status) {
		return switch (status) {
			case 400 -> "INVALID_ARGUMENT, INVALID_CURSOR or QUERY_TOO_COMPLEX";
			case 401 -> "UNAUTHENTICATED: the rule needs a signed-in caller";
			case 403 -> "FORBIDDEN: the caller's token does not satisfy the rule";
			case 404 -> "NOT_FOUND: no item has the path's key";
			case 503 -> "UNAVAILABLE: DynamoDB did not answer in time; retry";
			default -> "INTERNAL";
		};
	}

	private static Map<String, Object> ref(String name) {
		return Map.of("$ref", "#/components/schemas/" + name);
	}

}
