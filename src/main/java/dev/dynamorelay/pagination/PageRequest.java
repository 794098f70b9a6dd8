package dev.dynamorelay.pagination;

import java.util.Objects;
import java.util.Optional;

import dev.dynamorelay.error.InvalidArgumentException;

/**
 * What {@code first}/{@code after}/{@code last}/{@code before} ask for, validated once.
 *
 * <p>A value of this type is always a coherent request: a direction, a size within the limits, and
 * at most one cursor (still encoded; only the connection that issued it can decode it).
 *
 * @param direction which way to read
 * @param size how many edges at most
 * @param cursor the {@code after} (forward) or {@code before} (backward) cursor, if any
 */
public record PageRequest(Direction direction, int size, Optional<String> cursor) {

	public PageRequest {
		Objects.requireNonNull(direction, "direction");
		Objects.requireNonNull(cursor, "cursor");
		if (size < 0) {
			throw new IllegalArgumentException("size must not be negative");
		}
	}

	/**
	 * Decodes the four Relay arguments, any of which may be {@code null} (left out or explicit null).
	 * @throws InvalidArgumentException for combinations the contract refuses and sizes out of range
	 */
	public static PageRequest of(Integer first, String after, Integer last, String before, PageSizes sizes) {
		if (first != null && last != null) {
			throw new InvalidArgumentException(
					"Pass either `first` (read forwards) or `last` (read backwards), not both.");
		}
		if (after != null && before != null) {
			throw new InvalidArgumentException(
					"Pass either `after` (read forwards) or `before` (read backwards), not both.");
		}
		if (first != null && before != null) {
			throw new InvalidArgumentException(
					"`first` reads forwards and `before` backwards; use `first` with `after`, or `last` with `before`.");
		}
		if (last != null && after != null) {
			throw new InvalidArgumentException(
					"`last` reads backwards and `after` forwards; use `last` with `before`, or `first` with `after`.");
		}
		boolean backward = last != null || before != null;
		Integer asked = backward ? last : first;
		int size = (asked != null) ? checkSize(backward ? "last" : "first", asked, sizes) : sizes.defaultSize();
		return new PageRequest(backward ? Direction.BACKWARD : Direction.FORWARD, size,
				Optional.ofNullable(backward ? before : after));
	}

	private static int checkSize(String name, int value, PageSizes sizes) {
		if (value < 0 || value > sizes.maxSize()) {
			throw new InvalidArgumentException("`%s` must be between 0 and %d, got %d."
				.formatted(name, sizes.maxSize(), value));
		}
		return value;
	}

	/** Whether the client passed a cursor to continue from. */
	public boolean continues() {
		return this.cursor.isPresent();
	}

}
