package dev.dynamorelay.command.schemagen;

import java.util.List;

/**
 * A generated object type that implements {@code Node}: the items of one table, or one kind of the items
 * of a table that holds several.
 *
 * @param name the type's name
 * @param description its description
 * @param directives its directives ({@code @table}, {@code @key}, indexes), in order
 * @param fields its fields, {@code id} first
 * @param keyFields the names of the fields its items' key is composed of, as the server's key fields are
 * (a key attribute's field, or a placeholder of a {@code @key} template)
 */
record DeclaredType(String name, String description, List<DeclaredDirective> directives,
		List<DeclaredField> fields, List<String> keyFields) {
}
