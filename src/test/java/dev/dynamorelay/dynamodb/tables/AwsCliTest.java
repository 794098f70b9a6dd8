package dev.dynamorelay.dynamodb.tables;

import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.BillingModeSummary;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputDescription;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.Table.Index;
import dev.dynamorelay.model.Table;
import dev.dynamorelay.schema.Location;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code aws dynamodb} commands a start that only checks the tables prints: one line a shell runs as it
 * is, the same every time, with {@code --endpoint-url} when DynamoDB is not AWS's own.
 */
class AwsCliTest {

	private static final Location AT = new Location("shop.graphqls", 3, 7);

	private static final Index BY_STATUS = new Index("ByStatus", true, KeyAttribute.string("status"),
			Optional.of(KeyAttribute.number("orderedAt")), AT);

	private static final Index BY_AMOUNT = new Index("ByAmount", false, KeyAttribute.string("userId"),
			Optional.of(KeyAttribute.number("amount")), AT);

	private static final Index BY_CUSTOMER = new Index("ByCustomer", true, KeyAttribute.string("customerId"),
			Optional.empty(), AT);

	private static final Table ORDERS = new Table("Orders", "Shop_Orders", KeyAttribute.string("userId"),
			Optional.of(KeyAttribute.number("orderedAt")), Map.of("ByStatus", BY_STATUS), Optional.empty(), AT);

	@Test
	void aLiveTableWithAGlobalIndexIsCreatedWithItsIndexItsStreamAndTheEndpoint() {
		AwsCli cli = new AwsCli(Optional.of("http://localhost:8000"));
		assertThat(cli.createTable(ORDERS, true)).isEqualTo("aws dynamodb create-table --table-name Shop_Orders "
				+ "--attribute-definitions AttributeName=userId,AttributeType=S AttributeName=orderedAt,AttributeType=N "
				+ "AttributeName=status,AttributeType=S "
				+ "--key-schema AttributeName=userId,KeyType=HASH AttributeName=orderedAt,KeyType=RANGE "
				+ "--billing-mode PAY_PER_REQUEST "
				+ "--global-secondary-indexes '[{\"IndexName\":\"ByStatus\",\"KeySchema\":[{\"AttributeName\":\"status\","
				+ "\"KeyType\":\"HASH\"},{\"AttributeName\":\"orderedAt\",\"KeyType\":\"RANGE\"}],"
				+ "\"Projection\":{\"ProjectionType\":\"ALL\"}}]' "
				+ "--stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES "
				+ "--endpoint-url http://localhost:8000");
	}

	@Test
	void awsOwnDynamoDbGetsNoEndpointAndATableNoLiveConnectionReadsGetsNoStream() {
		Table plain = new Table("Users", "Users", KeyAttribute.string("id"), Optional.empty(), Map.of(), Optional.empty(),
				AT);
		assertThat(new AwsCli(Optional.empty()).createTable(plain, false)).isEqualTo("aws dynamodb create-table "
				+ "--table-name Users --attribute-definitions AttributeName=id,AttributeType=S "
				+ "--key-schema AttributeName=id,KeyType=HASH --billing-mode PAY_PER_REQUEST");
	}

	@Test
	void indexesAreListedByNameLocalOnesApartAndEachKeyAttributeDefinedOnce() {
		Table table = new Table("Orders", "Orders", KeyAttribute.string("userId"),
				Optional.of(KeyAttribute.number("orderedAt")),
				Map.of("ByStatus", BY_STATUS, "ByAmount", BY_AMOUNT, "ByCustomer", BY_CUSTOMER), Optional.empty(), AT);
		String command = new AwsCli(Optional.empty()).createTable(table, false);
		assertThat(command).contains("--attribute-definitions AttributeName=userId,AttributeType=S "
				+ "AttributeName=orderedAt,AttributeType=N AttributeName=amount,AttributeType=N "
				+ "AttributeName=customerId,AttributeType=S AttributeName=status,AttributeType=S --key-schema");
		assertThat(command).contains("--global-secondary-indexes '[{\"IndexName\":\"ByCustomer\",\"KeySchema\":"
				+ "[{\"AttributeName\":\"customerId\",\"KeyType\":\"HASH\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}},"
				+ "{\"IndexName\":\"ByStatus\",");
		assertThat(command).endsWith("--local-secondary-indexes '[{\"IndexName\":\"ByAmount\",\"KeySchema\":"
				+ "[{\"AttributeName\":\"userId\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"amount\",\"KeyType\":\"RANGE\"}],"
				+ "\"Projection\":{\"ProjectionType\":\"ALL\"}}]'");
		assertThat(new AwsCli(Optional.empty()).createTable(table, false)).as("the same every time").isEqualTo(command);
	}

	@Test
	void anIndexAddedToAProvisionedTableGetsTheTableOwnThroughput() {
		TableDescription provisioned = TableDescription.builder()
			.tableName("Shop_Orders")
			.provisionedThroughput(ProvisionedThroughputDescription.builder().readCapacityUnits(5L).writeCapacityUnits(3L).build())
			.build();
		assertThat(new AwsCli(Optional.empty()).addIndex(BY_STATUS, provisioned)).isEqualTo("aws dynamodb update-table "
				+ "--table-name Shop_Orders --attribute-definitions AttributeName=status,AttributeType=S "
				+ "AttributeName=orderedAt,AttributeType=N --global-secondary-index-updates '[{\"Create\":{\"IndexName\":"
				+ "\"ByStatus\",\"KeySchema\":[{\"AttributeName\":\"status\",\"KeyType\":\"HASH\"},{\"AttributeName\":"
				+ "\"orderedAt\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"ALL\"},\"ProvisionedThroughput\":"
				+ "{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":3}}}]'");
	}

	@Test
	void anIndexAddedToAnOnDemandTableGetsNoThroughput() {
		TableDescription onDemand = TableDescription.builder()
			.tableName("Shop_Orders")
			.billingModeSummary(BillingModeSummary.builder().billingMode(BillingMode.PAY_PER_REQUEST).build())
			.provisionedThroughput(ProvisionedThroughputDescription.builder().readCapacityUnits(0L).writeCapacityUnits(0L).build())
			.build();
		String command = new AwsCli(Optional.of("http://127.0.0.1:8000")).addIndex(BY_CUSTOMER, onDemand);
		assertThat(command).isEqualTo("aws dynamodb update-table --table-name Shop_Orders --attribute-definitions "
				+ "AttributeName=customerId,AttributeType=S --global-secondary-index-updates '[{\"Create\":{\"IndexName\":"
				+ "\"ByCustomer\",\"KeySchema\":[{\"AttributeName\":\"customerId\",\"KeyType\":\"HASH\"}],\"Projection\":"
				+ "{\"ProjectionType\":\"ALL\"}}}]' --endpoint-url http://127.0.0.1:8000");
	}

	@Test
	void aStreamIsEnabledWithNewAndOldImagesAndAWordAShellWouldSplitIsQuoted() {
		assertThat(new AwsCli(Optional.empty()).enableStream("Shop_Orders")).isEqualTo("aws dynamodb update-table "
				+ "--table-name Shop_Orders --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES");
		assertThat(new AwsCli(Optional.of("http://host:8000/it's here")).enableStream("Orders"))
			.endsWith("--endpoint-url 'http://host:8000/it'\\''s here'");
	}

}
