package dev.dynamorelay.engine.store;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import dev.dynamorelay.engine.action.AwsError;

import static dev.dynamorelay.engine.store.Fixtures.assertError;
import static dev.dynamorelay.engine.store.Fixtures.assertValidation;
import static dev.dynamorelay.engine.store.Fixtures.b;
import static dev.dynamorelay.engine.store.Fixtures.definition;
import static dev.dynamorelay.engine.store.Fixtures.hash;
import static dev.dynamorelay.engine.store.Fixtures.item;
import static dev.dynamorelay.engine.store.Fixtures.n;
import static dev.dynamorelay.engine.store.Fixtures.range;
import static dev.dynamorelay.engine.store.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** PutItem, GetItem, UpdateItem and DeleteItem: checks, conditions, ReturnValues, capacity, commits. */
class ItemsTest {

	private Database database;


	@BeforeEach
	void tables() {
		this.database = Fixtures.database();
		Fixtures.rangeTable(this.database, "things", "S", "N");
	}

	@AfterEach
	void close() {
		this.database.close();
	}

	private PutItemRequest.Builder put(Map<String, AttributeValue> item) {
		return PutItemRequest.builder().tableName("things").item(item);
	}

	private Map<String, AttributeValue> get(Map<String, AttributeValue> key) {
		var response = this.database.getItem(GetItemRequest.builder().tableName("things").key(key).consistentRead(true).build());
		return response.hasItem() ? response.item() : null;
	}

	@Test
	void keepsNumbersInDynamoDbsForm() {
		this.database.putItem(put(item("pk", s("a"), "sk", n("1E+2"), "x", n("-0.50"))).build());
		assertThat(get(item("pk", s("a"), "sk", n("100.0")))).isEqualTo(item("pk", s("a"), "sk", n("100"), "x", n("-0.5")));
	}

	@Test
	void refusesItemsWithoutTheirKeysOrWithKeysOfAnotherType() {
		assertValidation(() -> this.database.putItem(put(item("sk", n(1))).build()),
				"One or more parameter values were invalid: Missing the key pk in the item");
		assertValidation(() -> this.database.putItem(put(item("pk", s("a"), "sk", s("1"))).build()),
				"One or more parameter values were invalid: Type mismatch for key sk expected: N actual: S");
		assertValidation(() -> this.database.putItem(put(item("pk", s(""), "sk", n(1))).build()),
				"One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk");
		assertValidation(() -> this.database.putItem(put(item("pk", s("a".repeat(2049)), "sk", n(1))).build()),
				"One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes");
		this.database.putItem(put(item("pk", s("a".repeat(2048)), "sk", n(1))).build());
	}

	@Test
	void refusesASortKeyOver1024Bytes() {
		Fixtures.rangeTable(this.database, "sorted", "S", "B");
		this.database.putItem(PutItemRequest.builder().tableName("sorted").item(item("pk", s("a"), "sk", b(new byte[1024]))).build());
		assertValidation(() -> this.database.putItem(PutItemRequest.builder().tableName("sorted").item(item("pk", s("a"), "sk", b(new byte[1025]))).build()),
				"One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes");
	}

	@Test
	void refusesAnItemOver400Kilobytes() {
		// pk (2 + 1) + sk (2 + 2) + "data" (4) leave 409600 - 11 bytes for the string
		String fits = "x".repeat(409600 - 11);
		this.database.putItem(put(item("pk", s("a"), "sk", n(1), "data", s(fits))).build());
		assertValidation(() -> this.database.putItem(put(item("pk", s("a"), "sk", n(1), "data", s(fits + "x"))).build()),
				"Item size has exceeded the maximum allowed size");
		assertValidation(() -> this.database.updateItem(UpdateItemRequest.builder().tableName("things").key(item("pk", s("a"), "sk", n(1)))
			.updateExpression("SET big = :v").expressionAttributeValues(Map.of(":v", s("y"))).build()),
				"Item size to update has exceeded the maximum allowed size");
	}

