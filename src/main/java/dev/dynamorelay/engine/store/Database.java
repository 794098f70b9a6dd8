package dev.dynamorelay.engine.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveResponse;

import dev.dynamorelay.engine.action.AwsError;

/**
 * The database: DynamoDB's tables and items in memory, one method per operation, each taking and answering the
 * AWS SDK's model classes (the wire decodes requests into them and encodes answers from them). Every refusal is
 * an {@link AwsError} with DynamoDB's type and message.
 *
 * <p>Every committed change is told to the {@link CommitListener}s (streams, the journal) in commit order while
 * the write's locks are held, and the operation answers once their futures complete. The journal restores a
 * database with {@link #restoreTable}, {@link #restoreItem} and {@link #restoreDelete}, which tell no one.
 *
 * <p>Thread-safe: see {@link StoredTable} for the locking.
 */
public final class Database implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(Database.class);

	final DatabaseOptions options;

	/** The tables by name, in name order (ListTables' order). */
	final ConcurrentSkipListMap<String, StoredTable> tables = new ConcurrentSkipListMap<>();

	private final List<CommitListener> listeners = new CopyOnWriteArrayList<>();

	/** Delayed status changes, index backfills and the Time to Live sweep. */
	final ScheduledExecutorService background;

	final TableOperations tableOperations;

	final ItemOperations itemOperations;

	final ReadOperations readOperations;

	final BatchOperations batchOperations;

	final TransactionOperations transactionOperations;

	final TimeToLiveOperations timeToLiveOperations;

	final TagOperations tagOperations;

	/** A database with the default options. */
	public Database() {
		this(DatabaseOptions.defaults());
	}

	public Database(DatabaseOptions options) {
		this.options = options;
		this.background = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "engine-background");
			thread.setDaemon(true);
			return thread;
		});
		this.tableOperations = new TableOperations(this);
		this.itemOperations = new ItemOperations(this);
		this.readOperations = new ReadOperations(this);
		this.batchOperations = new BatchOperations(this);
		this.transactionOperations = new TransactionOperations(this);
		this.timeToLiveOperations = new TimeToLiveOperations(this);
		this.tagOperations = new TagOperations(this);
		long sweep = options.timeToLiveSweep().toMillis();
		if (sweep > 0) {
			this.background.scheduleWithFixedDelay(this::sweepQuietly, sweep, sweep, TimeUnit.MILLISECONDS);
		}
	}

	/** Adds a listener told of every commit from now on. */
	public void addCommitListener(CommitListener listener) {
		this.listeners.add(listener);
	}

	/** Removes a listener. */
	public void removeCommitListener(CommitListener listener) {
		this.listeners.remove(listener);
	}

	public CreateTableResponse createTable(CreateTableRequest request) {
		return this.tableOperations.createTable(request);
	}

	public DescribeTableResponse describeTable(DescribeTableRequest request) {
		return this.tableOperations.describeTable(request);
	}

	public ListTablesResponse listTables(ListTablesRequest request) {
		return this.tableOperations.listTables(request);
	}

	public UpdateTableResponse updateTable(UpdateTableRequest request) {
		return this.tableOperations.updateTable(request);
	}

	public DeleteTableResponse deleteTable(DeleteTableRequest request) {
		return this.tableOperations.deleteTable(request);
	}

	public DescribeTimeToLiveResponse describeTimeToLive(DescribeTimeToLiveRequest request) {
		return this.timeToLiveOperations.describeTimeToLive(request);
	}

	public UpdateTimeToLiveResponse updateTimeToLive(UpdateTimeToLiveRequest request) {
		return this.timeToLiveOperations.updateTimeToLive(request);
	}

	public software.amazon.awssdk.services.dynamodb.model.TagResourceResponse tagResource(
			software.amazon.awssdk.services.dynamodb.model.TagResourceRequest request) {
		return this.tagOperations.tagResource(request);
	}

	public software.amazon.awssdk.services.dynamodb.model.UntagResourceResponse untagResource(
			software.amazon.awssdk.services.dynamodb.model.UntagResourceRequest request) {
		return this.tagOperations.untagResource(request);
	}

	public software.amazon.awssdk.services.dynamodb.model.ListTagsOfResourceResponse listTagsOfResource(
			software.amazon.awssdk.services.dynamodb.model.ListTagsOfResourceRequest request) {
		return this.tagOperations.listTagsOfResource(request);
	}

	public PutItemResponse putItem(PutItemRequest request) {
		return this.itemOperations.putItem(request);
	}

	public GetItemResponse getItem(GetItemRequest request) {
		return this.itemOperations.getItem(request);
	}

	public UpdateItemResponse updateItem(UpdateItemRequest request) {
		return this.itemOperations.updateItem(request);
	}

	public DeleteItemResponse deleteItem(DeleteItemRequest request) {
		return this.itemOperations.deleteItem(request);
	}

	public QueryResponse query(QueryRequest request) {
		return this.readOperations.query(request);
	}

	public ScanResponse scan(ScanRequest request) {
		return this.readOperations.scan(request);
	}

	public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
		return this.batchOperations.batchGetItem(request);
	}

	public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
		return this.batchOperations.batchWriteItem(request);
	}

	public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
		return this.transactionOperations.transactWriteItems(request);
	}

	public TransactGetItemsResponse transactGetItems(TransactGetItemsRequest request) {
		return this.transactionOperations.transactGetItems(request);
	}

	/** Deletes every item whose Time to Live has passed, now, as the background sweep does. */
	public void expireItems() {
		this.timeToLiveOperations.sweep();
	}

	/**
	 * Adds a table as {@code description} describes it (keys, indexes, billing, throughput, stream, creation
	 * time, id) with its Time to Live, ACTIVE, without telling the listeners: how the journal brings a table
	 * back. A table of the same name and id already there (an UpdateTable replayed) becomes the described one and
	 * keeps its items, its indexes filled anew; a table of the same name and another id is replaced.
	 */
	public void restoreTable(TableDescription description, TimeToLiveDescription timeToLive) {
		this.tableOperations.restore(description, timeToLive, List.of());
	}

	/** {@link #restoreTable(TableDescription, TimeToLiveDescription)} with the table's tags. */
	public void restoreTable(TableDescription description, TimeToLiveDescription timeToLive,
			List<software.amazon.awssdk.services.dynamodb.model.Tag> tags) {
		this.tableOperations.restore(description, timeToLive, tags);
	}

	/** Removes a table without telling the listeners (the journal replaying a DeleteTable). */
	public void restoreTableDeleted(String tableName) {
		StoredTable table = this.tables.remove(tableName);
		if (table != null) {
			table.gone = true;
		}
	}

	/** Puts an item without checks of conditions and without telling the listeners (the journal replaying). */
	public void restoreItem(String tableName, Map<String, AttributeValue> item) {
		this.itemOperations.restore(tableName, item, null);
	}

	/** Deletes an item without telling the listeners (the journal replaying). */
	public void restoreDelete(String tableName, Map<String, AttributeValue> key) {
		this.itemOperations.restore(tableName, null, key);
	}

	@Override
	public void close() {
		this.background.shutdownNow();
	}

	// ---- what the operations share

	/**
	 * The table an item operation works on: ResourceNotFoundException when there is none, or it is being created
	 * or deleted.
	 */
	StoredTable activeTable(String name) {
		StoredTable table = this.tables.get(name);
		if (table == null || table.gone || "CREATING".equals(table.status) || "DELETING".equals(table.status)) {
			throw AwsError.resourceNotFound("Requested resource not found");
		}
		return table;
	}

	/** Checks, the table's lock held, that an item operation's table was not deleted meanwhile. */
	static void stillThere(StoredTable table) {
		if (table.gone) {
			throw AwsError.resourceNotFound("Requested resource not found");
		}
	}

	/** The table a table operation works on, whatever its state: ResourceNotFoundException naming it otherwise. */
	StoredTable anyTable(String name) {
		StoredTable table = this.tables.get(name);
		if (table == null || table.gone) {
			throw AwsError.resourceNotFound("Requested resource not found: Table: " + name + " not found");
		}
		return table;
	}

	Instant now() {
		return this.options.clock().instant();
	}

	/**
	 * Commits prepared writes: tells the listeners of the changes (the caller holds the write locks of their
	 * tables) and applies them. Answers what to wait for, after the locks are released, before answering.
	 */
	CompletableFuture<Void> commit(List<Mutation> mutations) {
		List<ItemChange> changes = new ArrayList<>(mutations.size());
		for (Mutation mutation : mutations) {
			ItemChange change = mutation.change();
			if (change != null) {
				changes.add(change);
			}
		}
		CompletableFuture<Void> future = CommitListener.DONE;
		if (!changes.isEmpty() && !this.listeners.isEmpty()) {
			future = tell((listener) -> listener.committed(now(), List.copyOf(changes)));
		}
		for (Mutation mutation : mutations) {
			mutation.apply();
		}
		return future;
	}

	/** Tells the listeners that a table changed; the caller holds the table's write lock. */
	CompletableFuture<Void> tableChanged(TableDescription description, boolean deleted) {
		if (this.listeners.isEmpty()) {
			return CommitListener.DONE;
		}
		Instant time = now();
		return tell((listener) -> listener.tableChanged(time, description, deleted));
	}

	private CompletableFuture<Void> tell(java.util.function.Function<CommitListener, CompletableFuture<Void>> call) {
		try {
			if (this.listeners.size() == 1) {
				return call.apply(this.listeners.get(0));
			}
			List<CompletableFuture<Void>> futures = new ArrayList<>();
			for (CommitListener listener : this.listeners) {
				futures.add(call.apply(listener));
			}
			return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new));
		}
		catch (RuntimeException ex) {
			logger.warn("A commit listener failed; the write was not made: {}", ex.toString());
			throw AwsError.internal("The request processing has failed because of an unknown error, exception or failure.");
		}
	}

	/** Waits, without the locks, for what the listeners were told to complete. */
	static void await(CompletableFuture<Void> future) {
		if (future == CommitListener.DONE) {
			return;
		}
		try {
			future.join();
		}
		catch (CompletionException | java.util.concurrent.CancellationException ex) {
			logger.warn("A commit listener failed after the write: {}", String.valueOf(ex.getCause()));
			throw AwsError.internal("The request processing has failed because of an unknown error, exception or failure.");
		}
	}

	/** Runs {@code task} after the table status delay, or now when there is none. */
	void later(Runnable task) {
		long delay = this.options.tableStatusDelay().toMillis();
		if (delay <= 0) {
			task.run();
		}
		else {
			this.background.schedule(() -> {
				try {
					task.run();
				}
				catch (RuntimeException ex) {
					logger.warn("A delayed table change failed: {}", ex.toString());
				}
			}, delay, TimeUnit.MILLISECONDS);
		}
	}

	private void sweepQuietly() {
		try {
			this.timeToLiveOperations.sweep();
		}
		catch (RuntimeException ex) {
			logger.warn("The Time to Live sweep failed: {}", ex.toString());
		}
	}

}
