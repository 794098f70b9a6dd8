package dev.dynamorelay.engine.store;

import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A condition on an item, as the store uses it: a ConditionExpression or a FilterExpression (or their legacy
 * forms, Expected, QueryFilter and ScanFilter), parsed by the expression language.
 */
interface ItemCondition {

	/** Whether the item meets the condition; an absent item is an empty map. */
	boolean test(Map<String, AttributeValue> item);

	/** The top-level attribute names the condition reads (a Query's filter may not read the key). */
	Set<String> topLevelNames();

	/** The top-level attribute names read below ({@code a.b}, {@code a[0]}): a key attribute may not be read so. */
	default Set<String> nestedTopLevelNames() {
		return Set.of();
	}

}
