package dev.dynamorelay.engine.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ValueChecks;
import dev.dynamorelay.engine.value.Values;

/**
 * The ExclusiveStartKey of a Query or Scan, checked as DynamoDB checks it: its values, its names (the table's keys,
 * then the index's), each key attribute's type and size, and, for a Query, that it lies within the key condition;
 * and its place in a table's or index's key order.
 */
final class StartKeys {

	/** The messages of a starting key's values that DynamoDB gives without its "starting key is invalid" prefix. */
	private static final Pattern BARE_VALUE_MESSAGES = Pattern.compile("contains duplicates|number set|numeric value|significant digits|number with magnitude");

	private StartKeys() {
	}

	/** A starting key's values, checked as DynamoDB checks them. */
	static Map<String, AttributeValue> values(Map<String, AttributeValue> startKey) {
		if (startKey == null) {
			return null;
		}
		for (AttributeValue value : startKey.values()) {
			String problem = ValueChecks.problem(value);
			if (problem != null) {
				throw AwsError.validation(BARE_VALUE_MESSAGES.matcher(problem).find() ? problem : "The provided starting key is invalid: " + problem);
			}
		}
		return ValueChecks.checkItem(startKey);
	}

	/** The names a starting key has: the table's keys, then the index's. */
	static List<String> names(TableSchema schema, IndexSchema index) {
		List<String> names = new ArrayList<>();
		names.add(schema.hash().name());
		if (schema.range() != null) {
			names.add(schema.range().name());
		}
		if (index != null) {
			for (KeyAttribute attribute : (index.range() == null) ? List.of(index.hash()) : List.of(index.hash(), index.range())) {
				if (!names.contains(attribute.name())) {
					names.add(attribute.name());
				}
			}
		}
		return names;
	}

	static void checkIndexKey(Map<String, AttributeValue> startKey, TableSchema schema, IndexSchema index) {
		KeyAttribute hash = (index != null) ? index.hash() : schema.hash();
		KeyAttribute range = (index != null) ? index.range() : schema.range();
		for (KeyAttribute attribute : (range == null) ? List.of(hash) : List.of(hash, range)) {
			checkPiece(startKey, attribute, attribute == hash);
		}
	}

	/** One key attribute of a starting key: present, of its type, not empty, not too large. */
	static void checkPiece(Map<String, AttributeValue> startKey, KeyAttribute attribute, boolean isHash) {
		if (!startKey.containsKey(attribute.name())) {
			throw AwsError.validation("The provided starting key is invalid");
		}
		if (isHash) {
			Keys.checkKey(new TableSchema("", attribute, null, List.of(), List.of()), Map.of(attribute.name(), startKey.get(attribute.name())));
		}
		else {
			checkRangePiece(attribute, startKey.get(attribute.name()));
		}
	}

	private static void checkRangePiece(KeyAttribute attribute, AttributeValue value) {
		// a sort key is checked alone as the second part of a key
		KeyAttribute anyHash = new KeyAttribute("\u0000", "S");
		Keys.checkKey(new TableSchema("", anyHash, attribute, List.of(), List.of()), Map.of(anyHash.name(), AttributeValue.fromS("x"), attribute.name(), value));
	}

	static void checkTableKey(Map<String, AttributeValue> startKey, TableSchema schema) {
		Map<String, AttributeValue> tableKey = new LinkedHashMap<>();
		for (String name : (schema.range() == null) ? List.of(schema.hash().name()) : List.of(schema.hash().name(), schema.range().name())) {
			if (startKey.containsKey(name)) {
				tableKey.put(name, startKey.get(name));
			}
		}
		try {
			Keys.checkKey(schema, tableKey);
		}
		catch (AwsError ex) {
			throw AwsError.validation("The provided starting key is invalid: " + ex.getMessage());
		}
	}

	static void checkInRange(Map<String, AttributeValue> startKey, TableSchema schema, KeyRange keys, KeyAttribute hash,
			KeyAttribute range) {
		boolean sameHash = Values.equal(startKey.get(hash.name()), keys.hash());
		if (range == null || keys.operator() == null) {
			if (!sameHash) {
				throw AwsError.validation("The provided starting key is outside query boundaries based on provided conditions");
			}
			return;
		}
		if (!keys.matches(startKey.get(range.name()))) {
			throw AwsError.validation("The provided starting key does not match the range key predicate");
		}
		if (!sameHash) {
			throw AwsError.validation("The query can return at most one row and cannot be restarted");
		}
	}

	/** A starting key's place in the order of the table's or the index's keys. */
	static byte[] position(TableSchema schema, IndexSchema index, Map<String, AttributeValue> startKey) {
		return (index != null) ? Keys.indexKey(index, schema, startKey) : Keys.tableKey(schema, startKey);
	}

}
