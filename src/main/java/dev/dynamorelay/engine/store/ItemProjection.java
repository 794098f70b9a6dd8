package dev.dynamorelay.engine.store;

import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The attributes a read returns: a ProjectionExpression (nested paths and list elements as DynamoDB returns
 * them) or the legacy AttributesToGet.
 */
interface ItemProjection {

	/** The item with only the projected attributes. */
	Map<String, AttributeValue> apply(Map<String, AttributeValue> item);

	/** The top-level attribute names it projects (whether an index holds them all). */
	Set<String> topLevelNames();

	/** The top-level attribute names read below ({@code a.b}, {@code a[0]}): a key attribute may not be read so. */
	default Set<String> nestedTopLevelNames() {
		return Set.of();
	}

}
