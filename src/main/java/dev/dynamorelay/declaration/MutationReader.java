package dev.dynamorelay.declaration;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import graphql.language.Directive;
import graphql.language.FieldDefinition;
import graphql.language.InputValueDefinition;
import graphql.language.ListType;
import graphql.language.Node;
import graphql.language.ObjectTypeDefinition;
import graphql.language.Type;
import graphql.schema.FieldCoordinates;

import dev.dynamorelay.declaration.DeclaredMutation.Answer;
import dev.dynamorelay.declaration.DeclaredMutation.Condition;
import dev.dynamorelay.declaration.DeclaredMutation.Input;
import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Kind;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.ValueType;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.ConflictingDeclarations;
import dev.dynamorelay.schema.Problem.InvalidValue;
import dev.dynamorelay.schema.Problem.MisplacedDirective;
import dev.dynamorelay.schema.Problem.MissingArgument;
import dev.dynamorelay.schema.Problem.NotStored;
import dev.dynamorelay.schema.Problem.UnknownName;
import dev.dynamorelay.schema.Problem.UnsupportedCombination;
import dev.dynamorelay.schema.Problem.UselessArgument;
import dev.dynamorelay.schema.Problem.WrongAnswer;
import dev.dynamorelay.schema.Suggestions;

import static dev.dynamorelay.declaration.Directives.directive;
import static dev.dynamorelay.declaration.Directives.enumValue;
import static dev.dynamorelay.declaration.Directives.string;
import static dev.dynamorelay.declaration.Directives.typeName;
import static dev.dynamorelay.declaration.Directives.unwrapNonNull;

/**
 * Reads the mutation fields ({@code @create}, {@code @update}, {@code @replace}, {@code @delete}) into
 * what each writes, from which input values, under which conditions, and what it answers; every mistake is
 * reported with its file and line.
 */
final class MutationReader {

	private static final String DELETED_ID = "deletedId";

	private final Reading reading;

	private final List<DeclaredMutation> mutations = new ArrayList<>();

	private final InputReader inputs;

	MutationReader(Reading reading) {
		this.reading = reading;
		this.inputs = new InputReader(reading);
	}

	/** The mutations read; a field with a problem is left out (the start fails with the problem). */
	List<DeclaredMutation> mutations() {
		return this.mutations;
	}

	/** Whether {@code field} is declared as a mutation of one of the four kinds. */
	static boolean isMutation(FieldDefinition field) {
		return kinds(field).size() > 0;
	}

	private static List<Kind> kinds(FieldDefinition field) {
		return java.util.Arrays.stream(Kind.values()).filter((kind) -> field.hasDirective(kind.directive())).toList();
	}

	/** Reads one field of any type that carries a mutation directive. */
	void read(ObjectTypeDefinition type, FieldDefinition field) {
		String coordinates = type.getName() + "." + field.getName();
		List<Kind> kinds = kinds(field);
		Directive directive = directive(field, kinds.get(0).directive());
		if (!type.getName().equals("Mutation")) {
			this.reading.problem(directive, MisplacedDirective::new,
					"`%s` has `@%s`, which declares a field of `Mutation` only."
				.formatted(coordinates, kinds.get(0).directive()));
			return;
		}
		if (kinds.size() > 1) {
			this.reading.problem(field, ConflictingDeclarations::new,
					"`%s` has more than one of `@create`, `@update`, `@replace` and `@delete`: keep one."
				.formatted(coordinates));
			return;
		}
		Kind kind = kinds.get(0);
		int problems = this.reading.problems.size();
		Entity entity = entity(coordinates, field, directive);
		if (entity == null) {
			return;
		}
		Input input = this.inputs.input(coordinates, kind, entity, field);
		List<Condition> conditions = fieldConditions(coordinates, kind, entity, field);
		Answer answer = answer(coordinates, kind, entity, field, input);
		if (input != null && answer != null && this.reading.problems.size() == problems) {
			this.mutations.add(new DeclaredMutation(FieldCoordinates.coordinates(type.getName(), field.getName()), kind,
					entity, input, conditions, answer));
		}
	}

	// ---- the type written

