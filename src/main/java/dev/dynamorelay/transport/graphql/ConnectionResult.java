package dev.dynamorelay.transport.graphql;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.dynamorelay.pagination.Edge;
import dev.dynamorelay.pagination.Page;
import dev.dynamorelay.pagination.PageInfo;

/**
 * A connection object as the schema sees it: a page and, when selected, its total count.
 *
 * <p>The count runs concurrently with the page; graphql-java waits for it only if the field is
 * selected.
 */
public record ConnectionResult<T>(List<Edge<T>> edges, PageInfo pageInfo, CompletableFuture<Integer> totalCount) {

	static <T> ConnectionResult<T> of(Page<T> page, CompletableFuture<Integer> totalCount) {
		return new ConnectionResult<>(page.edges(), page.pageInfo(), totalCount);
	}

}
