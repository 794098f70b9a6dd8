package dev.dynamorelay.command.schemagen;

import java.util.List;

/**
 * A field of a generated type, or of {@code Query}.
 *
 * @param name the field's name
 * @param description its description, or null
 * @param arguments its arguments, in order
 * @param type its GraphQL type, e.g. {@code String!}
 * @param directives its directives, in order
 */
record DeclaredField(String name, String description, List<DeclaredArgument> arguments, String type,
		List<DeclaredDirective> directives) {

	/** A field without arguments. */
	static DeclaredField of(String name, String type, String description, List<DeclaredDirective> directives) {
		return new DeclaredField(name, description, List.of(), type, directives);
	}

}
