package dev.dynamorelay.write;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Shape;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.error.AccessDeniedException;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;

/**
 * Plans an update ({@code @update}): an UpdateItem that sets the fields given and removes those given null, of
 * an item that exists, recomposing the index keys the change touches (reading first what it needs and neither
 * gives nor holds in the key, and checking in the same write that it did not change since), with the version
 * raised by one and the conditions on the stored item.
 *
 * <p>An update that gives no field to set or clear is refused ({@code INVALID_ARGUMENT}) before anything is read
 * or written, whether its type has a version or not.
 */
final class UpdatePlanner {

	private final WritePlanner keys;

	private final ParentChecks parents;

	private final WritePlanner.ItemReader reader;

	UpdatePlanner(WritePlanner keys, ParentChecks parents, WritePlanner.ItemReader reader) {
		this.keys = keys;
		this.parents = parents;
		this.reader = reader;
	}

	/**
	 * What an update gives: the values it sets and the fields it clears, by field name.
	 *
	 * @param changed the values given, as stored
	 * @param cleared the fields given null
	 */
	private record Change(Map<String, AttributeValue> changed, Set<String> cleared) {

		static Change of(Shape shape, InputObject input) {
			Map<String, AttributeValue> changed = new LinkedHashMap<>();
			Set<String> cleared = new HashSet<>();
			for (InputField.Value field : shape.all(InputField.Value.class)) {
				if (!input.given(field.name())) {
					continue;
				}
				AttributeValue value = input.stored(field);
				if (value == null) {
					cleared.add(field.target().name());
				}
				else {
					changed.put(field.target().name(), value);
				}
			}
			return new Change(changed, cleared);
		}

		/** Whether the update gives no field to set or clear (an expected version or a condition alone). */
		boolean none() {
			return this.changed.isEmpty() && this.cleared.isEmpty();
		}

	}

	CompletableFuture<Plan> plan(DeclaredMutation mutation, InputObject input, Ownership.Owners owners, ReadStats stats) {
		Entity entity = mutation.entity();
		Map<String, AttributeValue> key = this.keys.key(mutation, input);
		Optional<Ownership> owned = WritePlanner.ownerNotInKey(entity, key, owners.of(entity), input);
		List<ItemWrite> parentChecks = this.parents.underParents(entity, WritePlanner.keyFields(entity, key), key, input,
				owners, Optional.empty());
		Change change = Change.of(mutation.input().shape(), input);
		if (change.none()) {
			// Refused, versioned or not: a version raised over an item the update leaves as it is tells of a change
			// that was not made.
			throw new InvalidArgumentException("`%s` gives no field to update.".formatted(
					input.where().isEmpty() ? mutation.name() : input.where()));
		}
		owners.of(entity).ifPresent((ownership) -> keepOwner(entity, ownership, change, input));
		Map<String, AttributeValue> known = new LinkedHashMap<>(WritePlanner.keyFields(entity, key));
		known.putAll(change.changed());
		List<String> unknown = ItemComposer.unknownPlaceholders(entity, change.changed().keySet(), change.cleared(), known);
		CompletableFuture<Map<String, AttributeValue>> first = unknown.isEmpty() ? CompletableFuture.completedFuture(Map.of())
				: this.reader.get(entity.table().physicalName(), key,
						unknown.stream().map((name) -> entity.fields().get(name).attribute()).toList(), stats);
		return first.thenApply((stored) -> update(mutation, input, key, owned, change, known, unknown, stored,
				parentChecks));
	}

	/** The plan, once what the update needs and does not give is read ({@code stored}). */
	private static Plan update(DeclaredMutation mutation, InputObject input, Map<String, AttributeValue> key,
			Optional<Ownership> owned, Change change, Map<String, AttributeValue> known, List<String> unknown,
			Map<String, AttributeValue> stored, List<ItemWrite> parentChecks) {
		Entity entity = mutation.entity();
		Expressions expressions = new Expressions();
		change.changed().forEach((name, value) -> expressions.set(entity.fields().get(name).attribute(), value));
		change.cleared().forEach((name) -> expressions.remove(entity.fields().get(name).attribute()));
		Map<String, AttributeValue> values = new LinkedHashMap<>(known);
		Map<String, Optional<AttributeValue>> read = new LinkedHashMap<>();
		for (String name : unknown) {
			AttributeField field = entity.fields().get(name);
			Optional<AttributeValue> held = Optional.ofNullable(stored.get(field.attribute()));
			held.ifPresent((value) -> values.put(name, value));
			expressions.unchanged(field.attribute(), held);
			read.put(field.attribute(), held);
		}
		ItemComposer.recompose(entity, change.changed().keySet(), change.cleared(), values, expressions, input);
		entity.version().ifPresent((version) -> expressions.increment(version.attribute()));
		expressions.exists(entity.table().partitionKey().name(), true);
		Optional<Long> expected = Conditions.add(mutation, input, owned, expressions);
		List<ItemWrite> writes = new ArrayList<>();
		writes.add(new ItemWrite.UpdateItem(input.where(), entity.table().physicalName(), key, expressions));
		writes.addAll(parentChecks);
		writes.addAll(ParentChecks.references(entity, mutation.input().shape(), input, values,
				change.changed()::containsKey));
		return new Plan(mutation, input, writes, Map.of(), owned, expected, false, read);
	}

	/** An update cannot give its item to another owner, nor take its owner away. */
	private static void keepOwner(Entity entity, Ownership ownership, Change change, InputObject input) {
		String owner = ownership.field().name();
		AttributeValue given = change.changed().get(owner);
		if (change.cleared().contains(owner) || (given != null && !ownership.identity().equals(WritePlanner.text(given)))) {
			throw AccessDeniedException.forbidden("`%s` would give the %s to another owner: a caller that owns its items "
				.formatted(input.path(owner), entity.name()) + "keeps them its own.");
		}
	}

}
