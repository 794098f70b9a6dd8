package dev.dynamorelay.engine.expr;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.Values;

/**
 * The key conditions of a Query: a KeyConditionExpression or legacy {@code KeyConditions}, one predicate per
 * attribute named, in the order written. {@link #resolve} checks them against the key schema of the table or
 * index queried, with DynamoDB's messages, and gives the partition key's value and the sort key's predicate.
 *
 * <p>See the Developer Guide, "Key condition expressions for query".
 *
 * @param predicates each attribute's predicate, in the order written
 */
public record KeyCondition(Map<String, Predicate> predicates) {

	public KeyCondition {
		predicates = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(predicates));
	}

	/** The comparison operators of {@code KeyConditions}; an expression gives only the first seven. */
	public enum Operator {
		/** equal */
		EQ,
		/** less than or equal */
		LE,
		/** less than */
		LT,
		/** greater than or equal */
		GE,
		/** greater than */
		GT,
		/** begins with */
		BEGINS_WITH,
		/** between, bounds included */
		BETWEEN,
		/** not equal: not an indexable operation */
		NE,
		/** in a list: not an indexable operation */
		IN,
		/** missing: not an indexable operation */
		NULL,
		/** present: not an indexable operation */
		NOT_NULL,
		/** contains: not an indexable operation */
		CONTAINS,
		/** does not contain: not an indexable operation */
		NOT_CONTAINS
	}

	/**
	 * A predicate on one key attribute.
	 * @param operator the operator
	 * @param values its values (one, two for BETWEEN)
	 */
	public record Predicate(Operator operator, List<AttributeValue> values) {

		public Predicate {
			values = List.copyOf(values);
		}

		/**
		 * Whether a key value satisfies the predicate (an ExclusiveStartKey must: "The provided starting key does
		 * not match the range key predicate").
		 */
		public boolean test(AttributeValue value) {
			if (value == null) {
				return false;
			}
			AttributeValue first = this.values.isEmpty() ? null : this.values.get(0);
			return switch (this.operator) {
				case EQ -> Values.equal(value, first);
				case LT -> order(value, first, o -> o < 0);
				case LE -> order(value, first, o -> o <= 0);
				case GT -> order(value, first, o -> o > 0);
				case GE -> order(value, first, o -> o >= 0);
				case BEGINS_WITH -> Conditions.beginsWith(value, first);
				case BETWEEN -> order(value, first, o -> o >= 0) && order(value, this.values.get(1), o -> o <= 0);
				default -> false;
			};
		}

		/** Whether the two values have an order (strings, numbers or binaries of one type) that passes {@code test}. */
		private static boolean order(AttributeValue value, AttributeValue bound, java.util.function.IntPredicate test) {
			Integer order = Conditions.order(value, bound);
			return order != null && test.test(order);
		}

	}

	/**
	 * The keys a Query reads: the partition key's value, and the sort key's predicate if there is one.
	 * @param partitionKey the partition key's name
	 * @param partitionValue its value
	 * @param sortKey the sort key's name (null when the schema has none)
	 * @param sortPredicate the predicate on it (null when the query has none)
	 */
	public record KeyRange(String partitionKey, AttributeValue partitionValue, String sortKey, Predicate sortPredicate) {
	}

	/**
	 * Checks the predicate on one element of the key schema, as DynamoDB does once it knows the table; the
	 * store may interleave these checks with its own checks of the ExclusiveStartKey, element by element, as
	 * DynamoDB does.
	 * @param attribute the key attribute's name
	 * @param type its type
	 * @param hash whether it is the partition key
	 * @param schemaSize how many elements the key schema has
	 * @throws AwsError a {@code ValidationException} with DynamoDB's message
	 */
	public void checkElement(String attribute, ScalarAttributeType type, boolean hash, int schemaSize) {
		if (hash && schemaSize == 1 && this.predicates.size() > 1) {
			throw AwsError.validation("Query key condition not supported");
		}
		Predicate predicate = this.predicates.get(attribute);
		if (predicate == null) {
			if (hash || this.predicates.size() > 1) {
				throw AwsError.validation("Query condition missed key schema element: " + attribute);
			}
			return;
		}
		switch (predicate.operator()) {
			case NULL, NOT_NULL, NE, CONTAINS, NOT_CONTAINS, IN ->
				throw AwsError.validation("Attempted conditional constraint is not an indexable operation");
			default -> {
			}
		}
		for (AttributeValue value : predicate.values()) {
			if (!value.type().name().equals(type.toString())) {
				throw AwsError.validation(
						"One or more parameter values were invalid: Condition parameter type does not match schema type");
			}
		}
		if (hash && predicate.operator() != Operator.EQ) {
			throw AwsError.validation("Query key condition not supported");
		}
	}

	/**
	 * The key range of the query on a table or index of {@code keySchema}, whose attributes have the types
	 * {@code types}.
	 * @throws AwsError a {@code ValidationException} with DynamoDB's message ("Query condition missed key schema
	 * element: a", "Query key condition not supported", ...)
	 */
	public KeyRange resolve(List<KeySchemaElement> keySchema, Map<String, ScalarAttributeType> types) {
		String partitionKey = null;
		String sortKey = null;
		for (KeySchemaElement element : keySchema) {
			boolean hash = element.keyType() == KeyType.HASH;
			checkElement(element.attributeName(), types.get(element.attributeName()), hash, keySchema.size());
			if (hash) {
				partitionKey = element.attributeName();
			}
			else {
				sortKey = element.attributeName();
			}
		}
		return new KeyRange(partitionKey, this.predicates.get(partitionKey).values().get(0), sortKey,
				(sortKey != null) ? this.predicates.get(sortKey) : null);
	}

}
