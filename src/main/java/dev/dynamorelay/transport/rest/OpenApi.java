package dev.dynamorelay.transport.rest;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import graphql.schema.GraphQLEnumType;
import graphql.schema.GraphQLEnumValueDefinition;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLList;
import graphql.schema.GraphQLNamedType;
import graphql.schema.GraphQLNonNull;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLType;
import io.swagger.v3.core.util.Json31;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.Problems;
import dev.dynamorelay.model.Entity;

/**
 * The OpenAPI 3.1 document of the REST view, generated from the same routes that serve it: one
 * {@code GET} per route with its path and query parameters, the page object, a schema per node type
 * (its fields as the GraphQL schema types them) and the problem responses.
 *
 * <p>Built with swagger-models and written by swagger-core's OpenAPI 3.1 mapper: the document follows from
 * the GraphQL schema, not from Java controllers, which is what OpenAPI generators (springdoc) read. The
 * model sorts each {@code required} list by name.
 */
final class OpenApi {

	private static final int[] PROBLEMS = { 400, 401, 403, 404, 500, 503 };

	private OpenApi() {
	}

	/** The document as the JSON the view serves, written once at start. */
	static byte[] json(OpenAPI document) {
		try {
			return Json31.mapper().writeValueAsBytes(document);
		}
		catch (JsonProcessingException ex) {
			throw new IllegalStateException("The OpenAPI document could not be written", ex);
		}
	}

