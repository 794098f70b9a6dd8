package dev.dynamorelay.engine.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.regex.Pattern;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ByteSink;
import dev.dynamorelay.engine.value.ItemCodec;
import dev.dynamorelay.engine.value.ItemSize;
import dev.dynamorelay.engine.value.KeyBytes;
import dev.dynamorelay.engine.value.ValueChecks;
import dev.dynamorelay.engine.value.Values;

/**
 * Query and Scan: one page at a time, under the table's read lock. A page reads items in key order (a Query one
 * partition's, in sort key order or reversed; a Scan the whole table or index, in Scan hash order, or one
 * segment's share of the hash space), counts each item read against Limit before the filter, and stops at
 * Limit or once the items read reach 1 MB by DynamoDB's item size rules; LastEvaluatedKey is then the last item
 * read's key (an index's keys and the table's).
 *
 * <p>See the API Reference, Query and Scan, and the Developer Guide, "Paginating table query results", "Scanning
 * tables" (Parallel scan).
 */
final class ReadOperations {

	/** The most a page reads: 1 MB of items. */
	static final long PAGE_BYTES = 1024 * 1024;

	private static final String[] SELECT = { "SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES" };

	/** The messages of a starting key's values that DynamoDB gives without its "starting key is invalid" prefix. */
	private static final Pattern BARE_VALUE_MESSAGES = Pattern.compile("contains duplicates|number set|numeric value|significant digits|number with magnitude");

	private final Database database;

	ReadOperations(Database database) {
		this.database = database;
	}

	// ---- Query

