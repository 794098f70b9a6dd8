package dev.dynamorelay.declaration;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import graphql.language.Argument;
import graphql.language.ArrayValue;
import graphql.language.BooleanValue;
import graphql.language.Directive;
import graphql.language.NullValue;
import graphql.language.ObjectValue;
import graphql.language.StringValue;
import graphql.language.Value;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.model.DynamoDbNumbers;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.ValueType;
import dev.dynamorelay.schema.Problem.IndexMistake;
import dev.dynamorelay.schema.Problem.InvalidValue;

import static dev.dynamorelay.declaration.Directives.string;

/**
 * Reads the {@code when} of an {@code @indexKey}: which items of a type belong in the index, as conditions on
 * their fields' stored values, each checked against the type's fields at start.
 */
final class IndexMembershipReader {

	private final Reading reading;

	IndexMembershipReader(Reading reading) {
		this.reading = reading;
	}

	/**
	 * The conditions of an {@code @indexKey(when:)}, each on a field of the type with values of its type; null
	 * (and a problem at each wrong condition) when one is wrong.
	 */
	List<Entity.Membership> when(String typeName, Map<String, AttributeField> fields, Directive directive) {
		Argument argument = directive.getArgument("when");
		if (argument == null || argument.getValue() instanceof NullValue) {
			return List.of();
		}
		List<Value> written = (argument.getValue() instanceof ArrayValue array) ? array.getValues()
				: List.of(argument.getValue());
		String index = string(directive, "index");
		List<Entity.Membership> when = new ArrayList<>();
		boolean ok = true;
		for (Value<?> each : written) {
			if (!(each instanceof ObjectValue object)) {
				this.reading.problem(directive, InvalidValue::new,
						("`@indexKey(when:)` of `%s` takes objects such as `{field: \"status\", "
						+ "in: [\"open\"]}`.").formatted(typeName));
				ok = false;
				continue;
			}
			Entity.Membership condition = membership(typeName, fields, index, object);
			ok &= condition != null;
			when.add(condition);
		}
		return ok ? when : null;
	}

	/** One condition of {@code @indexKey(when:)}, or null (and a problem at it) when it is wrong. */
	private Entity.Membership membership(String typeName, Map<String, AttributeField> fields, String index,
			ObjectValue object) {
		Map<String, Value<?>> given = new LinkedHashMap<>();
		object.getObjectFields().forEach((each) -> given.put(each.getName(), each.getValue()));
		given.values().removeIf(NullValue.class::isInstance);
		String name = (given.get("field") instanceof StringValue named) ? named.getValue() : null;
		AttributeField field = (name != null) ? fields.get(name) : null;
		if (field == null) {
			this.reading.problem(object, IndexMistake::new,
					"`@indexKey` of `%s` for index `%s` has a `when` condition on `%s`, which is no "
				.formatted(typeName, index, name) + "field of `%s`.".formatted(typeName));
			return null;
		}
		if (!given.containsKey("in") && !given.containsKey("notIn") && !given.containsKey("exists")) {
			this.reading.problem(object, IndexMistake::new,
					("`@indexKey` of `%s` for index `%s`: `when` on `%s` gives no `in`, `notIn` or "
					+ "`exists`: say which values put an item in the index.").formatted(typeName, index, name));
			return null;
		}
		Optional<List<AttributeValue>> in = values(typeName, index, field,
				object, given.get("in"), "in");
		Optional<List<AttributeValue>> notIn = values(typeName, index, field,
				object, given.get("notIn"), "notIn");
		if ((given.containsKey("in") && in.isEmpty()) || (given.containsKey("notIn") && notIn.isEmpty())) {
			return null;
		}
		Optional<Boolean> exists = (given.get("exists") instanceof BooleanValue bool) ? Optional.of(bool.isValue())
				: Optional.empty();
		return new Entity.Membership(name, in, notIn, exists);
	}

	/**
	 * The values of a condition's {@code in} or {@code notIn}, each as the field stores it; empty (and a problem)
	 * when one does not fit the field's type, or when none is given.
	 */
	private Optional<List<AttributeValue>> values(String typeName, String index, AttributeField field, ObjectValue at,
			Value<?> written, String which) {
		if (written == null) {
			return Optional.empty();
		}
		String where = "`@indexKey` of `%s` for index `%s`: `when` on `%s`".formatted(typeName, index, field.name());
		List<Value> each = (written instanceof ArrayValue array) ? array.getValues() : List.of(written);
		if (each.isEmpty()) {
			this.reading.problem(at, InvalidValue::new,
					"%s has an empty `%s`: give at least one value.".formatted(where, which));
			return Optional.empty();
		}
		List<AttributeValue> values = new ArrayList<>();
		for (Value<?> value : each) {
			String text = (value instanceof StringValue string) ? string.getValue() : null;
			AttributeValue stored = (text != null)
					? stored(field.type(), text) : null;
			if (stored == null) {
				this.reading.problem(at, InvalidValue::new, "%s: `%s` %s.".formatted(where, (text != null) ? text : value,
						fits(field.type())));
				return Optional.empty();
			}
			values.add(stored);
		}
		return Optional.of(List.copyOf(values));
	}

	/** A condition's value as a field of {@code type} stores it, or null when it is none of the type's values. */
	private static AttributeValue stored(ValueType type, String text) {
		if (type instanceof ValueType.Text) {
			return AttributeValue.fromS(text);
		}
		if (type instanceof ValueType.Enumeration enumeration) {
			return enumeration.values().contains(text) ? AttributeValue.fromS(text) : null;
		}
		if (type instanceof ValueType.Number) {
			try {
				java.math.BigDecimal decimal = new java.math.BigDecimal(text.trim());
				if (DynamoDbNumbers.refusal(decimal).isPresent()) {
					return null;
				}
				java.math.BigDecimal stripped = decimal.stripTrailingZeros();
				return AttributeValue.fromN((stripped.signum() == 0) ? "0" : stripped.toPlainString());
			}
			catch (NumberFormatException ex) {
				return null;
			}
		}
		if (type instanceof ValueType.Bool) {
			return switch (text) {
				case "true" -> AttributeValue.fromBool(true);
				case "false" -> AttributeValue.fromBool(false);
				default -> null;
			};
		}
		return null;
	}

	/** What a condition's value must be for a field of {@code type}, for a problem's message. */
	private static String fits(ValueType type) {
		if (type instanceof ValueType.Enumeration enumeration) {
			return "is no value of the field's enum (%s)".formatted(String.join(", ", new java.util.TreeSet<>(enumeration.values())));
		}
		if (type instanceof ValueType.Number) {
			return "is no number DynamoDB stores: write a number as a string, e.g. `\"3\"`";
		}
		if (type instanceof ValueType.Bool) {
			return "is no boolean: write `\"true\"` or `\"false\"`";
		}
		return "cannot be compared: `in` and `notIn` take values of String, ID, enum, number and Boolean fields; "
				+ "use `exists` for this one";
	}

}
