package dev.dynamorelay.write;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.model.Entity;

/**
 * Plans a delete ({@code @delete}): a DeleteItem of the item the input names, of the caller's own (or of none)
 * where the type has owners, with the conditions on the stored item. A delete of an item that is not there
 * deletes nothing and is no error.
 */
final class DeletePlanner {

	private final WritePlanner keys;

	private final ParentChecks parents;

	DeletePlanner(WritePlanner keys, ParentChecks parents) {
		this.keys = keys;
		this.parents = parents;
	}

	Plan plan(DeclaredMutation mutation, InputObject input, Ownership.Owners owners) {
		Entity entity = mutation.entity();
		Map<String, AttributeValue> key = this.keys.key(mutation, input);
		Optional<Ownership> owned = WritePlanner.ownerNotInKey(entity, key, owners.of(entity), input);
		List<ItemWrite> parentChecks = this.parents.underParents(entity, WritePlanner.keyFields(entity, key), key, input,
				owners, Optional.empty());
		Expressions expressions = new Expressions();
		owned.ifPresent((ownership) -> expressions.ownedOrAbsent(entity.table().partitionKey().name(),
				ownership.field().attribute(), ownership.identity()));
		Optional<Long> expected = Conditions.add(mutation, input, Optional.empty(), expressions);
		List<ItemWrite> writes = new ArrayList<>();
		writes.add(new ItemWrite.DeleteItem(input.where(), entity.table().physicalName(), key, expressions));
		writes.addAll(parentChecks);
		return new Plan(mutation, input, writes, Map.of(), owned, expected, false, Map.of());
	}

}