	static OpenAPI document(RestRoutes routes, Declarations declarations, GraphQLSchema schema, int defaultSize,
			int maxSize, boolean secured) {
		OpenAPI document = new OpenAPI(SpecVersion.V31).openapi("3.1.0")
			.info(new Info().title("dynamo-relay REST view").version("1").description("Every declared connection, one page "
					+ "per request: pass `nextToken` from one answer to get the next page; it is null exactly at the end. "
					+ "`nextToken` is the connection's GraphQL `endCursor`; either works in the other."));
		Paths paths = new Paths();
		Map<String, Schema<?>> schemas = new LinkedHashMap<>();
		for (RestRoute route : routes.routes()) {
			paths.addPathItem(route.path(), new PathItem().get(operation(route, schema, defaultSize, maxSize, secured)));
			nodeSchemas(route.nodeType(), declarations, schema, schemas);
		}
		schemas.put("Problem", problemSchema());
		Components components = new Components();
		schemas.forEach(components::addSchemas);
		for (int status : PROBLEMS) {
			components.addResponses("Problem" + status, new ApiResponse().description(description(status))
				.content(new Content().addMediaType(Problems.MEDIA_TYPE.toString(), new MediaType().schema(ref("Problem")))));
		}
		if (secured) {
			components.addSecuritySchemes("bearer",
					new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer").bearerFormat("JWT"));
		}
		return document.paths(paths).components(components);
	}

	private static Operation operation(RestRoute route, GraphQLSchema schema, int defaultSize, int maxSize,
			boolean secured) {
		GraphQLObjectType type = schema.getObjectType(route.coordinates().getTypeName());
		GraphQLFieldDefinition field = type.getFieldDefinition(route.coordinates().getFieldName());
		Operation operation = new Operation()
			.operationId(route.field())
			.summary("A page of `%s`".formatted(route.field()))
			.description(field.getDescription());
		for (RestRoute.Parameter parameter : route.pathParameters()) {
			operation.addParametersItem(parameter(parameter, "path"));
		}
		for (RestRoute.Parameter parameter : route.queryParameters()) {
			operation.addParametersItem(parameter(parameter, "query"));
		}
		Schema<?> limit = types("integer").minimum(BigDecimal.ONE).maximum(BigDecimal.valueOf(maxSize));
		limit.setDefault(defaultSize);
		operation.addParametersItem(new Parameter().name("limit").in("query").description("Items in the page at most.")
			.schema(limit));
		operation.addParametersItem(new Parameter().name("nextToken").in("query").description("Where the page starts: "
				+ "the `nextToken` of the page before (or a GraphQL `endCursor` of the same connection). Leave it out for "
				+ "the first page: an empty one is refused as INVALID_CURSOR.").schema(types("string").minLength(1)));
		Schema<?> page = types("object")
			.addProperty(route.itemsKey(), types("array").items(ref(route.nodeType())))
			.addProperty("nextToken", types("string", "null").description("The next page's `nextToken`; null at the end."))
			.required(List.of(route.itemsKey(), "nextToken"));
		ApiResponses responses = new ApiResponses().addApiResponse("200", new ApiResponse().description("One page")
			.content(new Content().addMediaType("application/json", new MediaType().schema(page))));
		for (int status : PROBLEMS) {
			responses.addApiResponse(Integer.toString(status),
					new ApiResponse().$ref("#/components/responses/Problem" + status));
		}
		operation.responses(responses);
		if (secured) {
			// Anonymous callers too: the schema's rules decide per field.
			operation.addSecurityItem(new SecurityRequirement()).addSecurityItem(new SecurityRequirement().addList("bearer"));
		}
		return operation;
	}

	private static Parameter parameter(RestRoute.Parameter parameter, String in) {
		return new Parameter().name(parameter.name())
			.in(in)
			.required(parameter.required())
			.description(parameter.description())
			.schema(schema(parameter.type(), false));
	}

	/** The node type's schema and, for an interface or union, its members'. */
	private static void nodeSchemas(String nodeType, Declarations declarations, GraphQLSchema schema,
			Map<String, Schema<?>> schemas) {
		if (schemas.containsKey(nodeType)) {
			return;
		}
		Entity entity = declarations.entities().get(nodeType);
		if (entity != null) {
			schemas.put(nodeType, objectSchema(schema.getObjectType(nodeType), entity, false));
			return;
		}
		Schema<?> members = new JsonSchema().discriminator(new Discriminator().propertyName("__typename"));
		for (Entity member : declarations.abstractTypes().getOrDefault(nodeType, List.of())) {
			String name = nodeType + "." + member.name();
			schemas.put(name, objectSchema(schema.getObjectType(member.name()), member, true));
			members.addOneOfItem(ref(name));
		}
		schemas.put(nodeType, members);
	}

	private static Schema<?> objectSchema(GraphQLObjectType type, Entity entity, boolean typed) {
		Schema<?> object = types("object").description(type.getDescription());
		object.setProperties(new LinkedHashMap<>());
		List<String> required = new ArrayList<>();
		if (typed) {
			Schema<?> typename = new JsonSchema();
			typename.setConst(entity.name());
			object.addProperty("__typename", typename);
			required.add("__typename");
		}
		for (GraphQLFieldDefinition field : RestRoutes.attributeFields(type, entity)) {
			object.addProperty(field.getName(), schema(field.getType(), true).description(field.getDescription()));
			if (field.getType() instanceof GraphQLNonNull) {
				required.add(field.getName());
			}
		}
		return object.required(required);
	}

	/** The JSON schema of a GraphQL type's values; {@code nullable} adds null unless the type is non-null. */
	static Schema<?> schema(GraphQLType type, boolean nullable) {
		if (type instanceof GraphQLNonNull nonNull) {
			return schema(nonNull.getWrappedType(), false);
		}
		if (type instanceof GraphQLList list) {
			return type("array", nullable).items(schema(list.getWrappedType(), true));
		}
		if (type instanceof GraphQLEnumType enumType) {
			return enumeration(enumType.getValues().stream().map(GraphQLEnumValueDefinition::getName).toList(), nullable);
		}
		return switch (((GraphQLNamedType) type).getName()) {
			case "Int" -> type("integer", nullable).format("int32");
			case "Long" -> type("integer", nullable).format("int64");
			case "Float" -> type("number", nullable);
			case "Boolean" -> type("boolean", nullable);
			case "Decimal" -> type("string", nullable).format("decimal");
			case "Bytes" -> type("string", nullable).contentEncoding("base64");
			// Any JSON value.
			case "JSON" -> nullable ? new JsonSchema() : new JsonSchema().not(types("null"));
			default -> type("string", nullable);
		};
	}

	private static Schema<?> type(String type, boolean nullable) {
		return nullable ? types(type, "null") : types(type);
	}

	/** A schema of the given JSON types, in this order. */
	private static Schema<?> types(String... types) {
		return new JsonSchema().types(new LinkedHashSet<>(Arrays.asList(types)));
	}

	private static Schema<?> enumeration(List<String> names, boolean nullable) {
		JsonSchema schema = new JsonSchema();
		schema.setTypes(nullable ? new LinkedHashSet<>(List.of("string", "null")) : new LinkedHashSet<>(List.of("string")));
		schema.setEnum(new ArrayList<>(names));
		return schema;
	}

	private static Schema<?> problemSchema() {
		return types("object").description("RFC 9457 problem details with the error code of the GraphQL API.")
			.addProperty("type", types("string"))
			.addProperty("title", types("string"))
			.addProperty("status", types("integer"))
			.addProperty("detail", types("string").description("What went wrong and what to do."))
			.addProperty("instance", types("string"))
			.addProperty("code", enumeration(Arrays.stream(ErrorCode.values()).map(Enum::name).toList(), false))
			.required(List.of("status", "detail", "code"));
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

	private static Schema<?> ref(String name) {
		return new JsonSchema().$ref("#/components/schemas/" + name);
	}

}
