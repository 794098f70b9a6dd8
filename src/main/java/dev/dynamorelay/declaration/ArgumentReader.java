package dev.dynamorelay.declaration;

import java.util.List;
import java.util.Optional;

import graphql.language.Directive;
import graphql.language.InputValueDefinition;
import graphql.language.ListType;
import graphql.language.NonNullType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.declaration.DeclaredConnection.FilterArgument;
import dev.dynamorelay.declaration.DeclaredConnection.SortArgument;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyCondition;
import dev.dynamorelay.model.KeyTemplate;
import dev.dynamorelay.model.ValueType;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.UnsupportedCombination;
import dev.dynamorelay.schema.Problem.WrongType;
import dev.dynamorelay.schema.Problem;

import static dev.dynamorelay.declaration.Directives.enumValue;
import static dev.dynamorelay.declaration.Directives.string;
import static dev.dynamorelay.declaration.Directives.typeName;
import static dev.dynamorelay.declaration.Directives.unwrapNonNull;

/** Reads a connection's sort-key ({@code @sortKey}) and filter ({@code @filter}) arguments and checks them against what they compare. */
final class ArgumentReader {

	private final Reading reading;

	ArgumentReader(Reading reading) {
		this.reading = reading;
	}

	/** A {@code @sortKey} argument; null when it has a problem (reported). */
	SortArgument sortArgument(InputValueDefinition argument, Directive directive,
			Optional<KeyAttribute> sortKey, String prefix, List<Entity> nodes, String coordinates) {
		KeyCondition.Op op = KeyCondition.Op.valueOf(enumValue(directive, "op"));
		if (!conditionFits(argument, op, sortKey, prefix, coordinates)) {
			return null;
		}
		ValueType type = prefix.isEmpty() ? KeyValueReader.keyValueType(sortKey.get(), nodes) : prefixedType(prefix, nodes);
		if (!typeFits(argument, op, sortKey.get(), prefix, type, coordinates)) {
			return null;
		}
		return new SortArgument(argument.getName(), op, type);
	}

	/** Whether a key condition {@code op} can compare the sort key read (else its problem is reported). */
	private boolean conditionFits(InputValueDefinition argument, KeyCondition.Op op, Optional<KeyAttribute> sortKey,
			String prefix, String coordinates) {
		if (sortKey.isEmpty()) {
			this.reading.problem(argument, UnsupportedCombination::new,
					"`%s(%s:)` compares the sort key, but the table or index read has none."
				.formatted(coordinates, argument.getName()));
			return false;
		}
		boolean list = unwrapNonNull(argument.getType()) instanceof ListType;
		if ((op == KeyCondition.Op.BETWEEN) != list) {
			this.reading.problem(argument, WrongType::new, (op == KeyCondition.Op.BETWEEN)
					? "`%s(%s:)` is BETWEEN: declare it as a list of two values, e.g. `[String!]`."
						.formatted(coordinates, argument.getName())
					: "`%s(%s:)` takes one value; only BETWEEN takes a list.".formatted(coordinates, argument.getName()));
			return false;
		}
		if (op == KeyCondition.Op.BEGINS_WITH && sortKey.get().type() == ScalarAttributeType.N) {
			this.reading.problem(argument, UnsupportedCombination::new,
					"`%s(%s:)` is BEGINS_WITH, but sort key `%s` is a number."
				.formatted(coordinates, argument.getName(), sortKey.get().name()));
			return false;
		}
		if (!prefix.isEmpty() && op == KeyCondition.Op.LT) {
			this.reading.problem(argument, UnsupportedCombination::new,
					("`%s(%s:)` is LT on sort keys that start with `%s`: one key condition cannot say both; "
					+ "use LE, or BETWEEN.").formatted(coordinates, argument.getName(), prefix));
			return false;
		}
		return true;
	}

