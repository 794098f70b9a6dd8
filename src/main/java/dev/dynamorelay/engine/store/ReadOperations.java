package dev.dynamorelay.engine.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ByteSink;
import dev.dynamorelay.engine.value.KeyBytes;

/**
 * Query and Scan: one page at a time, under the table's read lock. A page reads items in key order (a Query one
 * partition's, in sort key order or reversed; a Scan the whole table or index, in Scan hash order, or one
 * segment's share of the hash space), counts each item read against Limit before the filter, and stops at
 * Limit or once the items read reach 1 MB by DynamoDB's item size rules; LastEvaluatedKey is then the last item
 * read's key (an index's keys and the table's).
 *
 * <p>See the API Reference, Query and Scan, and the Developer Guide, "Paginating table query results", "Scanning
 * tables" (Parallel scan).
 *
 * <p>The checks of a starting key are {@link StartKeys}', those Query and Scan share {@link ReadChecks}', and a
 * page's reading {@link ReadPage}'s.
 */
final class ReadOperations {

	private final Database database;

	ReadOperations(Database database) {
		this.database = database;
	}

	// ---- Query

	QueryResponse query(QueryRequest request) {
		checkQueryRequest(request);
		Map<String, AttributeValue> startKey = StartKeys.values(request.hasExclusiveStartKey() ? request.exclusiveStartKey() : null);
		if (!request.hasKeyConditions() && request.keyConditionExpression() == null) {
			throw AwsError.validation("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
		}
		ExprBridge.Parsed parsed = ExprBridge.parse(queryInput(request));
		ReadChecks.checkSelect(request.selectAsString(), request.projectionExpression() != null, request.hasAttributesToGet(), request.indexName());
		StoredTable table = this.database.activeTable(request.tableName());
		TableSchema schema = table.schema;
		IndexSchema index = ReadChecks.index(schema, request.indexName(), Boolean.TRUE.equals(request.consistentRead()));
		KeyAttribute hash = (index != null) ? index.hash() : schema.hash();
		KeyAttribute range = (index != null) ? index.range() : schema.range();
		KeyRange keys = keyRange(parsed, schema, index, startKey);
		// in dynalite's order (DynamoDB's): paths into keys in the projection, a filter on the key, a global index's
		// projection, paths into keys in the filter
		if (parsed.projection() != null) {
			ExprBridge.checkKeyPaths(parsed.projection().nestedTopLevelNames(), schema);
		}
		if (parsed.filter() != null) {
			String name = request.hasQueryFilter() ? "QueryFilter" : "Filter Expression";
			for (String key : (range == null) ? List.of(hash.name()) : List.of(hash.name(), range.name())) {
				if (parsed.filter().topLevelNames().contains(key)) {
					throw AwsError.validation(name + " can only contain non-primary key attributes: Primary key attribute: " + key);
				}
			}
		}
		boolean fetch = ReadChecks.fetchesFromTable(index, request.selectAsString(), parsed.projection());
		if (parsed.filter() != null) {
			ExprBridge.checkKeyPaths(parsed.filter().nestedTopLevelNames(), schema);
		}
		ReadPage page = new ReadPage(table, index, request.limit(), parsed.filter(), parsed.projection(), "COUNT".equals(request.selectAsString()),
				fetch);
		readQuery(page, keys, startKey, !Boolean.FALSE.equals(request.scanIndexForward()));
		QueryResponse.Builder response = QueryResponse.builder().count(page.results.size()).scannedCount(page.scanned);
		if (!page.countOnly) {
			response.items(page.results);
		}
		if (page.lastKey != null) {
			response.lastEvaluatedKey(page.lastKey);
		}
		response.consumedCapacity(page.consumed(request.returnConsumedCapacityAsString(), Boolean.TRUE.equals(request.consistentRead())));
		return response.build();
	}

	/** A Query's members' constraints, then which of its parameters go together. */
	private static void checkQueryRequest(QueryRequest request) {
		Constraints constraints = new Constraints();
		constraints.oneOf("select", request.selectAsString(), ReadChecks.SELECT);
		constraints.name("indexName", request.indexName());
		constraints.oneOf("returnConsumedCapacity", request.returnConsumedCapacityAsString(), ItemOperations.RETURN_CONSUMED_CAPACITY);
		ReadChecks.conditions(constraints, "queryFilter", request.hasQueryFilter() ? request.queryFilter() : null);
		ItemOperations.tableName(constraints, "tableName", request.tableName());
		constraints.oneOf("conditionalOperator", request.conditionalOperatorAsString(), "OR", "AND");
		constraints.size("attributesToGet", request.hasAttributesToGet() ? request.attributesToGet() : null, 1, 255);
		constraints.range("limit", request.limit(), 1L, null);
		ReadChecks.conditions(constraints, "keyConditions", request.hasKeyConditions() ? request.keyConditions() : null);
		constraints.check();
		Map<String, Boolean> expressions = new LinkedHashMap<>();
		expressions.put("ProjectionExpression", request.projectionExpression() != null);
		expressions.put("FilterExpression", request.filterExpression() != null);
		expressions.put("KeyConditionExpression", request.keyConditionExpression() != null);
		Map<String, Boolean> legacy = new LinkedHashMap<>();
		legacy.put("AttributesToGet", request.hasAttributesToGet());
		legacy.put("QueryFilter", request.hasQueryFilter());
		legacy.put("ConditionalOperator", request.conditionalOperatorAsString() != null);
		legacy.put("KeyConditions", request.hasKeyConditions());
		ExprBridge.checkParameters(expressions, legacy, ItemOperations.names(request.hasExpressionAttributeNames(), request.expressionAttributeNames()),
				ItemOperations.values(request.hasExpressionAttributeValues(), request.expressionAttributeValues()));
		ExprBridge.checkLegacyFilter(request.hasQueryFilter() ? request.queryFilter() : null, request.conditionalOperatorAsString(), "QueryFilter",
				request.hasAttributesToGet() ? request.attributesToGet() : null);
	}

	private static ExprBridge.Input queryInput(QueryRequest request) {
		ExprBridge.Input input = new ExprBridge.Input();
		input.names = ItemOperations.names(request.hasExpressionAttributeNames(), request.expressionAttributeNames());
		input.values = ItemOperations.values(request.hasExpressionAttributeValues(), request.expressionAttributeValues());
		input.filterExpression = request.filterExpression();
		input.projectionExpression = request.projectionExpression();
		input.attributesToGet = request.hasAttributesToGet() ? request.attributesToGet() : null;
		input.filterConditions = request.hasQueryFilter() ? request.queryFilter() : null;
		input.filterConditionsName = "QueryFilter";
		input.conditionalOperator = request.conditionalOperatorAsString();
		input.keyConditionExpression = request.keyConditionExpression();
		input.keyConditions = request.hasKeyConditions() ? request.keyConditions() : null;
		return input;
	}

	/**
	 * The key range a Query reads, from its key condition checked against the key schema of the table or index,
	 * with the starting key checked against both, element by element as DynamoDB does.
	 */
	private static KeyRange keyRange(ExprBridge.Parsed parsed, TableSchema schema, IndexSchema index, Map<String, AttributeValue> startKey) {
		KeyAttribute hash = (index != null) ? index.hash() : schema.hash();
		KeyAttribute range = (index != null) ? index.range() : schema.range();
		if (startKey != null && startKey.size() != StartKeys.names(schema, index).size()) {
			throw AwsError.validation("The provided starting key is invalid");
		}
		// element by element, as DynamoDB does: the starting key's piece, then the key condition on it
		int schemaSize = (range == null) ? 1 : 2;
		for (KeyAttribute attribute : (range == null) ? List.of(hash) : List.of(hash, range)) {
			if (startKey != null) {
				StartKeys.checkPiece(startKey, attribute, attribute == hash);
			}
			ExprBridge.checkKeyElement(parsed.keyCondition(), attribute, attribute == hash, schemaSize);
		}
		KeyRange keys = ExprBridge.keyRange(parsed.keyCondition(), hash, range);
		if (startKey != null) {
			StartKeys.checkTableKey(startKey, schema);
			StartKeys.checkInRange(startKey, schema, keys, hash, range);
		}
		return keys;
	}

	/** Reads a Query's page: the key range's slice, after the starting key, forward or backward. */
	private static void readQuery(ReadPage page, KeyRange keys, Map<String, AttributeValue> startKey, boolean forward) {
		StoredTable table = page.table;
		IndexSchema index = page.index;
		TableSchema schema = table.schema;
		byte[] partition = Keys.partition(keys.hash());
		byte[][] bounds = bounds(partition, keys);
		byte[] low = bounds[0];
		byte[] high = bounds[1];
		boolean lowInclusive = true;
		if (startKey != null) {
			byte[] start = (index != null) ? Keys.indexKey(index, schema, startKey) : Keys.tableKey(schema, startKey);
			if (forward) {
				if (java.util.Arrays.compareUnsigned(start, low) >= 0) {
					low = start;
					lowInclusive = false;
				}
			}
			else if (high == null || java.util.Arrays.compareUnsigned(start, high) < 0) {
				high = start;
			}
		}
		table.lock.readLock().lock();
		try {
			Database.stillThere(table);
			NavigableMap<byte[], byte[]> map = (index != null) ? ReadChecks.readable(table, index).entries : table.items;
			NavigableMap<byte[], byte[]> slice = (high == null) ? map.tailMap(low, lowInclusive) : map.subMap(low, lowInclusive, high, false);
			page.read(forward ? slice : slice.descendingMap());
		}
		finally {
			table.lock.readLock().unlock();
		}
	}

	/** The first key of a Query's range and the first after it (null: to the end). */
	private static byte[][] bounds(byte[] partition, KeyRange keys) {
		if (keys.operator() == null) {
			return new byte[][] { partition, KeyBytes.successor(partition) };
		}
		byte[] at = concat(partition, keys.low());
		return switch (keys.operator()) {
			case "EQ" -> new byte[][] { at, KeyBytes.successor(at) };
			case "LT" -> new byte[][] { partition, at };
			case "LE" -> new byte[][] { partition, KeyBytes.successor(at) };
			case "GT" -> new byte[][] { KeyBytes.successor(at), KeyBytes.successor(partition) };
			case "GE" -> new byte[][] { at, KeyBytes.successor(partition) };
			case "BETWEEN" -> new byte[][] { at, KeyBytes.successor(concat(partition, keys.high())) };
			case "BEGINS_WITH" -> {
				ByteSink out = new ByteSink(partition.length + 16);
				out.write(partition);
				KeyBytes.writePrefix(out, keys.low());
				byte[] prefix = out.toByteArray();
				yield new byte[][] { prefix, KeyBytes.successor(prefix) };
			}
			default -> throw new IllegalArgumentException(keys.operator());
		};
	}

	private static byte[] concat(byte[] partition, AttributeValue value) {
		ByteSink out = new ByteSink(partition.length + 16);
		out.write(partition);
		KeyBytes.write(out, value);
		return out.toByteArray();
	}

	// ---- Scan

	ScanResponse scan(ScanRequest request) {
		checkScanRequest(request);
		Map<String, AttributeValue> startKey = StartKeys.values(request.hasExclusiveStartKey() ? request.exclusiveStartKey() : null);
		Integer segment = request.segment();
		Integer total = request.totalSegments();
		checkSegment(segment, total);
		ReadChecks.checkSelect(request.selectAsString(), request.projectionExpression() != null, request.hasAttributesToGet(), request.indexName());
		ExprBridge.Parsed parsed = ExprBridge.parse(scanInput(request));
		StoredTable table = this.database.activeTable(request.tableName());
		TableSchema schema = table.schema;
		IndexSchema index = ReadChecks.index(schema, request.indexName(), Boolean.TRUE.equals(request.consistentRead()));
		if (startKey != null) {
			if (startKey.size() != StartKeys.names(schema, index).size()) {
				throw AwsError.validation((index != null) ? "The provided starting key is invalid"
						: "The provided starting key is invalid: The provided key element does not match the schema");
			}
			if (index != null) {
				StartKeys.checkIndexKey(startKey, schema, index);
			}
		}
		boolean fetch = ReadChecks.fetchesFromTable(index, request.selectAsString(), parsed.projection());
		if (startKey != null) {
			StartKeys.checkTableKey(startKey, schema);
		}
		byte[][] bounds = segmentBounds(segment, total, schema, index, startKey);
		ReadChecks.checkKeyPaths(parsed, schema);
		ReadPage page = new ReadPage(table, index, request.limit(), parsed.filter(), parsed.projection(), "COUNT".equals(request.selectAsString()),
				fetch);
		if (startKey != null) {
			readScan(page, StartKeys.position(schema, index, startKey), false, bounds[1]);
		}
		else {
			readScan(page, bounds[0], true, bounds[1]);
		}
		ScanResponse.Builder response = ScanResponse.builder().count(page.results.size()).scannedCount(page.scanned);
		if (!page.countOnly) {
			response.items(page.results);
		}
		if (page.lastKey != null) {
			response.lastEvaluatedKey(page.lastKey);
		}
		response.consumedCapacity(page.consumed(request.returnConsumedCapacityAsString(), Boolean.TRUE.equals(request.consistentRead())));
		return response.build();
	}

	/** A Scan's members' constraints, then which of its parameters go together. */
	private static void checkScanRequest(ScanRequest request) {
		Constraints constraints = new Constraints();
		constraints.oneOf("select", request.selectAsString(), ReadChecks.SELECT);
		constraints.name("indexName", request.indexName());
		constraints.range("totalSegments", request.totalSegments(), 1L, 1_000_000L);
		constraints.oneOf("returnConsumedCapacity", request.returnConsumedCapacityAsString(), ItemOperations.RETURN_CONSUMED_CAPACITY);
		ItemOperations.tableName(constraints, "tableName", request.tableName());
		constraints.oneOf("conditionalOperator", request.conditionalOperatorAsString(), "OR", "AND");
		ReadChecks.conditions(constraints, "scanFilter", request.hasScanFilter() ? request.scanFilter() : null);
		constraints.range("segment", request.segment(), 0L, 999_999L);
		constraints.range("limit", request.limit(), 1L, null);
		constraints.size("attributesToGet", request.hasAttributesToGet() ? request.attributesToGet() : null, 1, 255);
		constraints.check();
		Map<String, Boolean> expressions = new LinkedHashMap<>();
		expressions.put("ProjectionExpression", request.projectionExpression() != null);
		expressions.put("FilterExpression", request.filterExpression() != null);
		Map<String, Boolean> legacy = new LinkedHashMap<>();
		legacy.put("AttributesToGet", request.hasAttributesToGet());
		legacy.put("ScanFilter", request.hasScanFilter());
		legacy.put("ConditionalOperator", request.conditionalOperatorAsString() != null);
		ExprBridge.checkParameters(expressions, legacy, ItemOperations.names(request.hasExpressionAttributeNames(), request.expressionAttributeNames()),
				ItemOperations.values(request.hasExpressionAttributeValues(), request.expressionAttributeValues()));
		ExprBridge.checkLegacyFilter(request.hasScanFilter() ? request.scanFilter() : null, request.conditionalOperatorAsString(), "ScanFilter",
				request.hasAttributesToGet() ? request.attributesToGet() : null);
	}

	/** Segment and TotalSegments go together, the segment one of the total. */
	private static void checkSegment(Integer segment, Integer total) {
		if (segment != null && total == null) {
			throw AwsError.validation("The TotalSegments parameter is required but was not present in the request when Segment parameter is present");
		}
		if (total != null) {
			if (segment == null) {
				throw AwsError.validation("The Segment parameter is required but was not present in the request when parameter TotalSegments is present");
			}
			if (segment >= total) {
				throw AwsError.validation("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: "
						+ segment + " is not less than TotalSegments: " + total);
			}
		}
	}

	private static ExprBridge.Input scanInput(ScanRequest request) {
		ExprBridge.Input input = new ExprBridge.Input();
		input.names = ItemOperations.names(request.hasExpressionAttributeNames(), request.expressionAttributeNames());
		input.values = ItemOperations.values(request.hasExpressionAttributeValues(), request.expressionAttributeValues());
		input.filterExpression = request.filterExpression();
		input.projectionExpression = request.projectionExpression();
		input.attributesToGet = request.hasAttributesToGet() ? request.attributesToGet() : null;
		input.filterConditions = request.hasScanFilter() ? request.scanFilter() : null;
		input.filterConditionsName = "ScanFilter";
		input.conditionalOperator = request.conditionalOperatorAsString();
		return input;
	}

	/**
	 * The first key of a parallel Scan's segment and the first after it (null: from the start, to the end), its
	 * share of the Scan hash space; a starting key must lie in it.
	 */
	private static byte[][] segmentBounds(Integer segment, Integer total, TableSchema schema, IndexSchema index,
			Map<String, AttributeValue> startKey) {
		byte[] low = null;
		byte[] high = null;
		if (total != null && total > 1) {
			int first = (int) Math.ceil(4096.0 * segment / total);
			int end = (int) Math.ceil(4096.0 * (segment + 1) / total);
			low = (first > 0) ? new byte[] { (byte) (first >>> 4), (byte) (first << 4) } : null;
			high = (end < 4096) ? new byte[] { (byte) (end >>> 4), (byte) (end << 4) } : null;
			if (startKey != null) {
				int bucket = Keys.hashOf(StartKeys.position(schema, index, startKey)) >>> 12;
				if (bucket < first || bucket >= end) {
					throw AwsError.validation("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. "
							+ "TotalSegments: " + total + " Segment: " + segment);
				}
			}
		}
		return new byte[][] { low, high };
	}

	/** Reads a Scan's page: the table's or index's entries from {@code low} (null: the start) to {@code high} (null: the end). */
	private static void readScan(ReadPage page, byte[] low, boolean lowInclusive, byte[] high) {
		StoredTable table = page.table;
		IndexSchema index = page.index;
		table.lock.readLock().lock();
		try {
			Database.stillThere(table);
			NavigableMap<byte[], byte[]> map = (index != null) ? ReadChecks.readable(table, index).entries : table.items;
			NavigableMap<byte[], byte[]> slice;
			if (low == null && high == null) {
				slice = map;
			}
			else if (low == null) {
				slice = map.headMap(high, false);
			}
			else if (high == null) {
				slice = map.tailMap(low, lowInclusive);
			}
			else {
				slice = map.subMap(low, lowInclusive, high, false);
			}
			page.read(slice);
		}
		finally {
			table.lock.readLock().unlock();
		}
	}

}
