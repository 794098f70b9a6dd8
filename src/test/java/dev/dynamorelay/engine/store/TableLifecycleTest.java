package dev.dynamorelay.engine.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;

import static dev.dynamorelay.engine.store.Fixtures.assertError;
import static dev.dynamorelay.engine.store.Fixtures.assertValidation;
import static dev.dynamorelay.engine.store.Fixtures.definition;
import static dev.dynamorelay.engine.store.Fixtures.hash;
import static dev.dynamorelay.engine.store.Fixtures.item;
import static dev.dynamorelay.engine.store.Fixtures.n;
import static dev.dynamorelay.engine.store.Fixtures.s;
import static dev.dynamorelay.engine.store.Fixtures.throughput;
import static org.assertj.core.api.Assertions.assertThat;

/** DescribeTable, ListTables, DeleteTable and UpdateTable. */
class TableLifecycleTest {

	private final Database database = Fixtures.database();

	@AfterEach
	void close() {
		this.database.close();
	}

	private TableDescription describe(String name) {
		return this.database.describeTable(DescribeTableRequest.builder().tableName(name).build()).table();
	}

	@Test
	void namesTheMissingTableItWasAskedToDescribe() {
		assertError(() -> describe("nothere"), "ResourceNotFoundException", "Requested resource not found: Table: nothere not found");
		assertValidation(() -> describe("no;"), "1 validation error detected: Value 'no;' at 'tableName' failed to satisfy constraint: "
				+ "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
	}

	@Test
	void listsTablesInNameOrderAPageAtATime() {
		for (String name : List.of("ccc", "aaa", "bbb", "ddd", "eee")) {
			Fixtures.hashTable(this.database, name, "S");
		}
		List<String> seen = new ArrayList<>();
		String start = null;
		do {
			ListTablesResponse page = this.database.listTables(ListTablesRequest.builder().limit(2).exclusiveStartTableName(start).build());
			seen.addAll(page.tableNames());
			start = page.lastEvaluatedTableName();
			assertThat(page.tableNames().size()).isLessThanOrEqualTo(2);
		}
		while (start != null);
		assertThat(seen).containsExactly("aaa", "bbb", "ccc", "ddd", "eee");
		assertThat(this.database.listTables(ListTablesRequest.builder().build()).lastEvaluatedTableName()).isNull();
		assertValidation(() -> this.database.listTables(ListTablesRequest.builder().limit(101).build()),
				"1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100");
	}

	@Test
	void answersDeletingAndForgetsTheTableAndItsItems() {
		Fixtures.hashTable(this.database, "gone", "S");
		this.database.putItem(PutItemRequest.builder().tableName("gone").item(item("pk", s("a"))).build());

		TableDescription deleting = this.database.deleteTable(DeleteTableRequest.builder().tableName("gone").build()).tableDescription();

		assertThat(deleting.tableStatusAsString()).isEqualTo("DELETING");
		assertThat(deleting.itemCount()).isEqualTo(1);
		assertError(() -> describe("gone"), "ResourceNotFoundException", "Requested resource not found: Table: gone not found");
		assertError(() -> this.database.getItem(GetItemRequest.builder().tableName("gone").key(item("pk", s("a"))).build()),
				"ResourceNotFoundException", "Requested resource not found");
		Fixtures.hashTable(this.database, "gone", "N");
		assertThat(describe("gone").itemCount()).isZero();
	}

	@Test
	void refusesToDeleteAProtectedTable() {
		this.database.createTable(CreateTableRequest.builder().tableName("kept").attributeDefinitions(definition("pk", "S"))
			.keySchema(hash("pk")).billingMode(BillingMode.PAY_PER_REQUEST).deletionProtectionEnabled(true).build());
		assertValidation(() -> this.database.deleteTable(DeleteTableRequest.builder().tableName("kept").build()),
				"Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.");
		this.database.updateTable(UpdateTableRequest.builder().tableName("kept").deletionProtectionEnabled(false).build());
		this.database.deleteTable(DeleteTableRequest.builder().tableName("kept").build());
	}

	@Test
	void addsAGlobalIndexFilledWithTheItemsThereAlready() {
		Fixtures.hashTable(this.database, "grow", "S");
		for (int i = 0; i < 2500; i++) {
			this.database.putItem(PutItemRequest.builder().tableName("grow").item(item("pk", s("p" + i), "colour", s((i % 3 == 0) ? "red" : "blue"))).build());
		}

		TableDescription updating = this.database.updateTable(UpdateTableRequest.builder().tableName("grow")
			.attributeDefinitions(definition("colour", "S"))
			.globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder().create(CreateGlobalSecondaryIndexAction.builder()
				.indexName("byColour").keySchema(hash("colour")).projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build())
				.build()).build())
			.build()).tableDescription();

