package dev.dynamorelay.engine.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import static dev.dynamorelay.engine.store.Fixtures.assertError;
import static dev.dynamorelay.engine.store.Fixtures.assertValidation;
import static dev.dynamorelay.engine.store.Fixtures.definition;
import static dev.dynamorelay.engine.store.Fixtures.hash;
import static dev.dynamorelay.engine.store.Fixtures.item;
import static dev.dynamorelay.engine.store.Fixtures.range;
import static dev.dynamorelay.engine.store.Fixtures.s;
import static dev.dynamorelay.engine.store.Fixtures.throughput;
import static org.assertj.core.api.Assertions.assertThat;

/** CreateTable's checks and messages (dynalite's test/createTable.js, written against DynamoDB) and its answer. */
class CreateTableTest {

	private final Database database = Fixtures.database();

	@AfterEach
	void close() {
		this.database.close();
	}

	private CreateTableRequest.Builder valid() {
		return CreateTableRequest.builder()
			.tableName("abc")
			.attributeDefinitions(definition("a", "S"), definition("b", "S"))
			.keySchema(hash("a"), range("b"))
			.provisionedThroughput(throughput(1, 1));
	}

	private void create(CreateTableRequest.Builder request) {
		this.database.createTable(request.build());
	}

	@Test
	void refusesARequestWithoutTableName() {
		assertValidation(() -> create(CreateTableRequest.builder()), "The parameter 'TableName' is required but was not present in the request");
	}

	@Test
	void refusesATableNameOutside3To255Characters() {
		for (String name : List.of("", "a;", "a".repeat(256))) {
			assertValidation(() -> create(CreateTableRequest.builder().tableName(name)),
					"TableName must be at least 3 characters long and at most 255 characters long");
		}
	}

	@Test
	void gathersEveryConstraintFailureInOneMessage() {
		assertValidation(() -> create(CreateTableRequest.builder().tableName("abc;")), "3 validation errors detected: "
				+ "Value null at 'attributeDefinitions' failed to satisfy constraint: Member must not be null; "
				+ "Value 'abc;' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; "
				+ "Value null at 'keySchema' failed to satisfy constraint: Member must not be null");
		assertValidation(() -> create(CreateTableRequest.builder().tableName("abc").attributeDefinitions(List.of()).keySchema(List.of())
			.provisionedThroughput(throughput(-1, -1)).billingMode("A")), "4 validation errors detected: "
					+ "Value 'A' at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]; "
					+ "Value '-1' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1; "
					+ "Value '-1' at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1; "
					+ "Value '[]' at 'keySchema' failed to satisfy constraint: Member must have length greater than or equal to 1");
	}

	@Test
	void printsTheMembersOfAListAsDynamoDbDoes() {
		assertValidation(() -> create(valid().keySchema(hash("a"), range("b"), range("c"))), "1 validation error detected: Value '["
				+ "KeySchemaElement(attributeName=a, keyType=HASH), KeySchemaElement(attributeName=b, keyType=RANGE), "
				+ "KeySchemaElement(attributeName=c, keyType=RANGE)]' at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2");
	}

	@Test
	void refusesAnAttributeTypeThatIsNotAKeyType() {
		assertValidation(() -> create(valid().attributeDefinitions(definition("b", "SS"))), "1 validation error detected: "
				+ "Value 'SS' at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]");
	}

