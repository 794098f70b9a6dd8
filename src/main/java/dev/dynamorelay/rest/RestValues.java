package dev.dynamorelay.rest;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import graphql.schema.GraphQLEnumType;
import graphql.schema.GraphQLInputType;
import graphql.schema.GraphQLList;
import graphql.schema.GraphQLNamedType;
import graphql.schema.GraphQLTypeUtil;

import dev.dynamorelay.error.InvalidArgumentException;

/**
 * Turns the text of URL parameters into GraphQL variable values of the argument's type, as a JSON
 * client would send them: {@code Int}/{@code Long} as integers, {@code Float} as numbers, {@code Boolean}
 * as {@code true}/{@code false}, everything else (strings, ids, enum values, {@code Decimal},
 * {@code Bytes}) as the text itself, which the type's own coercion then checks. A list takes the
 * parameter repeated ({@code ?status=A&status=B}).
 */
final class RestValues {

	private RestValues() {
	}

	/**
	 * The variable value of {@code values} (the parameter's occurrences) for an argument of {@code type}.
	 * @throws InvalidArgumentException when the text is no value of the type, or a single-valued parameter repeats
	 */
	static Object variable(String name, List<String> values, GraphQLInputType type) {
		GraphQLInputType nullable = (GraphQLInputType) GraphQLTypeUtil.unwrapNonNull(type);
		if (nullable instanceof GraphQLList list) {
			GraphQLInputType element = (GraphQLInputType) list.getWrappedType();
			List<Object> converted = new ArrayList<>(values.size());
			for (String value : values) {
				converted.add(variable(name, List.of(value), element));
			}
			return converted;
		}
		if (values.size() != 1) {
			throw new InvalidArgumentException("Pass `%s` once: it takes one value, got %d.".formatted(name, values.size()));
		}
		return scalar(name, values.get(0), nullable);
	}

	private static Object scalar(String name, String text, GraphQLInputType type) {
		if (type instanceof GraphQLEnumType) {
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
				try {
					double value = new BigDecimal(text.trim()).doubleValue();
					if (Double.isInfinite(value)) {
						throw new NumberFormatException();
					}
					yield value;
				}
				catch (NumberFormatException ex) {
					throw new InvalidArgumentException("`%s` must be a number, got `%s`.".formatted(name, text));
				}
			}
			case "Boolean" -> switch (text) {
				case "true" -> true;
				case "false" -> false;
				default -> throw new InvalidArgumentException("`%s` must be `true` or `false`, got `%s`.".formatted(name, text));
			};
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
