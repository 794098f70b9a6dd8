package dev.dynamorelay.engine.expr;

import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DynamoDB's checks of a legacy condition's {@code ComparisonOperator} and {@code AttributeValueList} (in
 * {@code QueryFilter}, {@code ScanFilter} and {@code KeyConditions}, and of a KeyConditionExpression's
 * predicates): the number of values, one type among them, a type the operator takes, BETWEEN's bounds in order.
 */
final class LegacyConditions {

	private static final Set<String> SCALARS = Set.of("S", "N", "B");

	private static final Map<String, Set<String>> TYPES = Map.ofEntries(Map.entry("EQ", Set.of("S", "N", "B", "SS", "NS", "BS")),
			Map.entry("NE", Set.of("S", "N", "B", "SS", "NS", "BS")), Map.entry("LE", SCALARS), Map.entry("LT", SCALARS),
			Map.entry("GE", SCALARS), Map.entry("GT", SCALARS), Map.entry("CONTAINS", SCALARS),
			Map.entry("NOT_CONTAINS", SCALARS), Map.entry("BEGINS_WITH", Set.of("S", "B")), Map.entry("IN", SCALARS),
			Map.entry("BETWEEN", SCALARS));

	private LegacyConditions() {
	}

	/** Whether {@code count} values suit {@code operator}. */
	static boolean countFits(String operator, int count) {
		return switch (operator) {
			case "NULL", "NOT_NULL" -> count == 0;
			case "IN" -> count >= 1;
			case "BETWEEN" -> count == 2;
			default -> count == 1;
		};
	}

	/** DynamoDB's message for what is wrong with the operator's values (themselves valid), or null. */
	static String problem(String operator, List<AttributeValue> values) {
		if (!countFits(operator, values.size())) {
			return "One or more parameter values were invalid: Invalid number of argument(s) for the " + operator
					+ " ComparisonOperator";
		}
		if (!values.isEmpty()) {
			AttributeValue.Type type = values.get(0).type();
			for (AttributeValue value : values) {
				if (value.type() != type) {
					return "One or more parameter values were invalid: AttributeValues inside AttributeValueList must be of same type";
				}
			}
		}
		Set<String> types = TYPES.get(operator);
		if (types != null) {
			for (AttributeValue value : values) {
				String name = Conditions.typeName(value);
				if (!types.contains(name)) {
					return "One or more parameter values were invalid: ComparisonOperator " + operator + " is not valid for "
							+ name + " AttributeValue type";
				}
			}
		}
		if (operator.equals("BETWEEN") && Conditions.order(values.get(0), values.get(1)) != null
				&& Conditions.order(values.get(0), values.get(1)) > 0) {
			return "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound";
		}
		return null;
	}

}
