package dev.dynamorelay.write;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Shape;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.model.Entity;

/**
 * Plans a create ({@code @create}): the item composed whole for a PutItem that never overwrites (the condition
 * that no item holds its key), its {@code @children} put in the same transaction under it, the checks of the
 * parents it is written under and of the items it references.
 */
final class CreatePlanner {

	private final ParentChecks parents;

	CreatePlanner(ParentChecks parents) {
		this.parents = parents;
	}

	Plan plan(DeclaredMutation mutation, InputObject input, Ownership.Owners owners, Generation now) {
		Entity entity = mutation.entity();
		Shape shape = mutation.input().shape();
		ItemValues values = ItemValues.of(entity, shape, input, owners, now, Optional.empty());
		this.parents.fillParentOwners(entity, values.stored(), input, owners);
		Map<String, AttributeValue> item = versioned(entity, values.stored(), input);
		Map<String, AttributeValue> key = ItemComposer.key(entity, values.stored(), input.where());
		List<ItemWrite> writes = new ArrayList<>();
		writes.add(put(entity, input, key, item));
		writes.addAll(this.parents.underParents(entity, values.stored(), key, input, owners, Optional.empty()));
		boolean generatedKey = values.generatedKey();
		for (InputField.Children children : shape.all(InputField.Children.class)) {
			for (InputObject child : input.children(children.name())) {
				generatedKey |= child(entity, values, children, child, owners, now, writes);
			}
		}
		writes.addAll(ParentChecks.references(entity, shape, input, values.stored(), (name) -> true));
		return new Plan(mutation, input, writes, item, Optional.empty(), Optional.empty(), generatedKey, Map.of());
	}

	/**
	 * Adds the writes of one child of the item: its put, and the checks of its other parents.
	 * @return whether a generated time is a part of the child's key
	 */
	private boolean child(Entity entity, ItemValues values, InputField.Children children, InputObject child,
			Ownership.Owners owners, Generation now, List<ItemWrite> writes) {
		ItemValues childValues = ItemValues.of(children.entity(), children.shape(), child, owners, now,
				Optional.of(new ItemValues.Parent(entity, values.stored())));
		Map<String, AttributeValue> childItem = versioned(children.entity(), childValues.stored(), child);
		Map<String, AttributeValue> childKey = ItemComposer.key(children.entity(), childValues.stored(), child.where());
		writes.add(put(children.entity(), child, childKey, childItem));
		// Under the item written with it, which is the caller's; a parent of another type is checked.
		writes.addAll(this.parents.underParents(children.entity(), childValues.stored(), childKey, child, owners,
				Optional.of(entity)));
		return childValues.generatedKey();
	}

	/** The whole item, at version 1 where its type has a version. */
	private static Map<String, AttributeValue> versioned(Entity entity, Map<String, AttributeValue> stored,
			InputObject input) {
		entity.version().ifPresent((version) -> stored.put(version.name(), AttributeValue.fromN("1")));
		return ItemComposer.item(entity, stored, input.where());
	}

	/** A PutItem of a new item: none may hold its key. */
	private static ItemWrite.PutItem put(Entity entity, InputObject input, Map<String, AttributeValue> key,
			Map<String, AttributeValue> item) {
		return new ItemWrite.PutItem(input.where(), entity.table().physicalName(), key, item,
				new Expressions().exists(entity.table().partitionKey().name(), false));
	}

}