	/**
	 * Whether the argument's GraphQL type can be compared with the sort key stored as {@code type} (else its
	 * problem is reported).
	 */
	private boolean typeFits(InputValueDefinition argument, KeyCondition.Op op, KeyAttribute sortKey, String prefix,
			ValueType type, String coordinates) {
		if (!prefix.isEmpty() && type instanceof ValueType.Timestamp) {
			ValueType argumentType = this.reading.valueType(argument.getType(), argument);
			if (argumentType instanceof ValueType.ListOf listOf) {
				argumentType = listOf.element();
			}
			if (!(argumentType instanceof ValueType.Text)) {
				this.reading.problem(argument, WrongType::new,
						"`%s(%s:)` compares a timestamp in sort keys `%s...`: declare it as a `String` of ISO-8601 instants%s."
					.formatted(coordinates, argument.getName(), prefix, (op == KeyCondition.Op.BETWEEN) ? " (`[String!]`)" : ""));
				return false;
			}
		}
		if (prefix.isEmpty()) {
			ValueType argumentType = this.reading.valueType(argument.getType(), argument);
			// An argument of a plain scalar on a field that stores the key otherwise (a timestamp) converts.
			if (argumentType instanceof ValueType.ListOf listOf) {
				argumentType = listOf.element();
			}
			if (type instanceof ValueType.Timestamp && !(argumentType instanceof ValueType.Text)) {
				this.reading.problem(argument, WrongType::new,
						"`%s(%s:)` compares timestamp `%s`: declare it as a `String` of ISO-8601 instants%s."
					.formatted(coordinates, argument.getName(), sortKey.name(),
							(op == KeyCondition.Op.BETWEEN) ? " (`[String!]`)" : ""));
				return false;
			}
			if (argumentType != null && !(type instanceof ValueType.Timestamp)
					&& argumentType.keyType().isPresent() && !argumentType.keyType().equals(Optional.of(sortKey.type()))) {
				this.reading.problem(argument, WrongType::new,
						"`%s(%s:)` is `%s`, but sort key `%s` is %s: declare it as %s."
					.formatted(coordinates, argument.getName(), typeName(argument.getType()), sortKey.name(),
							sortKey.type(), switch (sortKey.type()) {
								case N -> "`Int`, `Long`, `Float` or `Decimal`";
								case B -> "`Bytes`";
								default -> "`String`";
							}));
				return false;
			}
		}
		return true;
	}

	/**
	 * How a sort-key argument is written after a prefix: as the field of the node type's sort template
	 * that follows the prefix (a timestamp stored as epoch milliseconds is compared as those digits), or
	 * as text.
	 */
	private static ValueType prefixedType(String prefix, List<Entity> nodes) {
		if (nodes.size() == 1 && nodes.get(0).sort().isPresent()) {
			KeyTemplate sort = nodes.get(0).sort().get();
			List<KeyTemplate.Part> parts = sort.parts();
			if (parts.size() >= 2 && parts.get(0).isConstant() && parts.get(0).text().equals(prefix)
					&& !parts.get(1).isConstant()) {
				AttributeField field = nodes.get(0).fields().get(parts.get(1).text());
				if (field != null) {
					return field.type();
				}
			}
		}
		return new ValueType.Text();
	}

	FilterArgument filterArgument(InputValueDefinition argument, Directive directive, List<Entity> nodes,
			String coordinates, List<KeyAttribute> readKeys) {
		String attribute = Optional.ofNullable(string(directive, "attribute")).orElse(argument.getName());
		String opName = enumValue(directive, "op");
		Filter.Op op = Filter.Op.valueOf(opName);
		Problem declared = declarationProblem(argument, op, attribute, coordinates, readKeys);
		if (declared != null) {
			this.reading.problem(declared);
			return null;
		}
		ValueType type = null;
		for (Entity node : nodes) {
			for (AttributeField field : node.fields().values()) {
				if (field.attribute().equals(attribute)) {
					type = field.type();
				}
			}
		}
		ValueType argumentType = this.reading.valueType(argument.getType(), argument);
		if (argumentType instanceof ValueType.ListOf listOf) {
			argumentType = listOf.element();
		}
		boolean listAttribute = type instanceof ValueType.ListOf;
		boolean declaredAttribute = type != null && !(type instanceof ValueType.Json);
		if (type instanceof ValueType.ListOf listOf) {
			if (op != Filter.Op.CONTAINS && op != Filter.Op.EXISTS) {
				this.reading.problem(argument, UnsupportedCombination::new,
						"`%s(%s:)` compares list attribute `%s`: only CONTAINS and EXISTS apply to a list."
					.formatted(coordinates, argument.getName(), attribute));
				return null;
			}
			type = listOf.element();
		}
		if (type instanceof ValueType.Timestamp && op != Filter.Op.EXISTS && !(argumentType instanceof ValueType.Text)) {
			this.reading.problem(argument, WrongType::new,
					"`%s(%s:)` compares timestamp `%s`: declare it as a `String` of ISO-8601 instants."
				.formatted(coordinates, argument.getName(), attribute));
			return null;
		}
		if (type == null || type instanceof ValueType.Json || (type instanceof ValueType.Text
				&& argumentType != null && !(argumentType instanceof ValueType.Text))) {
			type = (argumentType != null) ? argumentType : new ValueType.Text();
		}
		String fits = operandProblem(op, type, listAttribute, declaredAttribute);
		if (fits != null) {
			this.reading.problem(argument, UnsupportedCombination::new,
					"`%s(%s:)` is %s on `%s`, compared as %s: %s".formatted(coordinates, argument.getName(),
					op, attribute, describe(type), fits));
			return null;
		}
		return new FilterArgument(argument.getName(), attribute, op, type);
	}

