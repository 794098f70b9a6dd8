package dev.dynamorelay.declaration;

import java.util.Optional;

import graphql.schema.FieldCoordinates;

import dev.dynamorelay.model.KeyValue;

/**
 * A declared live connection: a {@code Subscription} field that keeps a connection current from its table's
 * DynamoDB Stream ({@code @live}).
 *
 * @param coordinates the field, e.g. {@code Subscription.purchaseChanges}
 * @param connection the connection kept live; the field's sort-key, filter and order arguments are its own
 * @param partition the connection's partition key, filled from the field's arguments (empty for a Scan)
 * @param after the argument that holds the event id to resume after, if the field takes one
 * @param change the change type the field returns
 */
public record DeclaredSubscription(FieldCoordinates coordinates, DeclaredConnection connection,
		Optional<KeyValue> partition, Optional<String> after, ChangeType change) {

	/** The field as {@code Type.field}. */
	public String name() {
		return this.coordinates.toString();
	}

	/**
	 * A change type's fields.
	 *
	 * @param name the type
	 * @param edge the field holding the item's edge (ADDED, UPDATED)
	 * @param deletedId the field holding the id of an item that left (REMOVED)
	 * @param eventId the field holding the change's event id, to resume after
	 */
	public record ChangeType(String name, Optional<String> edge, Optional<String> deletedId, Optional<String> eventId) {

		/** The field holding the change's kind. */
		public static final String KIND = "kind";

	}

}