	@Test
	void refusesKeysThatDoNotMatchTheSchema() {
		assertValidation(() -> get(item("pk", s("a"))), "The provided key element does not match the schema");
		assertValidation(() -> get(item("pk", s("a"), "sk", s("1"))), "The provided key element does not match the schema");
		assertValidation(() -> get(item("pk", s("a"), "sk", n(1), "x", n(1))), "The provided key element does not match the schema");
		assertValidation(() -> get(item("pk", s(""), "sk", n(1))),
				"One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain an empty string value. Key: pk");
		assertValidation(() -> get(item("pk", AttributeValue.builder().build(), "sk", n(1))),
				"Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
	}

	@Test
	void refusesRequestsOutOfShapeBeforeLookingForTheTable() {
		assertValidation(() -> this.database.putItem(PutItemRequest.builder().returnValues("hi").build()), "3 validation errors detected: "
				+ "Value null at 'tableName' failed to satisfy constraint: Member must not be null; "
				+ "Value null at 'item' failed to satisfy constraint: Member must not be null; "
				+ "Value 'hi' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]");
		assertValidation(() -> this.database.putItem(PutItemRequest.builder().tableName("nothere").item(item("a", s("b")))
			.returnValues(ReturnValue.ALL_NEW).build()), "ReturnValues can only be ALL_OLD or NONE");
		assertError(() -> this.database.putItem(PutItemRequest.builder().tableName("nothere").item(item("a", s("b"))).build()),
				"ResourceNotFoundException", "Requested resource not found");
	}

	@Test
	void refusesExpressionParametersWithoutExpressionsAndMixedWithLegacyOnes() {
		assertValidation(() -> this.database.putItem(put(item("pk", s("a"), "sk", n(1))).expressionAttributeNames(Map.of("#a", "a")).build()),
				"ExpressionAttributeNames can only be specified when using expressions");
		assertValidation(() -> this.database.putItem(put(item("pk", s("a"), "sk", n(1))).expressionAttributeValues(Map.of(":a", s("a"))).build()),
				"ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null");
		assertValidation(() -> this.database.putItem(put(item("pk", s("a"), "sk", n(1))).conditionExpression("attribute_not_exists(pk)")
			.expected(Map.of("a", ExpectedAttributeValue.builder().exists(false).build())).build()),
				"Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {Expected} "
						+ "Expression parameters: {ConditionExpression}");
	}

	@Test
	void answersTheOldItemWhenAsked() {
		Map<String, AttributeValue> first = item("pk", s("a"), "sk", n(1), "v", s("one"));
		assertThat(this.database.putItem(put(first).returnValues(ReturnValue.ALL_OLD).build()).hasAttributes()).isFalse();
		assertThat(this.database.putItem(put(item("pk", s("a"), "sk", n(1), "v", s("two"))).returnValues(ReturnValue.ALL_OLD).build()).attributes())
			.isEqualTo(first);
		assertThat(this.database.deleteItem(DeleteItemRequest.builder().tableName("things").key(item("pk", s("a"), "sk", n(1)))
			.returnValues(ReturnValue.ALL_OLD).build()).attributes()).containsEntry("v", s("two"));
		assertThat(get(item("pk", s("a"), "sk", n(1)))).isNull();
	}

	@Test
	void refusesAFailedConditionWithTheStoredItemOnlyWhenAsked() {
		Map<String, AttributeValue> stored = item("pk", s("a"), "sk", n(1), "v", s("one"));
		this.database.putItem(put(stored).conditionExpression("attribute_not_exists(pk)").build());

		AwsError bare = catchThrowableOfType(() -> this.database.putItem(put(stored).conditionExpression("attribute_not_exists(pk)").build()),
				AwsError.class);
		AwsError withItem = catchThrowableOfType(() -> this.database.putItem(put(item("pk", s("a"), "sk", n(1)))
			.conditionExpression("attribute_not_exists(pk)").returnValuesOnConditionCheckFailure("ALL_OLD").build()), AwsError.class);

		assertThat(bare.type()).isEqualTo("ConditionalCheckFailedException");
		assertThat(bare.getMessage()).isEqualTo("The conditional request failed");
		assertThat(bare.item()).isNull();
		assertThat(withItem.item()).isEqualTo(stored);
		assertThat(get(item("pk", s("a"), "sk", n(1)))).isEqualTo(stored);
	}

	@Test
	void updatesAndAnswersTheAttributesAsked() {
		Map<String, AttributeValue> key = item("pk", s("a"), "sk", n(1));
		UpdateItemRequest.Builder update = UpdateItemRequest.builder().tableName("things").key(key).updateExpression("SET v = :v");

		assertThat(this.database.updateItem(update.expressionAttributeValues(Map.of(":v", s("one"))).returnValues(ReturnValue.UPDATED_OLD).build())
			.hasAttributes()).isFalse();
		assertThat(this.database.updateItem(update.expressionAttributeValues(Map.of(":v", s("two"))).returnValues(ReturnValue.UPDATED_OLD).build())
			.attributes()).isEqualTo(item("v", s("one")));
		assertThat(this.database.updateItem(update.expressionAttributeValues(Map.of(":v", s("three"))).returnValues(ReturnValue.UPDATED_NEW).build())
			.attributes()).isEqualTo(item("v", s("three")));
		assertThat(this.database.updateItem(update.expressionAttributeValues(Map.of(":v", s("four"))).returnValues(ReturnValue.ALL_NEW).build())
			.attributes()).isEqualTo(item("pk", s("a"), "sk", n(1), "v", s("four")));
		assertThat(this.database.updateItem(update.expressionAttributeValues(Map.of(":v", s("five"))).returnValues(ReturnValue.ALL_OLD).build())
			.attributes()).isEqualTo(item("pk", s("a"), "sk", n(1), "v", s("four")));
	}

	@Test
	void createsAnItemOfItsKeyAloneWhenUpdatedWithNothing() {
		Map<String, AttributeValue> key = item("pk", s("k"), "sk", n(2));
		this.database.updateItem(UpdateItemRequest.builder().tableName("things").key(key).build());
		assertThat(get(key)).isEqualTo(key);
	}

	@Test
	void refusesAnUpdateOfTheKey() {
		assertValidation(() -> this.database.updateItem(UpdateItemRequest.builder().tableName("things").key(item("pk", s("a"), "sk", n(1)))
			.updateExpression("SET pk = :v").expressionAttributeValues(Map.of(":v", s("b"))).build()),
				"One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key");
	}

	@Test
	void countsWriteUnitsByTheLargerItemAndReadUnitsBy4Kilobytes() {
		Map<String, AttributeValue> key = item("pk", s("a"), "sk", n(1));
		// pk 3 + sk 4 bytes, so a 1017-byte string under "d" (1) makes 1025 bytes: two write units
		ConsumedCapacity twoUnits = this.database.putItem(put(item("pk", s("a"), "sk", n(1), "d", s("x".repeat(1017))))
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()).consumedCapacity();
		assertThat(twoUnits.capacityUnits()).isEqualTo(2.0);
		assertThat(twoUnits.tableName()).isEqualTo("things");
		assertThat(twoUnits.table()).isNull();
		ConsumedCapacity replaced = this.database.putItem(put(key).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build()).consumedCapacity();
		assertThat(replaced.capacityUnits()).isEqualTo(2.0);
		assertThat(replaced.table().capacityUnits()).isEqualTo(2.0);
		assertThat(this.database.putItem(put(key).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()).consumedCapacity().capacityUnits())
			.isEqualTo(1.0);
		GetItemRequest.Builder read = GetItemRequest.builder().tableName("things").key(key).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
		assertThat(this.database.getItem(read.build()).consumedCapacity().capacityUnits()).isEqualTo(0.5);
		assertThat(this.database.getItem(read.consistentRead(true).build()).consumedCapacity().capacityUnits()).isEqualTo(1.0);
		assertThat(this.database.getItem(read.key(item("pk", s("none"), "sk", n(1))).consistentRead(false).build()).consumedCapacity().capacityUnits())
			.isEqualTo(0.5);
		assertThat(this.database.putItem(put(key).build()).consumedCapacity()).isNull();
	}

	@Test
	void countsTheWritesOfEachIndexByItsProjection() {
		this.database.createTable(CreateTableRequest.builder().tableName("indexed")
			.attributeDefinitions(definition("pk", "S"), definition("sk", "S"), definition("g", "S"), definition("l", "S"))
			.keySchema(hash("pk"), range("sk"))
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("byG").keySchema(hash("g"))
				.projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build()).build())
			.localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("byL").keySchema(hash("pk"), range("l"))
				.projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build())
			.build());
		PutItemRequest.Builder put = PutItemRequest.builder().tableName("indexed").returnConsumedCapacity(ReturnConsumedCapacity.INDEXES);
		String big = "x".repeat(2000);

		ConsumedCapacity first = this.database.putItem(put.item(item("pk", s("a"), "sk", s("1"), "g", s("g1"), "l", s("l1"), "d", s(big))).build())
			.consumedCapacity();
		// the table and the local index hold 2 KB (two units each), the keys-only global index a few bytes (one)
		assertThat(first.table().capacityUnits()).isEqualTo(2.0);
		assertThat(first.globalSecondaryIndexes().get("byG").capacityUnits()).isEqualTo(1.0);
		assertThat(first.localSecondaryIndexes().get("byL").capacityUnits()).isEqualTo(2.0);
		assertThat(first.capacityUnits()).isEqualTo(5.0);

		ConsumedCapacity moved = this.database.putItem(put.item(item("pk", s("a"), "sk", s("1"), "g", s("g2"), "l", s("l1"), "d", s(big))).build())
			.consumedCapacity();
		// a new global key moves the entry (a delete and a put); the local entry, which projects g, is rewritten in place
		assertThat(moved.globalSecondaryIndexes().get("byG").capacityUnits()).isEqualTo(2.0);
		assertThat(moved.localSecondaryIndexes().get("byL").capacityUnits()).isEqualTo(2.0);
		ConsumedCapacity same = this.database.putItem(put.item(item("pk", s("a"), "sk", s("1"), "g", s("g2"), "l", s("l1"), "d", s(big))).build())
			.consumedCapacity();
		// the same item again writes no index entry
		assertThat(same.globalSecondaryIndexes()).isEmpty();
		assertThat(same.localSecondaryIndexes()).isEmpty();

		ConsumedCapacity unindexed = this.database.putItem(put.item(item("pk", s("a"), "sk", s("1"), "d", s("small"))).build()).consumedCapacity();
		// both entries go: one delete each
		assertThat(unindexed.globalSecondaryIndexes().get("byG").capacityUnits()).isEqualTo(1.0);
		assertThat(unindexed.localSecondaryIndexes().get("byL").capacityUnits()).isEqualTo(2.0);
		assertValidation(() -> this.database.updateItem(UpdateItemRequest.builder().tableName("indexed").key(item("pk", s("a"), "sk", s("1")))
			.updateExpression("SET g = :n").expressionAttributeValues(Map.of(":n", n(1))).build()),
				"One or more parameter values were invalid: Type mismatch for Index Key g Expected: S Actual: N IndexName: byG");
		this.database.updateItem(UpdateItemRequest.builder().tableName("indexed").key(item("pk", s("a"), "sk", s("1")))
			.updateExpression("SET e = :n").expressionAttributeValues(Map.of(":n", n(1))).build());
		assertValidation(() -> this.database.updateItem(UpdateItemRequest.builder().tableName("indexed").key(item("pk", s("a"), "sk", s("1")))
			.updateExpression("SET g = e").build()), "The update expression attempted to update the secondary index key to unsupported type");
		assertValidation(() -> this.database.putItem(put.item(item("pk", s("a"), "sk", s("1"), "g", s(""))).build()),
				"One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a "
						+ "key attribute cannot contain an empty string value. IndexName: byG, IndexKey: g");
	}

	@Test
	void refusesToGrowAnItemCollectionBeyondItsBoundWhereALocalIndexExists() {
		try (Database bounded = new Database(DatabaseOptions.defaults().withItemCollectionLimitBytes(3000).withTimeToLiveSweep(Duration.ZERO))) {
			bounded.createTable(CreateTableRequest.builder().tableName("bounded")
				.attributeDefinitions(definition("pk", "S"), definition("sk", "N"), definition("l", "S"))
				.keySchema(hash("pk"), range("sk"))
				.billingMode(BillingMode.PAY_PER_REQUEST)
				.localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("byL").keySchema(hash("pk"), range("l"))
					.projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build()).build())
				.build());
			PutItemRequest.Builder put = PutItemRequest.builder().tableName("bounded");
			ItemCollectionMetrics metrics = bounded.putItem(put.item(item("pk", s("a"), "sk", n(1), "d", s("x".repeat(1000))))
				.returnItemCollectionMetrics("SIZE").build()).itemCollectionMetrics();
			assertThat(metrics.itemCollectionKey()).isEqualTo(item("pk", s("a")));
			assertThat(metrics.sizeEstimateRangeGB()).containsExactly(0.0, 1.0);
			bounded.putItem(put.item(item("pk", s("a"), "sk", n(2), "d", s("x".repeat(1000)))).returnItemCollectionMetrics("NONE").build());
			assertError(() -> bounded.putItem(put.item(item("pk", s("a"), "sk", n(3), "d", s("x".repeat(1000)))).build()),
					"ItemCollectionSizeLimitExceededException", "Collection size exceeded.");
			// another partition is another collection, and a smaller item in the full one still fits
			bounded.putItem(put.item(item("pk", s("b"), "sk", n(3), "d", s("x".repeat(1000)))).build());
			bounded.putItem(put.item(item("pk", s("a"), "sk", n(2), "d", s("x"))).build());
		}
	}

	@Test
	void tellsTheListenersOfEveryChangeAndNoneOfWritesThatChangeNothing() {
		List<ItemChange> heard = new ArrayList<>();
		this.database.addCommitListener(new CommitListener() {

			@Override
			public CompletableFuture<Void> committed(Instant time, List<ItemChange> changes) {
				heard.addAll(changes);
				return DONE;
			}

			@Override
			public CompletableFuture<Void> tableChanged(Instant time, TableDescription description, boolean deleted) {
				return DONE;
			}

		});
		Map<String, AttributeValue> key = item("pk", s("a"), "sk", n(1));
		Map<String, AttributeValue> one = item("pk", s("a"), "sk", n(1), "v", s("one"));
		this.database.putItem(put(one).build());
		this.database.putItem(put(item("sk", n(1), "v", s("one"), "pk", s("a"))).build());
		catchThrowableOfType(() -> this.database.putItem(put(one).conditionExpression("attribute_not_exists(pk)").build()), AwsError.class);
		this.database.updateItem(UpdateItemRequest.builder().tableName("things").key(key).updateExpression("SET v = :v")
			.expressionAttributeValues(Map.of(":v", s("two"))).build());
		this.database.deleteItem(DeleteItemRequest.builder().tableName("things").key(key).build());
		this.database.deleteItem(DeleteItemRequest.builder().tableName("things").key(key).build());

		assertThat(heard).hasSize(3);
		assertThat(heard.get(0)).isEqualTo(new ItemChange("things", key, null, one, false));
		assertThat(heard.get(1).oldImage()).isEqualTo(one);
		assertThat(heard.get(1).newImage()).containsEntry("v", s("two"));
		assertThat(heard.get(2).newImage()).isNull();
	}

	@Test
	void answersAnInternalErrorAndWritesNothingWhenAListenerFails() {
		this.database.addCommitListener(new CommitListener() {

			@Override
			public CompletableFuture<Void> committed(Instant time, List<ItemChange> changes) {
				throw new IllegalStateException("disk full");
			}

			@Override
			public CompletableFuture<Void> tableChanged(Instant time, TableDescription description, boolean deleted) {
				return DONE;
			}

		});
		assertError(() -> this.database.putItem(put(item("pk", s("a"), "sk", n(1))).build()), "InternalServerError",
				"The request processing has failed because of an unknown error, exception or failure.");
		assertThat(get(item("pk", s("a"), "sk", n(1)))).isNull();
	}

	@Test
	void checksLegacyConditionsToo() {
		PutItemRequest.Builder once = put(item("pk", s("a"), "sk", n(1)))
			.expected(Map.of("pk", ExpectedAttributeValue.builder().comparisonOperator(ComparisonOperator.NULL).build()));
		this.database.putItem(once.build());
		assertError(() -> this.database.putItem(once.build()), "ConditionalCheckFailedException", "The conditional request failed");
	}

	@Test
	void refusesExpressionsThatReachIntoKeys() {
		assertValidation(() -> this.database.getItem(GetItemRequest.builder().tableName("things").key(item("pk", s("a"), "sk", n(1)))
			.projectionExpression("pk.x").build()),
				"Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: pk");
		assertValidation(() -> this.database.updateItem(UpdateItemRequest.builder().tableName("things").key(item("pk", s("a"), "sk", n(1)))
			.updateExpression("SET v = :v").expressionAttributeValues(Map.of(":v", s("x"), ":w", s("y"))).build()),
				"Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}");
	}

}
