package dev.dynamorelay.schemagen;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything generated for one table.
 *
 * @param types the object types of its items, sorted by name
 * @param union the union of those types when there are several kinds of items
 * @param queryFields its root connection fields: over the table, over each index, and a Scan
 */
record TableDeclarations(List<DeclaredType> types, Optional<DeclaredUnion> union, List<DeclaredField> queryFields) {

	/** The names of the types that get a {@code Connection} and an {@code Edge} type. */
	List<String> connectionNodes() {
		List<String> nodes = new ArrayList<>(this.types.stream().map(DeclaredType::name).toList());
		this.union.ifPresent((union) -> nodes.add(union.name()));
		return nodes;
	}

}
