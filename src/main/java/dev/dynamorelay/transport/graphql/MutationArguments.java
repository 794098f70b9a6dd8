package dev.dynamorelay.transport.graphql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Shape;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.write.InputObject;
import dev.dynamorelay.write.MutationInput;

/**
 * Reads a declared mutation field's arguments, as graphql-java coerced them, into the write engine's typed input,
 * once: the input object (or each item of a list input, or the arguments themselves) with its place named, its
 * {@code @children} lists as input objects of their own, and the idempotency key given beside the input.
 */
final class MutationArguments {

	private MutationArguments() {
	}

	/** The input of one call of {@code mutation} with {@code arguments}. */
	static MutationInput input(DeclaredMutation mutation, Map<String, Object> arguments) {
		DeclaredMutation.Input input = mutation.input();
		Optional<String> idempotencyKey = input.idempotencyArgument()
			.map(arguments::get)
			.map(Object::toString);
		if (input.argument().isEmpty()) {
			return new MutationInput(List.of(object(arguments, "", input.shape())), idempotencyKey);
		}
		String name = input.argument().get();
		Object value = arguments.get(name);
		if (!input.many()) {
			return new MutationInput(List.of(object(value, name, input.shape())), idempotencyKey);
		}
		return new MutationInput(objects(value, name, input.shape()), idempotencyKey);
	}

	/** The input objects of a list, each named by its place ({@code input[2]}). */
	private static List<InputObject> objects(Object value, String where, Shape shape) {
		if (!(value instanceof List<?> items)) {
			return List.of();
		}
		List<InputObject> objects = new ArrayList<>(items.size());
		for (int i = 0; i < items.size(); i++) {
			objects.add(object(items.get(i), where + "[" + i + "]", shape));
		}
		return objects;
	}

	/** One input object: its fields as given, its {@code @children} lists read as input objects. */
	private static InputObject object(Object value, String where, Shape shape) {
		Map<String, Object> values = new LinkedHashMap<>();
		if (value instanceof Map<?, ?> fields) {
			fields.forEach((name, given) -> values.put((String) name, given));
		}
		Map<String, List<InputObject>> children = new LinkedHashMap<>();
		for (InputField.Children field : shape.all(InputField.Children.class)) {
			Object given = values.remove(field.name());
			if (given instanceof List<?>) {
				children.put(field.name(), objects(given, path(where, field.name()), field.shape()));
			}
		}
		return new InputObject(where, values, children);
	}

	private static String path(String where, String name) {
		return where.isEmpty() ? name : where + "." + name;
	}

}
