package dev.dynamorelay.declaration;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import graphql.GraphQLContext;
import graphql.GraphQLException;
import graphql.execution.ValuesResolver;
import graphql.schema.GraphQLEnumType;
import graphql.schema.GraphQLEnumValueDefinition;
import graphql.schema.GraphQLInputType;
import graphql.schema.GraphQLList;
import graphql.schema.GraphQLNamedType;
import graphql.schema.GraphQLType;
import graphql.schema.GraphQLTypeUtil;
import graphql.schema.InputValueWithState;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.error.InvalidArgumentException;

/**
 * Arguments given as text (the REST view's URL parameters, the export's {@code --arg}s), read by the
 * argument's GraphQL type as a JSON client would send them: {@code Int}/{@code Long} as integers,
 * {@code Float} as numbers (exact decimals, as the server reads a JSON client's numbers), {@code Boolean} as {@code true}/{@code false}, {@code JSON} as JSON (or the
 * text itself), an enum as one of its values, everything else ({@code String}, {@code ID},
 * {@code Decimal}, {@code Bytes}) as the text, which the type's own coercion then checks. A list takes
 * the parameter repeated, each occurrence an element, and optionally a single occurrence split at its
 * commas.
 */
public final class ArgumentText {

	/** Reads a {@code JSON} argument's numbers as decimals, never through a double, as the request mapper does. */
	private static final JsonMapper JSON = JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

	private ArgumentText() {
	}

	/**
	 * The JSON value of {@code values} (the parameter's occurrences) for an argument of {@code type}: a
	 * GraphQL variable's value.
	 * @param commas whether a single occurrence of a list parameter is split at its commas
	 * @throws InvalidArgumentException when a text is no value of the type, or a single-valued parameter repeats
	 */
	public static Object external(String name, List<String> values, GraphQLInputType type, boolean commas) {
		GraphQLType bare = GraphQLTypeUtil.unwrapNonNull(type);
		if (bare instanceof GraphQLList list) {
			List<String> parts = (commas && values.size() == 1)
					? (values.get(0).isEmpty() ? List.of() : List.of(values.get(0).split(",", -1))) : values;
			GraphQLType element = GraphQLTypeUtil.unwrapNonNull(list.getWrappedType());
			List<Object> converted = new ArrayList<>(parts.size());
			for (String part : parts) {
				converted.add(scalar(name, part, element));
			}
			return converted;
		}
		if (values.size() != 1) {
			throw new InvalidArgumentException("Pass `%s` once: it takes one value (%s), got %d."
				.formatted(name, GraphQLTypeUtil.simplePrint(type), values.size()));
		}
		return scalar(name, values.get(0), bare);
	}

	/**
	 * The value GraphQL hands a data fetcher for {@code values}: {@link #external}, then coerced as a
	 * variable's value is, by the type's own scalar or enum.
	 * @throws InvalidArgumentException when a text is no value of the type
	 */
	public static Object coerce(String name, List<String> values, GraphQLInputType type, boolean commas) {
		Object external = external(name, values, type, commas);
		try {
			return ValuesResolver.valueToInternalValue(InputValueWithState.newExternalValue(external), type,
					GraphQLContext.getDefault(), Locale.ROOT);
		}
		catch (GraphQLException | IllegalArgumentException ex) {
			throw new InvalidArgumentException("`%s` is no %s (`%s`): %s".formatted(name, GraphQLTypeUtil.simplePrint(type),
					String.join(",", values), ex.getMessage()));
		}
	}

	private static Object scalar(String name, String text, GraphQLType type) {
		if (type instanceof GraphQLEnumType enumeration) {
			if (enumeration.getValue(text) == null) {
				throw new InvalidArgumentException("`%s` must be one of %s, got `%s`.".formatted(name,
						enumeration.getValues().stream().map(GraphQLEnumValueDefinition::getName).toList(), text));
			}
			return text;
		}
		String typeName = ((GraphQLNamedType) type).getName();
		return switch (typeName) {
			case "Int" -> {
				long value = integer(name, text, typeName);
				if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
					throw new InvalidArgumentException("`%s` must be a 32-bit integer, got `%s`.".formatted(name, text));
				}
				yield (int) value;
			}
			case "Long" -> integer(name, text, typeName);
			case "Float" -> {
				// The decimal as written, as a JSON client's number reaches the scalar: never through a double.
				BigDecimal value;
				try {
					value = new BigDecimal(text.trim());
				}
				catch (NumberFormatException ex) {
					throw new InvalidArgumentException("`%s` must be a number, got `%s`.".formatted(name, text));
				}
				if (Double.isInfinite(value.doubleValue())) {
					throw new InvalidArgumentException(("`%s` must be a number within a Float's range (about 1.8E308 "
							+ "either way), got `%s`.").formatted(name, text));
				}
				yield value;
			}
			case "Boolean" -> switch (text) {
				case "true" -> true;
				case "false" -> false;
				default -> throw new InvalidArgumentException("`%s` must be `true` or `false`, got `%s`.".formatted(name, text));
			};
			case "JSON" -> {
				try {
					yield JSON.readValue(text, Object.class);
				}
				catch (RuntimeException ex) {
					yield text;
				}
			}
			default -> text;
		};
	}

	private static long integer(String name, String text, String typeName) {
		try {
			return Long.parseLong(text.trim());
		}
		catch (NumberFormatException ex) {
			throw new InvalidArgumentException("`%s` must be an integer (%s), got `%s`.".formatted(name, typeName, text));
		}
	}

}
