package dev.dynamorelay.pagination;

import java.util.List;

/**
 * One page of a connection: its edges in the connection's order and its page info.
 *
 * @param edges the edges, in the connection's own order whichever way they were read
 * @param pageInfo whether more items exist either way, and where to continue
 * @param cut whether a read budget stopped the page before it held one match more than its size or
 * its range ended: its {@code hasNextPage} (backwards {@code hasPreviousPage}) then says only that
 * more items may match; otherwise it is exact
 * @param <T> the node type
 */
public record Page<T>(List<Edge<T>> edges, PageInfo pageInfo, boolean cut) {

	public Page {
		edges = List.copyOf(edges);
	}

}
