package dev.dynamorelay.dynamodb.tables;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.BillingModeSummary;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.Table.Index;
import dev.dynamorelay.model.Table;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.TableMismatch;
import dev.dynamorelay.schema.Problem;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table as DynamoDB describes it, compared with its declaration: each difference in keys, key types and
 * indexes is a problem at the declaration that says what to change, and a missing global index comes with
 * the command that adds it.
 */
class TableSetupTest {

	private static final Location TABLE_AT = new Location("shop.graphqls", 4, 10);

	private static final Location INDEX_AT = new Location("shop.graphqls", 9, 3);

	private static final Index BY_STATUS = new Index("ByStatus", true, KeyAttribute.string("status"),
			Optional.of(KeyAttribute.number("orderedAt")), INDEX_AT);

	private static final Table ORDERS = new Table("Orders", "Shop_Orders", KeyAttribute.string("userId"),
			Optional.of(KeyAttribute.number("orderedAt")), Map.of("ByStatus", BY_STATUS), Optional.empty(), TABLE_AT);

	private static final AwsCli CLI = new AwsCli(Optional.of("http://localhost:8000"));

	@Test
	void aTableAsDeclaredHasNoProblem() {
		assertThat(compare(ORDERS, described().build())).isEmpty();
	}

	@Test
	void anotherPartitionKeyIsReportedWithTheDeclarationThatMatches() {
		TableDescription described = described().keySchema(key("customerId", KeyType.HASH), key("orderedAt", KeyType.RANGE))
			.attributeDefinitions(attribute("customerId", ScalarAttributeType.S), attribute("orderedAt", ScalarAttributeType.N),
					attribute("status", ScalarAttributeType.S))
			.build();
		assertThat(compare(ORDERS, described)).containsExactly(new TableMismatch(TABLE_AT,
				"table `Shop_Orders` has partition key `customerId`, not `userId`: declare `partitionKey: \"customerId\"`."));
	}

	@Test
	void aSortKeyStoredAsAnotherTypeIsReportedWithHowToDeclareIt() {
		TableDescription described = described()
			.attributeDefinitions(attribute("userId", ScalarAttributeType.S), attribute("orderedAt", ScalarAttributeType.S),
					attribute("status", ScalarAttributeType.S))
			.build();
		List<Problem> problems = compare(ORDERS, described);
		assertThat(problems).hasSize(2);
		assertThat(problems.get(0).location()).isEqualTo(TABLE_AT);
		assertThat(problems.get(0).message()).startsWith("table `Shop_Orders` stores sort key `orderedAt` as S, but the "
				+ "declarations make it N: declare its field with a type stored as S (String or ID: S;");
		assertThat(problems.get(1).location()).isEqualTo(INDEX_AT);
		assertThat(problems.get(1).message()).startsWith("index `ByStatus` of `Shop_Orders` stores sort key `orderedAt` as S");
	}

	@Test
	void aTableWithoutTheDeclaredSortKeyIsToldToDropIt() {
		Table table = new Table("Users", "Users", KeyAttribute.string("id"), Optional.of(KeyAttribute.string("sk")), Map.of(),
				Optional.empty(), TABLE_AT);
		TableDescription described = TableDescription.builder().tableName("Users").keySchema(key("id", KeyType.HASH))
			.attributeDefinitions(attribute("id", ScalarAttributeType.S)).build();
		assertThat(compare(table, described)).extracting(Problem::message)
			.containsExactly("table `Users` has no sort key, but `sk` is declared: remove it.");
	}

	@Test
	void aMissingGlobalIndexIsReportedWithTheCommandThatAddsIt() {
		TableDescription described = described().globalSecondaryIndexes(List.of()).build();
		assertThat(compare(ORDERS, described)).containsExactly(new TableMismatch(INDEX_AT,
				"table `Shop_Orders` has no global index `ByStatus`: add it (" + CLI.addIndex(BY_STATUS, described)
						+ "), or start with dynamo-relay.tables.create=true to have it added."));
	}

	@Test
	void anIndexDeclaredGlobalThatIsLocalSaysWhichDirectiveToUse() {
		TableDescription described = described().globalSecondaryIndexes(List.of())
			.localSecondaryIndexes(LocalSecondaryIndexDescription.builder().indexName("ByStatus")
				.keySchema(key("userId", KeyType.HASH), key("status", KeyType.RANGE)).build())
			.build();
		assertThat(compare(ORDERS, described)).extracting(Problem::message)
			.containsExactly("`ByStatus` of table `Shop_Orders` is a local index: declare it with `@localIndex`.");
	}

	@Test
	void aMissingLocalIndexCannotBeAdded() {
		Index byAmount = new Index("ByAmount", false, KeyAttribute.string("userId"), Optional.of(KeyAttribute.number("amount")),
				INDEX_AT);
		Table table = new Table("Orders", "Shop_Orders", KeyAttribute.string("userId"),
				Optional.of(KeyAttribute.number("orderedAt")), Map.of("ByAmount", byAmount), Optional.empty(), TABLE_AT);
		assertThat(compare(table, described().build())).extracting(Problem::message)
			.containsExactly("table `Shop_Orders` has no local index `ByAmount`: local indexes exist only from a table's "
					+ "creation; recreate the table or remove the declaration.");
	}

	@Test
	void aGlobalIndexIsNamedByItsTableAndItsName() {
		assertThat(TableSetup.indexKey("Shop_Orders", "ByStatus")).isEqualTo("Shop_Orders/ByStatus");
	}

	private static List<Problem> compare(Table table, TableDescription described) {
		List<Problem> problems = new ArrayList<>();
		TableSetup.compare(table, described, CLI, problems);
		return problems;
	}

	/** {@code Shop_Orders} as declared, on demand. */
	private static TableDescription.Builder described() {
		return TableDescription.builder()
			.tableName("Shop_Orders")
			.billingModeSummary(BillingModeSummary.builder().billingMode(BillingMode.PAY_PER_REQUEST).build())
			.keySchema(key("userId", KeyType.HASH), key("orderedAt", KeyType.RANGE))
			.attributeDefinitions(attribute("userId", ScalarAttributeType.S), attribute("orderedAt", ScalarAttributeType.N),
					attribute("status", ScalarAttributeType.S))
			.globalSecondaryIndexes(GlobalSecondaryIndexDescription.builder().indexName("ByStatus")
				.keySchema(key("status", KeyType.HASH), key("orderedAt", KeyType.RANGE)).build());
	}

	private static KeySchemaElement key(String name, KeyType type) {
		return KeySchemaElement.builder().attributeName(name).keyType(type).build();
	}

	private static AttributeDefinition attribute(String name, ScalarAttributeType type) {
		return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
	}

}
