package dev.dynamorelay.command.schemagen;

import java.util.List;

/**
 * The union of the types that share one table, which the table's own connections return.
 *
 * @param name the union's name
 * @param description its description
 * @param members its member types, sorted
 */
record DeclaredUnion(String name, String description, List<String> members) {
}
