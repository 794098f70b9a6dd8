package dev.dynamorelay.engine.store;

import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.ConditionalOperator;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.expr.Expressions;
import dev.dynamorelay.engine.expr.KeyCondition;
import dev.dynamorelay.engine.expr.Legacy;
import dev.dynamorelay.engine.expr.ParameterCheck;
import dev.dynamorelay.engine.expr.Projection;
import dev.dynamorelay.engine.expr.Update;

/**
 * The one place where the store meets the expression language ({@code engine.expr}): a request's expression and
 * legacy parameters in, the store's conditions, projections, updates and key ranges out, checked in DynamoDB's
 * order (the parameters together; the legacy parameters; the names and values; each expression; the unused
 * placeholders). The language itself (parsing, placeholders, reserved words, functions, document paths,
 * evaluation, the legacy parameters' trees) is {@code engine.expr}'s.
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

		Map<String, Condition> keyConditions;

	}

	/**
	 * The parsed expressions of one request (a member null when the request has none); the key condition is
	 * resolved against the queried key schema with {@link #keyRange} once the table is known.
	 */
	record Parsed(ItemCondition condition, ItemCondition filter, KeyCondition keyCondition, ItemProjection projection,
			ItemUpdate update) {

	}

	/**
	 * DynamoDB's checks of which expression and legacy parameters a request combines, before any is parsed.
	 * @param expressionParameters the names of the expression parameters the operation has, in DynamoDB's
	 * order, each with whether the request gives it
	 * @param legacyParameters likewise, the legacy parameters
	 */
	static void checkParameters(Map<String, Boolean> expressionParameters, Map<String, Boolean> legacyParameters,
			Map<String, String> names, Map<String, AttributeValue> values) {
		ParameterCheck check = ParameterCheck.of(names, values);
		expressionParameters.forEach((name, given) -> check.expression(name, given ? name : null));
		legacyParameters.forEach((name, given) -> check.legacy(name, given ? name : null));
		check.check();
	}

	/** Parses the request's legacy parameters and expressions into the store's forms, in DynamoDB's order. */
	static Parsed parse(Input in) {
		ConditionalOperator operator = (in.conditionalOperator != null) ? ConditionalOperator.fromValue(in.conditionalOperator) : null;
		// UpdateItem's AttributeUpdates are checked before its Expected (dynalite's validations/updateItem.js)
		ItemUpdate update = update(Legacy.attributeUpdates(in.attributeUpdates));
		ItemCondition condition = condition(Legacy.expected(in.expected, operator));
		ItemCondition filter = condition(Legacy.filter(in.filterConditions, operator, in.filterConditionsName));
		KeyCondition keyCondition = (in.keyConditions != null) ? Legacy.keyConditions(in.keyConditions) : null;
		ItemProjection projection = projection(Legacy.attributesToGet(in.attributesToGet));
		if (in.names != null || in.values != null || in.updateExpression != null || in.conditionExpression != null
				|| in.keyConditionExpression != null || in.filterExpression != null || in.projectionExpression != null) {
			Expressions expressions = Expressions.of(in.names, in.values);
			if (in.updateExpression != null) {
				update = update(expressions.update(in.updateExpression));
			}
			if (in.conditionExpression != null) {
				condition = condition(expressions.condition(in.conditionExpression));
			}
			if (in.keyConditionExpression != null) {
				keyCondition = expressions.keyCondition(in.keyConditionExpression);
			}
			if (in.filterExpression != null) {
				filter = condition(expressions.filter(in.filterExpression));
			}
			if (in.projectionExpression != null) {
				projection = projection(expressions.projection(in.projectionExpression));
			}
			expressions.checkAllUsed();
		}
		return new Parsed(condition, filter, keyCondition, projection, update);
	}

	/**
	 * The checks of a legacy filter and AttributesToGet that DynamoDB makes before it looks at the starting key
	 * (a Query's; a Scan's AttributesToGet, then its filter).
	 */
	static void checkLegacyFilter(Map<String, Condition> filter, String conditionalOperator, String parameter, List<String> attributesToGet) {
		ConditionalOperator operator = (conditionalOperator != null) ? ConditionalOperator.fromValue(conditionalOperator) : null;
		if ("ScanFilter".equals(parameter)) {
			Legacy.attributesToGet(attributesToGet);
			Legacy.filter(filter, operator, parameter);
		}
		else {
			Legacy.filter(filter, operator, parameter);
			Legacy.attributesToGet(attributesToGet);
		}
	}

	/** The checks of a Query's key condition on one element of the queried key schema (DynamoDB's order). */
	static void checkKeyElement(KeyCondition keyCondition, KeyAttribute attribute, boolean hash, int schemaSize) {
		keyCondition.checkElement(attribute.name(), ScalarAttributeType.fromValue(attribute.type()), hash, schemaSize);
	}

	/** The key range of a Query's key condition on the queried key schema, checked with DynamoDB's messages. */
	static KeyRange keyRange(KeyCondition keyCondition, KeyAttribute hash, KeyAttribute range) {
		List<KeySchemaElement> keySchema = TableSchema.keySchema(hash, range);
		Map<String, ScalarAttributeType> types = (range == null) ? Map.of(hash.name(), ScalarAttributeType.fromValue(hash.type()))
				: Map.of(hash.name(), ScalarAttributeType.fromValue(hash.type()), range.name(), ScalarAttributeType.fromValue(range.type()));
		KeyCondition.KeyRange resolved = keyCondition.resolve(keySchema, types);
		KeyCondition.Predicate sort = resolved.sortPredicate();
		if (sort == null) {
			return new KeyRange(resolved.partitionValue(), null, null, null);
		}
		List<AttributeValue> values = sort.values();
		return new KeyRange(resolved.partitionValue(), sort.operator().name(), values.get(0), (values.size() > 1) ? values.get(1) : null);
	}

	private static ItemCondition condition(dev.dynamorelay.engine.expr.Condition condition) {
		if (condition == null) {
			return null;
		}
		return new ItemCondition() {

			@Override
			public boolean test(Map<String, AttributeValue> item) {
				return condition.test(item);
			}

			@Override
			public Set<String> topLevelNames() {
				return condition.topLevelNames();
			}

			@Override
			public Set<String> nestedTopLevelNames() {
				return condition.nestedTopLevelNames();
			}

		};
	}

	private static ItemProjection projection(Projection projection) {
		if (projection == null) {
			return null;
		}
		return new ItemProjection() {

			@Override
			public Map<String, AttributeValue> apply(Map<String, AttributeValue> item) {
				return projection.apply(item);
			}

			@Override
			public Set<String> topLevelNames() {
				return projection.topLevelNames();
			}

			@Override
			public Set<String> nestedTopLevelNames() {
				return projection.nestedTopLevelNames();
			}

		};
	}

	private static ItemUpdate update(Update update) {
		if (update == null) {
			return null;
		}
		ItemProjection updated = projection(update.updatedPaths());
		return new ItemUpdate() {

			@Override
			public Map<String, AttributeValue> apply(Map<String, AttributeValue> item) {
				return update.apply(item);
			}

			@Override
			public Set<String> touchedTopLevelNames() {
				return update.touchedTopLevelNames();
			}

			@Override
			public Set<String> nestedTopLevelNames() {
				return update.nestedTopLevelNames();
			}

			@Override
			public AttributeValue.Type assignedType(String topLevelName) {
				return update.assignedType(topLevelName);
			}

			@Override
			public ItemProjection updatedPaths() {
				return updated;
			}

		};
	}

	/**
	 * DynamoDB's refusal of document paths into key attributes ({@code a.b} or {@code a[0]} where {@code a} is a
	 * key of the table or of one of its indexes), in an expression that reads or writes below these names.
	 */
	static void checkKeyPaths(Set<String> nested, TableSchema schema) {
		if (nested.isEmpty()) {
			return;
		}
		for (String key : (schema.range() == null) ? List.of(schema.hash().name()) : List.of(schema.hash().name(), schema.range().name())) {
			if (nested.contains(key)) {
				throw AwsError.validation("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: " + key);
			}
		}
		for (IndexSchema index : schema.indexes()) {
			for (String key : index.keyNames()) {
				if (nested.contains(key)) {
					throw AwsError.validation("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: IndexKey: " + key);
				}
			}
		}
	}

}
