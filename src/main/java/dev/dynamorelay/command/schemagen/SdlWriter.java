package dev.dynamorelay.command.schemagen;

import java.util.List;

/**
 * Writes generated declarations as SDL: {@code Query} and {@code Mutation} first, then each table's types,
 * union, connection, edge and input types; two-space indents, one directive per line on types, descriptions
 * as strings.
 */
final class SdlWriter {

	private static final String INDENT = "  ";

	private final StringBuilder sdl = new StringBuilder();

	/**
	 * The whole file: {@code comment} lines (without {@code #}), then the declarations; {@code Mutation}
	 * only when it has fields.
	 */
	static String write(List<String> comment, List<DeclaredField> queryFields, String mutationDescription,
			List<DeclaredField> mutationFields, List<TableDeclarations> tables) {
		SdlWriter writer = new SdlWriter();
		for (String line : comment) {
			writer.sdl.append(line.isEmpty() ? "#" : "# " + line).append('\n');
		}
		writer.sdl.append('\n');
		writer.type("Query", "The entry points: any item by its id, and each table's connections.", null,
				List.of(), queryFields);
		if (!mutationFields.isEmpty()) {
			writer.type("Mutation", mutationDescription, null, List.of(), mutationFields);
		}
		for (TableDeclarations table : tables) {
			for (DeclaredType type : table.types()) {
				writer.type(type.name(), type.description(), "Node", type.directives(), type.fields());
			}
			table.union().ifPresent(writer::union);
			for (String node : table.connectionNodes()) {
				writer.connection(node);
			}
			for (DeclaredInput input : table.inputs()) {
				writer.input(input);
			}
		}
		return writer.sdl.toString().stripTrailing() + "\n";
	}

	/**
	 * A GraphQL string literal: quoted, with quotes, backslashes and control characters escaped.
	 */
	static String string(String value) {
		StringBuilder literal = new StringBuilder("\"");
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			switch (c) {
				case '"' -> literal.append("\\\"");
				case '\\' -> literal.append("\\\\");
				case '\n' -> literal.append("\\n");
				case '\r' -> literal.append("\\r");
				case '\t' -> literal.append("\\t");
				case '\b' -> literal.append("\\b");
				case '\f' -> literal.append("\\f");
				default -> {
					if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) && !isPaired(value, i)) {
						literal.append("\\u%04x".formatted((int) c));
					}
					else {
						literal.append(c);
					}
				}
			}
		}
		return literal.append('"').toString();
	}

	private static boolean isPaired(String value, int i) {
		char c = value.charAt(i);
		if (Character.isHighSurrogate(c)) {
			return i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1));
		}
		return i > 0 && Character.isHighSurrogate(value.charAt(i - 1));
	}

	private void type(String name, String description, String implemented, List<DeclaredDirective> directives,
			List<DeclaredField> fields) {
		description("", description);
		this.sdl.append("type ").append(name);
		if (implemented != null) {
			this.sdl.append(" implements ").append(implemented);
		}
		for (DeclaredDirective directive : directives) {
			this.sdl.append('\n').append(INDENT).append(directive.sdl());
		}
		this.sdl.append(" {\n");
		for (int i = 0; i < fields.size(); i++) {
			field(fields.get(i), i == 0);
		}
		this.sdl.append("}\n\n");
	}

	private void input(DeclaredInput input) {
		description("", input.description());
		this.sdl.append("input ").append(input.name()).append(" {\n");
		for (int i = 0; i < input.fields().size(); i++) {
			field(input.fields().get(i), i == 0);
		}
		this.sdl.append("}\n\n");
	}

	private void field(DeclaredField field, boolean first) {
		if (!first && !field.arguments().isEmpty() && !isShort(field.arguments())) {
			this.sdl.append('\n');
		}
		description(INDENT, field.description());
		this.sdl.append(INDENT).append(field.name());
		if (isShort(field.arguments())) {
			List<String> arguments = field.arguments()
				.stream()
				.map((argument) -> argument.name() + ": " + argument.type())
				.toList();
			this.sdl.append('(').append(String.join(", ", arguments)).append(')');
		}
		else if (!field.arguments().isEmpty()) {
			this.sdl.append("(\n");
			for (DeclaredArgument argument : field.arguments()) {
				this.sdl.append(INDENT).append(INDENT).append(argument.name()).append(": ").append(argument.type());
				if (argument.defaultValue() != null) {
					this.sdl.append(" = ").append(argument.defaultValue());
				}
				if (argument.directive() != null) {
					this.sdl.append(' ').append(argument.directive().sdl());
				}
				this.sdl.append('\n');
			}
			this.sdl.append(INDENT).append(')');
		}
		this.sdl.append(": ").append(field.type());
		for (DeclaredDirective directive : field.directives()) {
			this.sdl.append(' ').append(directive.sdl());
		}
		this.sdl.append('\n');
	}

	/** Arguments written on the field's line: at most two, without defaults or directives. */
	private static boolean isShort(List<DeclaredArgument> arguments) {
		return !arguments.isEmpty() && arguments.size() <= 2
				&& arguments.stream().allMatch((argument) -> argument.defaultValue() == null && argument.directive() == null);
	}

	private void union(DeclaredUnion union) {
		description("", union.description());
		this.sdl.append("union ").append(union.name()).append(" = ").append(String.join(" | ", union.members()))
			.append("\n\n");
	}

	private void connection(String node) {
		type(node + "Connection", "A page of `" + node + "` items.", null, List.of(),
				List.of(DeclaredField.of("edges", "[" + node + "Edge!]!", null, List.of()),
						DeclaredField.of("pageInfo", "PageInfo!", null, List.of()),
						DeclaredField.of("totalCount", "Int",
								"How many items the connection holds, counted when selected; null beyond the count budget.",
								List.of())));
		type(node + "Edge", "One `" + node + "` item of a page, with the cursor to continue from it.", null,
				List.of(), List.of(DeclaredField.of("cursor", "String!", null, List.of()),
						DeclaredField.of("node", node + "!", null, List.of())));
	}

	private void description(String indent, String description) {
		if (description != null) {
			this.sdl.append(indent).append(string(description)).append('\n');
		}
	}

}
