package dev.dynamorelay.engine.store;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.BillingModeSummary;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * One table: its items in a sorted map of immutable byte arrays, its indexes, its metadata, and the lock that
 * makes every change to them atomic.
 *
 * <p>Concurrency: one read/write lock per table. A write (one item, a batch's item, the table's share of a
 * transaction, an UpdateTable) holds the write lock while it reads the stored item, checks its condition,
 * tells the commit listeners and changes the item and its index entries; reads (GetItem, one Query or Scan
 * page, a TransactGetItems) hold the read lock, so they never see a write half done (an item moved in an index
 * but not yet in the table), and a transaction's items all change at once for them. Writes to one table are
 * serialized, which is cheap (a write holds the lock for microseconds: it encodes its item before) and makes
 * conditional writes atomic with no lost update. A transaction takes the write locks of its tables in the
 * order of their names, a TransactGetItems their read locks in the same order, so they cannot deadlock.
 */
final class StoredTable {

	final String name;

	final String tableId;

	final Instant created;

	final String arn;

	final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

	/** The items by table key ({@link Keys#tableKey}). */
	final ConcurrentSkipListMap<byte[], byte[]> items = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);

	// Everything below is guarded by the lock (written under the write lock).

	volatile TableSchema schema;

	final Map<String, StoredIndex> indexes = new LinkedHashMap<>();

	/** CREATING, ACTIVE, UPDATING or DELETING. */
	volatile String status;

	/** Whether the table was deleted: an operation that found it before must answer as if it had not. */
	volatile boolean gone;

	String billingMode;

	Instant lastUpdateToPayPerRequest;

	final Throughput throughput;

	boolean streamEnabled;

	String streamViewType;

	String latestStreamLabel;

	String timeToLiveAttribute;

	/** DISABLED, ENABLING, ENABLED or DISABLING. */
	String timeToLiveStatus = "DISABLED";

	boolean deletionProtection;

	long itemCount;

	long sizeBytes;

	/** The table's tags, by key. */
	final Map<String, String> tags = new java.util.TreeMap<>();

	/** The size of each item collection (by partition: {@link Keys#partition}), kept when a local index exists. */
	final Map<ByteBuffer, Long> collections = new HashMap<>();

	StoredTable(String name, String tableId, Instant created, String arn, TableSchema schema, Throughput throughput) {
		this.name = name;
		this.tableId = tableId;
		this.created = created;
		this.arn = arn;
		this.schema = schema;
		this.throughput = throughput;
	}

	/** The table as DescribeTable describes it; the caller holds the lock. */
	TableDescription describe() {
		TableSchema current = this.schema;
		TableDescription.Builder description = TableDescription.builder()
			.attributeDefinitions(current.attributeDefinitions())
			.tableName(this.name)
			.keySchema(current.keySchema())
			.tableStatus(this.status)
			.creationDateTime(this.created)
			.provisionedThroughput(this.throughput.describe())
			.tableSizeBytes(this.sizeBytes)
			.itemCount(this.itemCount)
			.tableArn(this.arn)
			.tableId(this.tableId)
			.deletionProtectionEnabled(this.deletionProtection);
		if ("PAY_PER_REQUEST".equals(this.billingMode) || this.lastUpdateToPayPerRequest != null) {
			description.billingModeSummary(BillingModeSummary.builder()
				.billingMode(BillingMode.fromValue(this.billingMode))
				.lastUpdateToPayPerRequestDateTime(this.lastUpdateToPayPerRequest)
				.build());
		}
		List<LocalSecondaryIndexDescription> locals = new ArrayList<>();
		List<GlobalSecondaryIndexDescription> globals = new ArrayList<>();
		for (StoredIndex index : this.indexes.values()) {
			if (index.schema.global()) {
				globals.add(describeGlobal(index));
			}
			else {
				locals.add(describeLocal(index));
			}
		}
		if (!locals.isEmpty()) {
			description.localSecondaryIndexes(locals);
		}
		if (!globals.isEmpty()) {
			description.globalSecondaryIndexes(globals);
		}
		if (this.streamEnabled) {
			description.streamSpecification(StreamSpecification.builder().streamEnabled(true).streamViewType(this.streamViewType).build());
		}
		if (this.latestStreamLabel != null) {
			description.latestStreamLabel(this.latestStreamLabel).latestStreamArn(this.arn + "/stream/" + this.latestStreamLabel);
		}
		return description.build();
	}

	private static GlobalSecondaryIndexDescription describeGlobal(StoredIndex index) {
		IndexSchema schema = index.schema;
		ProvisionedThroughputDescription throughput = (index.throughput != null) ? index.throughput.describe()
				: ProvisionedThroughputDescription.builder().readCapacityUnits(0L).writeCapacityUnits(0L)
					.numberOfDecreasesToday(0L).build();
		GlobalSecondaryIndexDescription.Builder global = GlobalSecondaryIndexDescription.builder()
			.indexName(schema.name())
			.keySchema(TableSchema.keySchema(schema.hash(), schema.range()))
			.projection(projection(schema))
			.indexStatus(index.status)
			.provisionedThroughput(throughput)
			.indexSizeBytes(index.sizeBytes)
			.itemCount(index.itemCount)
			.indexArn(index.arn);
		if (index.backfilling) {
			global.backfilling(true);
		}
		return global.build();
	}

	private static LocalSecondaryIndexDescription describeLocal(StoredIndex index) {
		IndexSchema schema = index.schema;
		return LocalSecondaryIndexDescription.builder()
			.indexName(schema.name())
			.keySchema(TableSchema.keySchema(schema.hash(), schema.range()))
			.projection(projection(schema))
			.indexSizeBytes(index.sizeBytes)
			.itemCount(index.itemCount)
			.indexArn(index.arn)
			.build();
	}

	static Projection projection(IndexSchema schema) {
		Projection.Builder projection = Projection.builder().projectionType(schema.projectionType());
		if (!schema.nonKeyAttributes().isEmpty()) {
			projection.nonKeyAttributes(schema.nonKeyAttributes());
		}
		return projection.build();
	}

	/** The current size of the item collection of {@code partition}; the caller holds the lock. */
	long collectionSize(byte[] partition) {
		return this.collections.getOrDefault(ByteBuffer.wrap(partition), 0L);
	}

	/** Adds {@code delta} to the size of the item collection of {@code partition}; the caller holds the write lock. */
	void addToCollection(byte[] partition, long delta) {
		if (delta == 0) {
			return;
		}
		ByteBuffer key = ByteBuffer.wrap(partition);
		long size = this.collections.getOrDefault(key, 0L) + delta;
		if (size <= 0) {
			this.collections.remove(key);
		}
		else {
			this.collections.put(key, size);
		}
	}

}