	/** The type the mutation writes: {@code type}, else the type it returns (or its payload holds). */
	private Entity entity(String coordinates, FieldDefinition field, Directive directive) {
		String named = string(directive, "type");
		if (this.reading.holdsUnreadable(field.getType()) || (named != null && this.reading.isUnreadable(named))) {
			// What it writes or answers has a problem in its table or key, reported already.
			return null;
		}
		Entity returned = returnedEntity(field.getType());
		if (named != null) {
			Entity entity = this.reading.entities.get(named);
			if (entity == null) {
				if (!this.reading.isUnreadable(named)) {
					graphql.language.Node<?> wrong = Directives.argumentValue(directive, "type");
					this.reading.problem(wrong, NotStored::new, "`%s` writes `%s`, which is stored in no "
						.formatted(coordinates, named) + "table: give it a `@table`.%s"
							.formatted(Suggestions.didYouMean(named, this.reading.entities.keySet())));
				}
				return null;
			}
			if (returned != null && returned != entity) {
				graphql.language.Node<?> wrong = Directives.argumentValue(directive, "type");
				this.reading.problem(wrong, WrongAnswer::new,
						"`%s` writes `%s` but answers `%s`: answer the type it writes."
					.formatted(coordinates, named, returned.name()));
				return null;
			}
			return entity;
		}
		if (returned == null) {
			String answered = typeName(field.getType());
			if (!this.reading.isUnreadable(answered)) {
				this.reading.problem(directive, MissingArgument::new,
						("`%s` answers `%s`, which tells no type to write: name it with "
						+ "`@%s(type: \"...\")`, or answer the type (or a payload with a field of it).")
					.formatted(coordinates, answered, directive.getName()));
			}
		}
		return returned;
	}

	/** The declared type a mutation's answer is, or its payload's one field of a declared type holds. */
	private Entity returnedEntity(Type<?> type) {
		String name = typeName(type);
		Entity entity = this.reading.entities.get(name);
		if (entity != null) {
			return entity;
		}
		ObjectTypeDefinition payload = this.reading.objectType(name);
		if (payload == null) {
			return null;
		}
		List<Entity> held = this.reading.fields(payload)
			.stream()
			.map((each) -> this.reading.entities.get(typeName(each.getType())))
			.filter(java.util.Objects::nonNull)
			.distinct()
			.toList();
		return (held.size() == 1) ? held.get(0) : null;
	}

	// ---- the input

	private List<Condition> fieldConditions(String coordinates, Kind kind, Entity entity, FieldDefinition field) {
		List<Condition> conditions = new ArrayList<>();
		for (Directive directive : field.getDirectives("condition")) {
			if (kind == Kind.CREATE) {
				this.reading.problem(directive, UnsupportedCombination::new,
						"`%s` has `@condition`, but a create writes an item that does not exist yet."
					.formatted(coordinates));
				continue;
			}
			String text = string(directive, "value");
			Filter.Op op = Filter.Op.valueOf(enumValue(directive, "op"));
			if (text == null) {
				this.reading.problem(directive, MissingArgument::new,
						("`%s`: a `@condition` on a mutation field needs the `value` it compares "
						+ "with (for EXISTS, `true` or `false`).").formatted(coordinates));
				continue;
			}
			Condition condition = this.inputs.condition("`" + coordinates + "`", entity, directive, null, null, field);
			if (condition == null) {
				continue;
			}
			if (op == Filter.Op.EXISTS) {
				condition = new Condition(condition.attribute(), op, new ValueType.Bool(), Optional.empty());
			}
			if (op == Filter.Op.IN) {
				this.reading.problem(directive, UnsupportedCombination::new,
						"`%s`: a constant `@condition` compares one value; IN needs a list input."
					.formatted(coordinates));
				continue;
			}
			Object value = constant(coordinates, directive, condition, text);
			if (value != null) {
				conditions.add(new Condition(condition.attribute(), op, condition.type(), Optional.of(value)));
			}
		}
		return conditions;
	}

	/** A constant condition's value, as the client would give it for the compared field. */
	private Object constant(String coordinates, Directive directive, Condition condition, String text) {
		ValueType type = condition.type();
		try {
			Object value = text;
			if (type instanceof ValueType.Number) {
				value = new java.math.BigDecimal(text);
			}
			else if (type instanceof ValueType.Bool) {
				value = switch (text) {
					case "true" -> Boolean.TRUE;
					case "false" -> Boolean.FALSE;
					default -> throw new IllegalArgumentException("not a boolean");
				};
			}
			type.write("value", value);
			return value;
		}
		catch (RuntimeException ex) {
			graphql.language.Node<?> wrong = Directives.argumentValue(directive, "value");
			this.reading.problem(wrong, InvalidValue::new, "`%s`: `@condition` value `%s` is not %s, as `%s` stores."
				.formatted(coordinates, text, InputValueReader.describe(type), condition.attribute()));
			return null;
		}
	}

	// ---- the answer

	private Answer answer(String coordinates, Kind kind, Entity entity, FieldDefinition field, Input input) {
		Type<?> type = unwrapNonNull(field.getType());
		boolean list = type instanceof ListType;
		String name = typeName(type);
		boolean many = input != null && input.many();
		if (list != many) {
			this.reading.problem(field, WrongAnswer::new,
					(list ? "`%s` answers a list, but its `input` is one object: answer one."
					: "`%s` takes a list `input`: answer a list of what it writes.").formatted(coordinates));
			return null;
		}
		if (name.equals(entity.name())) {
			return new Answer.Node();
		}
		if (name.equals("ID")) {
			return new Answer.Id();
		}
		ObjectTypeDefinition payload = this.reading.objectType(name);
		if (payload == null || this.reading.entities.containsKey(name)) {
			this.reading.problem(field, WrongAnswer::new,
					("`%s` answers `%s`: answer the type it writes (`%s`), its `ID`, or a payload type "
					+ "with fields of them.").formatted(coordinates, name, entity.name()));
			return null;
		}
		return payload(coordinates, kind, entity, payload, input);
	}

