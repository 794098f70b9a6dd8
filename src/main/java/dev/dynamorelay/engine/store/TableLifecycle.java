package dev.dynamorelay.engine.store;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ItemCodec;

/**
 * A table's life from CreateTable (CREATING, then ACTIVE once the database's background work gets to it) to
 * DeleteTable (DELETING, then gone), and a table's return as described when the journal is replayed.
 */
final class TableLifecycle {

	/** The label of a stream, from the time it was enabled (DynamoDB's {@code LatestStreamLabel}). */
	static final DateTimeFormatter STREAM_LABEL = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

	private final Database database;

	TableLifecycle(Database database) {
		this.database = database;
	}

	// ---- CreateTable

	CreateTableResponse createTable(CreateTableRequest request) {
		TableChecks.checkCreate(request);
		TableSchema schema = TableSchemas.of(request);
		boolean payPerRequest = "PAY_PER_REQUEST".equals(request.billingModeAsString());
		Instant now = this.database.now().truncatedTo(ChronoUnit.MILLIS);
		String arn = tableArn(request.tableName());
		Throughput throughput = payPerRequest ? new Throughput(0, 0)
				: new Throughput(request.provisionedThroughput().readCapacityUnits(), request.provisionedThroughput().writeCapacityUnits());
		StoredTable table = new StoredTable(request.tableName(), UUID.randomUUID().toString(), now, arn, schema, throughput);
		table.billingMode = payPerRequest ? "PAY_PER_REQUEST" : "PROVISIONED";
		table.status = "CREATING";
		table.deletionProtection = Boolean.TRUE.equals(request.deletionProtectionEnabled());
		if (request.hasTags()) {
			for (software.amazon.awssdk.services.dynamodb.model.Tag tag : request.tags()) {
				table.tags.put(tag.key(), tag.value());
			}
		}
		for (IndexSchema index : schema.indexes()) {
			Throughput indexThroughput = null;
			if (index.global()) {
				indexThroughput = payPerRequest ? null : new Throughput(
						globalIndexThroughput(request, index.name()).readCapacityUnits(),
						globalIndexThroughput(request, index.name()).writeCapacityUnits());
			}
			table.indexes.put(index.name(), new StoredIndex(index, arn + "/index/" + index.name(), "CREATING", indexThroughput));
		}
		StreamSpecification stream = request.streamSpecification();
		if (stream != null && Boolean.TRUE.equals(stream.streamEnabled())) {
			table.streamEnabled = true;
			table.streamViewType = stream.streamViewTypeAsString();
			table.latestStreamLabel = STREAM_LABEL.format(now);
		}
		TableDescription created;
		table.lock.writeLock().lock();
		try {
			if (this.database.tables.putIfAbsent(table.name, table) != null) {
				throw AwsError.resourceInUse("Table already exists: " + table.name);
			}
			created = table.describe();
		}
		finally {
			table.lock.writeLock().unlock();
		}
		this.database.later(() -> activate(table));
		return CreateTableResponse.builder().tableDescription(created).build();
	}

	private static ProvisionedThroughput globalIndexThroughput(CreateTableRequest request, String name) {
		for (GlobalSecondaryIndex index : request.globalSecondaryIndexes()) {
			if (index.indexName().equals(name)) {
				return index.provisionedThroughput();
			}
		}
		throw new IllegalStateException("no index " + name);
	}

	/** Makes a created table ACTIVE and tells the listeners of it. */
	private void activate(StoredTable table) {
		CompletableFuture<Void> told;
		table.lock.writeLock().lock();
		try {
			if (table.gone) {
				return;
			}
			table.status = "ACTIVE";
			for (StoredIndex index : table.indexes.values()) {
				index.status = "ACTIVE";
			}
			if ("PAY_PER_REQUEST".equals(table.billingMode)) {
				table.lastUpdateToPayPerRequest = table.created;
			}
			told = this.database.tableChanged(table.describe(), false);
		}
		finally {
			table.lock.writeLock().unlock();
		}
		Database.await(told);
	}

	/**
	 * The ARN of a new table, in the database's region: an engine is one region, as a DynamoDB endpoint is,
	 * whatever region a call is signed for (docs/engine.md, "The aws CLI against it").
	 */
	private String tableArn(String name) {
		return "arn:aws:dynamodb:" + this.database.options.region() + ":" + this.database.options.accountId() + ":table/" + name;
	}

	// ---- DeleteTable

