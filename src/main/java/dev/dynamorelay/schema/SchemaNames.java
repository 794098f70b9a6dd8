package dev.dynamorelay.schema;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import graphql.GraphQLError;
import graphql.language.Argument;
import graphql.language.ArrayValue;
import graphql.language.AstPrinter;
import graphql.language.Directive;
import graphql.language.DirectiveDefinition;
import graphql.language.Document;
import graphql.language.EnumTypeDefinition;
import graphql.language.EnumValue;
import graphql.language.EnumValueDefinition;
import graphql.language.InputObjectTypeDefinition;
import graphql.language.InputValueDefinition;
import graphql.language.ListType;
import graphql.language.Node;
import graphql.language.NodeTraverser;
import graphql.language.NodeVisitorStub;
import graphql.language.NonNullType;
import graphql.language.ObjectField;
import graphql.language.ObjectValue;
import graphql.language.Type;
import graphql.language.TypeDefinition;
import graphql.language.TypeName;
import graphql.language.Value;
import graphql.schema.idl.DirectiveInfo;
import graphql.schema.idl.ScalarInfo;
import graphql.schema.idl.TypeDefinitionRegistry;
import graphql.schema.idl.errors.DirectiveIllegalArgumentTypeError;
import graphql.schema.idl.errors.DirectiveMissingNonNullArgumentError;
import graphql.schema.idl.errors.DirectiveUndeclaredError;
import graphql.schema.idl.errors.DirectiveUnknownArgumentError;
import graphql.schema.idl.errors.MissingInterfaceTypeError;
import graphql.schema.idl.errors.MissingTypeError;
import graphql.util.TraversalControl;
import graphql.util.TraverserContext;

import dev.dynamorelay.schema.Problem.MissingArgument;
import dev.dynamorelay.schema.Problem.UnknownName;
import dev.dynamorelay.schema.Problem;

/**
 * The names a schema file uses that the schema does not define, each at the line and column of the name
 * (the directive's {@code @}, the argument, the enum value, the type) with the defined name it is closest
 * to: {@code @qurey} is reported where it is written, with "Did you mean `@query`?".
 *
 * <p>graphql-java finds these too, but reports them at the field or type that carries them, without a
 * suggestion: when this check finds any, its problems replace graphql-java's of the same kinds
 * ({@link #replaces}).
 */
final class SchemaNames {

	private static final String CONNECTION = "Connection";

	private final TypeDefinitionRegistry registry;

	private final List<Problem> problems = new ArrayList<>();

	private SchemaNames(TypeDefinitionRegistry registry) {
		this.registry = registry;
	}

	/** The undefined names {@code documents} use, in a registry that holds them all (Connection types generated). */
	static List<Problem> check(TypeDefinitionRegistry registry, Collection<Document> documents) {
		SchemaNames names = new SchemaNames(registry);
		NodeVisitorStub visitor = new NodeVisitorStub() {

			@Override
			public TraversalControl visitDirective(Directive node, TraverserContext<Node> context) {
				names.directive(node);
				return TraversalControl.CONTINUE;
			}

			@Override
			public TraversalControl visitTypeName(TypeName node, TraverserContext<Node> context) {
				names.typeName(node);
				return TraversalControl.CONTINUE;
			}

		};
		for (Document document : documents) {
			new NodeTraverser().depthFirst(visitor, document);
		}
		return names.problems;
	}

	/** Whether a problem of this check replaces graphql-java's {@code error}: it is of a kind checked here. */
	static boolean replaces(GraphQLError error) {
		return error instanceof DirectiveUndeclaredError || error instanceof DirectiveUnknownArgumentError
				|| error instanceof DirectiveMissingNonNullArgumentError
				|| error instanceof MissingTypeError || error instanceof MissingInterfaceTypeError
				|| (error instanceof DirectiveIllegalArgumentTypeError
						&& (error.getMessage().contains("doesn't match any of the allowed enum values")
								|| error.getMessage().contains("not present in type")));
	}

	private void directive(Directive directive) {
		String name = directive.getName();
		DirectiveDefinition definition = this.registry.getDirectiveDefinition(name).orElse(null);
		if (definition == null) {
			if (DirectiveInfo.isGraphqlSpecifiedDirective(name)) {
				return;
			}
			Set<String> known = new TreeSet<>(this.registry.getDirectiveDefinitions().keySet());
			known.addAll(DirectiveInfo.GRAPHQL_SPECIFICATION_DIRECTIVE_MAP.keySet());
			Optional<String> closest = Suggestions.closest(name, known);
			problem(new UnknownName(Location.of(directive), name, closest, "`@%s` is no directive of the declaration "
				.formatted(name) + "language or of the schema.%s".formatted(closest.map((each) -> " Did you mean `@" + each
						+ "`?").orElse(" The directives are listed in docs/declaration-language.md."))));
			return;
		}
		List<String> arguments = definition.getInputValueDefinitions().stream().map(InputValueDefinition::getName).toList();
		List<String> misspelt = new ArrayList<>();
		for (Argument argument : directive.getArguments()) {
			InputValueDefinition declared = definition.getInputValueDefinitions()
				.stream()
				.filter((each) -> each.getName().equals(argument.getName()))
				.findFirst()
				.orElse(null);
			if (declared == null) {
				Suggestions.closest(argument.getName(), arguments).ifPresent(misspelt::add);
				Optional<String> closest = Suggestions.closest(argument.getName(), arguments);
				problem(new UnknownName(Location.of(argument), argument.getName(), closest, "`@%s` has no argument `%s`.%s"
					.formatted(name, argument.getName(), closest.map((each) -> " Did you mean `" + each + "`?")
						.orElse(" It takes " + list(arguments) + "."))));
			}
			else {
				value("`@%s(%s:)`".formatted(name, argument.getName()), argument.getValue(), declared.getType(), argument);
			}
		}
		required(directive, definition, misspelt);
	}

