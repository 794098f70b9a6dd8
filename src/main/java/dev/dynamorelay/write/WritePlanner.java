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
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredMutation.Condition;
import dev.dynamorelay.declaration.DeclaredMutation.Generated;
import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Kind;
import dev.dynamorelay.declaration.DeclaredMutation.Shape;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.error.AccessDeniedException;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.error.NotFoundException;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.NodeIds;

/**
 * Plans the writes of one input object of a mutation: the item composed or the update expression, the
 * conditions that must hold (the item's existence, its version, its owner, the declared conditions), the
 * children and referenced items in the same transaction. Nothing is sent here but the reads an update needs to
 * recompose an index key from values it does not give.
 *
 * <p>A type that a create writes as {@code @children} of another is written only under a parent the caller
 * may write, whatever mutation writes it: its key holds every key field of its parent type (the start checks
 * that), so it names one parent, whose owner rule decides. An owner the parent's key holds is compared before
 * anything is sent; one it does not hold is a ConditionCheck of the parent in the same transaction, whose
 * refusal ({@code FORBIDDEN}) is told before any other, so that nothing tells about the items under another
 * owner's parent.
 */
final class WritePlanner {

	private final Declarations declarations;

	private final Writer writer;

	/** The types each type is written as {@code @children} of, by the child type's name. */
	private final Map<String, List<Entity>> parents = new LinkedHashMap<>();

	WritePlanner(Declarations declarations, Writer writer) {
		this.declarations = declarations;
		this.writer = writer;
		declarations.entities().values().forEach((entity) -> {
			List<Entity> of = declarations.parentsOf(entity);
			if (!of.isEmpty()) {
				this.parents.put(entity.name(), of);
			}
		});
	}

	/**
	 * The writes of one input object, and what tells its answer and its refusals apart.
	 *
	 * @param mutation the mutation
	 * @param input the input object
	 * @param writes the item's own write first, then its children's and the references' checks
	 * @param composed a create's whole item (empty for the other kinds, whose images DynamoDB answers)
	 * @param owned the ownership a condition checks (not the key), if any
	 * @param expectedVersion the version the client expects, if given
	 * @param generatedKey whether a generated time is a part of the item's key (a refusal may be a taken key)
	 * @param read the attributes the write read first and depends on, as read (a refusal may be a change since)
	 */
	record Plan(DeclaredMutation mutation, InputValues input, List<ItemWrite> writes, Map<String, AttributeValue> composed,
			Optional<Ownership> owned, Optional<Long> expectedVersion, boolean generatedKey,
			Map<String, Optional<AttributeValue>> read) {

		Kind kind() {
			return this.mutation.kind();
		}

		Entity entity() {
			return this.mutation.entity();
		}

		ItemWrite main() {
			return this.writes.get(0);
		}

		/**
		 * Whether {@code stored}, found by a refused write whose earlier attempt may have been made, is that
		 * attempt's work: a create's whole item; an update's values, and its expected version raised by one; for
		 * a delete, no item.
		 */
		boolean madeBy(Map<String, AttributeValue> stored) {
			return switch (kind()) {
				case CREATE -> main() instanceof ItemWrite.PutItem put && put.item().equals(stored);
				case UPDATE, REPLACE -> !stored.isEmpty() && main().expressions().madeBy(stored)
						&& this.owned.map((ownership) -> ownership.identity()
							.equals(text(stored.get(ownership.field().attribute())))).orElse(true)
						&& this.expectedVersion.map((expected) -> Refusals.version(entity(), stored)
							.filter((current) -> current == expected + 1)
							.isPresent()).orElse(true);
				case DELETE -> stored.isEmpty();
			};
		}

		/** The answer, from the image DynamoDB answered (or the composed item of a create). */
		Mutations.Written answer(Map<String, AttributeValue> image) {
			Map<String, AttributeValue> item = (kind() == Kind.CREATE) ? this.composed : image;
			Optional<String> clientMutationId = this.mutation.input()
				.shape()
				.one(InputField.ClientMutationId.class)
				.map((field) -> this.input.get(field.name()))
				.map(Object::toString);
			return new Mutations.Written(entity(), item.isEmpty() ? Optional.empty() : Optional.of(item), clientMutationId);
		}

	}

