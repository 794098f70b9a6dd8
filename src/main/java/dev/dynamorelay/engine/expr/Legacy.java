package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.ConditionalOperator;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ValueChecks;

/**
 * The legacy parameters (Expected, AttributeUpdates, KeyConditions, QueryFilter, ScanFilter, AttributesToGet with
 * ConditionalOperator), checked with DynamoDB's messages and converted to the trees expressions make, so that the
 * store evaluates one kind of tree.
 *
 * <p>See the Developer Guide, "Legacy conditional parameters". The SDK's enumerations are checked against their
 * values by the caller (DynamoDB's "1 validation error detected: Value 'X' at 'queryFilter.a.member.
 * comparisonOperator' failed to satisfy constraint: ..." comes before these checks); a missing or unknown
 * operator that reaches here is refused with that message.
 */
public final class Legacy {

	private static final String INVALID = "One or more parameter values were invalid: ";

	private static final String OPERATORS = "[IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]";

	private Legacy() {
	}

	/**
	 * {@code Expected} as a condition (its entries joined by {@code conditionalOperator}, AND when null), or null
	 * when it is null or empty.
	 * @throws AwsError a {@code ValidationException} with DynamoDB's message ("One or more parameter values were
	 * invalid: Value must be provided when Exists is null for Attribute: a", ...)
	 */
	public static Condition expected(Map<String, ExpectedAttributeValue> expected, ConditionalOperator conditionalOperator) {
		if (expected == null || expected.isEmpty()) {
			return null;
		}
		List<Condition> conditions = new ArrayList<>();
		for (Map.Entry<String, ExpectedAttributeValue> entry : expected.entrySet()) {
			String name = entry.getKey();
			ExpectedAttributeValue condition = entry.getValue();
			boolean hasList = condition.hasAttributeValueList();
			AttributeValue value = condition.value();
			if (hasList && value != null) {
				throw AwsError.validation(INVALID + "Value and AttributeValueList cannot be used together for Attribute: " + name);
			}
			if (condition.comparisonOperatorAsString() != null) {
				if (condition.exists() != null) {
					throw AwsError.validation(INVALID + "Exists and ComparisonOperator cannot be used together for Attribute: " + name);
				}
				String operator = operator(condition.comparisonOperator(), condition.comparisonOperatorAsString(), "expected", name);
				if (!operator.equals("NULL") && !operator.equals("NOT_NULL") && !hasList && value == null) {
					throw AwsError.validation(INVALID + "Value or AttributeValueList must be used with ComparisonOperator: "
							+ operator + " for Attribute: " + name);
				}
				List<AttributeValue> values = hasList ? checked(condition.attributeValueList())
						: (value != null) ? List.of(ValueChecks.check(value)) : List.of();
				if (!LegacyConditions.countFits(operator, values.size())) {
					throw AwsError.validation(INVALID + "Invalid number of argument(s) for the " + operator + " ComparisonOperator");
				}
				if (hasList && !values.isEmpty()) {
					for (AttributeValue member : values) {
						if (member.type() != values.get(0).type()) {
							throw AwsError.validation(INVALID + "AttributeValues inside AttributeValueList must be of same type");
						}
					}
					if (operator.equals("BETWEEN")) {
						Integer order = Conditions.order(values.get(0), values.get(1));
						if (order != null && order > 0) {
							throw AwsError.validation("The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
						}
					}
				}
				conditions.add(convert(name, operator, values));
			}
			else if (hasList) {
				throw AwsError.validation(INVALID + "AttributeValueList can only be used with a ComparisonOperator for Attribute: " + name);
			}
			else {
				Boolean exists = condition.exists();
				boolean mustExist = exists == null || exists;
				if (mustExist && value == null) {
					throw AwsError.validation(INVALID + "Value must be provided when Exists is " + exists + " for Attribute: " + name);
				}
				if (!mustExist && value != null) {
					throw AwsError.validation(INVALID + "Value cannot be used when Exists is false for Attribute: " + name);
				}
				conditions.add(mustExist ? convert(name, "EQ", List.of(ValueChecks.check(value)))
						: new Condition.AttributeNotExists(Path.of(name)));
			}
		}
		return join(conditions, conditionalOperator);
	}

	/**
	 * A {@code QueryFilter} or {@code ScanFilter} as a condition (its entries joined by
	 * {@code conditionalOperator}, AND when null), or null when it is null or empty.
	 * @param parameter {@code QueryFilter} or {@code ScanFilter}, as the messages name it
	 * @throws AwsError a {@code ValidationException} with DynamoDB's message ("One or more parameter values were
	 * invalid: ComparisonOperator BETWEEN is not valid for BOOL AttributeValue type", ...)
	 */
	public static Condition filter(Map<String, software.amazon.awssdk.services.dynamodb.model.Condition> filter,
			ConditionalOperator conditionalOperator, String parameter) {
		if (filter == null || filter.isEmpty()) {
			return null;
		}
		List<Condition> conditions = new ArrayList<>();
		for (Map.Entry<String, software.amazon.awssdk.services.dynamodb.model.Condition> entry : filter.entrySet()) {
			String operator = operator(entry.getValue(), parameter, entry.getKey());
			conditions.add(convert(entry.getKey(), operator, checkedConditionValues(entry.getValue(), operator)));
		}
		return join(conditions, conditionalOperator);
	}

	/**
	 * {@code KeyConditions} as key predicates, checked against nothing but themselves (the key schema comes with
	 * {@link KeyCondition#resolve}).
	 * @throws AwsError a {@code ValidationException} with DynamoDB's message ("Conditions can be of length 1 or 2
	 * only", ...)
	 */
	public static KeyCondition keyConditions(Map<String, software.amazon.awssdk.services.dynamodb.model.Condition> conditions) {
		Map<String, KeyCondition.Predicate> predicates = new LinkedHashMap<>();
		if (conditions != null) {
			for (Map.Entry<String, software.amazon.awssdk.services.dynamodb.model.Condition> entry : conditions.entrySet()) {
				String operator = operator(entry.getValue(), "keyConditions", entry.getKey());
				predicates.put(entry.getKey(), new KeyCondition.Predicate(KeyCondition.Operator.valueOf(operator),
						checkedConditionValues(entry.getValue(), operator)));
			}
		}
		if (predicates.size() != 1 && predicates.size() != 2) {
			throw AwsError.validation("Conditions can be of length 1 or 2 only");
		}
		return new KeyCondition(predicates);
	}

	/**
	 * {@code AttributeUpdates} as an update (PUT sets, DELETE without a value removes, DELETE with a set takes its
	 * elements, ADD adds a number, a set's elements or a list's), or null when it is null.
	 * @throws AwsError a {@code ValidationException} with DynamoDB's message ("One or more parameter values were
	 * invalid: Only DELETE action is allowed when no attribute value is specified", ...)
	 */
	public static Update attributeUpdates(Map<String, AttributeValueUpdate> updates) {
		if (updates == null) {
			return null;
		}
		List<Update.Action> actions = new ArrayList<>();
		for (Map.Entry<String, AttributeValueUpdate> entry : updates.entrySet()) {
			AttributeValueUpdate update = entry.getValue();
			AttributeValue value = (update.value() != null) ? ValueChecks.check(update.value()) : null;
			String action = (update.actionAsString() != null) ? update.actionAsString() : "PUT";
			if (update.actionAsString() != null && update.action() == AttributeAction.UNKNOWN_TO_SDK_VERSION) {
				throw AwsError.validation("1 validation error detected: Value '" + update.actionAsString() + "' at 'attributeUpdates."
						+ entry.getKey() + ".member.action' failed to satisfy constraint: Member must satisfy enum value set: [ADD, PUT, DELETE]");
			}
			if (value == null && !action.equals("DELETE")) {
				throw AwsError.validation(INVALID + "Only DELETE action is allowed when no attribute value is specified");
			}
			Path path = Path.of(entry.getKey());
			if (value == null) {
				actions.add(new Update.RemoveAction(path));
				continue;
			}
			String type = Conditions.typeName(value);
			switch (action) {
				case "DELETE" -> {
					if (!type.equals("SS") && !type.equals("NS") && !type.equals("BS")) {
						throw AwsError.validation(INVALID + "DELETE action with value is not supported for the type " + type);
					}
					actions.add(new Update.DeleteAction(path, value));
				}
				case "ADD" -> {
					if (!Set.of("L", "SS", "NS", "BS", "N").contains(type)) {
						throw AwsError.validation(INVALID + "ADD action is not supported for the type " + type);
					}
					actions.add(new Update.AddAction(path, value));
				}
				default -> actions.add(new Update.SetAction(path, new Update.Value.Literal(value)));
			}
		}
		return new Update(actions, true);
	}

	/**
	 * {@code AttributesToGet} as a projection of top-level attributes, or null when it is null.
	 * @throws AwsError a {@code ValidationException} "One or more parameter values were invalid: Duplicate value in
	 * attribute name: a"
	 */
	public static Projection attributesToGet(List<String> names) {
		if (names == null) {
			return null;
		}
		Set<String> seen = new HashSet<>();
		List<Path> paths = new ArrayList<>();
		for (String name : names) {
			if (!seen.add(name)) {
				throw AwsError.validation(INVALID + "Duplicate value in attribute name: " + name);
			}
			paths.add(Path.of(name));
		}
		return new Projection(paths);
	}

	private static String operator(software.amazon.awssdk.services.dynamodb.model.Condition condition, String parameter, String name) {
		return operator(condition.comparisonOperator(), condition.comparisonOperatorAsString(), parameter, name);
	}

	private static String operator(ComparisonOperator operator, String written, String parameter, String name) {
		String where = "'" + lowerFirst(parameter) + "." + name + ".member.comparisonOperator'";
		if (written == null) {
			throw AwsError.validation("1 validation error detected: Value null at " + where
					+ " failed to satisfy constraint: Member must not be null");
		}
		if (operator == ComparisonOperator.UNKNOWN_TO_SDK_VERSION) {
			throw AwsError.validation("1 validation error detected: Value '" + written + "' at " + where
					+ " failed to satisfy constraint: Member must satisfy enum value set: " + OPERATORS);
		}
		return operator.toString();
	}

	private static String lowerFirst(String text) {
		return Character.toLowerCase(text.charAt(0)) + text.substring(1);
	}

	private static List<AttributeValue> checked(List<AttributeValue> values) {
		List<AttributeValue> checked = new ArrayList<>();
		for (AttributeValue value : values) {
			checked.add(ValueChecks.check(value));
		}
		return checked;
	}

	private static List<AttributeValue> checkedConditionValues(software.amazon.awssdk.services.dynamodb.model.Condition condition,
			String operator) {
		List<AttributeValue> values = condition.hasAttributeValueList() ? checked(condition.attributeValueList()) : List.of();
		String problem = LegacyConditions.problem(operator, values);
		if (problem != null) {
			throw AwsError.validation(problem);
		}
		return values;
	}

	/** The condition of one legacy entry. */
	private static Condition convert(String name, String operator, List<AttributeValue> values) {
		Operand attribute = new Operand.PathOperand(Path.of(name));
		Operand first = values.isEmpty() ? null : new Operand.Value(values.get(0));
		return switch (operator) {
			case "NULL" -> new Condition.AttributeNotExists(Path.of(name));
			case "NOT_NULL" -> new Condition.AttributeExists(Path.of(name));
			case "CONTAINS" -> new Condition.Contains(attribute, first);
			case "NOT_CONTAINS" -> new Condition.Not(new Condition.Contains(attribute, first));
			case "BEGINS_WITH" -> new Condition.BeginsWith(attribute, first);
			case "BETWEEN" -> new Condition.Between(attribute, first, new Operand.Value(values.get(1)));
			case "IN" -> {
				List<Operand> candidates = new ArrayList<>();
				for (AttributeValue value : values) {
					candidates.add(new Operand.Value(value));
				}
				yield new Condition.In(attribute, candidates);
			}
			default -> new Condition.Compare(Condition.Comparator.valueOf(operator), attribute, first);
		};
	}

	private static Condition join(List<Condition> conditions, ConditionalOperator conditionalOperator) {
		boolean or = conditionalOperator == ConditionalOperator.OR;
		Condition joined = conditions.get(0);
		for (int i = 1; i < conditions.size(); i++) {
			joined = or ? new Condition.Or(joined, conditions.get(i)) : new Condition.And(joined, conditions.get(i));
		}
		return joined;
	}

}
