package dev.dynamorelay.engine.store;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The items a Query reads: one partition key value, and optionally a condition on the sort key.
 *
 * @param hash the partition key's value
 * @param operator the sort key's condition: {@code EQ}, {@code LT}, {@code LE}, {@code GT}, {@code GE},
 * {@code BETWEEN} or {@code BEGINS_WITH}; null for the whole partition
 * @param low the condition's value (the lower bound of BETWEEN)
 * @param high BETWEEN's upper bound, otherwise null
 */
record KeyRange(AttributeValue hash, String operator, AttributeValue low, AttributeValue high) {

	/** Whether {@code value}, a sort key, meets the condition. */
	boolean matches(AttributeValue value) {
		if (this.operator == null) {
			return true;
		}
		int low = dev.dynamorelay.engine.value.Values.compare(value, this.low);
		return switch (this.operator) {
			case "EQ" -> low == 0;
			case "LT" -> low < 0;
			case "LE" -> low <= 0;
			case "GT" -> low > 0;
			case "GE" -> low >= 0;
			case "BETWEEN" -> low >= 0 && dev.dynamorelay.engine.value.Values.compare(value, this.high) <= 0;
			case "BEGINS_WITH" -> beginsWith(value);
			default -> false;
		};
	}

	private boolean beginsWith(AttributeValue value) {
		if (value.s() != null) {
			return value.s().startsWith(this.low.s());
		}
		byte[] bytes = value.b().asByteArrayUnsafe();
		byte[] prefix = this.low.b().asByteArrayUnsafe();
		return bytes.length >= prefix.length && java.util.Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
	}

}
