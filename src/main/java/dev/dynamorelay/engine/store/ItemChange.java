package dev.dynamorelay.engine.store;

import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One item's change in a committed write: its table, its key, and its image before and after. A put of a new
 * item has no old image, a delete no new image; a write that changed nothing (a delete of a missing item, an
 * update to the same values) is still a change when DynamoDB would write a stream record for it (a delete of
 * a missing item is not: it is never told).
 *
 * @param table the table, as the request named it
 * @param key the item's primary key attributes
 * @param oldImage the whole item before, or null when it did not exist
 * @param newImage the whole item after, or null when it was deleted
 * @param expired whether Time to Live deleted it (its stream record names the service as its user)
 */
public record ItemChange(String table, Map<String, AttributeValue> key, Map<String, AttributeValue> oldImage,
		Map<String, AttributeValue> newImage, boolean expired) {

	public ItemChange {
		key = Map.copyOf(key);
	}

}