	@Test
	void stopsAtTenConstraintFailures() {
		List<LocalSecondaryIndex> empty = new ArrayList<>();
		for (int i = 0; i < 9; i++) {
			empty.add(LocalSecondaryIndex.builder().build());
		}
		assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> create(valid().localSecondaryIndexes(empty))))
			.hasMessageStartingWith("10 validation errors detected: Value null at 'localSecondaryIndexes.1.member.indexName'")
			.hasMessageEndingWith("Value null at 'localSecondaryIndexes.4.member.indexName' failed to satisfy constraint: Member must not be null");
	}

	@Test
	void refusesProvisionedBillingWithoutThroughputAndThroughputWithPayPerRequest() {
		assertValidation(() -> create(valid().provisionedThroughput((software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput) null)),
				"One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
		assertValidation(() -> create(valid().billingMode(BillingMode.PAY_PER_REQUEST)), "One or more parameter values were invalid: "
				+ "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
		assertValidation(() -> create(valid().provisionedThroughput(throughput(1_000_000_000_001L, 1_000_000_000_001L))),
				"Given value 1000000000001 for ReadCapacityUnits is out of bounds");
		assertValidation(() -> create(valid().provisionedThroughput(throughput(1_000_000_000_000L, 1_000_000_000_001L))),
				"Given value 1000000000001 for WriteCapacityUnits is out of bounds");
	}

	@Test
	void refusesKeysWithoutDefinitions() {
		assertValidation(() -> create(valid().attributeDefinitions(definition("a", "S")).keySchema(hash("a"), range("b"))),
				"Invalid KeySchema: Some index key attribute have no definition");
		assertValidation(() -> create(valid().attributeDefinitions(definition("b", "S")).keySchema(hash("a"))),
				"One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. "
						+ "Keys: [a], AttributeDefinitions: [b]");
	}

	@Test
	void refusesKeySchemasOutOfShape() {
		assertValidation(() -> create(valid().keySchema(hash("a"), hash("a"))),
				"Both the Hash Key and the Range Key element in the KeySchema have the same name");
		assertValidation(() -> create(valid().keySchema(hash("a"), hash("b"))),
				"Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
		assertValidation(() -> create(valid().keySchema(range("a"), hash("b"))),
				"Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
	}

	@Test
	void refusesDefinitionsNoKeyUses() {
		assertValidation(() -> create(valid().attributeDefinitions(definition("a", "S"), definition("b", "S")).keySchema(hash("a"))),
				"One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes "
						+ "defined in AttributeDefinitions");
		assertValidation(() -> create(valid().attributeDefinitions(definition("a", "S"), definition("b", "S"), definition("c", "S"), definition("d", "S"))
			.globalSecondaryIndexes(gsi("gs1", "c", ProjectionType.ALL))),
				"One or more parameter values were invalid: Some AttributeDefinitions are not used. AttributeDefinitions: [a, b, c, d], keys used: [a, b, c]");
	}

	private static LocalSecondaryIndex lsi(String name, KeySchemaElement... keys) {
		return LocalSecondaryIndex.builder().indexName(name).keySchema(keys).projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build();
	}

	private static GlobalSecondaryIndex gsi(String name, String hash, ProjectionType projection) {
		return GlobalSecondaryIndex.builder().indexName(name).keySchema(hash(hash))
			.projection(Projection.builder().projectionType(projection).build()).provisionedThroughput(throughput(1, 1)).build();
	}

	@Test
	void refusesLocalIndexesDynamoDbCannotBuild() {
		CreateTableRequest.Builder withC = valid().attributeDefinitions(definition("a", "S"), definition("b", "S"), definition("c", "S"));
		assertValidation(() -> create(withC.keySchema(hash("a")).localSecondaryIndexes(lsi("abc", hash("a"), range("c")))),
				"One or more parameter values were invalid: Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex");
		assertValidation(() -> create(valid().localSecondaryIndexes(List.of())),
				"One or more parameter values were invalid: List of LocalSecondaryIndexes is empty");
		assertValidation(() -> create(valid().localSecondaryIndexes(lsi("abc", hash("b")))),
				"One or more parameter values were invalid: Index KeySchema does not have a range key for index: abc");
		assertValidation(() -> create(valid().localSecondaryIndexes(lsi("abc", hash("b"), range("a")))),
				"One or more parameter values were invalid: Index KeySchema does not have the same leading hash key as table KeySchema for index: "
						+ "abc. index hash key: b, table hash key: a");
		assertValidation(() -> create(valid().localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("abc").keySchema(hash("a"), range("b"))
			.projection(Projection.builder().build()).build())), "One or more parameter values were invalid: Unknown ProjectionType: null");
		assertValidation(() -> create(valid().localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("abc").keySchema(hash("a"), range("b"))
			.projection(Projection.builder().projectionType(ProjectionType.ALL).nonKeyAttributes("a").build()).build())),
				"One or more parameter values were invalid: ProjectionType is ALL, but NonKeyAttributes is specified");
		assertValidation(() -> create(valid().localSecondaryIndexes(lsi("abc", hash("a"), range("b")), lsi("abc", hash("a"), range("b")))),
				"One or more parameter values were invalid: Duplicate index name: abc");
		List<LocalSecondaryIndex> six = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			six.add(lsi("ab" + i, hash("a"), range("b")));
		}
		assertValidation(() -> create(valid().localSecondaryIndexes(six)),
				"One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of 5");
	}

	@Test
	void refusesGlobalIndexesDynamoDbCannotBuild() {
		List<GlobalSecondaryIndex> many = new ArrayList<>();
		for (int i = 0; i < 21; i++) {
			many.add(gsi("ab" + i, "b", ProjectionType.ALL));
		}
		assertValidation(() -> create(valid().globalSecondaryIndexes(many)),
				"One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20");
		assertValidation(() -> create(valid().provisionedThroughput((software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput) null)
			.billingMode(BillingMode.PAY_PER_REQUEST).globalSecondaryIndexes(gsi("abd", "b", ProjectionType.ALL))),
				"One or more parameter values were invalid: ProvisionedThroughput should not be specified for index: abd when BillingMode is PAY_PER_REQUEST");
		assertValidation(() -> create(valid().globalSecondaryIndexes(gsi("abc", "b", ProjectionType.ALL)).localSecondaryIndexes(lsi("abc", hash("a"), range("b")))),
				"One or more parameter values were invalid: Duplicate index name: abc");
	}

	@Test
	void answersCreatingAndDescribesTheTableAsDynamoDbDoes() {
		TableDescription created = this.database.createTable(valid().build()).tableDescription();

		assertThat(created.tableStatusAsString()).isEqualTo("CREATING");
		assertThat(created.tableArn()).isEqualTo("arn:aws:dynamodb:us-east-1:000000000000:table/abc");
		assertThat(created.tableId()).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}");
		assertThat(created.itemCount()).isZero();
		assertThat(created.tableSizeBytes()).isZero();
		assertThat(created.provisionedThroughput().readCapacityUnits()).isEqualTo(1);
		assertThat(created.provisionedThroughput().numberOfDecreasesToday()).isZero();
		assertThat(created.billingModeSummary()).isNull();
		TableDescription described = this.database.describeTable(DescribeTableRequest.builder().tableName("abc").build()).table();
		assertThat(described.tableStatusAsString()).isEqualTo("ACTIVE");
		assertThat(described.keySchema()).containsExactly(hash("a"), range("b"));
	}

	@Test
	void describesAPayPerRequestTableWithZeroThroughputAndItsIndexesAndStream() {
		TableDescription created = this.database.createTable(CreateTableRequest.builder()
			.tableName("ppr")
			.attributeDefinitions(definition("a", "S"), definition("b", "N"), definition("c", "S"))
			.keySchema(hash("a"), range("b"))
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.localSecondaryIndexes(lsi("local", hash("a"), range("c")))
			.globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("global").keySchema(hash("c"))
				.projection(Projection.builder().projectionType(ProjectionType.INCLUDE).nonKeyAttributes("x").build()).build())
			.streamSpecification(StreamSpecification.builder().streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES).build())
			.build()).tableDescription();

		assertThat(created.billingModeSummary().billingModeAsString()).isEqualTo("PAY_PER_REQUEST");
		assertThat(created.provisionedThroughput().readCapacityUnits()).isZero();
		assertThat(created.provisionedThroughput().writeCapacityUnits()).isZero();
		GlobalSecondaryIndexDescription global = created.globalSecondaryIndexes().get(0);
		assertThat(global.indexStatusAsString()).isEqualTo("CREATING");
		assertThat(global.indexArn()).isEqualTo("arn:aws:dynamodb:us-east-1:000000000000:table/ppr/index/global");
		assertThat(global.provisionedThroughput().readCapacityUnits()).isZero();
		assertThat(global.projection().nonKeyAttributes()).containsExactly("x");
		assertThat(created.localSecondaryIndexes().get(0).indexArn()).isEqualTo("arn:aws:dynamodb:us-east-1:000000000000:table/ppr/index/local");
		assertThat(created.streamSpecification().streamViewTypeAsString()).isEqualTo("NEW_AND_OLD_IMAGES");
		assertThat(created.latestStreamArn()).isEqualTo(created.tableArn() + "/stream/" + created.latestStreamLabel());
		assertThat(created.latestStreamLabel()).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}");
		TableDescription described = this.database.describeTable(DescribeTableRequest.builder().tableName("ppr").build()).table();
		assertThat(described.globalSecondaryIndexes().get(0).indexStatusAsString()).isEqualTo("ACTIVE");
		assertThat(described.billingModeSummary().lastUpdateToPayPerRequestDateTime()).isEqualTo(described.creationDateTime());
	}

	@Test
	void refusesATableThatExists() {
		create(valid());
		assertError(() -> create(valid()), "ResourceInUseException", "Table already exists: abc");
	}

	@Test
	void keepsANewTableCreatingForTheConfiguredDelay() {
		try (Database slow = new Database(DatabaseOptions.defaults().withTableStatusDelay(Duration.ofHours(1)).withTimeToLiveSweep(Duration.ZERO))) {
			slow.createTable(valid().build());
			assertThat(slow.describeTable(DescribeTableRequest.builder().tableName("abc").build()).table().tableStatusAsString()).isEqualTo("CREATING");
			assertError(() -> slow.getItem(GetItemRequest.builder().tableName("abc").key(item("a", s("x"), "b", s("y"))).build()),
					"ResourceNotFoundException", "Requested resource not found");
		}
	}

	@Test
	void namesItsRegionInArns() {
		try (Database other = new Database(DatabaseOptions.defaults().withRegion("eu-west-3").withTimeToLiveSweep(Duration.ZERO))) {
			assertThat(other.createTable(valid().build()).tableDescription().tableArn()).isEqualTo("arn:aws:dynamodb:eu-west-3:000000000000:table/abc");
		}
		// whatever region a call is signed for
		String arn = dev.dynamorelay.engine.action.RequestContext.call("ap-south-1",
				() -> this.database.createTable(valid().tableName("signed").build()).tableDescription().tableArn());
		assertThat(arn).isEqualTo("arn:aws:dynamodb:us-east-1:000000000000:table/signed");
	}

}
