package dev.dynamorelay.engine.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;

import dev.dynamorelay.engine.AwsError;

/**
 * The one place where the store meets the expression language ({@code engine.expr}): the expression parameters
 * of a request in, the store's conditions, projections, updates and key ranges out. The store knows nothing
 * else of expressions; the language itself (parsing, names and values, reserved words, functions, document
 * paths, evaluation, the legacy parameters' trees) is {@code engine.expr}'s.
 *
 * <p>Until {@code engine.expr} is on main, an expression parameter (or a legacy condition or update) is refused
 * with a ValidationException saying so; AttributesToGet, a list of top-level names, is the store's own.
 */
final class ExprBridge {

	private ExprBridge() {
	}

	/** The expression parameters and legacy parameters of one request (a member null when absent). */
	static final class Input {

		Map<String, String> names;

		Map<String, AttributeValue> values;

		String conditionExpression;

		String filterExpression;

		String keyConditionExpression;

		String projectionExpression;

		String updateExpression;

		List<String> attributesToGet;

		Map<String, ExpectedAttributeValue> expected;

		String conditionalOperator;

		Map<String, Condition> filterConditions;

		/** {@code QueryFilter} or {@code ScanFilter}: the name of {@link #filterConditions} in messages. */
		String filterConditionsName;

		Map<String, AttributeValueUpdate> attributeUpdates;

		/** The queried key schema, for a KeyConditionExpression. */
		KeyAttribute queriedHash;

		KeyAttribute queriedRange;

	}

	/** The parsed expressions of one request (a member null when the request has none). */
	record Parsed(ItemCondition condition, ItemCondition filter, KeyRange keyRange, ItemProjection projection,
			ItemUpdate update) {

		static final Parsed NONE = new Parsed(null, null, null, null, null);

	}

	/**
	 * DynamoDB's checks of which expression and legacy parameters a request combines, before any is parsed.
	 * @param expressionParameters the names of the expression parameters the operation has, in DynamoDB's
	 * order, each with whether the request gives it
	 * @param legacyParameters likewise, the legacy parameters
	 */
	static void checkParameters(Map<String, Boolean> expressionParameters, Map<String, Boolean> legacyParameters,
			Map<String, String> names, Map<String, AttributeValue> values) {
		List<String> expressions = given(expressionParameters);
		Map<String, Boolean> legacy = new LinkedHashMap<>(legacyParameters);
		if (!expressions.isEmpty()) {
			// a Query may give KeyConditions with expression parameters when it gives no KeyConditionExpression
			if (legacy.containsKey("KeyConditions") && !Boolean.TRUE.equals(expressionParameters.get("KeyConditionExpression"))) {
				legacy.remove("KeyConditions");
			}
			List<String> legacyGiven = given(legacy);
			if (!legacyGiven.isEmpty()) {
				throw AwsError.validation("Can not use both expression and non-expression parameters in the same request: "
						+ "Non-expression parameters: {" + String.join(", ", legacyGiven) + "} Expression parameters: {"
						+ String.join(", ", expressions) + "}");
			}
		}
		if (names != null && expressions.isEmpty()) {
			throw AwsError.validation("ExpressionAttributeNames can only be specified when using expressions");
		}
		List<String> valueExpressions = new ArrayList<>();
		boolean anyValueExpression = false;
		for (Map.Entry<String, Boolean> parameter : expressionParameters.entrySet()) {
			if (!parameter.getKey().equals("ProjectionExpression")) {
				valueExpressions.add(parameter.getKey());
				anyValueExpression |= parameter.getValue();
			}
		}
		if (values != null && !valueExpressions.isEmpty() && !anyValueExpression) {
			throw AwsError.validation("ExpressionAttributeValues can only be specified when using expressions: "
					+ String.join(" and ", valueExpressions) + " " + ((valueExpressions.size() > 1) ? "are" : "is") + " null");
		}
	}

	private static List<String> given(Map<String, Boolean> parameters) {
		List<String> given = new ArrayList<>();
		for (Map.Entry<String, Boolean> parameter : parameters.entrySet()) {
			if (parameter.getValue()) {
				given.add(parameter.getKey());
			}
		}
		return given;
	}

	/**
	 * Expressions the store's own tests give, by their text, until {@code engine.expr} parses them: each makes
	 * the store's form from the request's names and values. Empty outside tests; it goes with this stand-in.
	 */
	static final Map<String, java.util.function.BiFunction<Map<String, String>, Map<String, AttributeValue>, Object>> KNOWN =
			new java.util.concurrent.ConcurrentHashMap<>();

	/** Parses the request's expressions (and legacy parameters) into the store's forms. */
	static Parsed parse(Input in) {
		ItemCondition condition = known(in, in.conditionExpression, "ConditionExpression");
		ItemCondition filter = known(in, in.filterExpression, "FilterExpression");
		KeyRange keyRange = known(in, in.keyConditionExpression, "KeyConditionExpression");
		ItemProjection projection = known(in, in.projectionExpression, "ProjectionExpression");
		ItemUpdate update = known(in, in.updateExpression, "UpdateExpression");
		String unsupported = firstLegacy(in);
		if (unsupported != null) {
			// engine.expr is being built beside the store; this refusal goes when it is on main
			throw AwsError.validation(unsupported + " is not supported by this engine yet");
		}
		if (projection == null && in.attributesToGet != null) {
			projection = attributesToGet(in.attributesToGet);
		}
		return new Parsed(condition, filter, keyRange, projection, update);
	}

	@SuppressWarnings("unchecked")
	private static <T> T known(Input in, String text, String parameter) {
		if (text == null) {
			return null;
		}
		var made = KNOWN.get(text);
		if (made == null) {
			// engine.expr is being built beside the store; this refusal goes when it is on main
			throw AwsError.validation(parameter + " is not supported by this engine yet");
		}
		return (T) made.apply((in.names != null) ? in.names : Map.of(), (in.values != null) ? in.values : Map.of());
	}

	private static String firstLegacy(Input in) {
		if (in.expected != null) {
			return "Expected";
		}
		if (in.filterConditions != null) {
			return in.filterConditionsName;
		}
		if (in.attributeUpdates != null) {
			return "AttributeUpdates";
		}
		return null;
	}

	/** The legacy AttributesToGet: the named top-level attributes the item has. */
	static ItemProjection attributesToGet(List<String> names) {
		Set<String> wanted = new LinkedHashSet<>(names);
		return new ItemProjection() {

			@Override
			public Map<String, AttributeValue> apply(Map<String, AttributeValue> item) {
				Map<String, AttributeValue> projected = new LinkedHashMap<>();
				for (String name : wanted) {
					AttributeValue value = item.get(name);
					if (value != null) {
						projected.put(name, value);
					}
				}
				return projected;
			}

			@Override
			public Set<String> topLevelNames() {
				return wanted;
			}

		};
	}

}
