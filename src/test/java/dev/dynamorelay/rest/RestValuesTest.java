package dev.dynamorelay.rest;

import java.util.List;

import graphql.Scalars;
import graphql.schema.GraphQLEnumType;
import graphql.schema.GraphQLList;
import graphql.schema.GraphQLNonNull;
import graphql.schema.GraphQLScalarType;
import org.junit.jupiter.api.Test;

import dev.dynamorelay.error.InvalidArgumentException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** URL parameters turned into GraphQL variable values, and the REST path rule's plurals. */
class RestValuesTest {

	private static final GraphQLScalarType LONG = GraphQLScalarType.newScalar()
		.name("Long")
		.coercing(Scalars.GraphQLString.getCoercing())
		.build();

	@Test
	void numbersBooleansAndTextAreTyped() {
		assertThat(RestValues.variable("year", List.of("1999"), GraphQLNonNull.nonNull(Scalars.GraphQLInt))).isEqualTo(1999);
		assertThat(RestValues.variable("seq", List.of("9007199254740993"), LONG)).isEqualTo(9007199254740993L);
		assertThat(RestValues.variable("min", List.of("0.1"), Scalars.GraphQLFloat)).isEqualTo(0.1);
		assertThat(RestValues.variable("gift", List.of("false"), Scalars.GraphQLBoolean)).isEqualTo(false);
		assertThat(RestValues.variable("name", List.of(" a b "), Scalars.GraphQLString)).isEqualTo(" a b ");
		GraphQLEnumType order = GraphQLEnumType.newEnum().name("SortOrder").value("ASC").value("DESC").build();
		assertThat(RestValues.variable("order", List.of("DESC"), order)).isEqualTo("DESC");
	}

	@Test
	void aListTakesTheParameterRepeated() {
		assertThat(RestValues.variable("in", List.of("A", "B,C"), GraphQLList.list(GraphQLNonNull.nonNull(Scalars.GraphQLString))))
			.isEqualTo(List.of("A", "B,C"));
		assertThat(RestValues.variable("between", List.of("1", "5"), GraphQLList.list(Scalars.GraphQLInt)))
			.isEqualTo(List.of(1, 5));
	}

	@Test
	void refusesWhatIsNoValueOfTheType() {
		assertThatThrownBy(() -> RestValues.variable("year", List.of("nineteen"), Scalars.GraphQLInt))
			.isInstanceOf(InvalidArgumentException.class).hasMessageContaining("`year`").hasMessageContaining("nineteen");
		assertThatThrownBy(() -> RestValues.variable("year", List.of("3000000000"), Scalars.GraphQLInt))
			.isInstanceOf(InvalidArgumentException.class).hasMessageContaining("32-bit");
		assertThatThrownBy(() -> RestValues.variable("min", List.of("1e400"), Scalars.GraphQLFloat))
			.isInstanceOf(InvalidArgumentException.class);
		assertThatThrownBy(() -> RestValues.variable("min", List.of("NaN"), Scalars.GraphQLFloat))
			.isInstanceOf(InvalidArgumentException.class);
		assertThatThrownBy(() -> RestValues.variable("gift", List.of("yes"), Scalars.GraphQLBoolean))
			.isInstanceOf(InvalidArgumentException.class);
		assertThatThrownBy(() -> RestValues.variable("year", List.of("1", "2"), Scalars.GraphQLInt))
			.isInstanceOf(InvalidArgumentException.class).hasMessageContaining("once");
	}

	@Test
	void collectionsAreLowerCamelPlurals() {
		assertThat(RestRoutes.collection("User")).isEqualTo("users");
		assertThat(RestRoutes.collection("OrderItem")).isEqualTo("orderItems");
		assertThat(RestRoutes.collection("Category")).isEqualTo("categories");
		assertThat(RestRoutes.collection("Day")).isEqualTo("days");
		assertThat(RestRoutes.collection("Address")).isEqualTo("addresses");
		assertThat(RestRoutes.collection("Box")).isEqualTo("boxes");
		assertThat(RestRoutes.collection("Match")).isEqualTo("matches");
	}

}
