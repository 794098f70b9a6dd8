package dev.dynamorelay.engine.store;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;

import dev.dynamorelay.engine.action.AwsError;

/**
 * Checks the requests of CreateTable and UpdateTable as DynamoDB does, before a table is touched: first each
 * member's constraints (DynamoDB's "1 validation error detected" messages), then what the members mean together
 * (billing and throughput, key schemas against attribute definitions, the per-table limits of 5 local and 20
 * global secondary indexes, the stream specification).
 *
 * <p>See the API Reference of CreateTable and UpdateTable and the Developer Guide's "Constraints in Amazon
 * DynamoDB"; the messages are DynamoDB's as dynalite's validations and tests, written against DynamoDB, give them.
 */
final class TableChecks {

	static final long MAX_CAPACITY_UNITS = 1_000_000_000_000L;

	private TableChecks() {
	}

	static void checkCreate(CreateTableRequest request) {
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
			checkLocalIndexes(request.localSecondaryIndexes(), keys, definitions, indexNames, used);
		}
		if (request.hasGlobalSecondaryIndexes()) {
			checkGlobalIndexes(request.globalSecondaryIndexes(), billing, definitions, indexNames, used);
		}
		if (hasIndexes && !used.containsAll(definitions)) {
			// differs from dynalite: dynalite accepts definitions no key uses when indexes exist; DynamoDB refuses them
			throw AwsError.validation("One or more parameter values were invalid: Some AttributeDefinitions are not used. AttributeDefinitions: ["
					+ String.join(", ", definitions) + "], keys used: [" + String.join(", ", used) + "]");
		}
		checkStream(request.streamSpecification());
	}

	/**
	 * Checks a CreateTable's local indexes against the table's keys ({@code keys}, hash then range) and its
	 * definitions; adds their names to {@code indexNames} and their keys to {@code used}.
	 */
	private static void checkLocalIndexes(List<LocalSecondaryIndex> locals, List<String> keys, List<String> definitions,
			Set<String> indexNames, Set<String> used) {
		if (locals.isEmpty()) {
			throw AwsError.validation("One or more parameter values were invalid: List of LocalSecondaryIndexes is empty");
		}
		if (keys.size() != 2) {
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

	/**
	 * Checks a CreateTable's global indexes against its billing mode and definitions; adds their names to
	 * {@code indexNames} and their keys to {@code used}.
	 */
	private static void checkGlobalIndexes(List<GlobalSecondaryIndex> globals, String billing, List<String> definitions,
			Set<String> indexNames, Set<String> used) {
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

	static List<String> names(List<KeySchemaElement> keySchema) {
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

	static void checkUpdate(UpdateTableRequest request) {
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

}
