package dev.dynamorelay.command.iam;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.CommandOutput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * {@code generate-iam-policy} for the sample and for the shop schema: exactly the actions the server calls,
 * on exactly the tables and indexes it calls them on, from the declarations alone (no DynamoDB anywhere).
 */
class GenerateIamPolicyCommandTest {

	private static final String ARN = "arn:aws:dynamodb:eu-west-1:123456789012:table/";

	@Test
	void theSamplesPolicyGrantsItsConnectionsLookupsAndMutations() {
		CommandOutput output = run("--account", "123456789012", "--region", "eu-west-1", "--dynamo-relay.dynamodb.endpoint=aws");
		assertThat(output.code()).isZero();
		assertThat(statements(output.stdout())).containsExactly(
				entry("QueryConnections", List.of(List.of("dynamodb:Query"),
						List.of(ARN + "Movies", ARN + "UserPurchases", ARN + "UserPurchases/index/ByCategory"))),
				entry("ScanConnections", List.of(List.of("dynamodb:Scan"), List.of(ARN + "Users"))),
				entry("ReadItemsByKey", List.of(List.of("dynamodb:BatchGetItem"),
						List.of(ARN + "Movies", ARN + "UserPurchases", ARN + "Users"))),
				// The sample's declared mutations: createPurchase and addPurchase check that the user exists.
				entry("MutationsConditionCheckItem", List.of(List.of("dynamodb:ConditionCheckItem"), List.of(ARN + "Users"))),
				entry("MutationsDeleteItem", List.of(List.of("dynamodb:DeleteItem"), List.of(ARN + "UserPurchases"))),
				entry("MutationsPutItem", List.of(List.of("dynamodb:PutItem"), List.of(ARN + "UserPurchases"))),
				entry("MutationsUpdateItem", List.of(List.of("dynamodb:UpdateItem"), List.of(ARN + "UserPurchases"))),
				// purchaseChanges reads the purchases' stream.
				entry("ReadStreams", List.of(List.of("dynamodb:DescribeStream", "dynamodb:GetRecords",
						"dynamodb:GetShardIterator"), List.of(ARN + "UserPurchases/stream/*"))),
				entry("CheckTables", List.of(List.of("dynamodb:DescribeTable"),
						List.of(ARN + "Movies", ARN + "UserPurchases", ARN + "Users"))),
				entry("ListTables", List.of(List.of("dynamodb:ListTables"), List.of("*"))));
		// Against an endpoint the tables are only checked unless dynamo-relay.tables.create=true says otherwise.
		assertThat(output.stderr()).doesNotContain("tables.create").doesNotContain("sample data");
		JsonNode policy = JsonMapper.builder().build().readTree(output.stdout());
		assertThat(policy.get("Version").asString()).isEqualTo("2012-10-17");
		policy.get("Statement").forEach((statement) -> assertThat(statement.get("Effect").asString()).isEqualTo("Allow"));
	}

	@Test
	void tablesCreateTrueGrantsCreatingTheTablesOnAnyEndpoint() {
		CommandOutput output = run("--account", "123456789012", "--region", "eu-west-1", "--dynamo-relay.dynamodb.endpoint=aws",
				"--dynamo-relay.tables.create=true");
		assertThat(output.code()).isZero();
		assertThat(statements(output.stdout())).containsEntry("CreateTables",
				List.of(List.of("dynamodb:CreateTable", "dynamodb:UpdateTable"),
						List.of(ARN + "Movies", ARN + "UserPurchases", ARN + "Users")));
		assertThat(output.stderr()).contains("dynamo-relay.tables.create is true").doesNotContain("sample data");
	}

	@Test
	void anInstanceOfAFleetIsGrantedTheKinesisClientLibrarysCallsOnItsLeaseTables() {
		CommandOutput output = run("--account", "123456789012", "--region", "eu-west-1", "--dynamo-relay.dynamodb.endpoint=aws",
				"--dynamo-relay.live.broker=redis", "--dynamo-relay.live.fleet.lease-table=shop-leases");
		assertThat(output.code()).isZero();
		String arn = "arn:aws:dynamodb:eu-west-1:123456789012:table/";
		assertThat(statements(output.stdout())).containsEntry("FleetLeases", List.of(
				List.of("dynamodb:DeleteItem", "dynamodb:DescribeTable", "dynamodb:GetItem", "dynamodb:PutItem",
						"dynamodb:Scan", "dynamodb:UpdateItem"),
				List.of(arn + "shop-leases", arn + "shop-leases-CoordinatorState", arn + "shop-leases-WorkerMetricStats")))
			.containsEntry("FleetLeaseOwners", List.of(List.of("dynamodb:Query"),
					List.of(arn + "shop-leases/index/LeaseOwnerToLeaseKeyIndex")))
			.doesNotContainKey("CreateTables");
		assertThat(output.stderr()).contains("dynamo-relay.live.broker is redis").contains("shop-leases");
		CommandOutput alone = run("--account", "123456789012", "--region", "eu-west-1", "--dynamo-relay.dynamodb.endpoint=aws");
		assertThat(statements(alone.stdout())).doesNotContainKeys("FleetLeases", "FleetLeaseOwners");
		CommandOutput creating = run("--account", "123456789012", "--region", "eu-west-1",
				"--dynamo-relay.dynamodb.endpoint=aws", "--dynamo-relay.tables.create=true", "--dynamo-relay.live.broker=REDIS");
		assertThat(statements(creating.stdout()).get("FleetLeases").get(0)).contains("dynamodb:CreateTable",
				"dynamodb:UpdateTable");
	}

