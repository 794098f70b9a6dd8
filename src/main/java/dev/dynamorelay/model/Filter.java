package dev.dynamorelay.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.model.AttributeValues;

/**
 * One condition of a FilterExpression: DynamoDB reads the items and returns only those that match, so
 * a filtered page may take more reads than one (within the read budget).
 *
 * @param attribute the attribute compared
 * @param op the comparison
 * @param values one value; none for {@link Op#EXISTS}/{@link Op#NOT_EXISTS}; one or more for {@link Op#IN}
 */
public record Filter(String attribute, Op op, List<AttributeValue> values) {

	/** DynamoDB's limit on the operands of one {@code IN}. */
	public static final int MAX_IN = 100;

	public Filter {
		Objects.requireNonNull(attribute, "attribute");
		Objects.requireNonNull(op, "op");
		values = List.copyOf(values);
		int expected = switch (op) {
			case EXISTS, NOT_EXISTS -> 0;
			case IN -> -1;
			default -> 1;
		};
		if ((expected >= 0 && values.size() != expected)
				|| (expected < 0 && (values.isEmpty() || values.size() > MAX_IN))) {
			throw new IllegalArgumentException(op + " does not take " + values.size() + " values");
		}
	}

	/** Whether {@code item} passes this condition, as DynamoDB's FilterExpression would say. */
	public boolean matches(Map<String, AttributeValue> item) {
		AttributeValue value = item.get(this.attribute);
		if (this.op == Op.NOT_EXISTS) {
			return value == null;
		}
		if (value == null) {
			return false;
		}
		AttributeValue operand = this.values.isEmpty() ? null : this.values.get(0);
		return switch (this.op) {
			case EQ -> AttributeValues.equal(value, operand);
			case NE -> !AttributeValues.equal(value, operand);
			case LT -> AttributeValues.compare(value, operand).map((c) -> c < 0).orElse(false);
			case LE -> AttributeValues.compare(value, operand).map((c) -> c <= 0).orElse(false);
			case GT -> AttributeValues.compare(value, operand).map((c) -> c > 0).orElse(false);
			case GE -> AttributeValues.compare(value, operand).map((c) -> c >= 0).orElse(false);
			case BEGINS_WITH -> AttributeValues.beginsWith(value, operand);
			case CONTAINS -> AttributeValues.contains(value, operand);
			case EXISTS -> true;
			case NOT_EXISTS -> false;
			case IN -> this.values.stream().anyMatch((each) -> AttributeValues.equal(value, each));
		};
	}

	/** The expression over {@code name} with the value placeholders {@code valuePrefix0, 1, ...}. */
	public String expression(String name, String valuePrefix) {
		return switch (this.op) {
			case EQ -> name + " = " + valuePrefix + "0";
			// DynamoDB's `<>` is true for an item without the attribute; a filter never matches one.
			case NE -> "(attribute_exists(" + name + ") AND " + name + " <> " + valuePrefix + "0)";
			case LT -> name + " < " + valuePrefix + "0";
			case LE -> name + " <= " + valuePrefix + "0";
			case GT -> name + " > " + valuePrefix + "0";
			case GE -> name + " >= " + valuePrefix + "0";
			case BEGINS_WITH -> "begins_with(" + name + ", " + valuePrefix + "0)";
			case CONTAINS -> "contains(" + name + ", " + valuePrefix + "0)";
			case EXISTS -> "attribute_exists(" + name + ")";
			case NOT_EXISTS -> "attribute_not_exists(" + name + ")";
			case IN -> {
				StringBuilder in = new StringBuilder(name).append(" IN (");
				for (int i = 0; i < this.values.size(); i++) {
					in.append((i > 0) ? ", " : "").append(valuePrefix).append(i);
				}
				yield in.append(')').toString();
			}
		};
	}

	/** The comparisons of a FilterExpression. */
	public enum Op {

		EQ, NE, LT, LE, GT, GE, BEGINS_WITH, CONTAINS, EXISTS, NOT_EXISTS, IN

	}

}
