package dev.dynamorelay.declaration;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import graphql.language.Directive;
import graphql.language.FieldDefinition;
import graphql.language.InputValueDefinition;
import graphql.language.ObjectTypeDefinition;
import graphql.schema.FieldCoordinates;

import dev.dynamorelay.declaration.DeclaredSubscription.ChangeType;
import dev.dynamorelay.model.KeyValue;
import dev.dynamorelay.model.ValueType;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.MisplacedDirective;
import dev.dynamorelay.schema.Problem.MissingArgument;
import dev.dynamorelay.schema.Problem.UnknownName;
import dev.dynamorelay.schema.Problem.UselessArgument;
import dev.dynamorelay.schema.Problem.WrongAnswer;
import dev.dynamorelay.schema.Problem.WrongType;

import static dev.dynamorelay.declaration.Directives.directive;
import static dev.dynamorelay.declaration.Directives.string;
import static dev.dynamorelay.declaration.Directives.typeName;

/**
 * Reads the live connections ({@code @live} on {@code Subscription} fields): the connection each keeps current,
 * how its arguments fill the connection's partition and conditions, and the change type it answers.
 */
final class LiveReader {

	/** The argument that holds the event id to resume after. */
	static final String AFTER = "after";

	private final Reading reading;

	private final java.util.List<DeclaredSubscription> subscriptions = new java.util.ArrayList<>();

	LiveReader(Reading reading) {
		this.reading = reading;
	}

	List<DeclaredSubscription> subscriptions() {
		return this.subscriptions;
	}

	void read(ObjectTypeDefinition type, FieldDefinition field) {
		Directive live = directive(field, "live");
		String coordinates = type.getName() + "." + field.getName();
		if (!type.getName().equals("Subscription")) {
			this.reading.problem(live, MisplacedDirective::new,
					"`%s` has `@live`, which declares a field of `Subscription` only.".formatted(coordinates));
			return;
		}
		String name = string(live, "connection");
		DeclaredConnection connection = this.reading.connections.stream()
			.filter((each) -> each.name().equals(name))
			.findFirst()
			.orElse(null);
		if (connection == null) {
			if (!this.reading.isFailedConnection(name)) {
				this.reading.problem(UnknownName.of(Location.of(Directives.argumentValue(live, "connection")),
						("`%s` keeps `%s` live, which is no declared connection (`Type.field` of a `@query` or `@scan` "
								+ "field).").formatted(coordinates, name), name, this.reading.connectionNames()));
			}
			return;
		}
		int problems = this.reading.problems.size();
		Optional<KeyValue> partition = partition(coordinates, field, connection);
		Optional<String> after = arguments(coordinates, field, connection);
		ChangeType change = change(coordinates, field, connection);
		if (change != null && this.reading.problems.size() == problems) {
			this.subscriptions.add(new DeclaredSubscription(FieldCoordinates.coordinates(type.getName(), field.getName()),
					connection, partition, after, change));
		}
	}

	/** The connection's partition template, each placeholder filled from the argument of its name. */
	private Optional<KeyValue> partition(String coordinates, FieldDefinition field, DeclaredConnection connection) {
		if (connection.partition().isEmpty()) {
			return Optional.empty();
		}
		KeyValue declared = connection.partition().get();
		Map<String, KeyValue.Source> sources = new HashMap<>();
		for (String placeholder : declared.template().placeholders()) {
			InputValueDefinition argument = Directives.argument(field, placeholder);
			if (argument == null) {
				this.reading.problem(field, MissingArgument::new,
						("`%s` keeps a partition of `%s` live, whose key fills `{%s}`: add the argument "
						+ "`%s`.").formatted(coordinates, connection.name(), placeholder, placeholder));
				continue;
			}
			ValueType type = declared.sources().get(placeholder).type();
			ValueType given = this.reading.valueType(argument.getType(), argument);
			if (given == null || given.keyType().isEmpty() || !given.keyType().equals(type.keyType())
					&& !(type instanceof ValueType.Timestamp && given instanceof ValueType.Text)) {
				this.reading.problem(argument, WrongType::new,
						"argument `%s` of `%s` fills `{%s}`, stored as %s: declare it as %s."
					.formatted(placeholder, coordinates, placeholder, type.keyType().map(Object::toString).orElse("a string"),
							(type instanceof ValueType.Timestamp) ? "a `String` of ISO-8601 instants"
									: type.keyType().map((key) -> switch (key) {
										case N -> "a number";
										case B -> "`Bytes`";
										default -> "`String` or `ID`";
									}).orElse("`String`")));
				continue;
			}
			sources.put(placeholder, new KeyValue.Source(placeholder, true, type));
		}
		return Optional.of(new KeyValue(declared.attribute(), declared.template(), sources, declared.keyType(),
				declared.maxBytes()));
	}

