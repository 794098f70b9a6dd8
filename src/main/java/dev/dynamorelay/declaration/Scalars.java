package dev.dynamorelay.declaration;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

import graphql.GraphQLContext;
import graphql.execution.CoercedVariables;
import graphql.language.ArrayValue;
import graphql.language.BooleanValue;
import graphql.language.FloatValue;
import graphql.language.IntValue;
import graphql.language.NullValue;
import graphql.language.ObjectValue;
import graphql.language.StringValue;
import graphql.language.Value;
import graphql.language.VariableReference;
import graphql.schema.Coercing;
import graphql.schema.CoercingParseLiteralException;
import graphql.schema.CoercingParseValueException;
import graphql.schema.CoercingSerializeException;
import graphql.schema.GraphQLScalarType;
import graphql.schema.idl.RuntimeWiring;

/**
 * The declaration language's scalars: {@code Long} (64-bit whole numbers), {@code Decimal} (exact
 * decimals as strings), {@code Bytes} (base64) and {@code JSON} (any attribute value); and GraphQL's
 * {@code Float}, whose inputs are kept as the decimals they were sent as.
 *
 * <p>Every number input reaches these scalars exact: JSON numbers of a request are read as
 * {@link BigDecimal}s, never through a double (the request mapper's
 * {@code USE_BIG_DECIMAL_FOR_FLOATS}), and literals are decimals already. A scalar keeps what it is given,
 * or refuses it with the value as sent; it never rounds.
 */
public final class Scalars {

	private Scalars() {
	}

	/** Every scalar of the declaration language. */
	public static List<GraphQLScalarType> all() {
		return List.of(LONG, DECIMAL, BYTES, JSON);
	}

	/** Wires the declaration language's scalars, and {@link #FLOAT} in place of graphql-java's {@code Float}. */
	public static void wire(RuntimeWiring.Builder wiring) {
		all().forEach(wiring::scalar);
		// A wiring is strict by default: it refuses a second scalar of a name, which is what replacing Float is.
		wiring.strictMode(false).scalar(FLOAT).strictMode(true);
	}

	/** The longest input shown in a refusal: a client's text, bounded. */
	private static final int SHOWN = 64;

	/**
	 * GraphQL's {@code Float}, served as a double (graphql-java's own serialization), taken as the exact
	 * decimal sent: {@code 98765432109876543210.12345} is that number, not the double nearest it, and
	 * {@code 0.1} is 0.1 (a double given by Java code counts by its shortest decimal form, so the same). A
	 * number outside a double's range is refused, with the number as sent.
	 */
	static final GraphQLScalarType FLOAT = GraphQLScalarType.newScalar(graphql.Scalars.GraphQLFloat)
		.coercing(new Coercing<BigDecimal, Double>() {

			@Override
			public Double serialize(Object value, GraphQLContext context, Locale locale) {
				return (Double) graphql.Scalars.GraphQLFloat.getCoercing().serialize(value, context, locale);
			}

			@Override
			public BigDecimal parseValue(Object input, GraphQLContext context, Locale locale) {
				if (!(input instanceof Number number)) {
					throw new CoercingParseValueException("Float takes a number, got " + shown(input));
				}
				BigDecimal decimal = exact(number);
				if (decimal == null || Double.isInfinite(decimal.doubleValue())) {
					throw new CoercingParseValueException(
							"Float takes a finite number within a double's range (about 1.8E308 either way), got " + shown(input));
				}
				return decimal;
			}

			@Override
			public BigDecimal parseLiteral(Value<?> input, CoercedVariables variables, GraphQLContext context,
					Locale locale) {
				BigDecimal decimal = (input instanceof IntValue value) ? new BigDecimal(value.getValue())
						: (input instanceof FloatValue value) ? value.getValue() : null;
				if (decimal == null) {
					throw new CoercingParseLiteralException("Float takes a number");
				}
				if (Double.isInfinite(decimal.doubleValue())) {
					throw new CoercingParseLiteralException(
							"Float takes a finite number within a double's range (about 1.8E308 either way), got " + shown(decimal));
				}
				return decimal;
			}

			@Override
			public Value<?> valueToLiteral(Object input, GraphQLContext context, Locale locale) {
				BigDecimal decimal = (input instanceof Number number) ? exact(number) : null;
				return FloatValue.newFloatValue((decimal != null) ? decimal : new BigDecimal(String.valueOf(input))).build();
			}

		})
		.build();

