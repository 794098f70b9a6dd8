package dev.dynamorelay.pagination;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.KeyCondition;
import dev.dynamorelay.model.SortOrder;

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
 * @param segment the one segment of a parallel Scan this call reads (Scan only); empty: the whole Scan
 */
public record ConnectionQuery(Optional<AttributeValue> partition, Optional<KeyCondition> sortCondition,
		List<Filter> filters, SortOrder order, Optional<Segment> segment) {

	public ConnectionQuery {
		Objects.requireNonNull(partition, "partition");
		Objects.requireNonNull(sortCondition, "sortCondition");
		Objects.requireNonNull(order, "order");
		Objects.requireNonNull(segment, "segment");
		filters = List.copyOf(filters);
		if (partition.isEmpty() && sortCondition.isPresent()) {
			throw new IllegalArgumentException("a sort key condition needs a partition");
		}
		if (partition.isPresent() && segment.isPresent()) {
			throw new IllegalArgumentException("only a Scan reads in segments");
		}
	}

	/** A query of the whole connection (no Scan segment). */
	public ConnectionQuery(Optional<AttributeValue> partition, Optional<KeyCondition> sortCondition,
			List<Filter> filters, SortOrder order) {
		this(partition, sortCondition, filters, order, Optional.empty());
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
		return new ConnectionQuery(this.partition, condition, this.filters, this.order, this.segment);
	}

	public ConnectionQuery withFilters(List<Filter> filters) {
		return new ConnectionQuery(this.partition, this.sortCondition, filters, this.order, this.segment);
	}

	/** The same Scan, reading only {@code segment} of a parallel Scan. */
	public ConnectionQuery withSegment(Segment segment) {
		return new ConnectionQuery(this.partition, this.sortCondition, this.filters, this.order,
				Optional.of(segment));
	}

	/** Whether pages need a FilterExpression, so that {@code Limit} bounds reads, not matches. */
	public boolean filtered() {
		return !this.filters.isEmpty();
	}

	/**
	 * One segment of a DynamoDB parallel Scan ({@code Segment}, {@code TotalSegments}): DynamoDB splits the
	 * table's items into {@code total} disjoint parts, and a Scan with a segment reads only its part.
	 *
	 * @param segment which part, from 0
	 * @param total how many parts, 1 to 1,000,000 (DynamoDB's limit)
	 */
	public record Segment(int segment, int total) {

		/** DynamoDB's limit on {@code TotalSegments}. */
		public static final int MAX_TOTAL = 1_000_000;

		public Segment {
			if (total < 1 || total > MAX_TOTAL) {
				throw new IllegalArgumentException("a parallel Scan has 1 to %d segments, got %d".formatted(MAX_TOTAL,
						total));
			}
			if (segment < 0 || segment >= total) {
				throw new IllegalArgumentException("segment %d is not one of 0 to %d".formatted(segment, total - 1));
			}
		}

	}

}
