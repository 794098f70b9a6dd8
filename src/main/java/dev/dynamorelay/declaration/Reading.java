package dev.dynamorelay.declaration;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;

import graphql.language.AstPrinter;
import graphql.language.Directive;
import graphql.language.DirectivesContainer;
import graphql.language.EnumTypeDefinition;
import graphql.language.FieldDefinition;
import graphql.language.InputValueDefinition;
import graphql.language.InterfaceTypeDefinition;
import graphql.language.ListType;
import graphql.language.ObjectTypeDefinition;
import graphql.language.Type;
import graphql.language.TypeDefinition;
import graphql.language.TypeName;
import graphql.language.UnionTypeDefinition;
import graphql.schema.idl.TypeDefinitionRegistry;

import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Table;
import dev.dynamorelay.model.ValueType;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.MisplacedDirective;
import dev.dynamorelay.schema.Problem.WrongType;
import dev.dynamorelay.schema.Problem;
import dev.dynamorelay.schema.SchemaNodes;

import static dev.dynamorelay.declaration.Directives.directive;
import static dev.dynamorelay.declaration.Directives.enumValue;
import static dev.dynamorelay.declaration.Directives.typeName;
import static dev.dynamorelay.declaration.Directives.unwrapNonNull;

/**
 * What the readers of one schema share: the parsed files, the table prefix, what has been declared so far,
 * and every problem found (each with its file and line), so that one start reports all of them.
 */
final class Reading {

	final TypeDefinitionRegistry registry;

	/** The configured prefix of table names. */
	final String prefix;

	final List<Problem> problems = new ArrayList<>();

	final Map<String, Table> tables = new TreeMap<>();

	final Map<String, Entity> entities = new TreeMap<>();

	final Map<String, List<Entity>> abstractTypes = new TreeMap<>();

	final List<DeclaredConnection> connections = new ArrayList<>();

	final List<DeclaredLookup> lookups = new ArrayList<>();

	/** Types whose table or key declaration has a problem: fields of theirs and of them are not checked. */
	final Set<String> unreadable = new HashSet<>();

	Reading(TypeDefinitionRegistry registry, String prefix) {
		this.registry = registry;
		this.prefix = prefix;
	}

	/** Records a problem once: an input type read for two mutations reports its mistakes once. */
	void problem(Problem problem) {
		if (!this.problems.contains(problem)) {
			this.problems.add(problem);
		}
	}

	/** Records a problem of a {@code kind} at {@code at} once (see {@link #problem(Problem)}). */
	void problem(graphql.language.Node<?> at, BiFunction<Location, String, Problem> kind, String message) {
		problem(kind.apply(Location.of(at), Objects.requireNonNull(message)));
	}


	/** How a field or argument of {@code type} is stored; null for object types (not an attribute). */
	ValueType valueType(Type<?> type, DirectivesContainer<?> at) {
		if (at instanceof FieldDefinition field && field.getType() == type && directive(field, "timestamp") != null
				&& !Set.of("String", "ID").contains(typeName(type))) {
			problem(field, WrongType::new,
					"`%s` is `%s` with `@timestamp`, which serves ISO-8601 strings: declare it as `String` (or a "
				.formatted(coordinates(field), AstPrinter.printAst(type)) + "list of `String`).");
		}
		Type<?> bare = unwrapNonNull(type);
		if (bare instanceof ListType list) {
			ValueType element = valueType(list.getType(), at);
			return (element != null) ? new ValueType.ListOf(element) : null;
		}
		Directive timestamp = directive(at, "timestamp");
		if (timestamp != null) {
			String format = enumValue(timestamp, "format");
			return new ValueType.Timestamp(ValueType.Timestamp.Format.valueOf(format));
		}
		String name = ((TypeName) bare).getName();
		return switch (name) {
			case "String", "ID" -> new ValueType.Text();
			case "Int" -> new ValueType.Number(ValueType.Number.Kind.INT);
			case "Long" -> new ValueType.Number(ValueType.Number.Kind.LONG);
			case "Float" -> new ValueType.Number(ValueType.Number.Kind.FLOAT);
			case "Decimal" -> new ValueType.Number(ValueType.Number.Kind.DECIMAL);
			case "Boolean" -> new ValueType.Bool();
			case "Bytes" -> new ValueType.Binary();
			case "JSON" -> new ValueType.Json();
			default -> {
				TypeDefinition<?> definition = this.registry.getType(name).orElse(null);
				if (definition instanceof EnumTypeDefinition enumeration) {
					Set<String> values = new HashSet<>();
					enumeration.getEnumValueDefinitions().forEach((value) -> values.add(value.getName()));
					yield new ValueType.Enumeration(values);
				}
				if (definition instanceof ObjectTypeDefinition || definition instanceof InterfaceTypeDefinition
						|| definition instanceof UnionTypeDefinition) {
					yield null;
				}
				// A custom scalar: served as stored, strings as strings and numbers as their digits.
				yield new ValueType.Text();
			}
		};
	}