	/** The required arguments {@code directive} lacks, but those it gives misspelt (whose problem says so). */
	private void required(Directive directive, DirectiveDefinition definition, List<String> misspelt) {
		for (InputValueDefinition argument : definition.getInputValueDefinitions()) {
			if (argument.getType() instanceof NonNullType && argument.getDefaultValue() == null
					&& directive.getArgument(argument.getName()) == null && !misspelt.contains(argument.getName())) {
				problem(new MissingArgument(Location.of(directive), "`@%s` needs its argument `%s` (`%s`)."
					.formatted(directive.getName(), argument.getName(), AstPrinter.printAst(argument.getType()))));
			}
		}
	}

	/**
	 * The enum values and input object fields of a directive's argument value that its type does not have
	 * (e.g. {@code op: BEGINS_WTIH}, {@code {allow: OWNER, ownerFeild: "userId"}}).
	 */
	private void value(String where, Value<?> value, Type<?> type, Node<?> near) {
		// graphql-java gives object fields no location of their own: they are reported at the nearest value that has.
		Node<?> at = (value.getSourceLocation() != null) ? value : near;
		Type<?> bare = (type instanceof NonNullType nonNull) ? nonNull.getType() : type;
		if (value instanceof ArrayValue array) {
			Type<?> element = (bare instanceof ListType list) ? list.getType() : bare;
			array.getValues().forEach((each) -> value(where, each, element, at));
			return;
		}
		if (!(bare instanceof TypeName typeName)) {
			return;
		}
		TypeDefinition<?> definition = this.registry.getType(typeName.getName()).orElse(null);
		if (value instanceof EnumValue enumValue && definition instanceof EnumTypeDefinition enumeration) {
			List<String> values = enumeration.getEnumValueDefinitions().stream().map(EnumValueDefinition::getName).toList();
			if (!values.contains(enumValue.getName())) {
				problem(UnknownName.of(Location.of(at), "`%s` is no `%s`: the values of %s are %s.".formatted(
						enumValue.getName(), enumeration.getName(), where, list(values)), enumValue.getName(), values));
			}
		}
		else if (value instanceof ObjectValue object && definition instanceof InputObjectTypeDefinition input) {
			List<String> fields = input.getInputValueDefinitions().stream().map(InputValueDefinition::getName).toList();
			for (ObjectField field : object.getObjectFields()) {
				InputValueDefinition declared = input.getInputValueDefinitions()
					.stream()
					.filter((each) -> each.getName().equals(field.getName()))
					.findFirst()
					.orElse(null);
				if (declared == null) {
					Node<?> wrong = (field.getSourceLocation() != null) ? field : at;
					Optional<String> closest = Suggestions.closest(field.getName(), fields);
					problem(new UnknownName(Location.of(wrong), field.getName(), closest, "`%s` is no field of `%s` (in %s).%s"
						.formatted(field.getName(), input.getName(), where, closest.map((each) -> " Did you mean `" + each
								+ "`?").orElse(" It has " + list(fields) + "."))));
				}
				else {
					value(where, field.getValue(), declared.getType(), at);
				}
			}
		}
	}

	private void typeName(TypeName typeName) {
		String name = typeName.getName();
		TypeDefinition<?> definition = this.registry.getType(name).orElse(null);
		if (definition != null && definition.getSourceLocation() == null && name.endsWith(CONNECTION)) {
			// A Connection type generated for the type its name starts with: that type must exist.
			String node = name.substring(0, name.length() - CONNECTION.length());
			if (this.registry.getType(node).isEmpty()) {
				problem(UnknownName.of(Location.of(typeName), "`%s` is the Connection type of `%s`, which the schema does "
					.formatted(name, node) + "not define.", name, connectionNames()));
			}
			return;
		}
		if (definition != null || ScalarInfo.isGraphqlSpecifiedScalar(name)) {
			return;
		}
		Set<String> known = new TreeSet<>(this.registry.types().keySet());
		known.addAll(this.registry.scalars().keySet());
		known.addAll(connectionNames());
		known.removeIf((each) -> each.startsWith("__"));
		problem(UnknownName.of(Location.of(typeName), "type `%s` is not defined.".formatted(name), name, known));
	}

	/** The Connection types the schema can have: one for each type written in its files. */
	private Set<String> connectionNames() {
		Set<String> names = new TreeSet<>();
		this.registry.types().values().stream()
			.filter((type) -> type.getSourceLocation() != null && !type.getName().endsWith(CONNECTION))
			.forEach((type) -> names.add(type.getName() + CONNECTION));
		this.registry.types().values().stream()
			.filter((type) -> type.getSourceLocation() != null && type.getName().endsWith(CONNECTION))
			.forEach((type) -> names.add(type.getName()));
		return names;
	}

	private void problem(Problem problem) {
		if (!this.problems.contains(problem)) {
			this.problems.add(problem);
		}
	}

	private static String list(List<String> names) {
		if (names.isEmpty()) {
			return "none";
		}
		List<String> quoted = names.stream().map((name) -> "`" + name + "`").toList();
		return (quoted.size() == 1) ? quoted.get(0)
				: String.join(", ", quoted.subList(0, quoted.size() - 1)) + " and " + quoted.get(quoted.size() - 1);
	}

}