	@Test
	void theEmbeddedSampleLoadsItsDataSoItsPolicyWritesItsTables() {
		CommandOutput output = run("--account=123456789012", "--region=eu-west-1", "--dynamo-relay.tables.create=false");
		assertThat(output.code()).isZero();
		assertThat(statements(output.stdout())).containsEntry("SampleDataLoad",
				List.of(List.of("dynamodb:BatchWriteItem", "dynamodb:Scan"),
						List.of(ARN + "Movies", ARN + "UserPurchases", ARN + "Users")))
			.doesNotContainKey("CreateTables");
		assertThat(output.stderr()).contains("the sample data is loaded at start").doesNotContain("tables.create is true");
	}

	@Test
	void theShopsPolicyNamesItsPrefixedTablesAndIndexesAndNoWrites() {
		CommandOutput output = run("--account", "123456789012", "--region", "eu-west-1",
				"--dynamo-relay.schema.locations=classpath:shop/", "--dynamo-relay.tables.prefix=Shop_",
				"--dynamo-relay.tables.create=false");
		assertThat(output.code()).isZero();
		assertThat(statements(output.stdout())).containsExactly(
				entry("QueryConnections", List.of(List.of("dynamodb:Query"), List.of(ARN + "Shop_Readings",
						ARN + "Shop_Shop", ARN + "Shop_Shop/index/ByTotal", ARN + "Shop_Shop/index/GSI1"))),
				entry("ScanConnections", List.of(List.of("dynamodb:Scan"), List.of(ARN + "Shop_Shop"))),
				entry("ReadItemsByKey", List.of(List.of("dynamodb:BatchGetItem"),
						List.of(ARN + "Shop_Readings", ARN + "Shop_Shop"))),
				entry("CheckTables", List.of(List.of("dynamodb:DescribeTable"),
						List.of(ARN + "Shop_Readings", ARN + "Shop_Shop"))),
				entry("ListTables", List.of(List.of("dynamodb:ListTables"), List.of("*"))));
		assertThat(output.stderr()).isEmpty();
	}

	@Test
	void aMissingOrMalformedAccountOrRegionIsAUsageMistake() {
		assertUsage(run("--region", "eu-west-1"), "--account is missing.");
		assertUsage(run("--account", "12345", "--region", "eu-west-1"),
				"--account `12345` is not a 12-digit AWS account id.");
		assertUsage(run("--account", "123456789012"), "--region is missing.");
		assertUsage(run("--account", "123456789012", "--region", "Europe"),
				"--region `Europe` is not an AWS region (like us-east-1).");
		assertUsage(run("--account", "--region", "eu-west-1"), "`--account` needs a value.");
		assertUsage(run("--account", "123456789012", "--region", "eu-west-1", "policy.json"),
				"`policy.json` is not an option");
	}

	@Test
	void unreadableDeclarationsFailInOneParagraph() {
		CommandOutput output = run("--account", "123456789012", "--region", "eu-west-1",
				"--dynamo-relay.schema.locations=does-not-exist/");
		assertThat(output.code()).isEqualTo(1);
		assertThat(output.stdout()).isEmpty();
		assertThat(output.stderr()).startsWith("generate-iam-policy failed: The schema files cannot be found")
			.doesNotContain("\tat ");
	}

	private static void assertUsage(CommandOutput output, String problem) {
		assertThat(output.code()).isEqualTo(2);
		assertThat(output.stdout()).isEmpty();
		assertThat(output.stderr()).startsWith("generate-iam-policy: " + problem).contains("Usage: ");
		assertThat(output.stderr().strip()).doesNotContain("\n");
	}

	/** Each statement's actions and resources by its Sid, in order. */
	private static Map<String, List<List<String>>> statements(String policy) {
		Map<String, List<List<String>>> statements = new LinkedHashMap<>();
		for (JsonNode statement : JsonMapper.builder().build().readTree(policy).get("Statement")) {
			statements.put(statement.get("Sid").asString(),
					List.of(strings(statement.get("Action")), strings(statement.get("Resource"))));
		}
		return statements;
	}

	private static List<String> strings(JsonNode array) {
		List<String> strings = new ArrayList<>();
		array.forEach((element) -> strings.add(element.asString()));
		return strings;
	}

	private static CommandOutput run(String... args) {
		return CommandOutput.run(GenerateIamPolicyCommand::run, args);
	}

}
