package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A KeyConditionExpression's condition turned into one predicate per key attribute, with DynamoDB's refusals of
 * what a key condition may not hold (OR, NOT, IN, {@code <>}, functions other than begins_with, nested paths,
 * two conditions on one key, more than two keys), as dynalite reports them, checked against DynamoDB.
 */
final class KeyConditions {

	private KeyConditions() {
	}

	/** @throws Errors.ExpressionException with DynamoDB's message */
	static KeyCondition of(Condition condition) {
		Map<String, KeyCondition.Predicate> predicates = new LinkedHashMap<>();
		check(condition, predicates);
		// The values' types are checked against the key schema's ("Condition parameter type does not match schema
		// type"), not against the legacy operators' tables.
		if (predicates.size() != 1 && predicates.size() != 2) {
			throw new Errors.ExpressionException("Conditions can be of length 1 or 2 only");
		}
		return new KeyCondition(predicates);
	}

	private static void check(Condition condition, Map<String, KeyCondition.Predicate> predicates) {
		String invalid = invalidOperator(condition);
		if (invalid != null) {
			throw new Errors.ExpressionException("Invalid operator used in KeyConditionExpression: " + invalid);
		}
		if (condition instanceof Condition.Between between && !(between.operand() instanceof Operand.PathOperand)) {
			throw firstOperand("BETWEEN");
		}
		if (condition instanceof Condition.BeginsWith beginsWith && !(beginsWith.operand() instanceof Operand.PathOperand)) {
			throw firstOperand("begins_with");
		}
		if (condition instanceof Condition.And and) {
			check(and.left(), predicates);
			check(and.right(), predicates);
			return;
		}
		List<Operand> args;
		KeyCondition.Operator operator;
		if (condition instanceof Condition.Compare compare) {
			args = List.of(compare.left(), compare.right());
			operator = KeyCondition.Operator.valueOf(compare.comparator().name());
		}
		else if (condition instanceof Condition.Between between) {
			args = List.of(between.operand(), between.lower(), between.upper());
			operator = KeyCondition.Operator.BETWEEN;
		}
		else {
			Condition.BeginsWith beginsWith = (Condition.BeginsWith) condition;
			args = List.of(beginsWith.operand(), beginsWith.prefix());
			operator = KeyCondition.Operator.BEGINS_WITH;
		}
		Sides sides = sides(args);
		if (predicates.containsKey(sides.attribute())) {
			throw new Errors.ExpressionException("KeyConditionExpressions must only contain one condition per key");
		}
		if (sides.position() != 0) {
			// ":v < a" is "a > :v".
			operator = switch (operator) {
				case LT -> KeyCondition.Operator.GT;
				case LE -> KeyCondition.Operator.GE;
				case GT -> KeyCondition.Operator.LT;
				case GE -> KeyCondition.Operator.LE;
				default -> operator;
			};
		}
		predicates.put(sides.attribute(), new KeyCondition.Predicate(operator, sides.values()));
	}

	/** The operator a key condition may not hold, as DynamoDB's message names it, or null. */
	private static String invalidOperator(Condition condition) {
		if (condition instanceof Condition.Or) {
			return "OR";
		}
		if (condition instanceof Condition.Not) {
			return "NOT";
		}
		if (condition instanceof Condition.In) {
			return "IN";
		}
		if (condition instanceof Condition.Compare compare && compare.comparator() == Condition.Comparator.NE) {
			return "<>";
		}
		if (condition instanceof Condition.AttributeExists) {
			return "attribute_exists";
		}
		if (condition instanceof Condition.AttributeNotExists) {
			return "attribute_not_exists";
		}
		if (condition instanceof Condition.AttributeType) {
			return "attribute_type";
		}
		if (condition instanceof Condition.Contains) {
			return "contains";
		}
		return null;
	}

	/** A key condition's one key attribute, the place of its operand, and the values compared with it. */
	private record Sides(String attribute, int position, List<AttributeValue> values) {
	}

	private static Sides sides(List<Operand> args) {
		String attribute = null;
		int position = 0;
		List<AttributeValue> values = new ArrayList<>();
		for (int i = 0; i < args.size(); i++) {
			Operand arg = args.get(i);
			if (arg instanceof Operand.PathOperand path) {
				if (attribute != null) {
					throw new Errors.ExpressionException(
							"Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
				}
				if (path.path().isNested()) {
					throw new Errors.ExpressionException("KeyConditionExpressions cannot have conditions on nested attributes");
				}
				attribute = path.path().head();
				position = i;
			}
			else if (arg instanceof Operand.Size) {
				throw new Errors.ExpressionException("KeyConditionExpressions cannot contain nested operations");
			}
			else {
				values.add(((Operand.Value) arg).value());
			}
		}
		if (attribute == null) {
			throw new Errors.ExpressionException("Invalid condition in KeyConditionExpression: No key attribute specified");
		}
		return new Sides(attribute, position, values);
	}

	private static Errors.ExpressionException firstOperand(String operator) {
		return new Errors.ExpressionException("Invalid condition in KeyConditionExpression: " + operator
				+ " operator must have the key attribute as its first operand");
	}

}
