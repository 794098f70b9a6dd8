package dev.dynamorelay.engine.store;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableResponse;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ItemCodec;
import dev.dynamorelay.engine.value.ItemSize;

/**
 * CreateTable, DescribeTable, ListTables, UpdateTable and DeleteTable, with DynamoDB's checks and messages (as
 * dynalite's validations and tests, written against DynamoDB, give them).
 *
 * <p>See the API Reference of each operation and the Developer Guide's "Constraints in Amazon DynamoDB"
 * (Secondary indexes: 20 global and 5 local indexes a table; Naming rules: 3 to 255 characters of
 * {@code [a-zA-Z0-9_.-]}).
 */
final class TableOperations {

	static final long MAX_CAPACITY_UNITS = 1_000_000_000_000L;

	private static final DateTimeFormatter STREAM_LABEL = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

	/** How many items a backfill copies into a new index at a time, holding the table's write lock. */
	private static final int BACKFILL_CHUNK = 1000;

	private final Database database;

	TableOperations(Database database) {
		this.database = database;
	}

	// ---- CreateTable

	CreateTableResponse createTable(CreateTableRequest request) {
		checkCreate(request);
		TableSchema schema = schema(request);
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

	private static void checkCreate(CreateTableRequest request) {
		Constraints.requiredTableName(request.tableName());
		Constraints constraints = new Constraints();
		// the members in the order of DynamoDB's model (dynalite's validations/createTable.js)
		if (!request.hasAttributeDefinitions()) {
			constraints.notNull("attributeDefinitions", null);
		}
		else {
			List<AttributeDefinition> definitions = request.attributeDefinitions();
			for (int i = 0; i < definitions.size(); i++) {
				String path = "attributeDefinitions." + (i + 1) + ".member";
				constraints.notNull(path + ".attributeName", definitions.get(i).attributeName());
				constraints.notNull(path + ".attributeType", definitions.get(i).attributeTypeAsString());
				constraints.oneOf(path + ".attributeType", definitions.get(i).attributeTypeAsString(), "B", "N", "S");
			}
		}
		constraints.pattern("tableName", request.tableName());
		constraints.oneOf("billingMode", request.billingModeAsString(), "PROVISIONED", "PAY_PER_REQUEST");
		checkThroughput(constraints, "provisionedThroughput", request.provisionedThroughput());
		if (!request.hasKeySchema()) {
			constraints.notNull("keySchema", null);
		}
		else {
			constraints.size("keySchema", request.keySchema(), 1, 2);
			checkKeySchema(constraints, "keySchema", request.keySchema(), true);
		}
		if (request.hasLocalSecondaryIndexes()) {
			List<LocalSecondaryIndex> locals = request.localSecondaryIndexes();
			for (int i = 0; i < locals.size(); i++) {
				LocalSecondaryIndex index = locals.get(i);
				String path = "localSecondaryIndexes." + (i + 1) + ".member";
				checkIndexName(constraints, path + ".indexName", index.indexName());
				checkIndexKeySchema(constraints, path + ".keySchema", index.hasKeySchema() ? index.keySchema() : null);
				checkProjection(constraints, path + ".projection", index.projection());
			}
		}
		if (request.hasGlobalSecondaryIndexes()) {
			List<GlobalSecondaryIndex> globals = request.globalSecondaryIndexes();
			for (int i = 0; i < globals.size(); i++) {
				GlobalSecondaryIndex index = globals.get(i);
				String path = "globalSecondaryIndexes." + (i + 1) + ".member";
				checkIndexName(constraints, path + ".indexName", index.indexName());
				checkIndexKeySchema(constraints, path + ".keySchema", index.hasKeySchema() ? index.keySchema() : null);
				checkProjection(constraints, path + ".projection", index.projection());
				checkThroughput(constraints, path + ".provisionedThroughput", index.provisionedThroughput());
			}
		}
		constraints.check();
		checkCreateSemantics(request);
	}

	static void checkThroughput(Constraints constraints, String path, ProvisionedThroughput throughput) {
		if (throughput == null) {
			return;
		}
		constraints.notNull(path + ".writeCapacityUnits", throughput.writeCapacityUnits());
		constraints.range(path + ".writeCapacityUnits", throughput.writeCapacityUnits(), 1L, null);
		constraints.notNull(path + ".readCapacityUnits", throughput.readCapacityUnits());
		constraints.range(path + ".readCapacityUnits", throughput.readCapacityUnits(), 1L, null);
	}

	private static void checkKeySchema(Constraints constraints, String path, List<KeySchemaElement> keySchema, boolean keyTypeEnum) {
		for (int i = 0; i < keySchema.size(); i++) {
			String member = path + "." + (i + 1) + ".member";
			constraints.notNull(member + ".attributeName", keySchema.get(i).attributeName());
			constraints.notNull(member + ".keyType", keySchema.get(i).keyTypeAsString());
			if (keyTypeEnum) {
				constraints.oneOf(member + ".keyType", keySchema.get(i).keyTypeAsString(), "HASH", "RANGE");
			}
		}
	}

	static void checkIndexName(Constraints constraints, String path, String name) {
		constraints.notNull(path, name);
		constraints.name(path, name);
	}

	static void checkIndexKeySchema(Constraints constraints, String path, List<KeySchemaElement> keySchema) {
		constraints.notNull(path, keySchema);
		if (keySchema != null) {
			constraints.size(path, keySchema, 1, 2);
			checkKeySchema(constraints, path, keySchema, false);
		}
	}

	static void checkProjection(Constraints constraints, String path, Projection projection) {
		constraints.notNull(path, projection);
		if (projection != null) {
			constraints.oneOf(path + ".projectionType", projection.projectionTypeAsString(), "ALL", "INCLUDE", "KEYS_ONLY");
			if (projection.hasNonKeyAttributes()) {
				constraints.size(path + ".nonKeyAttributes", projection.nonKeyAttributes(), 1, -1);
			}
		}
	}

	private static void checkCreateSemantics(CreateTableRequest request) {
		String billing = request.billingModeAsString();
		ProvisionedThroughput throughput = request.provisionedThroughput();
		if ("PAY_PER_REQUEST".equals(billing)) {
			if (throughput != null) {
				throw AwsError.validation("One or more parameter values were invalid: "
						+ "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
			}
		}
		else {
			if (throughput == null || throughput.readCapacityUnits() == null || throughput.writeCapacityUnits() == null) {
				throw AwsError.validation("One or more parameter values were invalid: "
						+ "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
			}
			checkBounds(throughput);
		}
		List<String> definitions = new ArrayList<>();
		for (AttributeDefinition definition : request.attributeDefinitions()) {
			definitions.add(definition.attributeName());
		}
		List<KeySchemaElement> keySchema = request.keySchema();
		List<String> keys = names(keySchema);
		if (keys.size() > definitions.size()) {
			throw AwsError.validation("Invalid KeySchema: Some index key attribute have no definition");
		}
		checkDefined(keys, definitions);
		checkKeyTypes(keySchema);
		boolean hasIndexes = request.hasLocalSecondaryIndexes() || request.hasGlobalSecondaryIndexes();
		if (!hasIndexes && keySchema.size() != definitions.size()) {
			throw AwsError.validation("One or more parameter values were invalid: Number of attributes in KeySchema does not "
					+ "exactly match number of attributes defined in AttributeDefinitions");
		}
		Set<String> indexNames = new HashSet<>();
		Set<String> used = new LinkedHashSet<>(keys);
		if (request.hasLocalSecondaryIndexes()) {
			List<LocalSecondaryIndex> locals = request.localSecondaryIndexes();
			if (locals.isEmpty()) {
				throw AwsError.validation("One or more parameter values were invalid: List of LocalSecondaryIndexes is empty");
			}
			if (keySchema.size() != 2) {
				throw AwsError.validation("One or more parameter values were invalid: Table KeySchema does not have a range key, "
						+ "which is required when specifying a LocalSecondaryIndex");
			}
			for (LocalSecondaryIndex index : locals) {
				List<String> indexKeys = names(index.keySchema());
				checkDefined(indexKeys, definitions);
				checkKeyTypes(index.keySchema());
				if (index.keySchema().size() != 2) {
					throw AwsError.validation("One or more parameter values were invalid: Index KeySchema does not have a range key for index: "
							+ index.indexName());
				}
				if (!indexKeys.get(0).equals(keys.get(0))) {
					throw AwsError.validation("One or more parameter values were invalid: Index KeySchema does not have the same leading hash key "
							+ "as table KeySchema for index: " + index.indexName() + ". index hash key: " + indexKeys.get(0)
							+ ", table hash key: " + keys.get(0));
				}
				checkProjectionType(index.projection());
				if (!indexNames.add(index.indexName())) {
					throw AwsError.validation("One or more parameter values were invalid: Duplicate index name: " + index.indexName());
				}
				used.addAll(indexKeys);
			}
			if (locals.size() > 5) {
				throw AwsError.validation("One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of 5");
			}
		}
		if (request.hasGlobalSecondaryIndexes()) {
			List<GlobalSecondaryIndex> globals = request.globalSecondaryIndexes();
			if (globals.isEmpty()) {
				throw AwsError.validation("One or more parameter values were invalid: List of GlobalSecondaryIndexes is empty");
			}
			for (GlobalSecondaryIndex index : globals) {
				List<String> indexKeys = names(index.keySchema());
				checkDefined(indexKeys, definitions);
				checkKeyTypes(index.keySchema());
				checkProjectionType(index.projection());
				if ("PAY_PER_REQUEST".equals(billing) && index.provisionedThroughput() != null) {
					throw AwsError.validation("One or more parameter values were invalid: ProvisionedThroughput should not be specified for index: "
							+ index.indexName() + " when BillingMode is PAY_PER_REQUEST");
				}
				if (!"PAY_PER_REQUEST".equals(billing) && index.provisionedThroughput() == null) {
					throw AwsError.validation("One or more parameter values were invalid: ProvisionedThroughput must be specified for index: "
							+ index.indexName());
				}
				if (!indexNames.add(index.indexName())) {
					throw AwsError.validation("One or more parameter values were invalid: Duplicate index name: " + index.indexName());
				}
				used.addAll(indexKeys);
			}
			if (globals.size() > 20) {
				throw AwsError.validation("One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20");
			}
		}
		if (hasIndexes && !used.containsAll(definitions)) {
			// differs from dynalite: dynalite accepts definitions no key uses when indexes exist; DynamoDB refuses them
			throw AwsError.validation("One or more parameter values were invalid: Some AttributeDefinitions are not used. AttributeDefinitions: ["
					+ String.join(", ", definitions) + "], keys used: [" + String.join(", ", used) + "]");
		}
		checkStream(request.streamSpecification());
	}

	static void checkBounds(ProvisionedThroughput throughput) {
		if (throughput.readCapacityUnits() > MAX_CAPACITY_UNITS) {
			throw AwsError.validation("Given value " + throughput.readCapacityUnits() + " for ReadCapacityUnits is out of bounds");
		}
		if (throughput.writeCapacityUnits() > MAX_CAPACITY_UNITS) {
			throw AwsError.validation("Given value " + throughput.writeCapacityUnits() + " for WriteCapacityUnits is out of bounds");
		}
	}

	static void checkStream(StreamSpecification stream) {
		if (stream == null || stream.streamEnabled() == null) {
			return;
		}
		if (stream.streamEnabled() && stream.streamViewTypeAsString() == null) {
			throw AwsError.validation("One or more parameter values were invalid: Must specify a StreamViewType when StreamEnabled is true");
		}
		if (stream.streamViewTypeAsString() != null && !List.of("NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY")
			.contains(stream.streamViewTypeAsString())) {
			throw AwsError.validation("1 validation error detected: Value '" + stream.streamViewTypeAsString()
					+ "' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum value set: "
					+ "[NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]");
		}
		if (!stream.streamEnabled() && stream.streamViewTypeAsString() != null) {
			throw AwsError.validation("One or more parameter values were invalid: Must not specify a StreamViewType when StreamEnabled is false");
		}
	}

	private static List<String> names(List<KeySchemaElement> keySchema) {
		List<String> names = new ArrayList<>();
		for (KeySchemaElement element : keySchema) {
			names.add(element.attributeName());
		}
		return names;
	}

	static void checkDefined(List<String> keys, List<String> definitions) {
		if (!definitions.containsAll(keys)) {
			throw AwsError.validation("One or more parameter values were invalid: Some index key attributes are not defined in "
					+ "AttributeDefinitions. Keys: [" + String.join(", ", keys) + "], AttributeDefinitions: [" + String.join(", ", definitions) + "]");
		}
	}

	static void checkKeyTypes(List<KeySchemaElement> keySchema) {
		if (keySchema.size() == 2 && keySchema.get(0).attributeName().equals(keySchema.get(1).attributeName())) {
			throw AwsError.validation("Both the Hash Key and the Range Key element in the KeySchema have the same name");
		}
		if (!"HASH".equals(keySchema.get(0).keyTypeAsString())) {
			throw AwsError.validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
		}
		if (keySchema.size() == 2 && !"RANGE".equals(keySchema.get(1).keyTypeAsString())) {
			throw AwsError.validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
		}
	}

	static void checkProjectionType(Projection projection) {
		String type = projection.projectionTypeAsString();
		if (type == null) {
			throw AwsError.validation("One or more parameter values were invalid: Unknown ProjectionType: null");
		}
		if (projection.hasNonKeyAttributes() && !"INCLUDE".equals(type)) {
			throw AwsError.validation("One or more parameter values were invalid: ProjectionType is " + type + ", but NonKeyAttributes is specified");
		}
	}

	private static TableSchema schema(CreateTableRequest request) {
		Map<String, String> types = types(request.attributeDefinitions());
		List<KeySchemaElement> keySchema = request.keySchema();
		KeyAttribute hash = new KeyAttribute(keySchema.get(0).attributeName(), types.get(keySchema.get(0).attributeName()));
		KeyAttribute range = (keySchema.size() > 1)
				? new KeyAttribute(keySchema.get(1).attributeName(), types.get(keySchema.get(1).attributeName())) : null;
		List<IndexSchema> indexes = new ArrayList<>();
		if (request.hasLocalSecondaryIndexes()) {
			for (LocalSecondaryIndex index : request.localSecondaryIndexes()) {
				indexes.add(index(index.indexName(), false, index.keySchema(), index.projection(), types));
			}
		}
		if (request.hasGlobalSecondaryIndexes()) {
			for (GlobalSecondaryIndex index : request.globalSecondaryIndexes()) {
				indexes.add(index(index.indexName(), true, index.keySchema(), index.projection(), types));
			}
		}
		return new TableSchema(request.tableName(), hash, range, request.attributeDefinitions(), indexes);
	}

	static Map<String, String> types(List<AttributeDefinition> definitions) {
		Map<String, String> types = new LinkedHashMap<>();
		for (AttributeDefinition definition : definitions) {
			types.put(definition.attributeName(), definition.attributeTypeAsString());
		}
		return types;
	}

	static IndexSchema index(String name, boolean global, List<KeySchemaElement> keySchema, Projection projection,
			Map<String, String> types) {
		KeyAttribute hash = new KeyAttribute(keySchema.get(0).attributeName(), types.get(keySchema.get(0).attributeName()));
		KeyAttribute range = (keySchema.size() > 1)
				? new KeyAttribute(keySchema.get(1).attributeName(), types.get(keySchema.get(1).attributeName())) : null;
		List<String> nonKey = projection.hasNonKeyAttributes() ? projection.nonKeyAttributes() : List.of();
		return new IndexSchema(name, global, hash, range, projection.projectionTypeAsString(), nonKey);
	}

	// ---- DescribeTable, ListTables

	DescribeTableResponse describeTable(DescribeTableRequest request) {
		Constraints.requiredTableName(request.tableName());
		new Constraints().pattern("tableName", request.tableName()).check();
		StoredTable table = this.database.anyTable(request.tableName());
		table.lock.readLock().lock();
		try {
			Database.stillThere(table);
			return DescribeTableResponse.builder().table(table.describe()).build();
		}
		catch (AwsError ex) {
			throw AwsError.resourceNotFound("Requested resource not found: Table: " + request.tableName() + " not found");
		}
		finally {
			table.lock.readLock().unlock();
		}
	}

	ListTablesResponse listTables(ListTablesRequest request) {
		Constraints constraints = new Constraints();
		constraints.range("limit", request.limit(), 1L, 100L);
		constraints.name("exclusiveStartTableName", request.exclusiveStartTableName());
		constraints.check();
		int limit = (request.limit() != null) ? request.limit() : 100;
		Map<String, StoredTable> after = (request.exclusiveStartTableName() != null)
				? this.database.tables.tailMap(request.exclusiveStartTableName(), false) : this.database.tables;
		List<String> names = new ArrayList<>();
		boolean more = false;
		for (StoredTable table : after.values()) {
			if (table.gone) {
				continue;
			}
			if (names.size() == limit) {
				more = true;
				break;
			}
			names.add(table.name);
		}
		ListTablesResponse.Builder response = ListTablesResponse.builder().tableNames(names);
		if (more) {
			response.lastEvaluatedTableName(names.get(names.size() - 1));
		}
		return response.build();
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

	// ---- UpdateTable

	UpdateTableResponse updateTable(UpdateTableRequest request) {
		checkUpdate(request);
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

	private static void checkUpdate(UpdateTableRequest request) {
		Constraints.requiredTableName(request.tableName());
		Constraints constraints = new Constraints();
		constraints.pattern("tableName", request.tableName());
		checkThroughput(constraints, "provisionedThroughput", request.provisionedThroughput());
		constraints.oneOf("billingMode", request.billingModeAsString(), "PROVISIONED", "PAY_PER_REQUEST");
		if (request.hasGlobalSecondaryIndexUpdates()) {
			List<GlobalSecondaryIndexUpdate> updates = request.globalSecondaryIndexUpdates();
			for (int i = 0; i < updates.size(); i++) {
				String path = "globalSecondaryIndexUpdates." + (i + 1) + ".member";
				GlobalSecondaryIndexUpdate update = updates.get(i);
				if (update.update() != null) {
					checkIndexName(constraints, path + ".update.indexName", update.update().indexName());
					constraints.notNull(path + ".update.provisionedThroughput", update.update().provisionedThroughput());
					checkThroughput(constraints, path + ".update.provisionedThroughput", update.update().provisionedThroughput());
				}
				if (update.create() != null) {
					CreateGlobalSecondaryIndexAction create = update.create();
					checkProjection(constraints, path + ".create.projection", create.projection());
					checkIndexName(constraints, path + ".create.indexName", create.indexName());
					checkThroughput(constraints, path + ".create.provisionedThroughput", create.provisionedThroughput());
					checkIndexKeySchema(constraints, path + ".create.keySchema", create.hasKeySchema() ? create.keySchema() : null);
				}
				if (update.delete() != null) {
					checkIndexName(constraints, path + ".delete.indexName", update.delete().indexName());
				}
			}
		}
		constraints.check();
		boolean indexUpdates = request.hasGlobalSecondaryIndexUpdates() && !request.globalSecondaryIndexUpdates().isEmpty();
		if (request.provisionedThroughput() == null && request.billingModeAsString() == null && request.streamSpecification() == null
				&& !indexUpdates && request.sseSpecification() == null && request.deletionProtectionEnabled() == null) {
			throw AwsError.validation("At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates "
					+ "or SSESpecification or ReplicaUpdates is required");
		}
		if ("PROVISIONED".equals(request.billingModeAsString()) && request.provisionedThroughput() == null) {
			throw AwsError.validation("One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
		}
		if (request.provisionedThroughput() != null) {
			checkBounds(request.provisionedThroughput());
		}
		if (indexUpdates) {
			Set<String> names = new HashSet<>();
			for (GlobalSecondaryIndexUpdate update : request.globalSecondaryIndexUpdates()) {
				if (update.update() == null && update.create() == null && update.delete() == null) {
					throw AwsError.validation("One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Update, "
							+ "GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null");
				}
				String name = (update.update() != null) ? update.update().indexName()
						: (update.create() != null) ? update.create().indexName() : update.delete().indexName();
				if (!names.add(name)) {
					throw AwsError.validation("One or more parameter values were invalid: Only one global secondary index update per index "
							+ "is allowed simultaneously. Index: " + name);
				}
			}
		}
		checkStream(request.streamSpecification());
	}

	/** Applies an UpdateTable to the table, under its write lock; answers the index to backfill, if one is created. */
	private StoredIndex applyUpdate(StoredTable table, UpdateTableRequest request, Instant now) {
		String billing = (request.billingModeAsString() != null) ? request.billingModeAsString() : table.billingMode;
		if (request.provisionedThroughput() != null && "PAY_PER_REQUEST".equals(billing)) {
			throw AwsError.validation("One or more parameter values were invalid: "
					+ "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
		}
		List<GlobalSecondaryIndexUpdate> updates = request.hasGlobalSecondaryIndexUpdates() ? request.globalSecondaryIndexUpdates() : List.of();
		for (GlobalSecondaryIndexUpdate update : updates) {
			ProvisionedThroughput units = (update.update() != null) ? update.update().provisionedThroughput() : null;
			if (units != null && (units.readCapacityUnits() > MAX_CAPACITY_UNITS || units.writeCapacityUnits() > MAX_CAPACITY_UNITS)) {
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
		// check every part before changing anything
		ProvisionedThroughput throughput = request.provisionedThroughput();
		if (throughput != null && "PROVISIONED".equals(table.billingMode) && !"PAY_PER_REQUEST".equals(request.billingModeAsString())
				&& throughput.readCapacityUnits() == table.throughput.read && throughput.writeCapacityUnits() == table.throughput.write) {
			throw AwsError.validation("The provisioned throughput for the table will not change. The requested value equals the current value. "
					+ "Current ReadCapacityUnits provisioned for the table: " + table.throughput.read + ". Requested ReadCapacityUnits: "
					+ throughput.readCapacityUnits() + ". Current WriteCapacityUnits provisioned for the table: " + table.throughput.write
					+ ". Requested WriteCapacityUnits: " + throughput.writeCapacityUnits() + ". "
					+ "Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.");
		}
		List<String> missingThroughput = new ArrayList<>();
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
		List<AttributeDefinition> definitions = new ArrayList<>(table.schema.attributeDefinitions());
		IndexSchema newIndex = null;
		Throughput newIndexThroughput = null;
		for (GlobalSecondaryIndexUpdate update : updates) {
			if (update.create() != null) {
				CreateGlobalSecondaryIndexAction create = update.create();
				if (table.indexes.containsKey(create.indexName())) {
					throw AwsError.validation("One or more parameter values were invalid: Index with name: " + create.indexName() + " already exists");
				}
				if (table.indexes.size() >= 25 || globalCount(table) >= 20) {
					throw AwsError.validation("One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20");
				}
				Map<String, String> types = types(definitions);
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
				List<String> keys = names(create.keySchema());
				List<String> declared = new ArrayList<>(types.keySet());
				checkDefined(keys, declared);
				checkKeyTypes(create.keySchema());
				checkProjectionType(create.projection());
				if ("PAY_PER_REQUEST".equals(billing) && create.provisionedThroughput() != null) {
					throw AwsError.validation("One or more parameter values were invalid: ProvisionedThroughput should not be specified for index: "
							+ create.indexName() + " when BillingMode is PAY_PER_REQUEST");
				}
				if (!"PAY_PER_REQUEST".equals(billing) && create.provisionedThroughput() == null) {
					throw AwsError.validation("One or more parameter values were invalid: ProvisionedThroughput must be specified for index: "
							+ create.indexName());
				}
				newIndex = index(create.indexName(), true, create.keySchema(), create.projection(), types);
				if (create.provisionedThroughput() != null) {
					newIndexThroughput = new Throughput(create.provisionedThroughput().readCapacityUnits(),
							create.provisionedThroughput().writeCapacityUnits());
				}
			}
		}
		StreamSpecification stream = request.streamSpecification();
		if (stream != null && stream.streamEnabled() != null) {
			if (stream.streamEnabled() && table.streamEnabled) {
				throw AwsError.validation("Table already has an enabled stream: " + table.arn + "/stream/" + table.latestStreamLabel);
			}
			if (!stream.streamEnabled() && !table.streamEnabled) {
				throw AwsError.validation("Table already has no stream enabled");
			}
		}
		// every check passed: change the table (new throughput is in force once the table is ACTIVE again:
		// the answer says UPDATING with the units still in force, as DynamoDB's does)
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
		StoredIndex created = null;
		if (newIndex != null) {
			created = new StoredIndex(newIndex, table.arn + "/index/" + newIndex.name(), "CREATING", newIndexThroughput);
			created.backfilling = true;
			table.indexes.put(newIndex.name(), created);
		}
		if (newIndex != null || updates.stream().anyMatch((update) -> update.delete() != null)) {
			List<IndexSchema> schemas = new ArrayList<>();
			for (StoredIndex index : table.indexes.values()) {
				schemas.add(index.schema);
			}
			table.schema = table.schema.withIndexes(schemas, usedDefinitions(definitions, table.schema, schemas));
		}
		if (stream != null && stream.streamEnabled() != null) {
			table.streamEnabled = stream.streamEnabled();
			if (stream.streamEnabled()) {
				table.streamViewType = stream.streamViewTypeAsString();
				table.latestStreamLabel = STREAM_LABEL.format(now);
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

	// ---- restore

	/**
	 * Adds a table as described, ACTIVE, without telling the listeners; a table of that name and id already
	 * there (the journal replaying an UpdateTable) becomes the described one and keeps its items, its indexes
	 * filled anew.
	 */
	void restore(TableDescription description, TimeToLiveDescription timeToLive, List<software.amazon.awssdk.services.dynamodb.model.Tag> tags) {
		Map<String, String> types = types(description.attributeDefinitions());
		List<KeySchemaElement> keySchema = description.keySchema();
		KeyAttribute hash = new KeyAttribute(keySchema.get(0).attributeName(), types.get(keySchema.get(0).attributeName()));
		KeyAttribute range = (keySchema.size() > 1)
				? new KeyAttribute(keySchema.get(1).attributeName(), types.get(keySchema.get(1).attributeName())) : null;
		List<IndexSchema> indexes = new ArrayList<>();
		if (description.hasLocalSecondaryIndexes()) {
			for (LocalSecondaryIndexDescription index : description.localSecondaryIndexes()) {
				indexes.add(index(index.indexName(), false, index.keySchema(), index.projection(), types));
			}
		}
		if (description.hasGlobalSecondaryIndexes()) {
			for (GlobalSecondaryIndexDescription index : description.globalSecondaryIndexes()) {
				indexes.add(index(index.indexName(), true, index.keySchema(), index.projection(), types));
			}
		}
		TableSchema schema = new TableSchema(description.tableName(), hash, range, description.attributeDefinitions(), indexes);
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
		for (IndexSchema index : indexes) {
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
		StoredTable previous = this.database.tables.get(table.name);
		if (previous != null && previous.tableId.equals(table.tableId) && previous.schema.hash().equals(hash)
				&& java.util.Objects.equals(previous.schema.range(), range)) {
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

}
