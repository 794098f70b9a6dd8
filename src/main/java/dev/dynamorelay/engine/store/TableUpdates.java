package dev.dynamorelay.engine.store;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableResponse;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ItemCodec;
import dev.dynamorelay.engine.value.ItemSize;

/**
 * UpdateTable: checks a change against the table as it is (billing, throughput, the one index created or deleted
 * at a time, the stream), applies it under the table's write lock, settles it (UPDATING to ACTIVE) and backfills a
 * new global index in the background.
 */
final class TableUpdates {

	/** How many items a backfill copies into a new index at a time, holding the table's write lock. */
	private static final int BACKFILL_CHUNK = 1000;

	private final Database database;

	TableUpdates(Database database) {
		this.database = database;
	}

	UpdateTableResponse updateTable(UpdateTableRequest request) {
		TableChecks.checkUpdate(request);
		StoredTable table = this.database.anyTable(request.tableName());
		TableDescription described;
		CompletableFuture<Void> told;
		StoredIndex created = null;
		table.lock.writeLock().lock();
		try {
			if (table.gone) {
				throw AwsError.resourceNotFound("Requested resource not found: Table: " + table.name + " not found");
			}
			if ("CREATING".equals(table.status) || "DELETING".equals(table.status)) {
				throw AwsError.resourceInUse("Attempt to change a resource which is still in use: Table is being "
						+ ("CREATING".equals(table.status) ? "created" : "deleted") + ": " + table.name);
			}
			Instant now = this.database.now().truncatedTo(ChronoUnit.MILLIS);
			created = applyUpdate(table, request, now);
			described = table.describe();
			told = this.database.tableChanged(described, false);
		}
		finally {
			table.lock.writeLock().unlock();
		}
		Database.await(told);
		this.database.later(() -> settle(table));
		if (created != null) {
			StoredIndex index = created;
			this.database.later(() -> backfill(table, index));
		}
		return UpdateTableResponse.builder().tableDescription(described).build();
	}