	QueryResponse query(QueryRequest request) {
		Constraints constraints = new Constraints();
		constraints.oneOf("select", request.selectAsString(), SELECT);
		constraints.name("indexName", request.indexName());
		constraints.oneOf("returnConsumedCapacity", request.returnConsumedCapacityAsString(), ItemOperations.RETURN_CONSUMED_CAPACITY);
		conditions(constraints, "queryFilter", request.hasQueryFilter() ? request.queryFilter() : null);
		ItemOperations.tableName(constraints, "tableName", request.tableName());
		constraints.oneOf("conditionalOperator", request.conditionalOperatorAsString(), "OR", "AND");
		constraints.size("attributesToGet", request.hasAttributesToGet() ? request.attributesToGet() : null, 1, 255);
		constraints.range("limit", request.limit(), 1L, null);
		conditions(constraints, "keyConditions", request.hasKeyConditions() ? request.keyConditions() : null);
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
		Map<String, AttributeValue> startKey = startKey(request.hasExclusiveStartKey() ? request.exclusiveStartKey() : null);
		if (!request.hasKeyConditions() && request.keyConditionExpression() == null) {
			throw AwsError.validation("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
		}
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
		ExprBridge.Parsed parsed = ExprBridge.parse(input);
		checkSelect(request.selectAsString(), request.projectionExpression() != null, request.hasAttributesToGet(), request.indexName());
		StoredTable table = this.database.activeTable(request.tableName());
		TableSchema schema = table.schema;
		IndexSchema index = index(schema, request.indexName(), Boolean.TRUE.equals(request.consistentRead()));
		KeyAttribute hash = (index != null) ? index.hash() : schema.hash();
		KeyAttribute range = (index != null) ? index.range() : schema.range();
		if (startKey != null && startKey.size() != startKeyNames(schema, index).size()) {
			throw AwsError.validation("The provided starting key is invalid");
		}
		// element by element, as DynamoDB does: the starting key's piece, then the key condition on it
		int schemaSize = (range == null) ? 1 : 2;
		for (KeyAttribute attribute : (range == null) ? List.of(hash) : List.of(hash, range)) {
			if (startKey != null) {
				checkStartKeyPiece(startKey, attribute, attribute == hash);
			}
			ExprBridge.checkKeyElement(parsed.keyCondition(), attribute, attribute == hash, schemaSize);
		}
		KeyRange keys = ExprBridge.keyRange(parsed.keyCondition(), hash, range);
		if (startKey != null) {
			checkTableStartKey(startKey, schema);
			checkStartKeyInRange(startKey, schema, keys, hash, range);
		}
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
		boolean fetch = fetchesFromTable(index, request.selectAsString(), parsed.projection());
		if (parsed.filter() != null) {
			ExprBridge.checkKeyPaths(parsed.filter().nestedTopLevelNames(), schema);
		}
		byte[] partition = Keys.partition(keys.hash());
		byte[][] bounds = bounds(partition, keys);
		byte[] low = bounds[0];
		byte[] high = bounds[1];
		boolean lowInclusive = true;
		boolean forward = !Boolean.FALSE.equals(request.scanIndexForward());
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
		Page page = new Page(table, index, request.limit(), parsed.filter(), parsed.projection(), "COUNT".equals(request.selectAsString()), fetch);
		table.lock.readLock().lock();
		try {
			Database.stillThere(table);
			NavigableMap<byte[], byte[]> map = (index != null) ? readable(table, index).entries : table.items;
			NavigableMap<byte[], byte[]> slice = (high == null) ? map.tailMap(low, lowInclusive) : map.subMap(low, lowInclusive, high, false);
			page.read(forward ? slice : slice.descendingMap());
		}
		finally {
			table.lock.readLock().unlock();
		}
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

	private static void checkIndexStartKey(Map<String, AttributeValue> startKey, TableSchema schema, IndexSchema index) {
		KeyAttribute hash = (index != null) ? index.hash() : schema.hash();
		KeyAttribute range = (index != null) ? index.range() : schema.range();
		for (KeyAttribute attribute : (range == null) ? List.of(hash) : List.of(hash, range)) {
			checkStartKeyPiece(startKey, attribute, attribute == hash);
		}
	}

	/** One key attribute of a starting key: present, of its type, not empty, not too large. */
	private static void checkStartKeyPiece(Map<String, AttributeValue> startKey, KeyAttribute attribute, boolean isHash) {
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

	private static void checkTableStartKey(Map<String, AttributeValue> startKey, TableSchema schema) {
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

	private static void checkStartKeyInRange(Map<String, AttributeValue> startKey, TableSchema schema, KeyRange keys, KeyAttribute hash,
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

	// ---- Scan

	ScanResponse scan(ScanRequest request) {
		Constraints constraints = new Constraints();
		constraints.oneOf("select", request.selectAsString(), SELECT);
		constraints.name("indexName", request.indexName());
		constraints.range("totalSegments", request.totalSegments(), 1L, 1_000_000L);
		constraints.oneOf("returnConsumedCapacity", request.returnConsumedCapacityAsString(), ItemOperations.RETURN_CONSUMED_CAPACITY);
		ItemOperations.tableName(constraints, "tableName", request.tableName());
		constraints.oneOf("conditionalOperator", request.conditionalOperatorAsString(), "OR", "AND");
		conditions(constraints, "scanFilter", request.hasScanFilter() ? request.scanFilter() : null);
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
		Map<String, AttributeValue> startKey = startKey(request.hasExclusiveStartKey() ? request.exclusiveStartKey() : null);
		Integer segment = request.segment();
		Integer total = request.totalSegments();
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
		checkSelect(request.selectAsString(), request.projectionExpression() != null, request.hasAttributesToGet(), request.indexName());
		ExprBridge.Input input = new ExprBridge.Input();
		input.names = ItemOperations.names(request.hasExpressionAttributeNames(), request.expressionAttributeNames());
		input.values = ItemOperations.values(request.hasExpressionAttributeValues(), request.expressionAttributeValues());
		input.filterExpression = request.filterExpression();
		input.projectionExpression = request.projectionExpression();
		input.attributesToGet = request.hasAttributesToGet() ? request.attributesToGet() : null;
		input.filterConditions = request.hasScanFilter() ? request.scanFilter() : null;
		input.filterConditionsName = "ScanFilter";
		input.conditionalOperator = request.conditionalOperatorAsString();
		ExprBridge.Parsed parsed = ExprBridge.parse(input);
		StoredTable table = this.database.activeTable(request.tableName());
		TableSchema schema = table.schema;
		IndexSchema index = index(schema, request.indexName(), Boolean.TRUE.equals(request.consistentRead()));
		if (startKey != null) {
			if (startKey.size() != startKeyNames(schema, index).size()) {
				throw AwsError.validation((index != null) ? "The provided starting key is invalid"
						: "The provided starting key is invalid: The provided key element does not match the schema");
			}
			if (index != null) {
				checkIndexStartKey(startKey, schema, index);
			}
		}
		boolean fetch = fetchesFromTable(index, request.selectAsString(), parsed.projection());
		if (startKey != null) {
			checkTableStartKey(startKey, schema);
		}
		byte[] low = null;
		byte[] high = null;
		if (total != null && total > 1) {
			int first = (int) Math.ceil(4096.0 * segment / total);
			int end = (int) Math.ceil(4096.0 * (segment + 1) / total);
			low = (first > 0) ? new byte[] { (byte) (first >>> 4), (byte) (first << 4) } : null;
			high = (end < 4096) ? new byte[] { (byte) (end >>> 4), (byte) (end << 4) } : null;
			if (startKey != null) {
				int bucket = Keys.hashOf(startKey(schema, index, startKey)) >>> 12;
				if (bucket < first || bucket >= end) {
					throw AwsError.validation("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. "
							+ "TotalSegments: " + total + " Segment: " + segment);
				}
			}
		}
		checkKeyPaths(parsed, schema);
		boolean lowInclusive = true;
		if (startKey != null) {
			low = startKey(schema, index, startKey);
			lowInclusive = false;
		}
		Page page = new Page(table, index, request.limit(), parsed.filter(), parsed.projection(), "COUNT".equals(request.selectAsString()), fetch);
		table.lock.readLock().lock();
		try {
			Database.stillThere(table);
			NavigableMap<byte[], byte[]> map = (index != null) ? readable(table, index).entries : table.items;
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

	private static void checkKeyPaths(ExprBridge.Parsed parsed, TableSchema schema) {
		if (parsed.projection() != null) {
			ExprBridge.checkKeyPaths(parsed.projection().nestedTopLevelNames(), schema);
		}
		if (parsed.filter() != null) {
			ExprBridge.checkKeyPaths(parsed.filter().nestedTopLevelNames(), schema);
		}
	}

	/** The index's entries, when it can be read (the caller holds the table's read lock). */
	private static StoredIndex readable(StoredTable table, IndexSchema index) {
		StoredIndex stored = table.indexes.get(index.name());
		if (stored == null) {
			throw AwsError.validation("The table does not have the specified index: " + index.name());
		}
		if (stored.backfilling) {
			throw AwsError.validation("Cannot read from backfilling global secondary index: " + index.name());
		}
		return stored;
	}

	private static byte[] startKey(TableSchema schema, IndexSchema index, Map<String, AttributeValue> startKey) {
		return (index != null) ? Keys.indexKey(index, schema, startKey) : Keys.tableKey(schema, startKey);
	}

	// ---- shared

	/** The constraints on the comparison operators of legacy conditions. */
	private static void conditions(Constraints constraints, String path, Map<String, Condition> conditions) {
		if (conditions == null) {
			return;
		}
		for (Map.Entry<String, Condition> entry : conditions.entrySet()) {
			String member = path + "." + entry.getKey() + ".member.comparisonOperator";
			constraints.notNull(member, entry.getValue().comparisonOperatorAsString());
			constraints.oneOf(member, entry.getValue().comparisonOperatorAsString(), ItemOperations.COMPARISON_OPERATORS);
		}
	}

	/** A starting key's values, checked as DynamoDB checks them. */
	private static Map<String, AttributeValue> startKey(Map<String, AttributeValue> startKey) {
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

	private static void checkSelect(String select, boolean projectionExpression, boolean attributesToGet, String indexName) {
		if (select == null) {
			return;
		}
		if ("SPECIFIC_ATTRIBUTES".equals(select)) {
			if (!projectionExpression && !attributesToGet) {
				throw AwsError.validation("1 validation error detected: Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES");
			}
			return;
		}
		if (projectionExpression) {
			throw AwsError.validation("Cannot specify the ProjectionExpression when choosing to get " + select);
		}
		if (attributesToGet) {
			throw AwsError.validation("Cannot specify the AttributesToGet when choosing to get " + select);
		}
		if ("ALL_PROJECTED_ATTRIBUTES".equals(select) && indexName == null) {
			throw AwsError.validation("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
		}
	}

	/** The queried index, checked: it exists, is readable, and is read consistently only when local. */
	private IndexSchema index(TableSchema schema, String name, boolean consistentRead) {
		if (name == null) {
			return null;
		}
		IndexSchema index = schema.index(name);
		if (index == null) {
			throw AwsError.validation("The table does not have the specified index: " + name);
		}
		if (index.global() && consistentRead) {
			throw AwsError.validation("Consistent reads are not supported on global secondary indexes");
		}
		return index;
	}

	/**
	 * Whether the read needs attributes the index does not hold (a local index reads them from its table);
	 * refused for a global index.
	 */
	private static boolean fetchesFromTable(IndexSchema index, String select, ItemProjection projection) {
		if (index == null || index.projectsAll()) {
			return false;
		}
		boolean all = "ALL_ATTRIBUTES".equals(select);
		if (all && index.global()) {
			throw AwsError.validation("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index "
					+ index.name() + " because its projection type is not ALL");
		}
		if (all) {
			return true;
		}
		if (projection != null && !index.global()) {
			for (String name : projection.topLevelNames()) {
				if (!index.projectsAll() && !index.nonKeyAttributes().contains(name) && !index.keyNames().contains(name)) {
					return true;
				}
			}
		}
		return false;
	}

	/** The names a starting key has: the table's keys, then the index's. */
	private static List<String> startKeyNames(TableSchema schema, IndexSchema index) {
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

	/** One page's reading: what it read, what it keeps, where it stopped, what it cost. */
	private static final class Page {

		final StoredTable table;

		final IndexSchema index;

		final Integer limit;

		final ItemCondition filter;

		final ItemProjection projection;

		final boolean countOnly;

		final boolean fetch;

		final List<Map<String, AttributeValue>> results = new ArrayList<>();

		int scanned;

		/** The sizes of the items read, for capacity. */
		long readBytes;

		/** Their page sizes, against the 1 MB a page reads. */
		long pageBytes;

		long fetchedBytes;

		Map<String, AttributeValue> lastKey;

		Page(StoredTable table, IndexSchema index, Integer limit, ItemCondition filter, ItemProjection projection, boolean countOnly,
				boolean fetch) {
			this.table = table;
			this.index = index;
			this.limit = limit;
			this.filter = filter;
			this.projection = projection;
			this.countOnly = countOnly;
			this.fetch = fetch;
		}

		void read(NavigableMap<byte[], byte[]> slice) {
			TableSchema schema = this.table.schema;
			boolean projected = this.index != null && !this.index.projectsAll();
			String rangeKey = (schema.range() != null) ? schema.range().name() : null;
			byte[] last = null;
			for (Map.Entry<byte[], byte[]> entry : slice.entrySet()) {
				if ((this.limit != null && this.scanned >= this.limit) || this.pageBytes >= PAGE_BYTES) {
					break;
				}
				byte[] bytes = entry.getValue();
				Map<String, AttributeValue> item = null;
				if (projected) {
					item = this.index.project(ItemCodec.decode(bytes), schema);
					this.readBytes += ItemSize.of(item);
					this.pageBytes += ItemSize.pageSize(item, rangeKey);
				}
				else {
					this.readBytes += ItemCodec.size(bytes);
					this.pageBytes += ItemCodec.pageSize(bytes);
				}
				this.scanned++;
				last = bytes;
				if (this.filter == null && this.countOnly) {
					this.results.add(null);
					continue;
				}
				if (this.fetch) {
					item = ItemCodec.decode(bytes);
					this.fetchedBytes += ItemCodec.size(bytes);
				}
				else if (item == null) {
					item = ItemCodec.decode(bytes);
				}
				if (this.filter != null && !this.filter.test(item)) {
					continue;
				}
				this.results.add((this.projection != null) ? this.projection.apply(item) : item);
			}
			if (last != null && ((this.limit != null && this.scanned >= this.limit) || this.pageBytes >= PAGE_BYTES)) {
				this.lastKey = lastKey(last);
			}
			if (this.countOnly) {
				this.results.replaceAll((ignored) -> Map.of());
			}
		}

		private Map<String, AttributeValue> lastKey(byte[] bytes) {
			TableSchema schema = this.table.schema;
			Map<String, AttributeValue> key = new LinkedHashMap<>();
			for (String name : startKeyNames(schema, this.index)) {
				key.put(name, ItemCodec.attribute(bytes, name));
			}
			return key;
		}

		ConsumedCapacity consumed(String mode, boolean consistent) {
			double divisor = consistent ? 1 : 2;
			if (this.index == null) {
				return Capacity.of(mode, this.table, Capacity.readUnits(this.readBytes) / divisor, Map.of());
			}
			return Capacity.of(mode, this.table, Capacity.readUnits(this.fetchedBytes) / divisor,
					Map.of(this.index.name(), Capacity.readUnits(this.readBytes) / divisor));
		}

	}

}
