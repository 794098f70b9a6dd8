package dev.dynamorelay.command.schemagen;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything generated for one table.
 *
 * @param types the object types of its items, sorted by name
 * @param union the union of those types when there are several kinds of items
 * @param queryFields its root connection fields: over the table, over each index, and a Scan
 * @param inputs the input types of its types' mutations
 * @param mutationFields its types' mutations: a create, an update and a delete each
 */
record TableDeclarations(List<DeclaredType> types, Optional<DeclaredUnion> union, List<DeclaredField> queryFields,
		List<DeclaredInput> inputs, List<DeclaredField> mutationFields) {

	/** The names of the types that get a {@code Connection} and an {@code Edge} type. */
	List<String> connectionNodes() {
		List<String> nodes = new ArrayList<>(this.types.stream().map(DeclaredType::name).toList());
		this.union.ifPresent((union) -> nodes.add(union.name()));
		return nodes;
	}

}
