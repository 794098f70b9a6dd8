package dev.dynamorelay.declaration;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

import graphql.language.Directive;
import graphql.language.DirectivesContainer;
import graphql.language.FieldDefinition;
import graphql.language.InputObjectTypeDefinition;
import graphql.language.InputValueDefinition;
import graphql.language.ListType;
import graphql.language.Node;
import graphql.language.Type;

import dev.dynamorelay.declaration.DeclaredMutation.Condition;
import dev.dynamorelay.declaration.DeclaredMutation.Input;
import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Kind;
import dev.dynamorelay.declaration.DeclaredMutation.Shape;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.ValueType;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.KeyMistake;
import dev.dynamorelay.schema.Problem.MisplacedDirective;
import dev.dynamorelay.schema.Problem.MissingArgument;
import dev.dynamorelay.schema.Problem.NotStored;
import dev.dynamorelay.schema.Problem.UnsupportedCombination;
import dev.dynamorelay.schema.Problem.UselessArgument;
import dev.dynamorelay.schema.Problem.WrongType;
import dev.dynamorelay.schema.Problem;
import dev.dynamorelay.schema.Suggestions;

import static dev.dynamorelay.declaration.Directives.directive;
import static dev.dynamorelay.declaration.Directives.enumValue;
import static dev.dynamorelay.declaration.Directives.string;
import static dev.dynamorelay.declaration.Directives.typeName;
import static dev.dynamorelay.declaration.Directives.unwrapNonNull;

/**
 * Reads where a mutation's values come from: its {@code input} object (or a list of them) or its arguments,
 * and the role of each input field in the write (a value of the written type, its id, the expected version, a
 * condition, the idempotency key, the children written with it), each checked against the written type.
 */
final class InputReader {

	/** The argument that holds a mutation's input object, by convention (Relay's too). */
	static final String INPUT = "input";

	/** Relay's field, answered as given. */
	static final String CLIENT_MUTATION_ID = "clientMutationId";

	private final Reading reading;

	private final InputValueReader values;

	InputReader(Reading reading) {
		this.reading = reading;
		this.values = new InputValueReader(reading);
	}

	Input input(String coordinates, Kind kind, Entity entity, FieldDefinition field) {
		InputValueDefinition argument = field.getInputValueDefinitions()
			.stream()
			.filter((each) -> each.getName().equals(INPUT))
			.findFirst()
			.orElse(null);
		InputObjectTypeDefinition object = (argument != null) ? inputObject(argument.getType()) : null;
		if (argument != null && object != null) {
			Optional<String> idempotency = Optional.empty();
			for (InputValueDefinition other : field.getInputValueDefinitions()) {
				if (other != argument && directive(other, "idempotencyKey") != null) {
					if (textOnly("`%s(%s:)`".formatted(coordinates, other.getName()), other, "`@idempotencyKey`")) {
						idempotency = Optional.of(other.getName());
					}
				}
				else if (other != argument) {
					this.reading.problem(other, UselessArgument::new,
							"argument `%s` of `%s` does nothing: the values of a mutation with an `input` "
						.formatted(other.getName(), coordinates) + "come from it; move the argument into its input type.");
				}
			}
			boolean many = unwrapNonNull(argument.getType()) instanceof ListType;
			Shape shape = shape(object.getName(), kind, entity, inputFields(object), 0);
			return (shape != null) ? new Input(Optional.of(INPUT), many, shape, idempotency) : null;
		}
		Shape shape = shape(coordinates, kind, entity, field.getInputValueDefinitions(), 0);
		return (shape != null) ? new Input(Optional.empty(), false, shape, Optional.empty()) : null;
	}

	private InputObjectTypeDefinition inputObject(Type<?> type) {
		return this.reading.registry.getType(typeName(type), InputObjectTypeDefinition.class).orElse(null);
	}

	private List<InputValueDefinition> inputFields(InputObjectTypeDefinition object) {
		List<InputValueDefinition> fields = new ArrayList<>(object.getInputValueDefinitions());
		this.reading.registry.inputObjectTypeExtensions()
			.getOrDefault(object.getName(), List.of())
			.forEach((extension) -> fields.addAll(extension.getInputValueDefinitions()));
		return fields;
	}