	/** The plan of one input object; an update that recomposes index keys reads what it lacks first. */
	CompletableFuture<Plan> plan(DeclaredMutation mutation, InputValues input, Ownership.Owners owners, Generation now,
			ReadStats stats) {
		return switch (mutation.kind()) {
			case CREATE -> CompletableFuture.completedFuture(create(mutation, input, owners, now));
			case REPLACE -> CompletableFuture.completedFuture(replace(mutation, input, owners, now));
			case UPDATE -> update(mutation, input, owners, stats);
			case DELETE -> CompletableFuture.completedFuture(delete(mutation, input, owners));
		};
	}

	// ---- create

	private Plan create(DeclaredMutation mutation, InputValues input, Ownership.Owners owners, Generation now) {
		Entity entity = mutation.entity();
		Shape shape = mutation.input().shape();
		Values values = values(entity, shape, input, owners, now, Optional.empty());
		fillParentOwners(entity, values.stored(), input, owners);
		entity.version().ifPresent((version) -> values.stored().put(version.name(), AttributeValue.fromN("1")));
		Map<String, AttributeValue> item = ItemComposer.item(entity, values.stored(), input.where());
		Map<String, AttributeValue> key = ItemComposer.key(entity, values.stored(), input.where());
		List<ItemWrite> writes = new ArrayList<>();
		writes.add(new ItemWrite.PutItem(input.where(), entity.table().physicalName(), key, item,
				new Expressions().exists(entity.table().partitionKey().name(), false)));
		writes.addAll(underParents(entity, values.stored(), key, input, owners, Optional.empty()));
		boolean generatedKey = values.generatedKey();
		for (InputField.Children children : shape.all(InputField.Children.class)) {
			for (InputValues child : input.list(children.name())) {
				Values childValues = values(children.entity(), children.shape(), child, owners, now,
						Optional.of(new Parent(entity, values.stored())));
				children.entity().version().ifPresent((version) -> childValues.stored().put(version.name(),
						AttributeValue.fromN("1")));
				Map<String, AttributeValue> childItem = ItemComposer.item(children.entity(), childValues.stored(),
						child.where());
				Map<String, AttributeValue> childKey = ItemComposer.key(children.entity(), childValues.stored(),
						child.where());
				writes.add(new ItemWrite.PutItem(child.where(), children.entity().table().physicalName(), childKey,
						childItem, new Expressions().exists(children.entity().table().partitionKey().name(), false)));
				// Under the item written with it, which is the caller's; a parent of another type is checked.
				writes.addAll(underParents(children.entity(), childValues.stored(), childKey, child, owners,
						Optional.of(entity)));
				generatedKey |= childValues.generatedKey();
			}
		}
		writes.addAll(references(entity, shape, input, values.stored(), (name) -> true));
		return new Plan(mutation, input, writes, item, Optional.empty(), Optional.empty(), generatedKey, Map.of());
	}

	/**
	 * The values an input object gives an item of {@code entity}: as given, generated where left out, the
	 * owner filled in (or checked), and the parent's values for a child's fields it leaves out.
	 */
	private Values values(Entity entity, Shape shape, InputValues input, Ownership.Owners owners, Generation now,
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
		Optional<Ownership> owned = owners.of(entity);
		if (owned.isPresent()) {
			AttributeField owner = owned.get().field();
			AttributeValue given = stored.get(owner.name());
			if (given != null && !owned.get().identity().equals(text(given))) {
				throw AccessDeniedException.forbidden(("`%s` gives %s `%s` the owner `%s`, and the caller is `%s`: a "
						+ "caller that owns its items creates only its own; leave `%s` out to make it yours.").formatted(
								input.path(owner.name()), entity.name(), owner.name(), text(given), owned.get().identity(),
								owner.name()));
			}
			stored.put(owner.name(), AttributeValue.fromS(owned.get().identity()));
		}
		return new Values(stored, generatedKey);
	}

	/**
	 * The item whose input holds a child's: the key fields a child leaves out are the parent's of the same name.
	 *
	 * @param entity the parent's type
	 * @param stored the parent's stored values, by field name
	 */
	private record Parent(Entity entity, Map<String, AttributeValue> stored) {