	/**
	 * The exact decimal of a number: a {@code double} (or {@code float}) by its shortest decimal form, since
	 * that is what was written to make it; {@code null} for one that is not finite.
	 */
	private static BigDecimal exact(Number number) {
		if (number instanceof BigDecimal decimal) {
			return decimal;
		}
		if (number instanceof BigInteger integer) {
			return new BigDecimal(integer);
		}
		if (number instanceof Integer || number instanceof Long || number instanceof Short || number instanceof Byte) {
			return BigDecimal.valueOf(number.longValue());
		}
		if (number instanceof Double || number instanceof Float) {
			double value = number.doubleValue();
			return Double.isFinite(value) ? new BigDecimal(Double.toString(value)) : null;
		}
		try {
			return new BigDecimal(number.toString());
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/** A client's input as a refusal shows it: a number in its exact decimal (scientific when large), text bounded. */
	private static String shown(Object input) {
		String text = (input instanceof BigDecimal decimal) ? decimal.toString() : String.valueOf(input);
		return (text.length() > SHOWN) ? text.substring(0, SHOWN) + "..." : text;
	}

	static final GraphQLScalarType LONG = GraphQLScalarType.newScalar()
		.name("Long")
		.coercing(new Coercing<Long, Long>() {

			@Override
			public Long serialize(Object value, GraphQLContext context, Locale locale) {
				if (value instanceof Number number) {
					return number.longValue();
				}
				throw new CoercingSerializeException("not a whole number: " + value);
			}

			@Override
			public Long parseValue(Object input, GraphQLContext context, Locale locale) {
				try {
					BigDecimal decimal = (input instanceof Number number) ? exact(number) : new BigDecimal(String.valueOf(input));
					if (decimal == null) {
						throw new NumberFormatException();
					}
					return decimal.longValueExact();
				}
				catch (ArithmeticException | NumberFormatException ex) {
					throw new CoercingParseValueException("Long takes a whole number of 64 bits, got " + shown(input));
				}
			}

			@Override
			public Long parseLiteral(Value<?> input, CoercedVariables variables, GraphQLContext context, Locale locale) {
				if (input instanceof IntValue value) {
					try {
						return value.getValue().longValueExact();
					}
					catch (ArithmeticException ex) {
						throw new CoercingParseLiteralException("Long takes a whole number of 64 bits");
					}
				}
				if (input instanceof StringValue value) {
					return parseValue(value.getValue(), context, locale);
				}
				throw new CoercingParseLiteralException("Long takes a whole number");
			}

		})
		.build();

	static final GraphQLScalarType DECIMAL = GraphQLScalarType.newScalar()
		.name("Decimal")
		.coercing(new Coercing<BigDecimal, String>() {

			@Override
			public String serialize(Object value, GraphQLContext context, Locale locale) {
				if (value instanceof BigDecimal decimal) {
					return decimal.toPlainString();
				}
				if (value instanceof String || value instanceof Number) {
					return String.valueOf(value);
				}
				throw new CoercingSerializeException("not a decimal: " + value);
			}

			@Override
			public BigDecimal parseValue(Object input, GraphQLContext context, Locale locale) {
				try {
					BigDecimal decimal = (input instanceof Number number) ? exact(number)
							: new BigDecimal(String.valueOf(input).trim());
					if (decimal == null) {
						throw new NumberFormatException();
					}
					return decimal;
				}
				catch (NumberFormatException ex) {
					throw new CoercingParseValueException(
							"Decimal takes a decimal number such as \"12.50\" or 12.50, got " + shown(input));
				}
			}

			@Override
			public BigDecimal parseLiteral(Value<?> input, CoercedVariables variables, GraphQLContext context,
					Locale locale) {
				if (input instanceof StringValue value) {
					return parseValue(value.getValue(), context, locale);
				}
				if (input instanceof IntValue value) {
					return new BigDecimal(value.getValue());
				}
				if (input instanceof FloatValue value) {
					return value.getValue();
				}
				throw new CoercingParseLiteralException("Decimal takes a decimal number such as \"12.50\"");
			}

		})
		.build();

	static final GraphQLScalarType BYTES = GraphQLScalarType.newScalar()
		.name("Bytes")
		.coercing(new Coercing<String, String>() {

			@Override
			public String serialize(Object value, GraphQLContext context, Locale locale) {
				return String.valueOf(value);
			}

			@Override
			public String parseValue(Object input, GraphQLContext context, Locale locale) {
				String text = String.valueOf(input);
				try {
					Base64.getDecoder().decode(text);
					return text;
				}
				catch (IllegalArgumentException ex) {
					throw new CoercingParseValueException("Bytes takes base64, got " + text);
				}
			}

			@Override
			public String parseLiteral(Value<?> input, CoercedVariables variables, GraphQLContext context, Locale locale) {
				if (input instanceof StringValue value) {
					return parseValue(value.getValue(), context, locale);
				}
				throw new CoercingParseLiteralException("Bytes takes a base64 string");
			}

		})
		.build();

	static final GraphQLScalarType JSON = GraphQLScalarType.newScalar()
		.name("JSON")
		.coercing(new Coercing<Object, Object>() {

			@Override
			public Object serialize(Object value, GraphQLContext context, Locale locale) {
				return value;
			}

			@Override
			public Object parseValue(Object input, GraphQLContext context, Locale locale) {
				return input;
			}

			@Override
			public Object parseLiteral(Value<?> input, CoercedVariables variables, GraphQLContext context, Locale locale) {
				return literal(input, variables);
			}

		})
		.build();

	/**
	 * A scalar that the schema files declare and nothing else wires: values are served and taken as they
	 * are, as strings, numbers or booleans (a custom scalar stored as S or N reads as a string).
	 */
	public static GraphQLScalarType passThrough(String name) {
		return GraphQLScalarType.newScalar().name(name).coercing(new Coercing<Object, Object>() {

			@Override
			public Object serialize(Object value, GraphQLContext context, Locale locale) {
				if (value instanceof String || value instanceof Number || value instanceof Boolean) {
					return value;
				}
				throw new CoercingSerializeException("%s serves a string, number or boolean, not %s".formatted(name,
						value.getClass().getSimpleName()));
			}

			@Override
			public Object parseValue(Object input, GraphQLContext context, Locale locale) {
				if (input instanceof String || input instanceof Number || input instanceof Boolean) {
					return input;
				}
				throw new CoercingParseValueException("%s takes a string, number or boolean".formatted(name));
			}

			@Override
			public Object parseLiteral(Value<?> input, CoercedVariables variables, GraphQLContext context, Locale locale) {
				if (input instanceof StringValue value) {
					return value.getValue();
				}
				if (input instanceof IntValue value) {
					return value.getValue();
				}
				if (input instanceof FloatValue value) {
					return value.getValue();
				}
				if (input instanceof BooleanValue value) {
					return value.isValue();
				}
				throw new CoercingParseLiteralException("%s takes a string, number or boolean".formatted(name));
			}

		}).build();
	}

	private static Object literal(Value<?> input, CoercedVariables variables) {
		if (input instanceof StringValue value) {
			return value.getValue();
		}
		if (input instanceof IntValue value) {
			BigInteger integer = value.getValue();
			return new BigDecimal(integer);
		}
		if (input instanceof FloatValue value) {
			return value.getValue();
		}
		if (input instanceof BooleanValue value) {
			return value.isValue();
		}
		if (input instanceof NullValue) {
			return null;
		}
		if (input instanceof VariableReference reference) {
			return variables.get(reference.getName());
		}
		if (input instanceof ArrayValue array) {
			return array.getValues().stream().map((each) -> literal(each, variables)).toList();
		}
		if (input instanceof ObjectValue object) {
			java.util.Map<String, Object> map = new java.util.LinkedHashMap<>();
			object.getObjectFields().forEach((field) -> map.put(field.getName(), literal(field.getValue(), variables)));
			return map;
		}
		throw new CoercingParseLiteralException("not a JSON value");
	}

}