	/** The roles of an input object's fields (or a field's arguments) in a write of {@code entity}. */
	private Shape shape(String typeName, Kind kind, Entity entity, List<InputValueDefinition> fields, int depth) {
		return shape(typeName, kind, entity, fields, depth, Set.of());
	}

	/**
	 * As above, for a child input whose parent input has fields {@code inherited}: the key fields a child leaves
	 * out are taken from them.
	 */
	private Shape shape(String typeName, Kind kind, Entity entity, List<InputValueDefinition> fields, int depth,
			Set<String> inherited) {
		int problems = this.reading.problems.size();
		Map<String, InputField> roles = new LinkedHashMap<>();
		Set<String> names = Set.copyOf(fields.stream().map(InputValueDefinition::getName).toList());
		for (InputValueDefinition field : fields) {
			InputField role = role(typeName, kind, entity, field, depth, names);
			if (role != null) {
				roles.put(field.getName(), role);
			}
		}
		Shape shape = new Shape(typeName, roles);
		checkShape(typeName, kind, entity, shape, fields, inherited);
		return (this.reading.problems.size() == problems) ? shape : null;
	}

	private InputField role(String typeName, Kind kind, Entity entity, InputValueDefinition field, int depth,
			Set<String> siblings) {
		String where = "`%s.%s`".formatted(typeName, field.getName());
		Directive children = directive(field, "children");
		if (children != null) {
			return children(where, kind, entity, field, children, depth, siblings);
		}
		if (directive(field, "idempotencyKey") != null) {
			return textOnly(where, field, "`@idempotencyKey`") ? new InputField.IdempotencyKey(field.getName()) : null;
		}
		if (directive(field, "expectedVersion") != null) {
			return expectedVersion(where, kind, entity, field);
		}
		Directive condition = directive(field, "condition");
		if (condition != null) {
			return conditional(where, kind, entity, field, condition);
		}
		if (field.getName().equals(CLIENT_MUTATION_ID) && entity.fields().get(CLIENT_MUTATION_ID) == null) {
			return textOnly(where, field, "`clientMutationId`") ? new InputField.ClientMutationId(field.getName()) : null;
		}
		if (field.getName().equals("id") && typeName(field.getType()).equals("ID") && entity.node()) {
			if (kind == Kind.CREATE) {
				this.reading.problem(field, UselessArgument::new,
						("%s is an `id`, but a create composes the id from the key fields of `%s`: "
						+ "remove it.").formatted(where, entity.name()));
				return null;
			}
			return new InputField.Id(field.getName());
		}
		return this.values.value(where, kind, entity, field);
	}

	private boolean textOnly(String where, InputValueDefinition field, String what) {
		if (!typeName(field.getType()).equals("String") || unwrapNonNull(field.getType()) instanceof ListType) {
			this.reading.problem(field, WrongType::new, "%s is %s: declare it as a `String`.".formatted(where, what));
			return false;
		}
		return true;
	}

