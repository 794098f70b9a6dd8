package dev.dynamorelay.write;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.error.AccessDeniedException;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.NodeIds;

/**
 * Plans the writes of one input object of a mutation ({@link Plan}): the item composed or the update expression,
 * the conditions that must hold (the item's existence, its version, its owner, the declared conditions), the
 * children and referenced items in the same transaction; and the parts of the transaction several plans make.
 * Each kind has its planner: {@link CreatePlanner} (PutItem), {@link UpdatePlanner} and {@link ReplacePlanner}
 * (UpdateItem), {@link DeletePlanner} (DeleteItem). Nothing is sent here but the reads an update needs to
 * recompose an index key from values it does not give ({@link ItemReader}).
 */
final class WritePlanner {

	/** Reads one item by key, strongly consistent, with only the attributes named (all when none). */
	@FunctionalInterface
	interface ItemReader {

		CompletableFuture<Map<String, AttributeValue>> get(String table, Map<String, AttributeValue> key,
				List<String> attributes, ReadStats stats);

	}

	private final Declarations declarations;

	private final CreatePlanner create;

	private final UpdatePlanner update;

	private final ReplacePlanner replace;

	private final DeletePlanner delete;

	WritePlanner(Declarations declarations, ItemReader reader) {
		this.declarations = declarations;
		ParentChecks parents = new ParentChecks(declarations);
		this.create = new CreatePlanner(parents);
		this.update = new UpdatePlanner(this, parents, reader);
		this.replace = new ReplacePlanner(this, parents);
		this.delete = new DeletePlanner(this, parents);
	}

	/** The plan of one input object; an update that recomposes index keys reads what it lacks first. */
	CompletableFuture<Plan> plan(DeclaredMutation mutation, InputObject input, Ownership.Owners owners, Generation now,
			ReadStats stats) {
		return switch (mutation.kind()) {
			case CREATE -> CompletableFuture.completedFuture(this.create.plan(mutation, input, owners, now));
			case REPLACE -> CompletableFuture.completedFuture(this.replace.plan(mutation, input, owners, now));
			case UPDATE -> this.update.plan(mutation, input, owners, stats);
			case DELETE -> CompletableFuture.completedFuture(this.delete.plan(mutation, input, owners));
		};
	}

	/**
	 * The parts of one write of {@code plans}: their writes, an item that must exist checked once (a transaction
	 * names an item once) and not beside its write; of two checks of one item, the one of whose items the caller
	 * may write under is kept (it checks existence too), else the first.
	 * @throws InvalidArgumentException for more parts than one transaction takes, or two parts writing one item
	 */
	static List<ItemWrite> parts(List<Plan> plans) {
		List<ItemWrite> writes = new ArrayList<>();
		plans.forEach((plan) -> writes.addAll(plan.writes()));
		writes.removeIf((write) -> write instanceof ItemWrite.CheckItem check && writes.stream()
			.anyMatch((other) -> other != check && other.table().equals(check.table()) && other.key().equals(check.key())
					&& (!(other instanceof ItemWrite.CheckItem kept) || (kept.first() && !check.first())
							|| (kept.first() == check.first() && writes.indexOf(other) < writes.indexOf(check)))));
		if (writes.size() > DeclaredMutation.MAX_TRANSACTION_ITEMS) {
			throw new InvalidArgumentException(("The mutation writes %d items, more than one DynamoDB transaction takes "
					+ "(%d): write them in several mutations.").formatted(writes.size(), DeclaredMutation.MAX_TRANSACTION_ITEMS));
		}
		for (int i = 0; i < writes.size(); i++) {
			for (int j = 0; j < i; j++) {
				if (writes.get(i).table().equals(writes.get(j).table()) && writes.get(i).key().equals(writes.get(j).key())) {
					throw new InvalidArgumentException("`%s` and `%s` write the same item: one transaction writes an item once."
						.formatted(writes.get(j).part(), writes.get(i).part()));
				}
			}
		}
		return writes;
	}

	/** The item's key: from its node id, or from its key fields. */
	Map<String, AttributeValue> key(DeclaredMutation mutation, InputObject input) {
		Entity entity = mutation.entity();
		Optional<InputField.Id> id = mutation.input().shape().one(InputField.Id.class);
		if (id.isPresent()) {
			Object value = input.get(id.get().name());
			if (!(value instanceof String text)) {
				throw new InvalidArgumentException("Pass `%s`: it names the %s to write.".formatted(input.path(id.get().name()),
						entity.name()));
			}
			return Declarations.expect(this.declarations.decode(text), entity.name(), input.path(id.get().name())).key();
		}
		return entity.key(input::get);
	}

	/** The values of the key fields, read back from the key. */
	static Map<String, AttributeValue> keyFields(Entity entity, Map<String, AttributeValue> key) {
		Map<String, AttributeValue> values = new LinkedHashMap<>();
		for (String name : entity.keyFields()) {
			AttributeValue value = entity.raw(key, entity.fields().get(name));
			if (value != null) {
				values.put(name, value);
			}
		}
		return values;
	}

	/**
	 * Checks an owner the key holds, now; answers the ownership a condition must check when the key does not
	 * hold it.
	 */
	static Optional<Ownership> ownerNotInKey(Entity entity, Map<String, AttributeValue> key, Optional<Ownership> owned,
			InputObject input) {
		if (owned.isEmpty()) {
			return Optional.empty();
		}
		AttributeField owner = owned.get().field();
		if (!entity.keyFields().contains(owner.name()) && key.get(owner.attribute()) == null) {
			return owned;
		}
		String holder = text(entity.exactly(key, owner));
		if (!owned.get().identity().equals(holder)) {
			throw AccessDeniedException.forbidden(("%s names the %s of `%s` %s, and the caller is `%s`: a caller that owns "
					+ "its items writes only its own.").formatted(input.where().isEmpty() ? "The mutation" : "`" + input.where() + "`",
							entity.name(), owner.name(), (holder != null) ? "`" + holder + "`" : "(a key that reads back more than one way)",
							owned.get().identity()));
		}
		return Optional.empty();
	}

	static String text(AttributeValue value) {
		if (value == null) {
			return null;
		}
		return (value.s() != null) ? value.s() : value.n();
	}

	/** A node id of the item with {@code key}, for messages and answers. */
	static String id(Entity entity, Map<String, AttributeValue> key) {
		return NodeIds.encode(entity, key);
	}

}