	private Answer payload(String coordinates, Kind kind, Entity entity, ObjectTypeDefinition payload, Input input) {
		Optional<String> node = Optional.empty();
		Optional<String> deletedId = Optional.empty();
		Optional<String> clientMutationId = Optional.empty();
		List<DeclaredMutation.EdgeField> edges = new ArrayList<>();
		for (FieldDefinition field : this.reading.fields(payload)) {
			String where = "`%s.%s`".formatted(payload.getName(), field.getName());
			String type = typeName(field.getType());
			Directive edge = directive(field, "edge");
			if (edge != null) {
				DeclaredMutation.EdgeField read = edge(where, entity, field, edge);
				if (read != null) {
					edges.add(read);
				}
			}
			else if (type.equals(entity.name())) {
				node = Optional.of(field.getName());
			}
			else if (field.getName().equals(DELETED_ID) && type.equals("ID")) {
				deletedId = Optional.of(field.getName());
			}
			else if (field.getName().equals(InputReader.CLIENT_MUTATION_ID) && type.equals("String")) {
				if (input != null && input.shape().one(InputField.ClientMutationId.class).isEmpty()) {
					this.reading.problem(field, WrongAnswer::new,
							"%s answers the input's `clientMutationId`, which `%s` does not take: add it."
						.formatted(where, input.shape().typeName()));
				}
				clientMutationId = Optional.of(field.getName());
			}
			else {
				this.reading.problem(field, WrongAnswer::new,
						("%s is nothing `%s` can answer: a payload holds the item (`%s`), its edge "
						+ "(`@edge`), `deletedId: ID` and `clientMutationId: String`.").formatted(where, coordinates,
								entity.name()));
			}
		}
		if (kind == Kind.DELETE && !edges.isEmpty()) {
			this.reading.problem(payload, WrongAnswer::new,
					"`%s` answers edges, but a delete leaves none: answer `deletedId`."
				.formatted(payload.getName()));
		}
		if (kind != Kind.DELETE && deletedId.isPresent()) {
			this.reading.problem(payload, WrongAnswer::new,
					"`%s` answers `deletedId`, but `%s` deletes nothing.".formatted(payload.getName(),
					coordinates));
		}
		return new Answer.Payload(payload.getName(), node, edges, deletedId, clientMutationId);
	}

	private DeclaredMutation.EdgeField edge(String where, Entity entity, FieldDefinition field, Directive directive) {
		String name = string(directive, "connection");
		DeclaredConnection connection = this.reading.connections.stream()
			.filter((each) -> each.name().equals(name))
			.findFirst()
			.orElse(null);
		if (connection == null) {
			if (!this.reading.isFailedConnection(name)) {
				graphql.language.Node<?> wrong = Directives.argumentValue(directive, "connection");
				this.reading.problem(UnknownName.of(Location.of(wrong), ("%s is the edge of `%s`, which is no declared "
						+ "connection (`Type.field` of a `@query` or `@scan` field).").formatted(where, name), name,
						this.reading.connectionNames()));
			}
			return null;
		}
		if (!connection.nodes().contains(entity)) {
			graphql.language.Node<?> wrong = Directives.argumentValue(directive, "connection");
			this.reading.problem(wrong, WrongAnswer::new,
					"%s is the edge of `%s`, whose nodes are %s, not `%s`.".formatted(where, name,
					InputReader.fieldList(connection.nodes().stream().map(Entity::name).toList()), entity.name()));
			return null;
		}
		String edgeType = typeName(field.getType());
		ObjectTypeDefinition edge = this.reading.objectType(edgeType);
		if (edge == null || this.reading.field(edge, "cursor") == null || this.reading.field(edge, "node") == null) {
			this.reading.problem(field, WrongAnswer::new,
					"%s has `@edge`: answer an edge type (with `cursor` and `node`), e.g. `%sEdge`."
				.formatted(where, entity.name()));
			return null;
		}
		Set<String> arguments = new java.util.HashSet<>();
		connection.sortArguments().forEach((argument) -> arguments.add(argument.name()));
		connection.filterArguments().forEach((argument) -> arguments.add(argument.name()));
		connection.orderArgument().ifPresent(arguments::add);
		for (InputValueDefinition argument : field.getInputValueDefinitions()) {
			if (!arguments.contains(argument.getName())) {
				this.reading.problem(argument, UselessArgument::new,
						("argument `%s` of %s is none of `%s`'s sort-key, filter and order arguments "
						+ "(%s): an edge field takes those only.").formatted(argument.getName(), where, name,
								arguments.isEmpty() ? "it has none" : InputReader.fieldList(List.copyOf(arguments))));
			}
		}
		return new DeclaredMutation.EdgeField(field.getName(), connection);
	}

}
