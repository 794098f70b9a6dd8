package dev.dynamorelay.pagination;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.Select;

import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.KeyCondition;
import dev.dynamorelay.model.SortOrder;

/**
 * The DynamoDB requests of one connection read: its key condition, filter, names and values built once,
 * and each Query or Scan from a position, in an order, for items or for a count. A read from a position
 * gives it as the {@code ExclusiveStartKey}, where DynamoDB resumes (the first item it evaluates is the one
 * after it), so page 10,000 of a partition costs what page 1 does.
 */
final class ReadCalls {

	/** What one call reads. */
	enum Wanted {

		/** Whole items, for a page or a batch. */
		ITEMS,

		/** What a count needs. */
		COUNT

	}

	private final ConnectionDefinition<?> definition;

	private final ConnectionQuery query;

	private final Optional<String> keyCondition;

	private final Optional<String> filterExpression;

	private final Map<String, String> names;

	private final Map<String, AttributeValue> values;

	ReadCalls(ConnectionDefinition<?> definition, ConnectionQuery query) {
		this.definition = definition;
		this.query = query;
		Map<String, String> names = new HashMap<>();
		Map<String, AttributeValue> values = new HashMap<>();
		String condition = null;
		if (query.partition().isPresent()) {
			names.put("#pk", definition.partitionKey().orElseThrow().name());
			values.put(":pk", query.partition().get());
			condition = "#pk = :pk";
			if (query.sortCondition().isPresent()) {
				KeyCondition sort = query.sortCondition().get();
				names.put("#sk", definition.sortKey().orElseThrow().name());
				for (int i = 0; i < sort.values().size(); i++) {
					values.put(":sk" + i, sort.values().get(i));
				}
				condition += " AND " + sort.expression();
			}
		}
		String filter = null;
		List<Filter> filters = query.filters();
		for (int f = 0; f < filters.size(); f++) {
			Filter each = filters.get(f);
			names.put("#f" + f, each.attribute());
			for (int i = 0; i < each.values().size(); i++) {
				values.put(":f" + f + "_" + i, each.values().get(i));
			}
			String expression = each.expression("#f" + f, ":f" + f + "_");
			filter = (filter == null) ? expression : filter + " AND " + expression;
		}
		this.keyCondition = Optional.ofNullable(condition);
		this.filterExpression = Optional.ofNullable(filter);
		this.names = Map.copyOf(names);
		this.values = Map.copyOf(values);
	}

	/** What a call reads: whole items, or what a count needs (a typed count: the attributes that tell a node). */
	private Select select(Wanted what) {
		if (what == Wanted.COUNT) {
			return typedCount(what) ? Select.SPECIFIC_ATTRIBUTES : Select.COUNT;
		}
		// DynamoDB refuses ALL_ATTRIBUTES for a global index whose projection is not ALL (KEYS_ONLY, INCLUDE):
		// it cannot fetch the rest from the table. ALL_PROJECTED_ATTRIBUTES reads what the index holds, all
		// of the item under projection ALL.
		return this.definition.globalIndex() ? Select.ALL_PROJECTED_ATTRIBUTES : Select.ALL_ATTRIBUTES;
	}

	private boolean typedCount(Wanted what) {
		return what == Wanted.COUNT && !this.definition.typedCount().isEmpty();
	}

	/** A Scan from {@code from} (null: the start) of at most {@code limit} items (null: no limit). */
	ScanRequest scan(Map<String, AttributeValue> from, Integer limit, Wanted what,
			AwsRequestOverrideConfiguration timeout) {
		ScanRequest.Builder scan = ScanRequest.builder()
			.tableName(this.definition.table())
			.exclusiveStartKey(from)
			.limit(limit)
			.select(select(what))
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.overrideConfiguration(timeout);
		this.definition.index().ifPresent(scan::indexName);
		this.query.segment().ifPresent((segment) -> scan.segment(segment.segment()).totalSegments(segment.total()));
		this.filterExpression.ifPresent(scan::filterExpression);
		Map<String, String> names = typedCount(what) ? projected(scan::projectionExpression, this.names) : this.names;
		if (!names.isEmpty()) {
			scan.expressionAttributeNames(names);
		}
		if (!this.values.isEmpty()) {
			scan.expressionAttributeValues(this.values);
		}
		if (this.definition.consistentRead()) {
			scan.consistentRead(true);
		}
		return scan.build();
	}

	/** A Query from {@code from} (null: the start) in {@code readOrder} of at most {@code limit} items (null: no limit). */
	QueryRequest query(Map<String, AttributeValue> from, Integer limit, SortOrder readOrder, Wanted what,
			AwsRequestOverrideConfiguration timeout) {
		QueryRequest.Builder query = QueryRequest.builder().tableName(this.definition.table());
		query.keyConditionExpression(this.keyCondition.orElseThrow())
			.expressionAttributeNames(typedCount(what) ? projected(query::projectionExpression, this.names) : this.names)
			.expressionAttributeValues(this.values);
		query.exclusiveStartKey(from)
			.scanIndexForward(readOrder == SortOrder.ASC)
			.limit(limit)
			.select(select(what))
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.overrideConfiguration(timeout);
		this.definition.index().ifPresent(query::indexName);
		this.filterExpression.ifPresent(query::filterExpression);
		if (this.definition.consistentRead()) {
			query.consistentRead(true);
		}
		return query.build();
	}

	/**
	 * Sets the projection of a typed count (the attributes that tell a node) and returns {@code names}
	 * with theirs.
	 */
	private Map<String, String> projected(java.util.function.Consumer<String> projection, Map<String, String> names) {
		Map<String, String> all = new HashMap<>(names);
		StringBuilder expression = new StringBuilder();
		List<String> attributes = this.definition.typedCount();
		for (int i = 0; i < attributes.size(); i++) {
			all.put("#c" + i, attributes.get(i));
			expression.append((i > 0) ? ", " : "").append("#c").append(i);
		}
		projection.accept(expression.toString());
		return all;
	}

}
