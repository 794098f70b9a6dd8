package dev.dynamorelay.pagination;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The arguments of one call of a connection that choose its items and their order (not the page).
 *
 * <p>Every part of it binds the cursors the call issues: a cursor is accepted only by a call with an
 * equal query on the same connection.
 *
 * @param partition the partition key value (Query), or empty (Scan)
 * @param sortCondition a condition on the sort key, part of the key condition (Query only)
 * @param filters conditions of the FilterExpression, combined with AND
 * @param order the connection's order over its sort key
 */
public record ConnectionQuery(Optional<AttributeValue> partition, Optional<KeyCondition> sortCondition,
		List<Filter> filters, SortOrder order) {

	public ConnectionQuery {
		Objects.requireNonNull(partition, "partition");
		Objects.requireNonNull(sortCondition, "sortCondition");
		Objects.requireNonNull(order, "order");
		filters = List.copyOf(filters);
		if (partition.isEmpty() && sortCondition.isPresent()) {
			throw new IllegalArgumentException("a sort key condition needs a partition");
		}
	}

	/** A Scan over a whole table or index. */
	public static ConnectionQuery scan() {
		return new ConnectionQuery(Optional.empty(), Optional.empty(), List.of(), SortOrder.ASC);
	}

	/** A Query over one partition. */
	public static ConnectionQuery partition(AttributeValue partition, SortOrder order) {
		return new ConnectionQuery(Optional.of(partition), Optional.empty(), List.of(), order);
	}

	public ConnectionQuery withSortCondition(Optional<KeyCondition> condition) {
		return new ConnectionQuery(this.partition, condition, this.filters, this.order);
	}

	public ConnectionQuery withFilters(List<Filter> filters) {
		return new ConnectionQuery(this.partition, this.sortCondition, filters, this.order);
	}

	/** Whether pages need a FilterExpression, so that {@code Limit} bounds reads, not matches. */
	public boolean filtered() {
		return !this.filters.isEmpty();
	}

}
