package dev.dynamorelay.write;

import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** What came of a write call: written, or refused by a condition. */
sealed interface WriteOutcome {

	/**
	 * Written. A put's item, an update's new image, a delete's old image (empty: there was none).
	 *
	 * @param retried whether an earlier attempt of the call may have been made (a delete that found nothing
	 * may have been preceded by its own)
	 */
	record Written(Map<String, AttributeValue> image, boolean retried) implements WriteOutcome {
	}

	/**
	 * A condition did not hold and nothing was written.
	 *
	 * @param index the part whose condition failed
	 * @param stored that part's item as it is (empty: there is none)
	 * @param retried whether an earlier attempt of the call may have been made: the stored item may then be
	 * what that attempt wrote
	 */
	record Refused(int index, Map<String, AttributeValue> stored, boolean retried) implements WriteOutcome {
	}

}
