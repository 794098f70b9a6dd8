package dev.dynamorelay.command.schemagen;

import java.util.List;

/**
 * A generated input object type: what a mutation takes.
 *
 * @param name the type's name
 * @param description its description
 * @param fields its fields (without arguments), in order
 */
record DeclaredInput(String name, String description, List<DeclaredField> fields) {
}
