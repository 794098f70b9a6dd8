package dev.dynamorelay.engine.store;

import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The change of an UpdateExpression (or the legacy AttributeUpdates) to an item. */
interface ItemUpdate {

	/**
	 * The item after the update; {@code item} is the stored item, or the key alone when there is none.
	 * @throws dev.dynamorelay.engine.action.AwsError DynamoDB's errors of an update that cannot apply to this item
	 */
	Map<String, AttributeValue> apply(Map<String, AttributeValue> item);

	/** The top-level attribute names the update sets, removes, adds to or deletes from. */
	Set<String> touchedTopLevelNames();

	/** The paths the update touches, as a projection: what ReturnValues UPDATED_OLD and UPDATED_NEW return. */
	ItemProjection updatedPaths();

	/** The top-level attribute names written or read below ({@code a.b}, {@code a[0]}): a key attribute may not be. */
	default Set<String> nestedTopLevelNames() {
		return Set.of();
	}

	/**
	 * The type a top-level attribute is given, as far as it is known before the update runs, or null: checked
	 * against an index key's type before the item is read.
	 */
	default AttributeValue.Type assignedType(String topLevelName) {
		return null;
	}

}
