package dev.dynamorelay.write;

import java.util.List;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.DeclaredMutation.Condition;
import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Shape;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Filter;

/**
 * The conditions a write puts on its stored item: the owner (when a condition checks it), the version the client
 * expects, the client's {@code @condition} values and the field's own conditions.
 */
final class Conditions {

	private Conditions() {
	}

	/**
	 * Adds the conditions on the stored item to {@code expressions}.
	 * @return the expected version, if the client gave one
	 */
	static Optional<Long> add(DeclaredMutation mutation, InputObject input, Optional<Ownership> owned,
			Expressions expressions) {
		Entity entity = mutation.entity();
		owned.ifPresent((ownership) -> expressions.condition(new Filter(ownership.field().attribute(), Filter.Op.EQ,
				List.of(AttributeValue.fromS(ownership.identity())))));
		Optional<Long> expected = Optional.empty();
		Shape shape = mutation.input().shape();
		for (InputField.ExpectedVersion field : shape.all(InputField.ExpectedVersion.class)) {
			Object value = input.get(field.name());
			if (value instanceof Number number) {
				if (number.longValue() < 0) {
					throw new InvalidArgumentException("`%s` must not be negative.".formatted(input.path(field.name())));
				}
				expected = Optional.of(number.longValue());
				expressions.version(entity.version().orElseThrow().attribute(), number.longValue());
			}
		}
		for (InputField.Conditional field : shape.all(InputField.Conditional.class)) {
			Object value = input.get(field.name());
			if (value != null) {
				expressions.condition(filter(field.condition(), value, input.path(field.name())));
			}
		}
		for (Condition condition : mutation.conditions()) {
			expressions.condition(filter(condition, condition.value().orElseThrow(), mutation.name()));
		}
		return expected;
	}

	/** A condition with its value, as a filter of the read side compares it. */
	static Filter filter(Condition condition, Object value, String path) {
		if (condition.op() == Filter.Op.EXISTS) {
			return new Filter(condition.attribute(), Boolean.TRUE.equals(value) ? Filter.Op.EXISTS : Filter.Op.NOT_EXISTS,
					List.of());
		}
		if (condition.op() == Filter.Op.IN) {
			List<?> values = (List<?>) value;
			if (values.isEmpty() || values.size() > Filter.MAX_IN) {
				throw new InvalidArgumentException("`%s` takes 1 to %d values, got %d.".formatted(path, Filter.MAX_IN,
						values.size()));
			}
			return new Filter(condition.attribute(), Filter.Op.IN,
					values.stream().map((each) -> condition.type().write(path, each)).toList());
		}
		return new Filter(condition.attribute(), condition.op(), List.of(condition.type().write(path, value)));
	}

}
