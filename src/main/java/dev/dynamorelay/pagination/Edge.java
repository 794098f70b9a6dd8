package dev.dynamorelay.pagination;

/**
 * One node of a page with the cursor of its position.
 *
 * @param cursor resuming after (or before) it continues right behind (in front of) this node
 * @param node the node
 * @param <T> the node type
 */
public record Edge<T>(String cursor, T node) {
}
