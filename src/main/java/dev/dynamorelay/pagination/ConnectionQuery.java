package dev.dynamorelay.pagination;

import java.math.BigDecimal;
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
 * @param sortKeyPrefix a {@code begins_with} condition on the sort key; empty or {@code ""}: none
 * @param filter an inclusive lower bound on an attribute, applied as a FilterExpression
 * @param order the connection's order over its sort key
 */
public record ConnectionQuery(Optional<AttributeValue> partition, Optional<String> sortKeyPrefix,
		Optional<MinimumFilter> filter, SortOrder order) {

	public ConnectionQuery {
		Objects.requireNonNull(partition, "partition");
		Objects.requireNonNull(filter, "filter");
		Objects.requireNonNull(order, "order");
		sortKeyPrefix = sortKeyPrefix.filter((prefix) -> !prefix.isEmpty());
	}

	/** A Scan over a whole table. */
	public static ConnectionQuery scan() {
		return new ConnectionQuery(Optional.empty(), Optional.empty(), Optional.empty(), SortOrder.ASC);
	}

	/** A Query over one partition. */
	public static ConnectionQuery partition(AttributeValue partition, SortOrder order) {
		return new ConnectionQuery(Optional.of(partition), Optional.empty(), Optional.empty(), order);
	}

	public ConnectionQuery withPrefix(String prefix) {
		return new ConnectionQuery(this.partition, Optional.ofNullable(prefix), this.filter, this.order);
	}

	public ConnectionQuery withFilter(Optional<MinimumFilter> filter) {
		return new ConnectionQuery(this.partition, this.sortKeyPrefix, filter, this.order);
	}

	/** Whether pages need a FilterExpression, so that {@code Limit} bounds reads, not matches. */
	public boolean filtered() {
		return this.filter.isPresent();
	}

	/**
	 * Matches items whose numeric attribute is at least {@code minimum}; items without it never match.
	 *
	 * @param attribute the attribute name
	 * @param minimum the inclusive lower bound, in its shortest decimal form
	 */
	public record MinimumFilter(String attribute, BigDecimal minimum) {

		public MinimumFilter {
			Objects.requireNonNull(attribute, "attribute");
			Objects.requireNonNull(minimum, "minimum");
		}

		/** The DynamoDB number of this bound, as its plain shortest decimal ({@code 0.1}, {@code 100}). */
		public String number() {
			BigDecimal stripped = this.minimum.stripTrailingZeros();
			return (stripped.signum() == 0) ? "0" : stripped.toPlainString();
		}

	}

}
