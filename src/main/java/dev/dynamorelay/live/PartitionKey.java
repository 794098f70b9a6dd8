package dev.dynamorelay.live;

import java.math.BigDecimal;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * A partition that live subscriptions read and stream records are routed by: the attribute that partitions a
 * read (the table's partition key, or an index's) and its value, equal when DynamoDB would put two items in one
 * partition. Numbers are equal by value ({@code 10} and {@code 10.0} alike), binary values by their bytes.
 *
 * @param attribute the attribute that partitions the read
 * @param type the value's type: a key is a string, a number or binary
 * @param value the value: a string as it is, a number in its plain form without trailing zeros, binary in base64
 */
record PartitionKey(String attribute, ScalarAttributeType type, String value) {

	/**
	 * The partition of {@code value} in {@code attribute}; empty for a value no key can hold (a list, a map, a
	 * set, a boolean, null), which is in no partition.
	 */
	static Optional<PartitionKey> of(String attribute, AttributeValue value) {
		if (value.s() != null) {
			return Optional.of(new PartitionKey(attribute, ScalarAttributeType.S, value.s()));
		}
		if (value.n() != null) {
			String number = new BigDecimal(value.n()).stripTrailingZeros().toPlainString();
			return Optional.of(new PartitionKey(attribute, ScalarAttributeType.N, number));
		}
		if (value.b() != null) {
			String bytes = Base64.getEncoder().encodeToString(value.b().asByteArrayUnsafe());
			return Optional.of(new PartitionKey(attribute, ScalarAttributeType.B, bytes));
		}
		return Optional.empty();
	}

	/**
	 * The partitions {@code record}'s item was in, before and after the write, by each of {@code attributes}: each
	 * once, in the order found (an item that moved between partitions is in two).
	 */
	static Set<PartitionKey> of(Collection<String> attributes, ChangeRecord record) {
		Set<PartitionKey> partitions = new LinkedHashSet<>();
		for (String attribute : attributes) {
			for (Optional<Map<String, AttributeValue>> image : List.of(record.oldImage(), record.newImage())) {
				image.map((item) -> item.get(attribute))
					.flatMap((value) -> of(attribute, value))
					.ifPresent(partitions::add);
			}
		}
		return partitions;
	}

}
