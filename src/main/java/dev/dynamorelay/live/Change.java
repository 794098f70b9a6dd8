package dev.dynamorelay.live;

import java.util.Optional;

import dev.dynamorelay.model.Item;
import dev.dynamorelay.pagination.Edge;

/**
 * A change of a live connection, as its subscriber receives it: also the answer of a subscription field, whose
 * change type's fields ({@code kind}, the edge, {@code deletedId}, {@code eventId}) are read from it by name, as
 * graphql-java reads a record (an empty value is null).
 *
 * @param kind what happened to the item
 * @param edge the item and its cursor in the connection (ADDED, UPDATED)
 * @param deletedId the id of the item that left (REMOVED)
 * @param itemKey the item's key, to merge consecutive updates of one item
 * @param position where the change is in the stream
 */
public record Change(Kind kind, Optional<Edge<Item>> edge, Optional<String> deletedId, String itemKey,
		StreamPosition position) {

	/** The change's event id, to resume right behind it ({@link StreamPosition#eventId()}). */
	public String eventId() {
		return this.position.eventId();
	}

	/** What happened to an item of the connection ({@code ChangeKind}). */
	public enum Kind {

		ADDED, UPDATED, REMOVED

	}

}
