package dev.dynamorelay.engine.store;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Told of every committed change of the database, in the order of commits, while the change's locks are still
 * held (so that what it records, such as stream records, is in the order readers see the changes). The
 * operation answers only once the returned future completes: a journal completes it once the change is on
 * disk; a listener with nothing to wait for returns {@link #DONE}.
 */
public interface CommitListener {

	/** A completed future: nothing to wait for. */
	CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

	/**
	 * The items one write changed, all at once (one item for PutItem, UpdateItem and DeleteItem; several for a
	 * transaction or a batch's item, each batch item being a write of its own).
	 */
	CompletableFuture<Void> committed(Instant time, List<ItemChange> changes);

	/**
	 * A table was created, changed (its indexes, stream, Time to Live, tags, throughput or billing) or deleted
	 * ({@code deleted}); {@code description} is the table as DescribeTable describes it after the change
	 * (before it, for a deletion).
	 */
	CompletableFuture<Void> tableChanged(Instant time, TableDescription description, boolean deleted);

}
