package dev.dynamorelay.declaration;

import java.math.BigDecimal;
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

/** Arguments given as text (URL parameters, {@code --arg}s) turned into GraphQL values. */
class ArgumentTextTest {

	private static final GraphQLScalarType LONG = GraphQLScalarType.newScalar()
		.name("Long")
		.coercing(Scalars.GraphQLString.getCoercing())
		.build();

	@Test
	void numbersBooleansAndTextAreTyped() {
		assertThat(ArgumentText.external("year", List.of("1999"), GraphQLNonNull.nonNull(Scalars.GraphQLInt), false)).isEqualTo(1999);
		assertThat(ArgumentText.external("seq", List.of("9007199254740993"), LONG, false)).isEqualTo(9007199254740993L);
		assertThat(ArgumentText.external("min", List.of("0.1"), Scalars.GraphQLFloat, false)).isEqualTo(new BigDecimal("0.1"));
		assertThat(ArgumentText.external("gift", List.of("false"), Scalars.GraphQLBoolean, false)).isEqualTo(false);
		assertThat(ArgumentText.external("name", List.of(" a b "), Scalars.GraphQLString, false)).isEqualTo(" a b ");
		GraphQLEnumType order = GraphQLEnumType.newEnum().name("SortOrder").value("ASC").value("DESC").build();
		assertThat(ArgumentText.external("order", List.of("DESC"), order, false)).isEqualTo("DESC");
	}

	/** A Float parameter is the decimal written, as a JSON client's number is: a double would round these. */
	@Test
	void aFloatIsTheDecimalAsWritten() {
		for (String text : List.of("98765432109876543210.12345", "1234567890123456789012345678901234.5678")) {
			assertThat(ArgumentText.external("min", List.of(text), Scalars.GraphQLFloat, false)).isEqualTo(new BigDecimal(text));
		}
		assertThatThrownBy(() -> ArgumentText.external("min", List.of("1e400"), Scalars.GraphQLFloat, false))
			.isInstanceOf(InvalidArgumentException.class).hasMessageContaining("`1e400`");
		GraphQLScalarType json = GraphQLScalarType.newScalar().name("JSON").coercing(Scalars.GraphQLString.getCoercing()).build();
		assertThat(ArgumentText.external("raw", List.of("98765432109876543210.12345"), json, false))
			.isEqualTo(new BigDecimal("98765432109876543210.12345"));
	}

	@Test
	void aListTakesTheParameterRepeated() {
		assertThat(ArgumentText.external("in", List.of("A", "B,C"), GraphQLList.list(GraphQLNonNull.nonNull(Scalars.GraphQLString)), false))
			.isEqualTo(List.of("A", "B,C"));
		assertThat(ArgumentText.external("between", List.of("1", "5"), GraphQLList.list(Scalars.GraphQLInt), false))
			.isEqualTo(List.of(1, 5));
	}

	@Test
	void aSingleOccurrenceSplitsAtCommasWhenAsked() {
		GraphQLList strings = GraphQLList.list(GraphQLNonNull.nonNull(Scalars.GraphQLString));
		assertThat(ArgumentText.external("in", List.of("A,B"), strings, true)).isEqualTo(List.of("A", "B"));
		assertThat(ArgumentText.external("in", List.of("A,B"), strings, false)).isEqualTo(List.of("A,B"));
		assertThat(ArgumentText.external("in", List.of(""), strings, true)).isEqualTo(List.of());
	}

	@Test
	void coercesAsAVariablesValue() {
		GraphQLEnumType order = GraphQLEnumType.newEnum().name("SortOrder").value("ASC").value("DESC").build();
		assertThat(ArgumentText.coerce("order", List.of("DESC"), order, false)).isEqualTo("DESC");
		assertThat(ArgumentText.coerce("year", List.of("1999"), GraphQLNonNull.nonNull(Scalars.GraphQLInt), false))
			.isEqualTo(1999);
		assertThatThrownBy(() -> ArgumentText.coerce("order", List.of("SIDEWAYS"), order, false))
			.isInstanceOf(InvalidArgumentException.class).hasMessageContaining("ASC");
	}

	@Test
	void refusesWhatIsNoValueOfTheType() {
		assertThatThrownBy(() -> ArgumentText.external("year", List.of("nineteen"), Scalars.GraphQLInt, false))
			.isInstanceOf(InvalidArgumentException.class).hasMessageContaining("`year`").hasMessageContaining("nineteen");
		assertThatThrownBy(() -> ArgumentText.external("year", List.of("3000000000"), Scalars.GraphQLInt, false))
			.isInstanceOf(InvalidArgumentException.class).hasMessageContaining("32-bit");
		assertThatThrownBy(() -> ArgumentText.external("min", List.of("1e400"), Scalars.GraphQLFloat, false))
			.isInstanceOf(InvalidArgumentException.class);
		assertThatThrownBy(() -> ArgumentText.external("min", List.of("NaN"), Scalars.GraphQLFloat, false))
			.isInstanceOf(InvalidArgumentException.class);
		assertThatThrownBy(() -> ArgumentText.external("gift", List.of("yes"), Scalars.GraphQLBoolean, false))
			.isInstanceOf(InvalidArgumentException.class);
		assertThatThrownBy(() -> ArgumentText.external("year", List.of("1", "2"), Scalars.GraphQLInt, false))
			.isInstanceOf(InvalidArgumentException.class).hasMessageContaining("once");
	}


}