	/** Applies an UpdateTable to the table, under its write lock; answers the index to backfill, if one is created. */
	private static StoredIndex applyUpdate(StoredTable table, UpdateTableRequest request, Instant now) {
		String billing = (request.billingModeAsString() != null) ? request.billingModeAsString() : table.billingMode;
		if (request.provisionedThroughput() != null && "PAY_PER_REQUEST".equals(billing)) {
			throw AwsError.validation("One or more parameter values were invalid: "
					+ "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
		}
		List<GlobalSecondaryIndexUpdate> updates = request.hasGlobalSecondaryIndexUpdates() ? request.globalSecondaryIndexUpdates() : List.of();
		checkIndexLimits(table, updates);
		// check every part before changing anything
		checkThroughputChanges(table, request);
		checkIndexesUpdated(table, request, updates, billing);
		List<AttributeDefinition> definitions = new ArrayList<>(table.schema.attributeDefinitions());
		StoredIndex created = null;
		for (GlobalSecondaryIndexUpdate update : updates) {
			if (update.create() != null) {
				created = newIndex(table, request, update.create(), billing, definitions);
			}
		}
		checkStreamChange(table, request.streamSpecification());
		// every check passed: change the table (new throughput is in force once the table is ACTIVE again:
		// the answer says UPDATING with the units still in force, as DynamoDB's does)
		applyBilling(table, request, now);
		applyIndexUpdates(table, updates, now);
		if (created != null) {
			table.indexes.put(created.schema.name(), created);
		}
		if (created != null || updates.stream().anyMatch((update) -> update.delete() != null)) {
			List<IndexSchema> schemas = new ArrayList<>();
			for (StoredIndex index : table.indexes.values()) {
				schemas.add(index.schema);
			}
			table.schema = table.schema.withIndexes(schemas, usedDefinitions(definitions, table.schema, schemas));
		}
		StreamSpecification stream = request.streamSpecification();
		if (stream != null && stream.streamEnabled() != null) {
			table.streamEnabled = stream.streamEnabled();
			if (stream.streamEnabled()) {
				table.streamViewType = stream.streamViewTypeAsString();
				table.latestStreamLabel = TableLifecycle.STREAM_LABEL.format(now);
			}
			else {
				table.streamViewType = null;
			}
		}
		if (request.deletionProtectionEnabled() != null) {
			table.deletionProtection = request.deletionProtectionEnabled();
		}
		return created;
	}

	/** Refuses index units out of bounds, and more than one index created or deleted at a time. */
	private static void checkIndexLimits(StoredTable table, List<GlobalSecondaryIndexUpdate> updates) {
		for (GlobalSecondaryIndexUpdate update : updates) {
			ProvisionedThroughput units = (update.update() != null) ? update.update().provisionedThroughput() : null;
			if (units != null && (units.readCapacityUnits() > TableChecks.MAX_CAPACITY_UNITS
					|| units.writeCapacityUnits() > TableChecks.MAX_CAPACITY_UNITS)) {
				throw AwsError.validation("This operation cannot be performed with given input values. Please contact DynamoDB service team "
						+ "for more info: Action Blocked: IndexUpdate");
			}
		}
		int structural = 0;
		for (GlobalSecondaryIndexUpdate update : updates) {
			if (update.create() != null || update.delete() != null) {
				structural++;
			}
		}
		boolean building = false;
		for (StoredIndex index : table.indexes.values()) {
			building |= "CREATING".equals(index.status) || "DELETING".equals(index.status);
		}
		if (structural > 1 || (structural == 1 && building)) {
			throw AwsError.of("LimitExceededException",
					"Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
		}
	}

	/** Refuses provisioned units equal to those in force (DynamoDB's "will not change"). */
	private static void checkThroughputChanges(StoredTable table, UpdateTableRequest request) {
		ProvisionedThroughput throughput = request.provisionedThroughput();
		if (throughput != null && "PROVISIONED".equals(table.billingMode) && !"PAY_PER_REQUEST".equals(request.billingModeAsString())
				&& throughput.readCapacityUnits() == table.throughput.read && throughput.writeCapacityUnits() == table.throughput.write) {
			throw AwsError.validation("The provisioned throughput for the table will not change. The requested value equals the current value. "
					+ "Current ReadCapacityUnits provisioned for the table: " + table.throughput.read + ". Requested ReadCapacityUnits: "
					+ throughput.readCapacityUnits() + ". Current WriteCapacityUnits provisioned for the table: " + table.throughput.write
					+ ". Requested WriteCapacityUnits: " + throughput.writeCapacityUnits() + ". "
					+ "Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.");
		}
	}

	/**
	 * Refuses an update or delete of a global index the table does not have, units for an index of an on-demand
	 * table, and a change to provisioned billing that leaves a global index without units.
	 */
	private static void checkIndexesUpdated(StoredTable table, UpdateTableRequest request, List<GlobalSecondaryIndexUpdate> updates,
			String billing) {
		for (GlobalSecondaryIndexUpdate update : updates) {
			if (update.update() != null) {
				StoredIndex index = table.indexes.get(update.update().indexName());
				if (index == null || !index.schema.global()) {
					throw AwsError.resourceNotFound("Requested resource not found: Index: " + update.update().indexName());
				}
				if ("PAY_PER_REQUEST".equals(billing)) {
					throw AwsError.validation("One or more parameter values were invalid: "
							+ "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
				}
			}
			if (update.delete() != null) {
				StoredIndex index = table.indexes.get(update.delete().indexName());
				if (index == null || !index.schema.global()) {
					throw AwsError.resourceNotFound("Requested resource not found: Requested global secondary index: "
							+ update.delete().indexName() + " not found");
				}
			}
		}
		if ("PROVISIONED".equals(request.billingModeAsString()) && !"PROVISIONED".equals(table.billingMode)) {
			List<String> missingThroughput = new ArrayList<>();
			for (StoredIndex index : table.indexes.values()) {
				if (index.schema.global() && !mentionsUpdate(updates, index.schema.name())) {
					missingThroughput.add(index.schema.name());
				}
			}
			if (!missingThroughput.isEmpty()) {
				throw AwsError.validation("One or more parameter values were invalid: ProvisionedThroughput must be specified for index: "
						+ String.join(",", missingThroughput));
			}
		}
	}

	/**
	 * Checks a global index to create and answers it, CREATING and to be backfilled (not yet the table's); adds the
	 * request's new attribute definitions to {@code definitions}.
	 */
	private static StoredIndex newIndex(StoredTable table, UpdateTableRequest request, CreateGlobalSecondaryIndexAction create,
			String billing, List<AttributeDefinition> definitions) {
		if (table.indexes.containsKey(create.indexName())) {
			throw AwsError.validation("One or more parameter values were invalid: Index with name: " + create.indexName() + " already exists");
		}
		if (table.indexes.size() >= 25 || globalCount(table) >= 20) {
			throw AwsError.validation("One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20");
		}
		Map<String, String> types = TableSchemas.types(definitions);
		if (request.hasAttributeDefinitions()) {
			for (AttributeDefinition definition : request.attributeDefinitions()) {
				String known = types.get(definition.attributeName());
				if (known != null && !known.equals(definition.attributeTypeAsString())) {
					throw AwsError.validation("One or more parameter values were invalid: Attribute " + definition.attributeName()
							+ " is defined as " + known + " and cannot be redefined as " + definition.attributeTypeAsString());
				}
				if (known == null) {
					definitions.add(definition);
					types.put(definition.attributeName(), definition.attributeTypeAsString());
				}
			}
		}
		List<String> keys = TableChecks.names(create.keySchema());
		List<String> declared = new ArrayList<>(types.keySet());
		TableChecks.checkDefined(keys, declared);
		TableChecks.checkKeyTypes(create.keySchema());
		TableChecks.checkProjectionType(create.projection());
		if ("PAY_PER_REQUEST".equals(billing) && create.provisionedThroughput() != null) {
			throw AwsError.validation("One or more parameter values were invalid: ProvisionedThroughput should not be specified for index: "
					+ create.indexName() + " when BillingMode is PAY_PER_REQUEST");
		}
		if (!"PAY_PER_REQUEST".equals(billing) && create.provisionedThroughput() == null) {
			throw AwsError.validation("One or more parameter values were invalid: ProvisionedThroughput must be specified for index: "
					+ create.indexName());
		}
		IndexSchema schema = TableSchemas.index(create.indexName(), true, create.keySchema(), create.projection(), types);
		Throughput throughput = (create.provisionedThroughput() == null) ? null
				: new Throughput(create.provisionedThroughput().readCapacityUnits(), create.provisionedThroughput().writeCapacityUnits());
		StoredIndex created = new StoredIndex(schema, table.arn + "/index/" + schema.name(), "CREATING", throughput);
		created.backfilling = true;
		return created;
	}

	/** Refuses enabling a stream already enabled, and disabling none. */
	private static void checkStreamChange(StoredTable table, StreamSpecification stream) {
		if (stream != null && stream.streamEnabled() != null) {
			if (stream.streamEnabled() && table.streamEnabled) {
				throw AwsError.validation("Table already has an enabled stream: " + table.arn + "/stream/" + table.latestStreamLabel);
			}
			if (!stream.streamEnabled() && !table.streamEnabled) {
				throw AwsError.validation("Table already has no stream enabled");
			}
		}
	}

	/** Changes the table's units and billing mode (its global indexes' with it, to on-demand). */
	private static void applyBilling(StoredTable table, UpdateTableRequest request, Instant now) {
		ProvisionedThroughput throughput = request.provisionedThroughput();
		if (throughput != null) {
			if ("PROVISIONED".equals(request.billingModeAsString()) && !"PROVISIONED".equals(table.billingMode)) {
				// From on-demand: the units are the table's at once, and it is UPDATING meanwhile (dynalite's test
				// of DynamoDB, "should allow table to be converted to PAY_PER_REQUEST and back again").
				table.throughput.change(throughput.readCapacityUnits(), throughput.writeCapacityUnits(), now);
				table.status = "UPDATING";
			}
			else {
				table.throughput.request(throughput.readCapacityUnits(), throughput.writeCapacityUnits(), now);
				table.status = "UPDATING";
			}
		}
		if ("PAY_PER_REQUEST".equals(request.billingModeAsString()) && !"PAY_PER_REQUEST".equals(table.billingMode)) {
			table.billingMode = "PAY_PER_REQUEST";
			table.lastUpdateToPayPerRequest = now;
			table.throughput.change(0, 0, now);
			table.status = "UPDATING";
			for (StoredIndex index : table.indexes.values()) {
				index.throughput = null;
				if (index.schema.global()) {
					// Its global indexes change billing with it (dynalite's test of DynamoDB: every one UPDATING).
					index.status = "UPDATING";
				}
			}
		}
		else if ("PROVISIONED".equals(request.billingModeAsString()) && !"PROVISIONED".equals(table.billingMode)) {
			table.billingMode = "PROVISIONED";
		}
	}

	/** Requests the global indexes' new units and removes the deleted index. */
	private static void applyIndexUpdates(StoredTable table, List<GlobalSecondaryIndexUpdate> updates, Instant now) {
		for (GlobalSecondaryIndexUpdate update : updates) {
			if (update.update() != null) {
				StoredIndex index = table.indexes.get(update.update().indexName());
				ProvisionedThroughput units = update.update().provisionedThroughput();
				if (index.throughput == null) {
					index.throughput = new Throughput(units.readCapacityUnits(), units.writeCapacityUnits());
				}
				else {
					index.throughput.request(units.readCapacityUnits(), units.writeCapacityUnits(), now);
					index.status = "UPDATING";
				}
			}
			if (update.delete() != null) {
				table.indexes.remove(update.delete().indexName());
			}
		}
	}

	/** Puts an UpdateTable's new throughput in force and makes the table (and its indexes) ACTIVE again. */
	private void settle(StoredTable table) {
		CompletableFuture<Void> told = CommitListener.DONE;
		table.lock.writeLock().lock();
		try {
			if (table.gone || !"UPDATING".equals(table.status) && table.indexes.values().stream().noneMatch((index) -> "UPDATING".equals(index.status))) {
				return;
			}
			Instant now = this.database.now().truncatedTo(ChronoUnit.MILLIS);
			table.throughput.applyPending(now);
			if ("UPDATING".equals(table.status)) {
				table.status = "ACTIVE";
			}
			for (StoredIndex index : table.indexes.values()) {
				if ("UPDATING".equals(index.status)) {
					if (index.throughput != null) {
						index.throughput.applyPending(now);
					}
					index.status = "ACTIVE";
				}
			}
			told = this.database.tableChanged(table.describe(), false);
		}
		finally {
			table.lock.writeLock().unlock();
		}
		Database.await(told);
	}

	private static boolean mentionsUpdate(List<GlobalSecondaryIndexUpdate> updates, String name) {
		for (GlobalSecondaryIndexUpdate update : updates) {
			if (update.update() != null && update.update().indexName().equals(name)) {
				return true;
			}
		}
		return false;
	}

	private static int globalCount(StoredTable table) {
		int count = 0;
		for (StoredIndex index : table.indexes.values()) {
			if (index.schema.global()) {
				count++;
			}
		}
		return count;
	}

	/** The definitions a table keeps: those of its keys and its indexes' keys (a deleted index's go). */
	private static List<AttributeDefinition> usedDefinitions(List<AttributeDefinition> definitions, TableSchema table,
			List<IndexSchema> indexes) {
		Set<String> used = new HashSet<>();
		used.add(table.hash().name());
		if (table.range() != null) {
			used.add(table.range().name());
		}
		for (IndexSchema index : indexes) {
			used.addAll(index.keyNames());
		}
		List<AttributeDefinition> kept = new ArrayList<>();
		for (AttributeDefinition definition : definitions) {
			if (used.contains(definition.attributeName())) {
				kept.add(definition);
			}
		}
		return kept;
	}

	/**
	 * Fills a new global index with the table's items, a chunk at a time under the table's write lock (writes
	 * between chunks keep the index up to date themselves, so each chunk sees the items as they are), then makes
	 * it ACTIVE.
	 */
	void backfill(StoredTable table, StoredIndex index) {
		byte[] from = null;
		while (true) {
			table.lock.writeLock().lock();
			try {
				if (table.gone || table.indexes.get(index.schema.name()) != index) {
					return;
				}
				java.util.NavigableMap<byte[], byte[]> rest = (from == null) ? table.items : table.items.tailMap(from, false);
				int copied = 0;
				byte[] last = null;
				for (Map.Entry<byte[], byte[]> entry : rest.entrySet()) {
					if (copied == BACKFILL_CHUNK) {
						break;
					}
					Map<String, AttributeValue> item = ItemCodec.decode(entry.getValue());
					if (index.schema.indexes(item)) {
						byte[] key = Keys.indexKey(index.schema, table.schema, item);
						if (index.entries.put(key, entry.getValue()) == null) {
							index.itemCount++;
							index.sizeBytes += index.schema.projectsAll() ? ItemCodec.size(entry.getValue())
									: ItemSize.of(index.schema.project(item, table.schema));
						}
					}
					last = entry.getKey();
					copied++;
				}
				if (last == null || copied < BACKFILL_CHUNK) {
					index.status = "ACTIVE";
					index.backfilling = false;
					CompletableFuture<Void> told = this.database.tableChanged(table.describe(), false);
					table.lock.writeLock().unlock();
					try {
						Database.await(told);
					}
					finally {
						table.lock.writeLock().lock();
					}
					return;
				}
				from = last;
			}
			finally {
				table.lock.writeLock().unlock();
			}
		}
	}

}