	DeleteTableResponse deleteTable(DeleteTableRequest request) {
		Constraints.requiredTableName(request.tableName());
		new Constraints().pattern("tableName", request.tableName()).check();
		StoredTable table = this.database.anyTable(request.tableName());
		TableDescription deleting;
		CompletableFuture<Void> told;
		table.lock.writeLock().lock();
		try {
			if (table.gone) {
				throw AwsError.resourceNotFound("Requested resource not found: Table: " + table.name + " not found");
			}
			if ("CREATING".equals(table.status)) {
				throw AwsError.resourceInUse("Attempt to change a resource which is still in use: Table is being created: " + table.name);
			}
			if ("DELETING".equals(table.status)) {
				throw AwsError.resourceInUse("Attempt to change a resource which is still in use: Table is being deleted: " + table.name);
			}
			if (table.deletionProtection) {
				throw AwsError.validation("Resource cannot be deleted as it is currently protected against deletion. "
						+ "Disable deletion protection first.");
			}
			TableDescription before = table.describe();
			table.status = "DELETING";
			TableDescription described = table.describe();
			// DynamoDB's answer leaves out the global indexes of the table being deleted (as dynalite's tests show)
			deleting = described.toBuilder().globalSecondaryIndexes((List<GlobalSecondaryIndexDescription>) null).build();
			told = this.database.tableChanged(before, true);
		}
		finally {
			table.lock.writeLock().unlock();
		}
		this.database.later(() -> {
			table.lock.writeLock().lock();
			try {
				table.gone = true;
				this.database.tables.remove(table.name, table);
			}
			finally {
				table.lock.writeLock().unlock();
			}
		});
		Database.await(told);
		return DeleteTableResponse.builder().tableDescription(deleting).build();
	}


	// ---- restore

	/**
	 * Adds a table as described, ACTIVE, without telling the listeners; a table of that name and id already
	 * there (the journal replaying an UpdateTable) becomes the described one and keeps its items, its indexes
	 * filled anew.
	 */
	void restore(TableDescription description, TimeToLiveDescription timeToLive, List<software.amazon.awssdk.services.dynamodb.model.Tag> tags) {
		StoredTable table = restored(description, timeToLive, tags);
		StoredTable previous = this.database.tables.get(table.name);
		if (previous != null && previous.tableId.equals(table.tableId) && previous.schema.hash().equals(table.schema.hash())
				&& java.util.Objects.equals(previous.schema.range(), table.schema.range())) {
			// the same table described again (an UpdateTable replayed): it keeps its items, its indexes made anew
			previous.lock.writeLock().lock();
			try {
				table.lock.writeLock().lock();
				try {
					for (byte[] bytes : previous.items.values()) {
						Mutation load = Mutation.put(table, ItemCodec.decode(bytes), null, false);
						load.prepare(Long.MAX_VALUE);
						load.apply();
					}
				}
				finally {
					table.lock.writeLock().unlock();
				}
				this.database.tables.put(table.name, table);
				previous.gone = true;
			}
			finally {
				previous.lock.writeLock().unlock();
			}
			return;
		}
		this.database.tables.put(table.name, table);
		if (previous != null) {
			previous.gone = true;
		}
	}

	/** A table as described, ACTIVE and empty, with its tags and time to live. */
	private static StoredTable restored(TableDescription description, TimeToLiveDescription timeToLive,
			List<software.amazon.awssdk.services.dynamodb.model.Tag> tags) {
		TableSchema schema = TableSchemas.of(description);
		Throughput throughput = new Throughput(description.provisionedThroughput().readCapacityUnits(),
				description.provisionedThroughput().writeCapacityUnits());
		StoredTable table = new StoredTable(description.tableName(), description.tableId(), description.creationDateTime(),
				description.tableArn(), schema, throughput);
		table.status = "ACTIVE";
		boolean payPerRequest = description.billingModeSummary() != null
				&& "PAY_PER_REQUEST".equals(description.billingModeSummary().billingModeAsString());
		table.billingMode = payPerRequest ? "PAY_PER_REQUEST" : "PROVISIONED";
		if (description.billingModeSummary() != null) {
			table.lastUpdateToPayPerRequest = description.billingModeSummary().lastUpdateToPayPerRequestDateTime();
		}
		table.deletionProtection = Boolean.TRUE.equals(description.deletionProtectionEnabled());
		for (IndexSchema index : schema.indexes()) {
			Throughput indexThroughput = null;
			if (index.global() && !payPerRequest && description.hasGlobalSecondaryIndexes()) {
				for (GlobalSecondaryIndexDescription global : description.globalSecondaryIndexes()) {
					if (global.indexName().equals(index.name()) && global.provisionedThroughput() != null) {
						indexThroughput = new Throughput(global.provisionedThroughput().readCapacityUnits(),
								global.provisionedThroughput().writeCapacityUnits());
					}
				}
			}
			table.indexes.put(index.name(), new StoredIndex(index, table.arn + "/index/" + index.name(), "ACTIVE", indexThroughput));
		}
		if (description.streamSpecification() != null && Boolean.TRUE.equals(description.streamSpecification().streamEnabled())) {
			table.streamEnabled = true;
			table.streamViewType = description.streamSpecification().streamViewTypeAsString();
		}
		table.latestStreamLabel = description.latestStreamLabel();
		for (software.amazon.awssdk.services.dynamodb.model.Tag tag : tags) {
			table.tags.put(tag.key(), tag.value());
		}
		if (timeToLive != null && timeToLive.attributeName() != null
				&& List.of("ENABLED", "ENABLING").contains(timeToLive.timeToLiveStatusAsString())) {
			table.timeToLiveAttribute = timeToLive.attributeName();
			table.timeToLiveStatus = "ENABLED";
		}
		return table;
	}

}