	/**
	 * The children a create's input writes with its item ({@code @children}). Each child is under the item
	 * written with it, and under no other: the child type's key holds every key field of {@code parent}
	 * (otherwise the children of two parents would share their keys, and one parent's writer reach the other's
	 * children), and the child's input gives none of them (it takes them from its parent).
	 */
	private InputField children(String where, Kind kind, Entity parent, InputValueDefinition field,
			Directive directive, int depth, Set<String> parentFields) {
		String typeName = string(directive, "type");
		Entity child = this.reading.entities.get(typeName);
		InputObjectTypeDefinition object = inputObject(field.getType());
		if (kind != Kind.CREATE || depth > 0) {
			this.reading.problem(directive, MisplacedDirective::new,
					"%s has `@children`, which creates items with the one a create writes: only "
				.formatted(where) + "a create's input (not a child's) may have them.");
			return null;
		}
		if (child == null) {
			if (this.reading.isUnreadable(typeName)) {
				return null;
			}
			this.reading.problem(Directives.argumentValue(directive, "type"), NotStored::new,
					"%s creates `%s` children, which are stored in "
				.formatted(where, typeName) + "no table: give it a `@table`.%s"
					.formatted(Suggestions.didYouMean(typeName, this.reading.entities.keySet())));
			return null;
		}
		if (!(unwrapNonNull(field.getType()) instanceof ListType) || object == null) {
			this.reading.problem(field, WrongType::new,
					"%s has `@children`: declare it as a list of input objects, e.g. `[LineInput!]`."
				.formatted(where));
			return null;
		}
		List<String> lacking = parent.keyFields().stream().filter((name) -> !child.keyFields().contains(name)).toList();
		if (!lacking.isEmpty()) {
			this.reading.problem(directive, KeyMistake::new,
					("%s creates `%s` children of `%s` items, but the key of `%s` has no %s of the "
					+ "key of `%s`: the children of two `%s` items would share their keys, and the writer of one reach the "
					+ "other's. Put every key field of `%s` (%s) into the key of `%s`.").formatted(where, typeName,
							parent.name(), typeName, fieldList(lacking), parent.name(), parent.name(), parent.name(),
							fieldList(parent.keyFields()), typeName));
			return null;
		}
		List<InputValueDefinition> childFields = inputFields(object);
		int problems = this.reading.problems.size();
		for (InputValueDefinition childField : childFields) {
			if (parent.keyFields().contains(childField.getName())) {
				this.reading.problem(childField, KeyMistake::new,
						("`%s.%s` would name the `%s` a child is under, which is the one it is "
						+ "created with: a child takes the key fields of `%s` (%s) from it; remove `%s`.").formatted(
								object.getName(), childField.getName(), parent.name(), parent.name(),
								fieldList(parent.keyFields()), childField.getName()));
			}
		}
		if (this.reading.problems.size() > problems) {
			return null;
		}
		Shape shape = shape(object.getName(), Kind.CREATE, child, childFields, depth + 1, parentFields);
		return (shape != null) ? new InputField.Children(field.getName(), child, shape) : null;
	}

	private InputField expectedVersion(String where, Kind kind, Entity entity, InputValueDefinition field) {
		if (entity.version().isEmpty()) {
			this.reading.problem(field, UnsupportedCombination::new,
					"%s has `@expectedVersion`, but `%s` has no `@version` field to compare."
				.formatted(where, entity.name()));
			return null;
		}
		if (kind == Kind.CREATE) {
			this.reading.problem(field, UnsupportedCombination::new,
					"%s has `@expectedVersion`, but a create writes an item that does not exist yet."
				.formatted(where));
			return null;
		}
		if (!Set.of("Int", "Long").contains(typeName(field.getType())) || unwrapNonNull(field.getType()) instanceof ListType) {
			this.reading.problem(field, WrongType::new,
					"%s has `@expectedVersion`: declare it as an `Int` or `Long`.".formatted(where));
			return null;
		}
		return new InputField.ExpectedVersion(field.getName());
	}

	private InputField conditional(String where, Kind kind, Entity entity, InputValueDefinition field,
			Directive directive) {
		if (kind == Kind.CREATE) {
			this.reading.problem(directive, UnsupportedCombination::new,
					"%s has `@condition`, but a create writes an item that does not exist yet."
				.formatted(where));
			return null;
		}
		if (string(directive, "value") != null) {
			this.reading.problem(Directives.argumentValue(directive, "value"), MisplacedDirective::new,
					"%s has `@condition` with a `value`: on an "
				.formatted(where) + "input field the client gives the value; a constant condition belongs on the mutation field.");
			return null;
		}
		Condition condition = condition(where, entity, directive, field.getName(), field.getType(), field);
		return (condition != null) ? new InputField.Conditional(field.getName(), condition) : null;
	}