		assertThat(updating.globalSecondaryIndexes().get(0).indexStatusAsString()).isEqualTo("CREATING");
		assertThat(updating.globalSecondaryIndexes().get(0).backfilling()).isTrue();
		TableDescription described = describe("grow");
		assertThat(described.globalSecondaryIndexes().get(0).indexStatusAsString()).isEqualTo("ACTIVE");
		assertThat(described.globalSecondaryIndexes().get(0).itemCount()).isEqualTo(2500);
		assertThat(described.attributeDefinitions()).contains(definition("colour", "S"));
		int reds = this.database.query(QueryRequest.builder().tableName("grow").indexName("byColour")
			.keyConditions(java.util.Map.of("colour", Condition.builder().comparisonOperator(ComparisonOperator.EQ).attributeValueList(s("red")).build()))
			.build()).count();
		assertThat(reds).isEqualTo(834);
	}

	@Test
	void refusesToReadAGlobalIndexWhileItIsBackfilled() {
		try (Database slow = new Database(DatabaseOptions.defaults().withTableStatusDelay(java.time.Duration.ofHours(1))
			.withTimeToLiveSweep(java.time.Duration.ZERO))) {
			slow.restoreTable(TableDescription.builder().tableName("grow").attributeDefinitions(definition("pk", "S"))
				.keySchema(hash("pk")).provisionedThroughput(software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputDescription.builder()
					.readCapacityUnits(0L).writeCapacityUnits(0L).build())
				.billingModeSummary(software.amazon.awssdk.services.dynamodb.model.BillingModeSummary.builder().billingMode("PAY_PER_REQUEST").build())
				.tableArn("arn:aws:dynamodb:us-east-1:000000000000:table/grow").tableId("id").creationDateTime(Instant.now()).build(), null);
			slow.updateTable(UpdateTableRequest.builder().tableName("grow").attributeDefinitions(definition("colour", "S"))
				.globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder().create(CreateGlobalSecondaryIndexAction.builder()
					.indexName("byColour").keySchema(hash("colour")).projection(Projection.builder().projectionType(ProjectionType.ALL).build())
					.build()).build())
				.build());
			assertValidation(() -> slow.query(QueryRequest.builder().tableName("grow").indexName("byColour")
				.keyConditions(java.util.Map.of("colour", Condition.builder().comparisonOperator(ComparisonOperator.EQ).attributeValueList(s("red")).build()))
				.build()), "Cannot read from backfilling global secondary index: byColour");
			assertError(() -> slow.updateTable(UpdateTableRequest.builder().tableName("grow").attributeDefinitions(definition("size", "N"))
				.globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder().create(CreateGlobalSecondaryIndexAction.builder()
					.indexName("bySize").keySchema(hash("size")).projection(Projection.builder().projectionType(ProjectionType.ALL).build())
					.build()).build())
				.build()), "LimitExceededException", "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
		}
	}

	@Test
	void removesAGlobalIndexAndTheDefinitionsOnlyItUsed() {
		Fixtures.hashTable(this.database, "shrink", "S");
		this.database.updateTable(UpdateTableRequest.builder().tableName("shrink").attributeDefinitions(definition("g", "N"))
			.globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder().create(CreateGlobalSecondaryIndexAction.builder()
				.indexName("byG").keySchema(hash("g")).projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build()).build())
			.build());
		assertValidation(() -> this.database.putItem(PutItemRequest.builder().tableName("shrink").item(item("pk", s("a"), "g", s("x"))).build()),
				"One or more parameter values were invalid: Type mismatch for Index Key g Expected: N Actual: S IndexName: byG");

		this.database.updateTable(UpdateTableRequest.builder().tableName("shrink").globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
			.delete(DeleteGlobalSecondaryIndexAction.builder().indexName("byG").build()).build()).build());

		assertThat(describe("shrink").globalSecondaryIndexes()).isEmpty();
		assertThat(describe("shrink").attributeDefinitions()).containsExactly(definition("pk", "S"));
		this.database.putItem(PutItemRequest.builder().tableName("shrink").item(item("pk", s("a"), "g", s("x"))).build());
		assertError(() -> this.database.updateTable(UpdateTableRequest.builder().tableName("shrink").globalSecondaryIndexUpdates(
				GlobalSecondaryIndexUpdate.builder().delete(DeleteGlobalSecondaryIndexAction.builder().indexName("byG").build()).build()).build()),
				"ResourceNotFoundException", "Requested resource not found: Requested global secondary index: byG not found");
	}

	@Test
	void enablesAndDisablesAStream() {
		Fixtures.hashTable(this.database, "flow", "S");
		TableDescription enabled = this.database.updateTable(UpdateTableRequest.builder().tableName("flow")
			.streamSpecification(StreamSpecification.builder().streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY).build()).build())
			.tableDescription();
		assertThat(enabled.streamSpecification().streamViewTypeAsString()).isEqualTo("KEYS_ONLY");
		assertThat(enabled.latestStreamArn()).startsWith("arn:aws:dynamodb:us-east-1:000000000000:table/flow/stream/");
		assertValidation(() -> this.database.updateTable(UpdateTableRequest.builder().tableName("flow")
			.streamSpecification(StreamSpecification.builder().streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY).build()).build()),
				"Table already has an enabled stream: " + enabled.latestStreamArn());
		TableDescription disabled = this.database.updateTable(UpdateTableRequest.builder().tableName("flow")
			.streamSpecification(StreamSpecification.builder().streamEnabled(false).build()).build()).tableDescription();
		assertThat(disabled.streamSpecification()).isNull();
		assertThat(disabled.latestStreamArn()).isEqualTo(enabled.latestStreamArn());
	}

	@Test
	void changesThroughputAndBillingModeAndRefusesNoChange() {
		this.database.createTable(CreateTableRequest.builder().tableName("paid").attributeDefinitions(definition("pk", "S"))
			.keySchema(hash("pk")).provisionedThroughput(throughput(5, 5)).build());
		assertValidation(() -> this.database.updateTable(UpdateTableRequest.builder().tableName("paid").provisionedThroughput(throughput(5, 5)).build()),
				"The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits "
						+ "provisioned for the table: 5. Requested ReadCapacityUnits: 5. Current WriteCapacityUnits provisioned for the table: 5. "
						+ "Requested WriteCapacityUnits: 5. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.");
		TableDescription raising = this.database.updateTable(UpdateTableRequest.builder().tableName("paid").provisionedThroughput(throughput(20, 15))
			.build()).tableDescription();
		// as DynamoDB: the answer says UPDATING with the units still in force, the new ones are in force once ACTIVE
		assertThat(raising.tableStatusAsString()).isEqualTo("UPDATING");
		assertThat(raising.provisionedThroughput().readCapacityUnits()).isEqualTo(5);
		assertThat(raising.provisionedThroughput().lastIncreaseDateTime()).isNotNull();
		TableDescription raised = describe("paid");
		assertThat(raised.tableStatusAsString()).isEqualTo("ACTIVE");
		assertThat(raised.provisionedThroughput().readCapacityUnits()).isEqualTo(20);
		assertThat(raised.provisionedThroughput().writeCapacityUnits()).isEqualTo(15);
		TableDescription lowered = this.database.updateTable(UpdateTableRequest.builder().tableName("paid").provisionedThroughput(throughput(10, 15))
			.build()).tableDescription();
		assertThat(lowered.provisionedThroughput().numberOfDecreasesToday()).isZero();
		assertThat(describe("paid").provisionedThroughput().numberOfDecreasesToday()).isEqualTo(1);
		TableDescription onDemand = this.database.updateTable(UpdateTableRequest.builder().tableName("paid").billingMode(BillingMode.PAY_PER_REQUEST)
			.build()).tableDescription();
		assertThat(onDemand.billingModeSummary().billingModeAsString()).isEqualTo("PAY_PER_REQUEST");
		assertThat(onDemand.provisionedThroughput().readCapacityUnits()).isZero();
		assertValidation(() -> this.database.updateTable(UpdateTableRequest.builder().tableName("paid").provisionedThroughput(throughput(1, 1)).build()),
				"One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
		UpdateTableRequest tooHigh = UpdateTableRequest.builder().tableName("paid").globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
			.update(software.amazon.awssdk.services.dynamodb.model.UpdateGlobalSecondaryIndexAction.builder().indexName("abc")
				.provisionedThroughput(throughput(1_000_000_000_001L, 1)).build()).build()).build();
		assertValidation(() -> this.database.updateTable(tooHigh), "This operation cannot be performed with given input values. "
				+ "Please contact DynamoDB service team for more info: Action Blocked: IndexUpdate");
		assertError(() -> this.database.updateTable(tooHigh.toBuilder().tableName("nopaid").build()), "ResourceNotFoundException",
				"Requested resource not found: Table: nopaid not found");
		assertValidation(() -> this.database.updateTable(UpdateTableRequest.builder().tableName("paid").build()),
				"At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
	}

	/**
	 * dynalite's test of DynamoDB ("should allow table to be converted to PAY_PER_REQUEST"): the table and each of
	 * its global indexes answer UPDATING with no units, then are ACTIVE.
	 */
	@Test
	void turnsATableAndItsGlobalIndexesToOnDemandThroughUpdating() {
		this.database.createTable(CreateTableRequest.builder().tableName("billed").attributeDefinitions(definition("pk", "S"),
				definition("colour", "S"))
			.keySchema(hash("pk")).provisionedThroughput(throughput(5, 5))
			.globalSecondaryIndexes(software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex.builder().indexName("byColour")
				.keySchema(hash("colour")).projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build())
				.provisionedThroughput(throughput(3, 3)).build())
			.build());
		TableDescription updating = this.database.updateTable(UpdateTableRequest.builder().tableName("billed")
			.billingMode(BillingMode.PAY_PER_REQUEST).build()).tableDescription();
		assertThat(updating.tableStatusAsString()).isEqualTo("UPDATING");
		assertThat(updating.globalSecondaryIndexes().get(0).indexStatusAsString()).isEqualTo("UPDATING");
		assertThat(updating.globalSecondaryIndexes().get(0).provisionedThroughput().readCapacityUnits()).isZero();
		TableDescription updated = describe("billed");
		assertThat(updated.tableStatusAsString()).isEqualTo("ACTIVE");
		assertThat(updated.globalSecondaryIndexes().get(0).indexStatusAsString()).isEqualTo("ACTIVE");
		TableDescription back = this.database.updateTable(UpdateTableRequest.builder().tableName("billed")
			.billingMode(BillingMode.PROVISIONED).provisionedThroughput(throughput(4, 3))
			.globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
				.update(software.amazon.awssdk.services.dynamodb.model.UpdateGlobalSecondaryIndexAction.builder().indexName("byColour")
					.provisionedThroughput(throughput(2, 2)).build()).build())
			.build()).tableDescription();
		assertThat(back.tableStatusAsString()).isEqualTo("UPDATING");
		assertThat(back.provisionedThroughput().readCapacityUnits()).isEqualTo(4);
		assertThat(describe("billed").tableStatusAsString()).isEqualTo("ACTIVE");
	}

	@Test
	void tellsTheListenersOfEveryTableChange() {
		List<String> heard = new ArrayList<>();
		this.database.addCommitListener(new CommitListener() {

			@Override
			public CompletableFuture<Void> committed(Instant time, List<ItemChange> changes) {
				return DONE;
			}

			@Override
			public CompletableFuture<Void> tableChanged(Instant time, TableDescription description, boolean deleted) {
				heard.add(description.tableName() + " " + description.tableStatusAsString() + (deleted ? " deleted" : ""));
				return DONE;
			}

		});
		Fixtures.hashTable(this.database, "told", "S");
		this.database.updateTable(UpdateTableRequest.builder().tableName("told")
			.streamSpecification(StreamSpecification.builder().streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE).build()).build());
		this.database.deleteTable(DeleteTableRequest.builder().tableName("told").build());
		assertThat(heard).containsExactly("told ACTIVE", "told ACTIVE", "told ACTIVE deleted");
	}

	@Test
	void restoresATableAsDescribedWithoutTellingTheListeners() {
		Fixtures.rangeTable(this.database, "orig", "S", "N");
		this.database.putItem(PutItemRequest.builder().tableName("orig").item(item("pk", s("a"), "sk", n(1), "v", s("x"))).build());
		TableDescription description = describe("orig");
		try (Database restored = Fixtures.database()) {
			restored.addCommitListener(new CommitListener() {

				@Override
				public CompletableFuture<Void> committed(Instant time, List<ItemChange> changes) {
					throw new AssertionError("restoring tells no one");
				}

				@Override
				public CompletableFuture<Void> tableChanged(Instant time, TableDescription changed, boolean deleted) {
					throw new AssertionError("restoring tells no one");
				}

			});
			restored.restoreTable(description, null);
			restored.restoreItem("orig", item("pk", s("a"), "sk", n(1), "v", s("x")));
			restored.restoreItem("orig", item("pk", s("b"), "sk", n(2)));
			restored.restoreDelete("orig", item("pk", s("b"), "sk", n(2)));
			TableDescription again = restored.describeTable(DescribeTableRequest.builder().tableName("orig").build()).table();
			assertThat(again.tableArn()).isEqualTo(description.tableArn());
			assertThat(again.tableId()).isEqualTo(description.tableId());
			assertThat(again.creationDateTime()).isEqualTo(description.creationDateTime());
			assertThat(again.itemCount()).isEqualTo(1);
			java.util.Map<String, AttributeValue> got = restored.getItem(GetItemRequest.builder().tableName("orig")
				.key(item("pk", s("a"), "sk", n(1))).build()).item();
			assertThat(got).isEqualTo(item("pk", s("a"), "sk", n(1), "v", s("x")));
			// the table described again with a new index (an UpdateTable replayed) keeps its items, indexed
			TableDescription indexed = description.toBuilder()
				.attributeDefinitions(definition("pk", "S"), definition("sk", "N"), definition("v", "S"))
				.globalSecondaryIndexes(software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription.builder().indexName("byV")
					.keySchema(hash("v")).projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build())
				.build();
			restored.restoreTable(indexed, null);
			assertThat(restored.query(QueryRequest.builder().tableName("orig").indexName("byV")
				.keyConditions(java.util.Map.of("v", Condition.builder().comparisonOperator(ComparisonOperator.EQ).attributeValueList(s("x")).build()))
				.build()).items()).containsExactly(item("pk", s("a"), "sk", n(1), "v", s("x")));
			assertThat(restored.describeTable(DescribeTableRequest.builder().tableName("orig").build()).table().itemCount()).isEqualTo(1);
		}
	}

}
