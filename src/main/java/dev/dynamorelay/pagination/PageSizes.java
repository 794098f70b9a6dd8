package dev.dynamorelay.pagination;

/**
 * The page size used when a client names none, and the largest a client may ask for.
 *
 * @param defaultSize edges in a page when neither {@code first} nor {@code last} is given
 * @param maxSize the largest {@code first} or {@code last} accepted
 */
public record PageSizes(int defaultSize, int maxSize) {

	public PageSizes {
		if (maxSize < 1 || defaultSize < 0 || defaultSize > maxSize) {
			throw new IllegalArgumentException(
					"page sizes need 0 <= default-size <= max-size and max-size >= 1, got %d / %d"
						.formatted(defaultSize, maxSize));
		}
	}

}
