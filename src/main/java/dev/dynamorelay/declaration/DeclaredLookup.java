package dev.dynamorelay.declaration;

import java.util.Optional;

import graphql.schema.FieldCoordinates;

import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.KeyValue;

/**
 * A declared one-to-one field: the target type's key, filled from the field's arguments or its parent.
 *
 * @param coordinates the field, e.g. {@code Purchase.user}
 * @param target the type of the item it returns
 * @param partition the target's partition key value
 * @param sort the target's sort key value, when its table has a sort key
 */
public record DeclaredLookup(FieldCoordinates coordinates, Entity target, KeyValue partition,
		Optional<KeyValue> sort) {
}