	/** Checks the field's other arguments: the connection's own, or {@code after}. */
	private Optional<String> arguments(String coordinates, FieldDefinition field, DeclaredConnection connection) {
		Set<String> own = new java.util.HashSet<>();
		connection.sortArguments().forEach((argument) -> own.add(argument.name()));
		connection.filterArguments().forEach((argument) -> own.add(argument.name()));
		connection.orderArgument().ifPresent(own::add);
		Set<String> placeholders = connection.partition()
			.map((key) -> Set.copyOf(key.template().placeholders()))
			.orElse(Set.of());
		Optional<String> after = Optional.empty();
		for (InputValueDefinition argument : field.getInputValueDefinitions()) {
			String name = argument.getName();
			if (name.equals(AFTER) && !own.contains(name)) {
				if (!typeName(argument.getType()).equals("String")) {
					this.reading.problem(argument, WrongType::new,
							"`%s(after:)` takes the `eventId` of a change: declare it as a `String`."
						.formatted(coordinates));
				}
				after = Optional.of(name);
			}
			else if (!own.contains(name) && !placeholders.contains(name)) {
				this.reading.problem(argument, UselessArgument::new,
						("argument `%s` of `%s` does nothing: a live connection takes its connection's "
						+ "partition values, its sort-key, filter and order arguments, and `after`.").formatted(name, coordinates));
			}
		}
		return after;
	}

	/** The change type: {@code kind: ChangeKind!}, the connection's edge, {@code deletedId}, {@code eventId}. */
	private ChangeType change(String coordinates, FieldDefinition field, DeclaredConnection connection) {
		String typeName = typeName(field.getType());
		ObjectTypeDefinition change = this.reading.objectType(typeName);
		if (change == null || this.reading.entities.containsKey(typeName)) {
			this.reading.problem(field, WrongAnswer::new,
					("`%s` answers `%s`: answer a change type with `kind: ChangeKind!`, `edge` and "
					+ "`deletedId: ID`.").formatted(coordinates, typeName));
			return null;
		}
		String edgeType = edgeType(connection);
		Optional<String> edge = Optional.empty();
		Optional<String> deletedId = Optional.empty();
		Optional<String> eventId = Optional.empty();
		boolean kind = false;
		for (FieldDefinition each : this.reading.fields(change)) {
			String type = typeName(each.getType());
			String where = "`%s.%s`".formatted(typeName, each.getName());
			if (each.getName().equals(ChangeType.KIND) && type.equals("ChangeKind")) {
				kind = true;
			}
			else if (type.equals(edgeType)) {
				edge = Optional.of(each.getName());
			}
			else if (each.getName().equals("deletedId") && type.equals("ID")) {
				deletedId = Optional.of(each.getName());
			}
			else if (each.getName().equals("eventId") && type.equals("String")) {
				eventId = Optional.of(each.getName());
			}
			else {
				this.reading.problem(each, WrongAnswer::new,
						("%s is nothing a change of `%s` holds: a change type has `kind: ChangeKind!`, "
						+ "`edge: %s`, `deletedId: ID` and `eventId: String`.").formatted(where, coordinates, edgeType));
			}
		}
		if (!kind) {
			this.reading.problem(change, WrongAnswer::new,
					"`%s` has no `kind: ChangeKind!`: a change says what happened.".formatted(typeName));
		}
		return new ChangeType(typeName, edge, deletedId, eventId);
	}

	/** The edge type of a connection: its connection type's {@code edges}. */
	private String edgeType(DeclaredConnection connection) {
		ObjectTypeDefinition parent = this.reading.objectType(connection.coordinates().getTypeName());
		FieldDefinition field = (parent != null) ? this.reading.field(parent, connection.coordinates().getFieldName()) : null;
		ObjectTypeDefinition connectionType = (field != null) ? this.reading.objectType(typeName(field.getType())) : null;
		FieldDefinition edges = (connectionType != null) ? this.reading.field(connectionType, "edges") : null;
		return (edges != null) ? typeName(edges.getType()) : "?";
	}

}
