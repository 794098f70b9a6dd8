package dev.dynamorelay.transport.rest;

import graphql.Scalars;
import graphql.schema.Coercing;
import graphql.schema.GraphQLEnumType;
import graphql.schema.GraphQLList;
import graphql.schema.GraphQLNonNull;
import graphql.schema.GraphQLScalarType;
import graphql.schema.GraphQLType;
import io.swagger.v3.core.util.Json31;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The JSON schemas of GraphQL types in the OpenAPI document, as swagger-core's 3.1 mapper writes them. */
class OpenApiTest {

	@Test
	void scalarsAreTheirJsonTypesWithNullUnlessNonNull() throws Exception {
		assertSchema(Scalars.GraphQLInt, "{\"type\":[\"integer\",\"null\"],\"format\":\"int32\"}");
		assertSchema(GraphQLNonNull.nonNull(Scalars.GraphQLInt), "{\"type\":\"integer\",\"format\":\"int32\"}");
		assertSchema(scalar("Long"), "{\"type\":[\"integer\",\"null\"],\"format\":\"int64\"}");
		assertSchema(Scalars.GraphQLFloat, "{\"type\":[\"number\",\"null\"]}");
		assertSchema(GraphQLNonNull.nonNull(Scalars.GraphQLBoolean), "{\"type\":\"boolean\"}");
		assertSchema(scalar("Decimal"), "{\"type\":[\"string\",\"null\"],\"format\":\"decimal\"}");
		assertSchema(GraphQLNonNull.nonNull(scalar("Bytes")), "{\"type\":\"string\",\"contentEncoding\":\"base64\"}");
		assertSchema(Scalars.GraphQLID, "{\"type\":[\"string\",\"null\"]}");
		assertSchema(Scalars.GraphQLString, "{\"type\":[\"string\",\"null\"]}");
	}

	@Test
	void jsonIsAnyValueAndNotNullWhenNonNull() throws Exception {
		assertSchema(scalar("JSON"), "{}");
		assertSchema(GraphQLNonNull.nonNull(scalar("JSON")), "{\"not\":{\"type\":\"null\"}}");
	}

	@Test
	void enumsAreStringsOfTheirValuesInOrder() throws Exception {
		GraphQLEnumType order = GraphQLEnumType.newEnum().name("SortOrder").value("DESC").value("ASC").build();
		assertSchema(order, "{\"type\":[\"string\",\"null\"],\"enum\":[\"DESC\",\"ASC\"]}");
		assertSchema(GraphQLNonNull.nonNull(order), "{\"type\":\"string\",\"enum\":[\"DESC\",\"ASC\"]}");
	}

	@Test
	void listsAreArraysOfTheirItemsEachNullableUnlessNonNull() throws Exception {
		assertSchema(GraphQLList.list(Scalars.GraphQLInt),
				"{\"type\":[\"array\",\"null\"],\"items\":{\"type\":[\"integer\",\"null\"],\"format\":\"int32\"}}");
		assertSchema(GraphQLNonNull.nonNull(GraphQLList.list(GraphQLNonNull.nonNull(Scalars.GraphQLString))),
				"{\"type\":\"array\",\"items\":{\"type\":\"string\"}}");
	}

	@Test
	void aTypeNotNamedAboveIsAString() throws Exception {
		assertSchema(GraphQLNonNull.nonNull(scalar("AWSDateTime")), "{\"type\":\"string\"}");
	}

	/** The schema of {@code type} in a nullable position, written as the document writes it. */
	private static void assertSchema(GraphQLType type, String json) throws Exception {
		String written = Json31.mapper().writeValueAsString(OpenApi.schema(type, true));
		assertThat(Json31.mapper().readTree(written)).isEqualTo(Json31.mapper().readTree(json));
	}

	private static GraphQLScalarType scalar(String name) {
		return GraphQLScalarType.newScalar().name(name).coercing(new Coercing<Object, Object>() {
		}).build();
	}

}
