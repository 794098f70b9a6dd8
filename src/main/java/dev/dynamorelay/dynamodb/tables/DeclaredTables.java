package dev.dynamorelay.dynamodb.tables;

import java.util.Map;
import java.util.Set;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.model.ConnectionDefinition;

/**
 * The declarations once their tables exist and match them.
 *
 * @param declarations the checked declarations
 * @param partialIndexes the global indexes that hold only part of their items, as
 * {@link TableSetup#indexKey} names them, each with the attributes it holds: reads of them are
 * completed from the table
 */
public record DeclaredTables(Declarations declarations, Map<String, Set<String>> partialIndexes) {

	public DeclaredTables {
		partialIndexes = Map.copyOf(partialIndexes);
	}

	/** Whether {@code definition} reads a global index that lacks attributes of its items. */
	public boolean partial(ConnectionDefinition<?> definition) {
		return definition.globalIndex() && this.partialIndexes.containsKey(key(definition));
	}

	/** Whether what {@code definition} reads holds {@code attribute}, so that a filter on it can match. */
	public boolean holds(ConnectionDefinition<?> definition, String attribute) {
		return !partial(definition) || this.partialIndexes.get(key(definition)).contains(attribute);
	}

	private static String key(ConnectionDefinition<?> definition) {
		return TableSetup.indexKey(definition.table(), definition.index().orElseThrow());
	}

}
