package dev.dynamorelay.write;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.DeclaredMutation.Constraint;
import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.model.ValueType;

/**
 * One input object of a mutation (or the field's arguments), as the client gave it: what the write engine
 * reads its stored values, its item's key and its conditions from. The transport builds it once from the
 * field's arguments.
 *
 * @param where how the client names this input (e.g. {@code input}, {@code input[2]}, {@code input.lines[0]});
 * empty for the field's arguments
 * @param values the input's fields as given, by name: a field left out is absent, one given null maps to null;
 * each value as GraphQL coerced it (a {@code String}, a number, a {@code Boolean}, a list of them)
 * @param children the input objects of each {@code @children} list field given, by the field's name
 */
public record InputObject(String where, Map<String, Object> values, Map<String, List<InputObject>> children) {

	public InputObject {
		// A field given null is told apart from one left out: the copy keeps null values.
		values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
		children = Map.copyOf(children);
	}

	/** An input object without children. */
	public InputObject(String where, Map<String, Object> values) {
		this(where, values, Map.of());
	}

	/** Whether the client gave the field at all (null included). */
	boolean given(String name) {
		return this.values.containsKey(name);
	}

	/** The field's value, null when left out or null. */
	Object get(String name) {
		return this.values.get(name);
	}

	/** The client's name of a field of this input, for messages. */
	String path(String name) {
		return this.where.isEmpty() ? name : this.where + "." + name;
	}

	/** A field's value as the target field stores it, with its bounds checked; null for null. */
	AttributeValue stored(InputField.Value field) {
		Object value = get(field.name());
		if (value == null) {
			return null;
		}
		check(field.constraint(), path(field.name()), value);
		return write(field.target().type(), path(field.name()), value);
	}

	/** {@code value} written as {@code type} stores it (a list as a list of its elements). */
	static AttributeValue write(ValueType type, String path, Object value) {
		if (type instanceof ValueType.ListOf list && value instanceof List<?> elements) {
			List<AttributeValue> written = new ArrayList<>(elements.size());
			for (int i = 0; i < elements.size(); i++) {
				Object element = elements.get(i);
				written.add((element != null) ? write(list.element(), path + "[" + i + "]", element)
						: AttributeValue.fromNul(true));
			}
			return AttributeValue.fromL(written);
		}
		if (type instanceof ValueType.Timestamp && value instanceof String text
				&& ValueType.Timestamp.parse(path, text).getNano() % 1_000_000 != 0) {
			// A stored time is milliseconds: a finer one would be cut without a word.
			throw new InvalidArgumentException("`%s` has more than millisecond precision: `%s`.".formatted(path, text));
		}
		return type.write(path, value);
	}

	private static void check(Constraint constraint, String path, Object value) {
		if (value instanceof String text) {
			if (constraint.notBlank() && text.isBlank()) {
				throw new InvalidArgumentException("`%s` must not be blank.".formatted(path));
			}
			if (constraint.maxBytes().isPresent() && text.getBytes(StandardCharsets.UTF_8).length > constraint.maxBytes().get()) {
				throw new InvalidArgumentException("`%s` is longer than %d UTF-8 bytes.".formatted(path,
						constraint.maxBytes().get()));
			}
		}
		if (value instanceof Number number && (constraint.min().isPresent() || constraint.max().isPresent())) {
			BigDecimal decimal = new BigDecimal(number.toString());
			if (constraint.min().isPresent() && decimal.compareTo(BigDecimal.valueOf(constraint.min().get())) < 0) {
				throw new InvalidArgumentException("`%s` must be at least %s.".formatted(path, constraint.min().get()));
			}
			if (constraint.max().isPresent() && decimal.compareTo(BigDecimal.valueOf(constraint.max().get())) > 0) {
				throw new InvalidArgumentException("`%s` must be at most %s.".formatted(path, constraint.max().get()));
			}
		}
	}

	/** The idempotency key of a write: 1 to 36 characters, as DynamoDB's {@code ClientRequestToken} takes. */
	static Optional<String> token(Object value, String path) {
		if (value == null) {
			return Optional.empty();
		}
		String token = value.toString();
		if (token.isEmpty() || token.length() > 36) {
			throw new InvalidArgumentException("`%s` must be 1 to 36 characters long, got %d.".formatted(path, token.length()));
		}
		return Optional.of(token);
	}

	/** A {@code @children} field's input objects, each with its place named; none when the field is left out. */
	List<InputObject> children(String name) {
		return this.children.getOrDefault(name, List.of());
	}

	/** The items this input writes when created: itself, and each of its children's. */
	int items() {
		return 1 + this.children.values().stream().flatMap(List::stream).mapToInt(InputObject::items).sum();
	}

}
