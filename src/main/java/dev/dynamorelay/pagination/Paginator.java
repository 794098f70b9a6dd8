package dev.dynamorelay.pagination;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.model.AttributeValues;
import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.KeyAttribute;

/**
 * The one pagination mechanism: prepares reads of any declared connection.
 *
 * <p>{@link #prepare} validates everything a client sent (direction against the connection, the
 * cursor against its binding) before any DynamoDB request, so a refused call costs nothing.
 */
public final class Paginator {

	private final DynamoDbAsyncClient dynamoDb;

	private final CursorCodec cursors;

	private final PageSizes sizes;

	private final ReadBudgets budgets;

	private final ConnectionMeters.Source meters;

	public Paginator(DynamoDbAsyncClient dynamoDb, CursorCodec cursors, PageSizes sizes, ReadBudgets budgets) {
		this(dynamoDb, cursors, sizes, budgets, ConnectionMeters.Source.NONE);
	}

	/** A paginator whose reads report to {@code meters}, by connection. */
	public Paginator(DynamoDbAsyncClient dynamoDb, CursorCodec cursors, PageSizes sizes, ReadBudgets budgets,
			ConnectionMeters.Source meters) {
		this.dynamoDb = Objects.requireNonNull(dynamoDb, "dynamoDb");
		this.cursors = Objects.requireNonNull(cursors, "cursors");
		this.sizes = Objects.requireNonNull(sizes, "sizes");
		this.budgets = Objects.requireNonNull(budgets, "budgets");
		this.meters = Objects.requireNonNull(meters, "meters");
	}

	/** Decodes the Relay arguments with this paginator's page sizes. */
	public PageRequest request(Integer first, String after, Integer last, String before) {
		return PageRequest.of(first, after, last, before, this.sizes);
	}

	/**
	 * A read of one page (and, if asked, the count) of {@code definition} for {@code query}.
	 * @throws InvalidArgumentException if the connection cannot be read in the requested direction
	 * @throws dev.dynamorelay.error.InvalidCursorException if the cursor was not issued by this binding
	 */
	public <T> ConnectionRead<T> prepare(ConnectionDefinition<T> definition, ConnectionQuery query,
			PageRequest request) {
		if (definition.isScan() && request.direction() == Direction.BACKWARD) {
			throw new InvalidArgumentException(("`%s` is a DynamoDB Scan, which only reads forwards: "
					+ "use `first`/`after`, not `last`/`before`.").formatted(definition.field()));
		}
		if (definition.isScan() != query.partition().isEmpty()) {
			throw new IllegalArgumentException("a Query connection needs a partition, a Scan none");
		}
		CursorBinding binding = CursorBinding.of(definition, query);
		Position start = request.cursor().map((cursor) -> this.cursors.decode(binding, cursor)).orElse(null);
		return new ConnectionRead<>(this.dynamoDb, this.cursors, this.budgets, definition, query, request, binding,
				start, this.meters.of(definition.field()));
	}

	/**
	 * The edge of {@code item} in the connection {@code definition} reads for {@code query}: its node and the
	 * cursor a page of the connection gives it, so that reading on from it continues right behind it. Empty
	 * when the item is not in that connection: another partition, outside the key range, filtered out, not a
	 * node of it, or without the keys of the index read (a sparse index). Reads nothing: DynamoDB's
	 * conditions are evaluated here, as DynamoDB evaluates them.
	 */
	public <T> Optional<Edge<T>> edge(ConnectionDefinition<T> definition, ConnectionQuery query,
			Map<String, AttributeValue> item) {
		if (!contains(definition, query, item)) {
			return Optional.empty();
		}
		T node = definition.mapper().apply(item);
		if (node == null) {
			return Optional.empty();
		}
		return Optional.of(new Edge<>(this.cursors.encode(CursorBinding.of(definition, query), item), node));
	}

	/**
	 * Whether {@code item} is in the connection {@code definition} reads for {@code query}: it has the read's
	 * position keys (a sparse index holds only items that have them) and meets its key condition and filters.
	 */
	public static boolean contains(ConnectionDefinition<?> definition, ConnectionQuery query,
			Map<String, AttributeValue> item) {
		for (KeyAttribute key : definition.positionKey()) {
			if (!item.containsKey(key.name())) {
				return false;
			}
		}
		if (query.partition().isPresent()
				&& !AttributeValues.equal(item.get(definition.partitionKey().orElseThrow().name()), query.partition().get())) {
			return false;
		}
		if (query.sortCondition().isPresent()
				&& !query.sortCondition().get().matches(item.get(definition.sortKey().orElseThrow().name()))) {
			return false;
		}
		return query.filters().stream().allMatch((filter) -> filter.matches(item));
	}

	/**
	 * A read of the whole of {@code definition} for {@code query} in the connection's order, one DynamoDB
	 * call at a time ({@link ConnectionRead#batch}), for an export: the same requests as pages make, with
	 * the same bindings, so that a position stored as a cursor is one {@link #binding} decodes.
	 */
	public <T> ConnectionRead<T> prepareWhole(ConnectionDefinition<T> definition, ConnectionQuery query) {
		if (definition.isScan() != query.partition().isEmpty()) {
			throw new IllegalArgumentException("a Query connection needs a partition, a Scan none");
		}
		return new ConnectionRead<>(this.dynamoDb, this.cursors, this.budgets, definition, query,
				new PageRequest(Direction.FORWARD, 0, java.util.Optional.empty()), CursorBinding.of(definition, query),
				null, this.meters.of(definition.field()));
	}

}
