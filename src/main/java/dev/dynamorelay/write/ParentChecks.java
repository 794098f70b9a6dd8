package dev.dynamorelay.write;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Shape;
import dev.dynamorelay.error.AccessDeniedException;
import dev.dynamorelay.error.NotFoundException;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Filter;

/**
 * The other items a write depends on, checked in the same transaction: the parents of an item written as
 * {@code @children} (that they exist and the caller may write under them), and the items its
 * {@code @references} name (that they exist).
 *
 * <p>A type that a create writes as {@code @children} of another is written only under a parent the caller
 * may write, whatever mutation writes it: its key holds every key field of its parent type (the start checks
 * that), so it names one parent, whose owner rule decides. An owner the parent's key holds is compared before
 * anything is sent; one it does not hold is a ConditionCheck of the parent in the same transaction, whose
 * refusal ({@code FORBIDDEN}) is told before any other, so that nothing tells about the items under another
 * owner's parent.
 */
final class ParentChecks {

	/** The types each type is written as {@code @children} of, by the child type's name. */
	private final Map<String, List<Entity>> parents = new LinkedHashMap<>();

	ParentChecks(Declarations declarations) {
		declarations.entities().values().forEach((entity) -> {
			List<Entity> of = declarations.parentsOf(entity);
			if (!of.isEmpty()) {
				this.parents.put(entity.name(), of);
			}
		});
	}

	/**
	 * For an item of a type written as children: a key field that holds its parent's owner, left out, is the
	 * caller's own (as a create fills its own owner field); given, it must be.
	 */
	void fillParentOwners(Entity entity, Map<String, AttributeValue> stored, InputObject input, Ownership.Owners owners) {
		for (Entity parent : this.parents.getOrDefault(entity.name(), List.of())) {
			Optional<Ownership> owned = owners.under(parent);
			if (owned.isEmpty() || !parent.keyFields().contains(owned.get().field().name())) {
				continue;
			}
			String name = owned.get().field().name();
			AttributeField field = entity.fields().get(name);
			if (field != null && stored.get(name) == null) {
				stored.put(name, InputObject.write(field.type(), input.path(name), owned.get().identity()));
			}
		}
	}

	/**
	 * That an item of {@code entity} is under parents the caller may write under, by each parent type's rules:
	 * an owner the parent's key holds (so the item's key does too) is compared now; otherwise the answer is a
	 * check of the parent, in the same transaction, that it exists and is the caller's.
	 * @param stored the item's values by field name (its key fields at least)
	 * @param key the item's key
	 * @param with the parent type whose item is written in the same transaction (a create's), which is not checked
	 * @throws AccessDeniedException when the key names another owner's parent
	 */
	List<ItemWrite> underParents(Entity entity, Map<String, AttributeValue> stored, Map<String, AttributeValue> key,
			InputObject input, Ownership.Owners owners, Optional<Entity> with) {
		List<ItemWrite> checks = new ArrayList<>();
		for (Entity parent : this.parents.getOrDefault(entity.name(), List.of())) {
			Optional<Ownership> owned = with.filter(parent::equals).isPresent() ? Optional.empty() : owners.under(parent);
			if (owned.isEmpty()) {
				continue;
			}
			AttributeField owner = owned.get().field();
			String identity = owned.get().identity();
			String where = input.where().isEmpty() ? "The mutation" : "`" + input.where() + "`";
			if (parent.keyFields().contains(owner.name())) {
				String holder = WritePlanner.text(stored.get(owner.name()));
				if (!identity.equals(holder)) {
					throw AccessDeniedException.forbidden(("%s writes under the %s of `%s` %s, and the caller is `%s`: a "
							+ "caller that owns its %s items writes %s items under its own only.").formatted(where,
									parent.name(), owner.name(), (holder != null) ? "`" + holder + "`" : "(none)", identity,
									parent.name(), entity.name()));
				}
				continue;
			}
			parentCheck(entity, parent, owned.get(), stored, key, input).ifPresent(checks::add);
		}
		return checks;
	}

	/**
	 * The check that the parent of an item exists and is the caller's; none when the item is its own parent (its
	 * own rules decide).
	 */
	private static Optional<ItemWrite> parentCheck(Entity entity, Entity parent, Ownership owned,
			Map<String, AttributeValue> stored, Map<String, AttributeValue> key, InputObject input) {
		Map<String, AttributeValue> values = new LinkedHashMap<>();
		for (String name : parent.keyFields()) {
			AttributeField own = entity.fields().get(name);
			AttributeValue value = stored.get(name);
			if (own != null && value != null) {
				values.put(name, InputObject.write(parent.fields().get(name).type(), input.path(name), own.type().read(value)));
			}
		}
		Map<String, AttributeValue> parentKey = ItemComposer.key(parent, values, input.where());
		if (parent.table().equals(entity.table()) && parentKey.equals(key)) {
			return Optional.empty();
		}
		String where = input.where().isEmpty() ? "The mutation" : "`" + input.where() + "`";
		return Optional.of(new ItemWrite.CheckItem(input.where(), parent.table().physicalName(), parentKey,
				new Expressions().exists(parent.table().partitionKey().name(), true)
					.condition(new Filter(owned.field().attribute(), Filter.Op.EQ,
							List.of(AttributeValue.fromS(owned.identity())))),
				AccessDeniedException.forbidden(("%s writes under the %s %s, which is not the caller's (`%s`), or does "
						+ "not exist: a caller that owns its %s items writes %s items under its own only. Nothing was "
						+ "written.").formatted(where, parent.name(), parent.node() ? "`" + WritePlanner.id(parent, parentKey)
								+ "`" : "of key " + parentKey, owned.identity(), parent.name(), entity.name())),
				true));
	}

	/**
	 * Checks that each referenced item exists, in the same transaction: its key filled from the values of the
	 * item written (given, generated or the owner filled in) by the names of its key's placeholders. Only the
	 * fields {@code written} says are checked: an update checks what it changes.
	 */
	static List<ItemWrite> references(Entity entity, Shape shape, InputObject input, Map<String, AttributeValue> stored,
			Predicate<String> written) {
		List<ItemWrite> checks = new ArrayList<>();
		for (InputField.Value field : shape.all(InputField.Value.class)) {
			AttributeValue value = stored.get(field.target().name());
			if (field.references().isEmpty() || value == null || !written.test(field.target().name())) {
				continue;
			}
			Entity referenced = field.references().get();
			Map<String, AttributeValue> values = new LinkedHashMap<>();
			for (String name : referenced.keyFields()) {
				new ItemValues.Parent(entity, stored).value(name, referenced.fields().get(name), input)
					.ifPresent((each) -> values.put(name, each));
			}
			Map<String, AttributeValue> key = ItemComposer.key(referenced, values, input.where());
			checks.add(new ItemWrite.CheckItem(input.path(field.name()), referenced.table().physicalName(), key,
					new Expressions().exists(referenced.table().partitionKey().name(), true),
					new NotFoundException("No %s `%s` exists: `%s` names one that must. Nothing was written."
						.formatted(referenced.name(), WritePlanner.text(value), input.path(field.name()))),
					false));
		}
		return checks;
	}

}