	/** A condition with the type its value is written as: the compared field's, else the input's own. */
	Condition condition(String where, Entity entity, Directive directive, String defaultAttribute,
			Type<?> inputType, DirectivesContainer<?> at) {
		String attribute = Optional.ofNullable(string(directive, "attribute")).orElse(defaultAttribute);
		if (attribute == null) {
			this.reading.problem(directive, MissingArgument::new,
					"%s: `@condition` needs the `attribute` it compares.".formatted(where));
			return null;
		}
		Filter.Op op = Filter.Op.valueOf(enumValue(directive, "op"));
		boolean list = inputType != null && unwrapNonNull(inputType) instanceof ListType;
		if ((op == Filter.Op.IN) != list && inputType != null) {
			this.reading.problem(directive, WrongType::new,
					(op == Filter.Op.IN) ? "%s is IN: declare it as a list, e.g. `[String!]`."
				.formatted(where) : "%s takes one value; only IN takes a list.".formatted(where));
			return null;
		}
		ValueType type = entity.fieldOf(attribute)
			.map(AttributeField::type)
			.or(() -> Optional.ofNullable((inputType != null) ? this.reading.valueType(inputType, at) : null))
			.orElse(new ValueType.Text());
		if (type instanceof ValueType.ListOf listOf) {
			type = listOf.element();
		}
		return new Condition(attribute, op, type, Optional.empty());
	}

	/** What a whole input must hold for the write: the key of the item, and no key field an update would change. */
	private void checkShape(String typeName, Kind kind, Entity entity, Shape shape, List<InputValueDefinition> fields,
			Set<String> inherited) {
		Node<?> at = fields.isEmpty() ? null : fields.get(0);
		List<String> keyFields = entity.keyFields();
		boolean byId = shape.one(InputField.Id.class).isPresent();
		// A key field the input has, but whose own problem (e.g. its type) is reported, is not missing too.
		Set<String> written = new java.util.HashSet<>(fields.stream().map(InputValueDefinition::getName).toList());
		List<String> missing = keyFields.stream()
			.filter((name) -> !(shape.fields().get(name) instanceof InputField.Value) && !inherited.contains(name)
					&& !(written.contains(name) && !shape.fields().containsKey(name)))
			.toList();
		switch (kind) {
			case CREATE, REPLACE -> {
				if (!missing.isEmpty() && !(kind == Kind.REPLACE && byId)) {
					problemAt(at, typeName, MissingArgument::new,
							"`%s` %ss a `%s`, whose key needs %s: add %s to `%s`.".formatted(typeName,
							kind.directive(), entity.name(), fieldList(keyFields), fieldList(missing), typeName));
				}
			}
			case UPDATE, DELETE -> {
				if (byId) {
					List<String> given = keyFields.stream().filter(shape.fields()::containsKey).toList();
					if (!given.isEmpty()) {
						problemAt(at, typeName, UselessArgument::new,
								("`%s` names the item by `id`, and has key field%s %s, which %s cannot "
								+ "change: remove %s.").formatted(typeName, (given.size() > 1) ? "s" : "", fieldList(given),
										(kind == Kind.UPDATE) ? "an update" : "a delete", fieldList(given)));
					}
				}
				else if (!missing.isEmpty()) {
					problemAt(at, typeName, MissingArgument::new,
							("`%s` %ss a `%s` named by an `id: ID` or by its key fields %s: add %s, or an "
							+ "`id: ID!`.").formatted(typeName, kind.directive(), entity.name(), fieldList(keyFields),
									fieldList(missing)));
				}
			}
		}
		if (kind == Kind.DELETE) {
			for (InputField.Value value : shape.all(InputField.Value.class)) {
				if (!keyFields.contains(value.name())) {
					problemAt(fields.stream().filter((f) -> f.getName().equals(value.name())).findFirst().orElse(null),
							typeName, UselessArgument::new,
									"`%s.%s` does nothing: a delete writes no values; remove it, or make it a `@condition`."
								.formatted(typeName, value.name()));
				}
			}
		}
	}

	private void problemAt(Node<?> at, String typeName, BiFunction<Location, String, Problem> kind, String message) {
		Node<?> where = (at != null) ? at : this.reading.registry.getType(typeName).orElse(null);
		this.reading.problem(where, kind, message);
	}

	static String fieldList(List<String> names) {
		return String.join(", ", names.stream().map((name) -> "`" + name + "`").toList());
	}

}
