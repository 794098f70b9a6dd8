package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.List;

import dev.dynamorelay.engine.action.AwsError;

/**
 * DynamoDB's refusal to mix expression parameters with the legacy parameters they replace, and of placeholders
 * without expressions. Name the request's expression parameters and legacy parameters in DynamoDB's order for the
 * operation (its messages list them so):
 * <ul>
 * <li>PutItem, DeleteItem: ConditionExpression / Expected;</li>
 * <li>UpdateItem: UpdateExpression, ConditionExpression / AttributeUpdates, Expected;</li>
 * <li>GetItem, BatchGetItem's tables: ProjectionExpression / AttributesToGet;</li>
 * <li>Query: ProjectionExpression, FilterExpression, KeyConditionExpression / AttributesToGet, QueryFilter,
 * ConditionalOperator, KeyConditions;</li>
 * <li>Scan: ProjectionExpression, FilterExpression / AttributesToGet, ScanFilter, ConditionalOperator.</li>
 * </ul>
 * For example {@code ParameterCheck.of(names, values).expression("ConditionExpression", req.conditionExpression())
 * .legacy("Expected", req.hasExpected() ? req.expected() : null).check()}.
 */
public final class ParameterCheck {

	private final boolean names;

	private final boolean values;

	private final List<String> expressions = new ArrayList<>();

	private final List<String> present = new ArrayList<>();

	private final List<String> legacy = new ArrayList<>();

	private final List<String> legacyPresent = new ArrayList<>();

	private ParameterCheck(boolean names, boolean values) {
		this.names = names;
		this.values = values;
	}

	/** A check of a request that has ExpressionAttributeNames and ExpressionAttributeValues, or not (null). */
	public static ParameterCheck of(Object expressionAttributeNames, Object expressionAttributeValues) {
		return new ParameterCheck(expressionAttributeNames != null, expressionAttributeValues != null);
	}

	/** An expression parameter of the operation, and its value in the request (null when absent). */
	public ParameterCheck expression(String name, Object value) {
		this.expressions.add(name);
		if (value != null) {
			this.present.add(name);
		}
		return this;
	}

	/** A legacy parameter of the operation, and its value in the request (null when absent). */
	public ParameterCheck legacy(String name, Object value) {
		this.legacy.add(name);
		if (value != null) {
			this.legacyPresent.add(name);
		}
		return this;
	}

	/**
	 * @throws AwsError a {@code ValidationException}: "Can not use both expression and non-expression parameters in
	 * the same request: Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}",
	 * "ExpressionAttributeNames can only be specified when using expressions", "ExpressionAttributeValues can only
	 * be specified when using expressions: ConditionExpression is null"
	 */
	public void check() {
		if (!this.present.isEmpty()) {
			List<String> mixed = new ArrayList<>(this.legacyPresent);
			// KeyConditions may come with the other expressions when there is no KeyConditionExpression.
			if (!this.present.contains("KeyConditionExpression")) {
				mixed.remove("KeyConditions");
			}
			if (!mixed.isEmpty()) {
				throw AwsError.validation("Can not use both expression and non-expression parameters in the same request: "
						+ "Non-expression parameters: {" + String.join(", ", mixed) + "} Expression parameters: {"
						+ String.join(", ", this.present) + "}");
			}
		}
		if (this.names && this.present.isEmpty()) {
			throw AwsError.validation("ExpressionAttributeNames can only be specified when using expressions");
		}
		List<String> valueExpressions = new ArrayList<>(this.expressions);
		valueExpressions.remove("ProjectionExpression");
		if (this.values && !valueExpressions.isEmpty()) {
			boolean none = true;
			for (String expression : valueExpressions) {
				none &= !this.present.contains(expression);
			}
			if (none) {
				throw AwsError.validation("ExpressionAttributeValues can only be specified when using expressions: "
						+ String.join(" and ", valueExpressions) + " " + ((valueExpressions.size() > 1) ? "are" : "is") + " null");
			}
		}
	}

}
