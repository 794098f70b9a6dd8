package dev.dynamorelay.write;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Shape;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.model.Entity;

/**
 * Plans a replace ({@code @replace}): an UpdateItem that sets every field of the input and removes the input's
 * fields left out (attributes the schema does not name are kept), over the stored item or none, of the caller's
 * own where the type has owners, with the version raised by one.
 */
final class ReplacePlanner {

	private final WritePlanner keys;

	private final ParentChecks parents;

	ReplacePlanner(WritePlanner keys, ParentChecks parents) {
		this.keys = keys;
		this.parents = parents;
	}

	Plan plan(DeclaredMutation mutation, InputObject input, Ownership.Owners owners, Generation now) {
		Entity entity = mutation.entity();
		Shape shape = mutation.input().shape();
		Optional<Ownership> ownership = owners.of(entity);
		Map<String, AttributeValue> stored = ItemValues.of(entity, shape, input, owners, now, Optional.empty()).stored();
		boolean byId = shape.one(InputField.Id.class).isPresent();
		if (!byId) {
			this.parents.fillParentOwners(entity, stored, input, owners);
		}
		Map<String, AttributeValue> key = byId ? this.keys.key(mutation, input)
				: ItemComposer.key(entity, stored, input.where());
		// An id names its item, owner and all: it must be the caller's own, as for an update or a delete.
		WritePlanner.ownerNotInKey(entity, key, ownership, input);
		stored.putAll(WritePlanner.keyFields(entity, key));
		List<ItemWrite> parentChecks = this.parents.underParents(entity, WritePlanner.keyFields(entity, key), key, input,
				owners, Optional.empty());
		Expressions expressions = expressions(entity, shape, stored, key, input);
		ownership.ifPresent((owned) -> expressions.ownedOrAbsent(entity.table().partitionKey().name(),
				owned.field().attribute(), owned.identity()));
		Optional<Long> expected = Conditions.add(mutation, input, Optional.empty(), expressions);
		List<ItemWrite> writes = new ArrayList<>();
		writes.add(new ItemWrite.UpdateItem(input.where(), entity.table().physicalName(), key, expressions));
		writes.addAll(parentChecks);
		writes.addAll(ParentChecks.references(entity, shape, input, stored, (name) -> true));
		return new Plan(mutation, input, writes, Map.of(), ownership, expected, false, Map.of());
	}

	/**
	 * The update expression of the whole item: every attribute but the key's set, the input's fields left out and
	 * the index keys the item no longer fills removed, the version raised.
	 */
	private static Expressions expressions(Entity entity, Shape shape, Map<String, AttributeValue> stored,
			Map<String, AttributeValue> key, InputObject input) {
		Map<String, AttributeValue> item = ItemComposer.item(entity, stored, input.where());
		Expressions expressions = new Expressions();
		Set<String> keyAttributes = key.keySet();
		item.forEach((attribute, value) -> {
			if (!keyAttributes.contains(attribute)) {
				expressions.set(attribute, value);
			}
		});
		for (InputField.Value field : shape.all(InputField.Value.class)) {
			String attribute = field.target().attribute();
			if (!item.containsKey(attribute) && !keyAttributes.contains(attribute)) {
				expressions.remove(attribute);
			}
		}
		ItemComposer.indexKeys(entity, stored, input.where()).forEach((attribute, value) -> {
			if (value.isEmpty()) {
				expressions.remove(attribute);
			}
		});
		entity.version().ifPresent((version) -> expressions.increment(version.attribute()));
		return expressions;
	}

}