		/** The parent's value of field {@code name}, as the child's {@code field} stores it. */
		Optional<AttributeValue> value(String name, AttributeField field, InputValues child) {
			AttributeValue value = this.stored.get(name);
			AttributeField own = this.entity.fields().get(name);
			if (value == null || own == null || field == null) {
				return Optional.empty();
			}
			return Optional.of(InputValues.write(field.type(), child.path(name), own.type().read(value)));
		}

	}

	/** The stored values of one item, and whether a generated time is part of its key. */
	private record Values(Map<String, AttributeValue> stored, boolean generatedKey) {
	}

	// ---- children's parents

	/**
	 * For an item of a type written as children: a key field that holds its parent's owner, left out, is the
	 * caller's own (as a create fills its own owner field); given, it must be.
	 */
	private void fillParentOwners(Entity entity, Map<String, AttributeValue> stored, InputValues input,
			Ownership.Owners owners) {
		for (Entity parent : this.parents.getOrDefault(entity.name(), List.of())) {
			Optional<Ownership> owned = owners.under(parent);
			if (owned.isEmpty() || !parent.keyFields().contains(owned.get().field().name())) {
				continue;
			}
			String name = owned.get().field().name();
			AttributeField field = entity.fields().get(name);
			if (field != null && stored.get(name) == null) {
				stored.put(name, InputValues.write(field.type(), input.path(name), owned.get().identity()));
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
	private List<ItemWrite> underParents(Entity entity, Map<String, AttributeValue> stored, Map<String, AttributeValue> key,
			InputValues input, Ownership.Owners owners, Optional<Entity> with) {
		List<ItemWrite> checks = new ArrayList<>();
		for (Entity parent : this.parents.getOrDefault(entity.name(), List.of())) {
			if (with.filter(parent::equals).isPresent()) {
				continue;
			}
			Optional<Ownership> owned = owners.under(parent);
			if (owned.isEmpty()) {
				continue;
			}
			AttributeField owner = owned.get().field();
			String identity = owned.get().identity();
			String where = input.where().isEmpty() ? "The mutation" : "`" + input.where() + "`";
			if (parent.keyFields().contains(owner.name())) {
				String holder = text(stored.get(owner.name()));
				if (!identity.equals(holder)) {
					throw AccessDeniedException.forbidden(("%s writes under the %s of `%s` %s, and the caller is `%s`: a "
							+ "caller that owns its %s items writes %s items under its own only.").formatted(where,
									parent.name(), owner.name(), (holder != null) ? "`" + holder + "`" : "(none)", identity,
									parent.name(), entity.name()));
				}
				continue;
			}
			Map<String, AttributeValue> values = new LinkedHashMap<>();
			for (String name : parent.keyFields()) {
				AttributeField own = entity.fields().get(name);
				AttributeValue value = stored.get(name);
				if (own != null && value != null) {
					values.put(name, InputValues.write(parent.fields().get(name).type(), input.path(name), own.type().read(value)));
				}
			}
			Map<String, AttributeValue> parentKey = ItemComposer.key(parent, values, input.where());
			if (parent.table().equals(entity.table()) && parentKey.equals(key)) {
				continue; // the item is its own parent: its own rules decide
			}
			checks.add(new ItemWrite.CheckItem(input.where(), parent.table().physicalName(), parentKey,
					new Expressions().exists(parent.table().partitionKey().name(), true)
						.condition(new Filter(owner.attribute(), Filter.Op.EQ, List.of(AttributeValue.fromS(identity)))),
					AccessDeniedException.forbidden(("%s writes under the %s %s, which is not the caller's (`%s`), or does "
							+ "not exist: a caller that owns its %s items writes %s items under its own only. Nothing was "
							+ "written.").formatted(where, parent.name(), parent.node() ? "`" + id(parent, parentKey) + "`"
									: "of key " + parentKey, identity, parent.name(), entity.name())),
					true));
		}
		return checks;
	}

	private static AttributeValue generate(InputField.Value field, InputValues input, Generation now) {
		Object value = (field.generated().get() == Generated.NOW) ? now.time() : now.uuid(input.path(field.name()));
		return InputValues.write(field.target().type(), input.path(field.name()), value);
	}

	/**
	 * Checks that each referenced item exists, in the same transaction: its key filled from the values of the
	 * item written (given, generated or the owner filled in) by the names of its key's placeholders. Only the
	 * fields {@code written} says are checked: an update checks what it changes.
	 */
	private List<ItemWrite> references(Entity entity, Shape shape, InputValues input, Map<String, AttributeValue> stored,
			java.util.function.Predicate<String> written) {
		List<ItemWrite> checks = new ArrayList<>();
		for (InputField.Value field : shape.all(InputField.Value.class)) {
			AttributeValue value = stored.get(field.target().name());
			if (field.references().isEmpty() || value == null || !written.test(field.target().name())) {
				continue;
			}
			Entity referenced = field.references().get();
			Map<String, AttributeValue> values = new LinkedHashMap<>();
			for (String name : referenced.keyFields()) {
				new Parent(entity, stored).value(name, referenced.fields().get(name), input)
					.ifPresent((each) -> values.put(name, each));
			}
			Map<String, AttributeValue> key = ItemComposer.key(referenced, values, input.where());
			checks.add(new ItemWrite.CheckItem(input.path(field.name()), referenced.table().physicalName(), key,
					new Expressions().exists(referenced.table().partitionKey().name(), true),
					new NotFoundException("No %s `%s` exists: `%s` names one that must. Nothing was written."
						.formatted(referenced.name(), text(value), input.path(field.name()))),
					false));
		}
		return checks;
	}

	// ---- update

	private CompletableFuture<Plan> update(DeclaredMutation mutation, InputValues input, Ownership.Owners owners,
			ReadStats stats) {
		Entity entity = mutation.entity();
		Shape shape = mutation.input().shape();
		Map<String, AttributeValue> key = key(mutation, input);
		Optional<Ownership> owned = ownerNotInKey(entity, key, owners.of(entity), input);
		List<ItemWrite> parentChecks = underParents(entity, keyFields(entity, key), key, input, owners, Optional.empty());
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
		owners.of(entity).ifPresent((ownership) -> keepOwner(entity, ownership, changed, cleared, input));
		Map<String, AttributeValue> known = new LinkedHashMap<>(keyFields(entity, key));
		known.putAll(changed);
		List<String> unknown = ItemComposer.unknownPlaceholders(entity, changed.keySet(), cleared, known);
		CompletableFuture<Map<String, AttributeValue>> first = unknown.isEmpty() ? CompletableFuture.completedFuture(Map.of())
				: this.writer.get(entity.table().physicalName(), key,
						unknown.stream().map((name) -> entity.fields().get(name).attribute()).toList(), stats);
		return first.thenApply((stored) -> {
			Expressions expressions = new Expressions();
			changed.forEach((name, value) -> expressions.set(entity.fields().get(name).attribute(), value));
			cleared.forEach((name) -> expressions.remove(entity.fields().get(name).attribute()));
			Map<String, AttributeValue> values = new LinkedHashMap<>(known);
			Map<String, Optional<AttributeValue>> read = new LinkedHashMap<>();
			for (String name : unknown) {
				AttributeField field = entity.fields().get(name);
				Optional<AttributeValue> held = Optional.ofNullable(stored.get(field.attribute()));
				held.ifPresent((value) -> values.put(name, value));
				expressions.unchanged(field.attribute(), held);
				read.put(field.attribute(), held);
			}
			ItemComposer.recompose(entity, changed.keySet(), cleared, values, expressions, input);
			entity.version().ifPresent((version) -> expressions.increment(version.attribute()));
			if (expressions.update().isEmpty()) {
				throw new InvalidArgumentException("`%s` gives no field to update.".formatted(
						input.where().isEmpty() ? mutation.name() : input.where()));
			}
			expressions.exists(entity.table().partitionKey().name(), true);
			Optional<Long> expected = conditions(mutation, input, owned, expressions);
			List<ItemWrite> writes = new ArrayList<>();
			writes.add(new ItemWrite.UpdateItem(input.where(), entity.table().physicalName(), key, expressions));
			writes.addAll(parentChecks);
			writes.addAll(references(entity, shape, input, values, changed::containsKey));
			return new Plan(mutation, input, writes, Map.of(), owned, expected, false, read);
		});
	}

	/** The item's key: from its node id, or from its key fields. */
	private Map<String, AttributeValue> key(DeclaredMutation mutation, InputValues input) {
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
	private static Map<String, AttributeValue> keyFields(Entity entity, Map<String, AttributeValue> key) {
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
	private static Optional<Ownership> ownerNotInKey(Entity entity, Map<String, AttributeValue> key,
			Optional<Ownership> owned, InputValues input) {
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

	/** An update cannot give its item to another owner, nor take its owner away. */
	private static void keepOwner(Entity entity, Ownership ownership, Map<String, AttributeValue> changed,
			Set<String> cleared, InputValues input) {
		String owner = ownership.field().name();
		AttributeValue given = changed.get(owner);
		if (cleared.contains(owner) || (given != null && !ownership.identity().equals(text(given)))) {
			throw AccessDeniedException.forbidden("`%s` would give the %s to another owner: a caller that owns its items "
				.formatted(input.path(owner), entity.name()) + "keeps them its own.");
		}
	}

	// ---- replace

	private Plan replace(DeclaredMutation mutation, InputValues input, Ownership.Owners owners, Generation now) {
		Entity entity = mutation.entity();
		Shape shape = mutation.input().shape();
		Optional<Ownership> ownership = owners.of(entity);
		Map<String, AttributeValue> stored = values(entity, shape, input, owners, now, Optional.empty()).stored();
		boolean byId = shape.one(InputField.Id.class).isPresent();
		if (!byId) {
			fillParentOwners(entity, stored, input, owners);
		}
		Map<String, AttributeValue> key = byId ? key(mutation, input) : ItemComposer.key(entity, stored, input.where());
		// An id names its item, owner and all: it must be the caller's own, as for an update or a delete.
		ownerNotInKey(entity, key, ownership, input);
		stored.putAll(keyFields(entity, key));
		List<ItemWrite> parentChecks = underParents(entity, keyFields(entity, key), key, input, owners, Optional.empty());
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
		ownership.ifPresent((owned) -> expressions.ownedOrAbsent(entity.table().partitionKey().name(),
				owned.field().attribute(), owned.identity()));
		Optional<Long> expected = conditions(mutation, input, Optional.empty(), expressions);
		List<ItemWrite> writes = new ArrayList<>();
		writes.add(new ItemWrite.UpdateItem(input.where(), entity.table().physicalName(), key, expressions));
		writes.addAll(parentChecks);
		writes.addAll(references(entity, shape, input, stored, (name) -> true));
		return new Plan(mutation, input, writes, Map.of(), ownership, expected, false, Map.of());
	}

	// ---- delete

	private Plan delete(DeclaredMutation mutation, InputValues input, Ownership.Owners owners) {
		Entity entity = mutation.entity();
		Map<String, AttributeValue> key = key(mutation, input);
		Optional<Ownership> owned = ownerNotInKey(entity, key, owners.of(entity), input);
		List<ItemWrite> parentChecks = underParents(entity, keyFields(entity, key), key, input, owners, Optional.empty());
		Expressions expressions = new Expressions();
		owned.ifPresent((ownership) -> expressions.ownedOrAbsent(entity.table().partitionKey().name(),
				ownership.field().attribute(), ownership.identity()));
		Optional<Long> expected = conditions(mutation, input, Optional.empty(), expressions);
		List<ItemWrite> writes = new ArrayList<>();
		writes.add(new ItemWrite.DeleteItem(input.where(), entity.table().physicalName(), key, expressions));
		writes.addAll(parentChecks);
		return new Plan(mutation, input, writes, Map.of(), owned, expected, false, Map.of());
	}

	// ---- conditions

	/**
	 * Adds the conditions on the stored item: the owner (when a condition checks it), the expected version, the
	 * client's conditions and the field's own.
	 * @return the expected version, if the client gave one
	 */
	private static Optional<Long> conditions(DeclaredMutation mutation, InputValues input, Optional<Ownership> owned,
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
