package dev.dynamorelay.pagination;

import java.util.List;

/**
 * One page of a connection: its edges in the connection's order and its page info.
 *
 * @param edges the edges, in the connection's own order whichever way they were read
 * @param pageInfo whether more items exist either way, and where to continue
 * @param <T> the node type
 */
public record Page<T>(List<Edge<T>> edges, PageInfo pageInfo) {

	public Page {
		edges = List.copyOf(edges);
	}

}
