package dev.dynamorelay.declaration;

import java.util.List;
import java.util.Set;

import graphql.language.Argument;
import graphql.language.BooleanValue;
import graphql.language.Directive;
import graphql.language.DirectivesContainer;
import graphql.language.EnumValue;
import graphql.language.FieldDefinition;
import graphql.language.InputValueDefinition;
import graphql.language.ListType;
import graphql.language.Node;
import graphql.language.NonNullType;
import graphql.language.ObjectTypeDefinition;
import graphql.language.StringValue;
import graphql.language.Type;
import graphql.language.TypeName;

import dev.dynamorelay.schema.SchemaNodes;

/** What the declaration readers ask of a schema node: its directives and their arguments, its types. */
final class Directives {

	private Directives() {
	}

	static InputValueDefinition argument(FieldDefinition field, String name) {
		return field.getInputValueDefinitions()
			.stream()
			.filter((argument) -> argument.getName().equals(name))
			.findFirst()
			.orElse(null);
	}

	static Directive directive(DirectivesContainer<?> container, String name) {
		List<Directive> directives = container.getDirectives(name);
		return directives.isEmpty() ? null : directives.get(0);
	}

	/**
	 * Where a directive's argument's value is written, for a problem with that value; the directive when it has
	 * no such argument.
	 */
	static Node<?> argumentValue(Directive directive, String name) {
		Argument argument = directive.getArgument(name);
		if (argument == null) {
			return directive;
		}
		return (argument.getValue().getSourceLocation() != null) ? argument.getValue() : argument;
	}

	static String string(Directive directive, String name) {
		Argument argument = directive.getArgument(name);
		return (argument != null && argument.getValue() instanceof StringValue value) ? value.getValue() : null;
	}

	static boolean bool(Directive directive, String name, boolean fallback) {
		Argument argument = directive.getArgument(name);
		return (argument != null && argument.getValue() instanceof BooleanValue value) ? value.isValue() : fallback;
	}

	static String enumValue(Directive directive, String name) {
		Argument argument = directive.getArgument(name);
		return (argument != null && argument.getValue() instanceof EnumValue value) ? value.getName() : null;
	}

	static Type<?> unwrapNonNull(Type<?> type) {
		return (type instanceof NonNullType nonNull) ? nonNull.getType() : type;
	}

	static String typeName(Type<?> type) {
		return SchemaNodes.typeName(type);
	}

	static boolean implementsNode(ObjectTypeDefinition type) {
		return type.getImplements().stream().anyMatch((implemented) -> ((TypeName) implemented).getName().equals("Node"));
	}

	static boolean isDeclaredField(FieldDefinition field) {
		return field.hasDirective("query") || field.hasDirective("scan") || field.hasDirective("lookup");
	}

	static boolean isOrder(InputValueDefinition argument) {
		return typeName(argument.getType()).equals("SortOrder") && !(argument.getType() instanceof ListType);
	}

	static boolean isRootType(ObjectTypeDefinition type) {
		return Set.of("Query", "Mutation", "Subscription").contains(type.getName());
	}

}
