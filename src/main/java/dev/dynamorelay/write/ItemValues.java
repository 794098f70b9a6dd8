package dev.dynamorelay.write;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.DeclaredMutation.Generated;
import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Shape;
import dev.dynamorelay.error.AccessDeniedException;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;

/**
 * The stored values of one item a create or a replace writes, by field name, and whether a generated time is a
 * part of its key.
 *
 * @param stored the values: as given, generated where left out, the owner filled in
 * @param generatedKey whether a generated time is a part of the item's key (a refusal may be a taken key)
 */
record ItemValues(Map<String, AttributeValue> stored, boolean generatedKey) {

	/**
	 * The values an input object gives an item of {@code entity}: as given, generated where left out, the
	 * owner filled in (or checked), and the parent's values for a child's fields it leaves out.
	 * @throws AccessDeniedException when the input gives the item another owner than the caller
	 */
	static ItemValues of(Entity entity, Shape shape, InputObject input, Ownership.Owners owners, Generation now,
			Optional<Parent> parent) {
		Map<String, AttributeValue> stored = new LinkedHashMap<>();
		boolean generatedKey = false;
		for (InputField.Value field : shape.all(InputField.Value.class)) {
			AttributeValue value = input.stored(field);
			if (value == null && field.generated().isPresent()) {
				value = generate(field, input, now);
				generatedKey |= entity.keyFields().contains(field.target().name());
			}
			if (value != null) {
				stored.put(field.target().name(), value);
			}
		}
		if (parent.isPresent()) {
			for (String name : entity.keyFields()) {
				if (!stored.containsKey(name) && !input.given(name)) {
					parent.get().value(name, entity.fields().get(name), input).ifPresent((value) -> stored.put(name, value));
				}
			}
		}
		owners.of(entity).ifPresent((owned) -> own(entity, owned, stored, input));
		return new ItemValues(stored, generatedKey);
	}

	/** The owner field holds the caller's identity: filled in when left out, refused when it names another. */
	private static void own(Entity entity, Ownership owned, Map<String, AttributeValue> stored, InputObject input) {
		AttributeField owner = owned.field();
		AttributeValue given = stored.get(owner.name());
		if (given != null && !owned.identity().equals(WritePlanner.text(given))) {
			throw AccessDeniedException.forbidden(("`%s` gives %s `%s` the owner `%s`, and the caller is `%s`: a "
					+ "caller that owns its items creates only its own; leave `%s` out to make it yours.").formatted(
							input.path(owner.name()), entity.name(), owner.name(), WritePlanner.text(given), owned.identity(),
							owner.name()));
		}
		stored.put(owner.name(), AttributeValue.fromS(owned.identity()));
	}

	private static AttributeValue generate(InputField.Value field, InputObject input, Generation now) {
		Object value = (field.generated().get() == Generated.NOW) ? now.time() : now.uuid(input.path(field.name()));
		return InputObject.write(field.target().type(), input.path(field.name()), value);
	}

	/**
	 * The item whose input holds a child's (or whose values name another item): the key fields a child leaves out
	 * are the parent's of the same name.
	 *
	 * @param entity the parent's type
	 * @param stored the parent's stored values, by field name
	 */
	record Parent(Entity entity, Map<String, AttributeValue> stored) {

		/** The parent's value of field {@code name}, as the child's {@code field} stores it. */
		Optional<AttributeValue> value(String name, AttributeField field, InputObject child) {
			AttributeValue value = this.stored.get(name);
			AttributeField own = this.entity.fields().get(name);
			if (value == null || own == null || field == null) {
				return Optional.empty();
			}
			return Optional.of(InputObject.write(field.type(), child.path(name), own.type().read(value)));
		}

	}

}
