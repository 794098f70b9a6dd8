package dev.dynamorelay.write;

import java.util.Optional;

import dev.dynamorelay.model.Item;
import dev.dynamorelay.model.NodeIds;

/**
 * What a mutation wrote for one input object: the answer a transport maps by property name ({@code item},
 * {@code id}, {@code clientMutationId}), as graphql-java reads a record's accessors.
 *
 * @param item the item as written (a delete: as it was); empty when a delete found none
 * @param clientMutationId the input's {@code clientMutationId}, answered as given
 */
public record Written(Optional<Item> item, Optional<String> clientMutationId) {

	/** The item's node id; empty when a delete found none. */
	public Optional<String> id() {
		return this.item.map((written) -> NodeIds.encode(written.entity(), written.attributes()));
	}

}
