package dev.dynamorelay.engine.wire;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.dynamorelay.engine.DynamoDbEngine;
import dev.dynamorelay.engine.EngineOptions;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The engine as assembled (the store's operations and the streams fed by its commits), through the AWS SDK v2's
 * synchronous CRT client, its asynchronous Netty client and its Streams client. (Expressions reach the store
 * once engine.expr is bridged to it; until then the failed condition and the cancelled transaction are read
 * from the tests' own operations, in SdkClientsTest.)
 */
class EngineOperationsTest {

	private static DynamoDbEngine engine;

	private static DynamoDbClient sync;

	private static DynamoDbAsyncClient async;

	@BeforeAll
	static void start() {
		engine = DynamoDbEngine.start(EngineOptions.defaults().withRegion("eu-west-1"));
		sync = Clients.crt(engine.endpoint(), (o) -> o.retryStrategy((r) -> r.maxAttempts(1)));
		async = Clients.netty(engine.endpoint(), (o) -> o.retryStrategy((r) -> r.maxAttempts(1)));
		sync.createTable((table) -> table.tableName("Purchases")
			.attributeDefinitions((a) -> a.attributeName("userId").attributeType("S"),
					(a) -> a.attributeName("at").attributeType("N"))
			.keySchema((k) -> k.attributeName("userId").keyType("HASH"), (k) -> k.attributeName("at").keyType("RANGE"))
			.billingMode("PAY_PER_REQUEST")
			.streamSpecification((s) -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
	}

	@AfterAll
	static void stop() {
		sync.close();
		async.close();
		engine.close();
	}

	private static Map<String, AttributeValue> purchase(String user, int at, String amount) {
		return Map.of("userId", AttributeValue.fromS(user), "at", AttributeValue.fromN(Integer.toString(at)), "amount",
				AttributeValue.fromN(amount));
	}

	@Test
	void describesItsTables() {
		TableDescription table = sync.describeTable((request) -> request.tableName("Purchases")).table();
		assertThat(table.tableArn()).isEqualTo("arn:aws:dynamodb:eu-west-1:000000000000:table/Purchases");
		assertThat(table.keySchema()).hasSize(2);
		assertThat(table.creationDateTime()).isNotNull();
		assertThat(table.latestStreamArn()).startsWith(table.tableArn() + "/stream/");
		assertThat(sync.listTables().tableNames()).contains("Purchases");
	}

	@Test
	void writesAndReadsItemsWithBothClients() {
		sync.putItem((request) -> request.tableName("Purchases").item(purchase("ann", 1, "10.5")));
		async.putItem((request) -> request.tableName("Purchases").item(purchase("ann", 2, "20"))).join();
		assertThat(async.getItem((request) -> request.tableName("Purchases")
			.key(Map.of("userId", AttributeValue.fromS("ann"), "at", AttributeValue.fromN("1")))).join().item())
			.isEqualTo(purchase("ann", 1, "10.5"));
		ScanResponse page = sync.scan((request) -> request.tableName("Purchases").limit(1));
		assertThat(page.items()).hasSize(1);
		assertThat(page.count()).isEqualTo(1);
		assertThat(page.scannedCount()).isEqualTo(1);
		assertThat(page.lastEvaluatedKey()).containsOnlyKeys("userId", "at");
		Map<String, AttributeValue> deleted = async.deleteItem((request) -> request.tableName("Purchases")
			.key(Map.of("userId", AttributeValue.fromS("ann"), "at", AttributeValue.fromN("2")))
			.returnValues(ReturnValue.ALL_OLD)).join().attributes();
		assertThat(deleted).isEqualTo(purchase("ann", 2, "20"));
	}

	@Test
	void writesAndReadsInBatches() {
		sync.batchWriteItem((request) -> request.requestItems(Map.of("Purchases", List.of(
				WriteRequest.builder().putRequest((put) -> put.item(purchase("dan", 1, "1"))).build(),
				WriteRequest.builder().putRequest((put) -> put.item(purchase("dan", 2, "2"))).build()))));
		BatchGetItemResponse got = async.batchGetItem((request) -> request.requestItems(Map.of("Purchases",
				KeysAndAttributes.builder().keys(
						Map.of("userId", AttributeValue.fromS("dan"), "at", AttributeValue.fromN("1")),
						Map.of("userId", AttributeValue.fromS("dan"), "at", AttributeValue.fromN("3"))).build())))
			.join();
		assertThat(got.responses().get("Purchases")).containsExactly(purchase("dan", 1, "1"));
		assertThat(got.unprocessedKeys()).isEmpty();
	}

	@Test
	void answersTheStoresErrors() {
		assertThat(catchThrowable(() -> sync.getItem((request) -> request.tableName("Nothing")
			.key(Map.of("userId", AttributeValue.fromS("a")))))).isInstanceOf(ResourceNotFoundException.class);
		Throwable inUse = catchThrowable(() -> async.createTable((table) -> table.tableName("Purchases")
			.attributeDefinitions((a) -> a.attributeName("userId").attributeType("S"))
			.keySchema((k) -> k.attributeName("userId").keyType("HASH"))
			.billingMode("PAY_PER_REQUEST")).join());
		assertThat(inUse).isInstanceOf(CompletionException.class).cause().isInstanceOf(ResourceInUseException.class);
	}

	@Test
	void answersTheStoresValidationInDynamoDbsShape() throws Exception {
		RawHttp.Response response = RawHttp.exchange(engine.endpoint().getPort(), "POST", "/",
				RawHttp.signed("DynamoDB_20120810.GetItem"), "{\"TableName\":\"Purchases\",\"Key\":{\"userId\":{}}}");
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.body()).startsWith("{\"__type\":\"com.amazon.coral.validate#ValidationException\",\"message\":\"");
	}

	@Test
	void theStreamCarriesTheCommits() {
		sync.putItem((request) -> request.tableName("Purchases").item(purchase("cat", 1, "1")));
		sync.putItem((request) -> request.tableName("Purchases").item(purchase("cat", 1, "2")));
		sync.deleteItem((request) -> request.tableName("Purchases")
			.key(Map.of("userId", AttributeValue.fromS("cat"), "at", AttributeValue.fromN("1"))));
		String arn = sync.describeTable((request) -> request.tableName("Purchases")).table().latestStreamArn();
		try (DynamoDbStreamsClient streams = Clients.streams(engine.endpoint())) {
			String shard = streams.describeStream((request) -> request.streamArn(arn)).streamDescription().shards().get(0)
				.shardId();
			String iterator = streams.getShardIterator((request) -> request.streamArn(arn).shardId(shard)
				.shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
			GetRecordsResponse records = streams.getRecords((request) -> request.shardIterator(iterator));
			List<String> cat = records.records().stream()
				.filter((record) -> record.dynamodb().keys().get("userId").s().equals("cat"))
				.map((record) -> record.eventNameAsString())
				.toList();
			assertThat(cat).containsExactly("INSERT", "MODIFY", "REMOVE");
			assertThat(records.records().get(0).awsRegion()).isEqualTo("eu-west-1");
			assertThat(records.records().get(0).dynamodb().approximateCreationDateTime()).isNotNull();
		}
	}

}