	/** Reports {@code @sortKey}/{@code @filter} on an argument of a field that is no connection. */
	void noConnectionArgument(ObjectTypeDefinition type, FieldDefinition field, InputValueDefinition argument) {
		if (directive(argument, "sortKey") != null || directive(argument, "filter") != null) {
			problem(argument, MisplacedDirective::new,
					"argument `%s` of `%s.%s` has `@sortKey`/`@filter`, but the field is no "
				.formatted(argument.getName(), type.getName(), field.getName()) + "`@query` or `@scan` connection.");
		}
	}

	/** {@code Type.field} of a field of an object type. */
	String coordinates(FieldDefinition field) {
		return objectTypes().stream()
			.filter((type) -> fields(type).stream().anyMatch((each) -> each == field))
			.findFirst()
			.map((type) -> type.getName() + "." + field.getName())
			.orElse(field.getName());
	}

	/** Whether a type, or a member of a union or interface, has a problem in its table or key declaration. */
	boolean isUnreadable(String typeName) {
		if (this.unreadable.contains(typeName)) {
			return true;
		}
		TypeDefinition<?> definition = this.registry.getType(typeName).orElse(null);
		if (definition instanceof UnionTypeDefinition union) {
			return union.getMemberTypes().stream().anyMatch((member) -> this.unreadable.contains(typeName(member)));
		}
		return definition instanceof InterfaceTypeDefinition && objectTypes().stream()
			.anyMatch((type) -> this.unreadable.contains(type.getName()) && type.getImplements()
				.stream()
				.anyMatch((implemented) -> typeName(implemented).equals(typeName)));
	}

	/**
	 * Whether {@code name} ({@code Type.field}) is a {@code @query} or {@code @scan} field that was not declared
	 * for a problem reported already (its own, or its type's): what names it follows from that problem.
	 */
	boolean isFailedConnection(String name) {
		int dot = (name != null) ? name.indexOf('.') : -1;
		if (dot < 0) {
			return false;
		}
		ObjectTypeDefinition type = objectType(name.substring(0, dot));
		FieldDefinition field = (type != null) ? field(type, name.substring(dot + 1)) : null;
		return field != null && (field.hasDirective("query") || field.hasDirective("scan"))
				&& connectionNames().stream().noneMatch(name::equals);
	}

	/** The {@code Type.field} of every connection declared so far. */
	List<String> connectionNames() {
		return this.connections.stream()
			.map(DeclaredConnection::name)
			.toList();
	}

	/**
	 * Whether {@code type} is, or is a payload holding, a type whose table or key declaration has a problem: a
	 * write of it follows from that problem.
	 */
	boolean holdsUnreadable(Type<?> type) {
		String name = typeName(type);
		if (isUnreadable(name)) {
			return true;
		}
		ObjectTypeDefinition payload = objectType(name);
		return payload != null && !this.entities.containsKey(name)
				&& fields(payload).stream().anyMatch((field) -> isUnreadable(typeName(field.getType())));
	}

	List<ObjectTypeDefinition> objectTypes() {
		return this.registry.getTypes(ObjectTypeDefinition.class)
			.stream()
			.filter((type) -> !type.getName().startsWith("__"))
			.toList();
	}

	ObjectTypeDefinition objectType(String name) {
		return this.registry.getType(name, ObjectTypeDefinition.class).orElse(null);
	}

	/** A type's fields, with those of its {@code extend type} definitions. */
	List<FieldDefinition> fields(ObjectTypeDefinition type) {
		return SchemaNodes.fields(this.registry, type);
	}

	FieldDefinition field(ObjectTypeDefinition type, String name) {
		return fields(type).stream().filter((field) -> field.getName().equals(name)).findFirst().orElse(null);
	}

}
