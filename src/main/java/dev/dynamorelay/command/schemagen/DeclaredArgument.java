package dev.dynamorelay.command.schemagen;

/**
 * An argument of a generated root field.
 *
 * @param name the argument's name
 * @param type its GraphQL type, e.g. {@code Int!}
 * @param defaultValue its default value in SDL, or null
 * @param directive its directive, or null
 */
record DeclaredArgument(String name, String type, String defaultValue, DeclaredDirective directive) {

	static DeclaredArgument of(String name, String type) {
		return new DeclaredArgument(name, type, null, null);
	}

}
