package dev.dynamorelay.declaration;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;

import graphql.GraphQLContext;
import graphql.execution.CoercedVariables;
import graphql.language.FloatValue;
import graphql.language.IntValue;
import graphql.language.StringValue;
import graphql.schema.Coercing;
import graphql.schema.CoercingParseLiteralException;
import graphql.schema.CoercingParseValueException;
import graphql.schema.GraphQLScalarType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The number scalars keep every input exactly as sent (a JSON number reaches them as a {@link BigDecimal}), or
 * refuse it with the value as sent; {@code Float} still serves doubles.
 */
class ScalarsTest {

	private static final String DIGITS_25 = "98765432109876543210.12345";

	private static final String DIGITS_38 = "1234567890123456789012345678901234.5678";

	private static final GraphQLContext CONTEXT = GraphQLContext.getDefault();

	@Test
	void aFloatInputIsTheDecimalSent() {
		for (String text : new String[] { DIGITS_25, DIGITS_38, "0.1", "1E+125" }) {
			assertThat(parseValue(Scalars.FLOAT, new BigDecimal(text))).isEqualTo(new BigDecimal(text));
			assertThat(parseLiteral(Scalars.FLOAT, new FloatValue(new BigDecimal(text)))).isEqualTo(new BigDecimal(text));
		}
		// What Java code passes: a double by its shortest decimal, whole numbers exactly.
		assertThat(parseValue(Scalars.FLOAT, 0.1)).isEqualTo(new BigDecimal("0.1"));
		assertThat(parseValue(Scalars.FLOAT, 7)).isEqualTo(new BigDecimal(7));
		assertThat(parseValue(Scalars.FLOAT, new BigInteger("123456789012345678901234567")))
			.isEqualTo(new BigDecimal("123456789012345678901234567"));
		assertThat(parseLiteral(Scalars.FLOAT, new IntValue(new BigInteger("123456789012345678901234567"))))
			.isEqualTo(new BigDecimal("123456789012345678901234567"));
	}

	@Test
	void aFloatOutsideADoublesRangeIsRefusedWithTheNumberSent() {
		assertThatThrownBy(() -> parseValue(Scalars.FLOAT, new BigDecimal("1e400")))
			.isInstanceOf(CoercingParseValueException.class).hasMessageContaining("1E+400").hasMessageNotContaining("Infinity");
		assertThatThrownBy(() -> parseLiteral(Scalars.FLOAT, new FloatValue(new BigDecimal("-1e400"))))
			.isInstanceOf(CoercingParseLiteralException.class).hasMessageContaining("-1E+400");
		assertThatThrownBy(() -> parseValue(Scalars.FLOAT, Double.POSITIVE_INFINITY))
			.isInstanceOf(CoercingParseValueException.class);
		assertThatThrownBy(() -> parseValue(Scalars.FLOAT, "12.5")).isInstanceOf(CoercingParseValueException.class);
		assertThatThrownBy(() -> parseLiteral(Scalars.FLOAT, new StringValue("12.5")))
			.isInstanceOf(CoercingParseLiteralException.class);
	}

	@Test
	void aFloatIsServedAsADouble() {
		assertThat(Scalars.FLOAT.getCoercing().serialize(new BigDecimal(DIGITS_25), CONTEXT, Locale.ROOT))
			.isEqualTo(9.876543210987654E19);
		assertThat(Scalars.FLOAT.getCoercing().serialize(0.1, CONTEXT, Locale.ROOT)).isEqualTo(0.1);
	}

	@Test
	void aDecimalInputIsTheDecimalSent() {
		for (String text : new String[] { DIGITS_25, DIGITS_38, "1E+400" }) {
			assertThat(parseValue(Scalars.DECIMAL, new BigDecimal(text))).isEqualTo(new BigDecimal(text));
			assertThat(parseValue(Scalars.DECIMAL, text)).isEqualTo(new BigDecimal(text));
		}
		assertThatThrownBy(() -> parseValue(Scalars.DECIMAL, Double.POSITIVE_INFINITY))
			.isInstanceOf(CoercingParseValueException.class);
	}

	@Test
	void aLongInputIsWholeOrRefused() {
		assertThat(parseValue(Scalars.LONG, new BigDecimal("9007199254740993"))).isEqualTo(9007199254740993L);
		assertThat(parseValue(Scalars.LONG, new BigDecimal("5.0"))).isEqualTo(5L);
		assertThatThrownBy(() -> parseValue(Scalars.LONG, new BigDecimal("9007199254740993.5")))
			.isInstanceOf(CoercingParseValueException.class).hasMessageContaining("9007199254740993.5");
		assertThatThrownBy(() -> parseValue(Scalars.LONG, new BigDecimal("1e400")))
			.isInstanceOf(CoercingParseValueException.class).hasMessageContaining("1E+400");
	}

	private static Object parseValue(GraphQLScalarType scalar, Object input) {
		return ((Coercing<?, ?>) scalar.getCoercing()).parseValue(input, CONTEXT, Locale.ROOT);
	}

	private static Object parseLiteral(GraphQLScalarType scalar, graphql.language.Value<?> input) {
		return ((Coercing<?, ?>) scalar.getCoercing()).parseLiteral(input, CoercedVariables.emptyVariables(), CONTEXT,
				Locale.ROOT);
	}

}
