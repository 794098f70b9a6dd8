package dev.dynamorelay.engine.store;

import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Condition;

import dev.dynamorelay.engine.AwsError;
import dev.dynamorelay.engine.value.ValueChecks;
import dev.dynamorelay.engine.value.Values;

/**
 * A Query's legacy KeyConditions: checked with DynamoDB's messages (as dynalite's validations/index.js
 * validateConditions and actions/query.js give them) and turned into the {@link KeyRange} it reads.
 */
final class KeyConditions {

	private static final Map<String, Integer> ARGUMENTS = Map.ofEntries(Map.entry("NULL", 0), Map.entry("NOT_NULL", 0),
			Map.entry("EQ", 1), Map.entry("NE", 1), Map.entry("LE", 1), Map.entry("LT", 1), Map.entry("GE", 1), Map.entry("GT", 1),
			Map.entry("CONTAINS", 1), Map.entry("NOT_CONTAINS", 1), Map.entry("BEGINS_WITH", 1), Map.entry("BETWEEN", 2));

	private static final List<String> SCALARS = List.of("S", "N", "B");

	private static final List<String> SCALARS_AND_SETS = List.of("S", "N", "B", "SS", "NS", "BS");

	private KeyConditions() {
	}

	/** Checks conditions of the legacy API (KeyConditions, QueryFilter, ScanFilter) as DynamoDB does first. */
	static void check(Map<String, Condition> conditions) {
		for (Map.Entry<String, Condition> entry : conditions.entrySet()) {
			Condition condition = entry.getValue();
			String operator = condition.comparisonOperatorAsString();
			List<AttributeValue> values = condition.hasAttributeValueList() ? condition.attributeValueList() : List.of();
			for (AttributeValue value : values) {
				String problem = ValueChecks.problem(value);
				if (problem != null) {
					throw AwsError.validation(problem);
				}
			}
			Integer expected = ARGUMENTS.get(operator);
			boolean countOk = (expected != null) ? values.size() == expected : !values.isEmpty();
			if (!countOk) {
				throw AwsError.validation("One or more parameter values were invalid: Invalid number of argument(s) for the " + operator
						+ " ComparisonOperator");
			}
			if (!values.isEmpty()) {
				String type = ValueChecks.typeName(values.get(0));
				for (AttributeValue value : values) {
					if (!type.equals(ValueChecks.typeName(value))) {
						throw AwsError.validation("One or more parameter values were invalid: AttributeValues inside AttributeValueList must be of same type");
					}
				}
				List<String> allowed = switch (operator) {
					case "EQ", "NE" -> SCALARS_AND_SETS;
					case "BEGINS_WITH" -> List.of("S", "B");
					case "NULL", "NOT_NULL" -> null;
					default -> SCALARS;
				};
				if (allowed != null) {
					for (AttributeValue value : values) {
						if (!allowed.contains(ValueChecks.typeName(value))) {
							throw AwsError.validation("One or more parameter values were invalid: ComparisonOperator " + operator
									+ " is not valid for " + ValueChecks.typeName(value) + " AttributeValue type");
						}
					}
				}
				if ("BETWEEN".equals(operator) && Values.compare(values.get(0), values.get(1)) > 0) {
					throw AwsError.validation("The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
				}
			}
		}
	}

	/** The range of a Query's KeyConditions on the queried key schema ({@code range} null when it has none). */
	static KeyRange range(Map<String, Condition> conditions, KeyAttribute hash, KeyAttribute range) {
		if (range == null && conditions.size() > 1) {
			throw AwsError.validation("Query key condition not supported");
		}
		Condition hashCondition = conditions.get(hash.name());
		if (hashCondition == null) {
			throw AwsError.validation("Query condition missed key schema element: " + hash.name());
		}
		checkKeyCondition(hashCondition, hash);
		if (!"EQ".equals(hashCondition.comparisonOperatorAsString())) {
			throw AwsError.validation("Query key condition not supported");
		}
		AttributeValue hashValue = ValueChecks.normalize(hashCondition.attributeValueList().get(0));
		if (range == null) {
			return new KeyRange(hashValue, null, null, null);
		}
		Condition rangeCondition = conditions.get(range.name());
		if (rangeCondition == null) {
			if (conditions.size() > 1) {
				throw AwsError.validation("Query condition missed key schema element: " + range.name());
			}
			return new KeyRange(hashValue, null, null, null);
		}
		checkKeyCondition(rangeCondition, range);
		List<AttributeValue> values = rangeCondition.attributeValueList();
		return new KeyRange(hashValue, rangeCondition.comparisonOperatorAsString(), ValueChecks.normalize(values.get(0)),
				(values.size() > 1) ? ValueChecks.normalize(values.get(1)) : null);
	}

	private static void checkKeyCondition(Condition condition, KeyAttribute attribute) {
		if (Set.of("NULL", "NOT_NULL", "NE", "CONTAINS", "NOT_CONTAINS", "IN").contains(condition.comparisonOperatorAsString())) {
			throw AwsError.validation("Attempted conditional constraint is not an indexable operation");
		}
		for (AttributeValue value : condition.attributeValueList()) {
			if (!attribute.accepts(value)) {
				throw AwsError.validation("One or more parameter values were invalid: Condition parameter type does not match schema type");
			}
		}
	}

}
