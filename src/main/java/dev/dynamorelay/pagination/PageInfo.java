package dev.dynamorelay.pagination;

/**
 * Relay's page info of one page.
 *
 * <p>{@code startCursor}/{@code endCursor} are the first and last edge's cursors; a page cut by the
 * read budget with no edges carries the position where reading stopped in both, so that the client
 * can continue without reading anything twice.
 */
public record PageInfo(boolean hasNextPage, boolean hasPreviousPage, String startCursor, String endCursor) {
}
