package dev.dynamorelay.pagination;

import java.util.Map;
import java.util.Objects;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Where a cursor points: right at an item's position (its key attributes; reading continues behind it
 * or in front of it), or at one end of the connection, in front of its first item or behind its last.
 *
 * <p>An end is what a page cut by the request's read budget before it read anything, and that had no
 * cursor to start from, hands out to continue from: there is no item to point at yet.
 *
 * @param key the position's key attributes (an {@code ExclusiveStartKey}); null at an end
 * @param end which end; null at an item's position
 */
public record Position(Map<String, AttributeValue> key, End end) {

	/** In front of the connection's first item, in the connection's order. */
	public static final Position BEFORE_FIRST = new Position(null, End.BEFORE_FIRST);

	/** Behind the connection's last item, in the connection's order. */
	public static final Position AFTER_LAST = new Position(null, End.AFTER_LAST);

	public Position {
		if ((key == null) == (end == null)) {
			throw new IllegalArgumentException("a position is a key or an end, not both or neither");
		}
		key = (key != null) ? Map.copyOf(key) : null;
	}

	/** The position of an item or a {@code LastEvaluatedKey}. */
	public static Position of(Map<String, AttributeValue> key) {
		return new Position(Objects.requireNonNull(key, "key"), null);
	}

	/** Whether this is an end of the connection rather than an item's position. */
	public boolean isEnd() {
		return this.end != null;
	}

	/** The two ends of a connection. */
	public enum End {

		BEFORE_FIRST, AFTER_LAST

	}

}