	/** What is wrong with a filter argument's declaration itself (its attribute, its list-ness), if anything. */
	private static Problem declarationProblem(InputValueDefinition argument, Filter.Op op, String attribute,
			String coordinates, List<KeyAttribute> readKeys) {
		boolean list = unwrapNonNull(argument.getType()) instanceof ListType;
		Location at = Location.of(argument);
		if (readKeys.stream().anyMatch((key) -> key.name().equals(attribute))) {
			return new UnsupportedCombination(at, ("`%s(%s:)` filters on key attribute `%s`: DynamoDB refuses a filter "
					+ "on a key of a Query; compare the sort key with `@sortKey` instead.").formatted(coordinates,
							argument.getName(), attribute));
		}
		if ((op == Filter.Op.IN) != list) {
			return new WrongType(at, (op == Filter.Op.IN) ? "`%s(%s:)` is IN: declare it as a list, e.g. `[String!]`."
				.formatted(coordinates, argument.getName())
					: "`%s(%s:)` takes one value; only IN takes a list.".formatted(coordinates, argument.getName()));
		}
		if (op == Filter.Op.IN && !(((ListType) unwrapNonNull(argument.getType())).getType() instanceof NonNullType)) {
			return new WrongType(at, "`%s(%s:)` is IN: declare its values non-null, e.g. `[%s!]`; DynamoDB compares no "
				.formatted(coordinates, argument.getName(), typeName(argument.getType())) + "null.");
		}
		if (op == Filter.Op.EXISTS && !typeName(argument.getType()).equals("Boolean")) {
			return new WrongType(at, "`%s(%s:)` is EXISTS: declare it as a `Boolean` (true: exists, false: does not)."
				.formatted(coordinates, argument.getName()));
		}
		return null;
	}

	/**
	 * Why DynamoDB would refuse {@code op} on an operand of {@code type}, if it would: it refuses every read whose
	 * operand does not fit the operator (a 400, not an empty page).
	 */
	private static String operandProblem(Filter.Op op, ValueType type, boolean listAttribute, boolean declaredAttribute) {
		return switch (op) {
			case BEGINS_WITH -> (isString(type) || type instanceof ValueType.Binary) ? null
					: "BEGINS_WITH compares strings and bytes only.";
			case LT, LE, GT, GE -> type.keyType().isPresent() ? null
					: "LT, LE, GT and GE compare strings, numbers and bytes only.";
			// An attribute no field declares may be a list or set of any element.
			case CONTAINS -> (listAttribute || !declaredAttribute || isString(type)) ? null
					: "CONTAINS finds a substring of a string or an element of a list or set only.";
			default -> null;
		};
	}

	/** Values stored as strings (S): text, enums and ISO timestamps. */
	private static boolean isString(ValueType type) {
		return type instanceof ValueType.Text || type instanceof ValueType.Enumeration
				|| type instanceof ValueType.Timestamp timestamp && timestamp.format() == ValueType.Timestamp.Format.ISO;
	}

	/** What a value compares as, in a problem's words. */
	private static String describe(ValueType type) {
		if (type instanceof ValueType.Number) {
			return "a number";
		}
		if (type instanceof ValueType.Bool) {
			return "a boolean";
		}
		if (type instanceof ValueType.Binary) {
			return "bytes";
		}
		if (type instanceof ValueType.Timestamp timestamp) {
			return (timestamp.format() == ValueType.Timestamp.Format.ISO) ? "a timestamp stored as a string"
					: "a timestamp stored as a number";
		}
		if (type instanceof ValueType.ListOf) {
			return "a list";
		}
		return (type instanceof ValueType.Json) ? "JSON" : "a string";
	}

}
