package dev.dynamorelay.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A connection declared over a table or index: where it reads, what positions its cursors hold, and
 * how an item becomes a node.
 *
 * <p>A Query connection names the partition key (and sort key) it reads; a Scan connection names
 * neither. The position key lists every attribute of DynamoDB's {@code ExclusiveStartKey} for this
 * table or index: for a GSI, the index keys followed by the base table's keys.
 *
 * @param field the GraphQL field coordinate, e.g. {@code User.purchases}; binds cursors to it
 * @param table the table name
 * @param index the index name, for a connection over a GSI or an LSI
 * @param globalIndex whether the index is a GSI, which holds only its projection: a read of it cannot
 * fetch the other attributes from the table, as a read of an LSI does
 * @param partitionKey the partition key the connection's key condition fixes (Query), or empty (Scan)
 * @param sortKey the sort key of the table or index read, if any: what sort key conditions compare
 * @param positionKey the attributes of an item's position, in a fixed order
 * @param consistentRead whether reads are strongly consistent (a table or local index only)
 * @param mapper turns a DynamoDB item into a node, or {@code null} for an item that is no node of the
 * connection (in a partition shared by types the connection does not serve)
 * @param typedCount empty when every item the reads match is a node, so that {@code totalCount} is
 * DynamoDB's {@code Select=COUNT}; otherwise the attributes the mapper needs to tell a node, which the
 * count reads (keys only, the same capacity) to count only the items the mapper accepts
 * @param <T> the node type
 */
public record ConnectionDefinition<T>(String field, String table, Optional<String> index, boolean globalIndex,
		Optional<KeyAttribute> partitionKey, Optional<KeyAttribute> sortKey, List<KeyAttribute> positionKey,
		boolean consistentRead, Function<Map<String, AttributeValue>, T> mapper, List<String> typedCount) {

	public ConnectionDefinition {
		Objects.requireNonNull(field, "field");
		Objects.requireNonNull(table, "table");
		Objects.requireNonNull(index, "index");
		Objects.requireNonNull(partitionKey, "partitionKey");
		Objects.requireNonNull(sortKey, "sortKey");
		Objects.requireNonNull(mapper, "mapper");
		positionKey = List.copyOf(positionKey);
		typedCount = List.copyOf(typedCount);
		if (globalIndex && index.isEmpty()) {
			throw new IllegalArgumentException("a global index needs its name");
		}
		if (positionKey.isEmpty()) {
			throw new IllegalArgumentException("a connection needs at least one position attribute");
		}
		if (partitionKey.isPresent() && !positionKey.contains(partitionKey.get())) {
			throw new IllegalArgumentException("the partition key must be part of the position key");
		}
		if (sortKey.isPresent() && partitionKey.isEmpty()) {
			throw new IllegalArgumentException("a sort key condition needs a partition key");
		}
		if (sortKey.isPresent() && !positionKey.contains(sortKey.get())) {
			throw new IllegalArgumentException("the sort key must be part of the position key");
		}
	}

	/** A connection that Queries one partition of a table or index. */
	public static <T> ConnectionDefinition<T> query(String field, String table, Optional<String> index,
			boolean globalIndex, KeyAttribute partitionKey, Optional<KeyAttribute> sortKey,
			List<KeyAttribute> positionKey, boolean consistentRead, Function<Map<String, AttributeValue>, T> mapper) {
		return new ConnectionDefinition<>(field, table, index, globalIndex, Optional.of(partitionKey), sortKey,
				positionKey, consistentRead, mapper, List.of());
	}

	/** A connection that Scans a whole table or index. A Scan cannot be read backwards. */
	public static <T> ConnectionDefinition<T> scan(String field, String table, Optional<String> index,
			boolean globalIndex, List<KeyAttribute> positionKey, boolean consistentRead,
			Function<Map<String, AttributeValue>, T> mapper) {
		return new ConnectionDefinition<>(field, table, index, globalIndex, Optional.empty(), Optional.empty(),
				positionKey, consistentRead, mapper, List.of());
	}

	/**
	 * The same connection, counting only what its mapper accepts: its reads may match items of other
	 * types, told apart by {@code attributes}.
	 */
	public ConnectionDefinition<T> withTypedCount(List<String> attributes) {
		return new ConnectionDefinition<>(this.field, this.table, this.index, this.globalIndex, this.partitionKey,
				this.sortKey, this.positionKey, this.consistentRead, this.mapper, attributes);
	}

	/** Whether the connection reads with Scan (no key range, no backward reading). */
	public boolean isScan() {
		return this.partitionKey.isEmpty();
	}

}
