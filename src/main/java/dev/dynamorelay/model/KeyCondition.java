package dev.dynamorelay.model;

import java.util.List;
import java.util.Objects;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.model.AttributeValues;

/**
 * A condition on the sort key, part of a Query's KeyConditionExpression: it narrows the key range
 * DynamoDB reads, so nothing outside it is read or paid for.
 *
 * @param op the comparison
 * @param values one value, or two for {@link Op#BETWEEN} (low and high, inclusive)
 */
public record KeyCondition(Op op, List<AttributeValue> values) {

	public KeyCondition {
		Objects.requireNonNull(op, "op");
		values = List.copyOf(values);
		if (values.size() != ((op == Op.BETWEEN) ? 2 : 1)) {
			throw new IllegalArgumentException(op + " takes " + ((op == Op.BETWEEN) ? 2 : 1) + " values");
		}
	}

	public static KeyCondition of(Op op, AttributeValue value) {
		return new KeyCondition(op, List.of(value));
	}

	public static KeyCondition between(AttributeValue low, AttributeValue high) {
		return new KeyCondition(Op.BETWEEN, List.of(low, high));
	}

	/** Whether a sort key value meets this condition, as DynamoDB's KeyConditionExpression would say. */
	public boolean matches(AttributeValue sortKey) {
		AttributeValue operand = this.values.get(0);
		return switch (this.op) {
			case EQ -> AttributeValues.equal(sortKey, operand);
			case LT -> AttributeValues.compare(sortKey, operand).map((c) -> c < 0).orElse(false);
			case LE -> AttributeValues.compare(sortKey, operand).map((c) -> c <= 0).orElse(false);
			case GT -> AttributeValues.compare(sortKey, operand).map((c) -> c > 0).orElse(false);
			case GE -> AttributeValues.compare(sortKey, operand).map((c) -> c >= 0).orElse(false);
			case BETWEEN -> AttributeValues.compare(sortKey, operand).map((c) -> c >= 0).orElse(false)
					&& AttributeValues.compare(sortKey, this.values.get(1)).map((c) -> c <= 0).orElse(false);
			case BEGINS_WITH -> AttributeValues.beginsWith(sortKey, operand);
		};
	}

	/** The expression over {@code #sk} with the values {@code :sk0} (and {@code :sk1}). */
	public String expression() {
		return switch (this.op) {
			case EQ -> "#sk = :sk0";
			case LT -> "#sk < :sk0";
			case LE -> "#sk <= :sk0";
			case GT -> "#sk > :sk0";
			case GE -> "#sk >= :sk0";
			case BETWEEN -> "#sk BETWEEN :sk0 AND :sk1";
			case BEGINS_WITH -> "begins_with(#sk, :sk0)";
		};
	}

	/** The comparisons DynamoDB allows on a sort key. */
	public enum Op {

		EQ, LT, LE, GT, GE, BETWEEN, BEGINS_WITH

	}

}
