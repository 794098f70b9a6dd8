package dev.dynamorelay.engine.wire;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.dynamorelay.engine.DynamoDbEngine;
import dev.dynamorelay.engine.EngineOptions;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.Crc32MismatchException;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The AWS SDK v2's own clients (synchronous and asynchronous, on the CRT's and Netty's HTTP clients, and the
 * Streams client) read every answer and error of the engine, and check its CRC32 as they check DynamoDB's.
 */
class SdkClientsTest {

	private static final TestActions ACTIONS = new TestActions();

	private static DynamoDbEngine engine;

	private static final Map<String, Dynamo> CLIENTS = new LinkedHashMap<>();

	@BeforeAll
	static void start() {
		engine = DynamoDbEngine.start(EngineOptions.defaults().withActions(ACTIONS.actions()));
		// One attempt: an error reaches the test as the engine sent it.
		CLIENTS.put("sync CRT", Dynamo.of(Clients.crt(engine.endpoint(), (o) -> o.retryStrategy((r) -> r.maxAttempts(1)))));
		CLIENTS.put("async Netty",
				Dynamo.of(Clients.netty(engine.endpoint(), (o) -> o.retryStrategy((r) -> r.maxAttempts(1)))));
		CLIENTS.put("async CRT",
				Dynamo.of(Clients.crtAsync(engine.endpoint(), (o) -> o.retryStrategy((r) -> r.maxAttempts(1)))));
	}

	@AfterAll
	static void stop() {
		CLIENTS.values().forEach(Dynamo::close);
		engine.close();
	}

	static Stream<String> clients() {
		return Stream.of("sync CRT", "async Netty", "async CRT");
	}

	private static Map<String, AttributeValue> everyKind(String id) {
		Map<String, AttributeValue> item = new LinkedHashMap<>();
		item.put("id", AttributeValue.fromS(id));
		item.put("s", AttributeValue.fromS("zé 🎉 \"quoted\"\n"));
		item.put("n", AttributeValue.fromN("-12345678901234567890.123456789012345678"));
		item.put("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { 0, (byte) 0xff, 7 })));
		item.put("ss", AttributeValue.fromSs(List.of("a", "b")));
		item.put("ns", AttributeValue.fromNs(List.of("1", "2.5")));
		item.put("bs", AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("x"))));
		item.put("m", AttributeValue.fromM(Map.of("deep", AttributeValue.fromL(List.of(AttributeValue.fromNul(true))))));
		item.put("l", AttributeValue.fromL(List.of(AttributeValue.fromBool(true), AttributeValue.fromS(""))));
		return item;
	}

	@ParameterizedTest
	@MethodSource("clients")
	void writesAndReadsItemsOfEveryKind(String name) {
		Dynamo client = CLIENTS.get(name);
		String id = "every-" + name;
		client.put(PutItemRequest.builder().tableName("things").item(everyKind(id)).build());
		// What the wire read is what the client sent.
		assertThat(ACTIONS.lastPut.get().item()).isEqualTo(everyKind(id));
		GetItemResponse got = client.get(GetItemRequest.builder().tableName("things")
			.key(Map.of("id", AttributeValue.fromS(id))).build());
		assertThat(got.item()).isEqualTo(everyKind(id));
		PutItemResponse replaced = client.put(PutItemRequest.builder().tableName("things")
			.item(Map.of("id", AttributeValue.fromS(id))).returnValues(ReturnValue.ALL_OLD).build());
		assertThat(replaced.attributes()).isEqualTo(everyKind(id));
		GetItemResponse missing = client.get(GetItemRequest.builder().tableName("things")
			.key(Map.of("id", AttributeValue.fromS("nobody"))).build());
		assertThat(missing.hasItem()).isFalse();
	}

	@ParameterizedTest
	@MethodSource("clients")
	void readsADescribedTable(String name) {
		DescribeTableResponse described = CLIENTS.get(name).describe(DescribeTableRequest.builder().tableName("things").build());
		assertThat(described.table().creationDateTime()).isEqualTo(TestActions.CREATED);
		// The region the client signed for.
		assertThat(described.table().tableArn()).isEqualTo("arn:aws:dynamodb:eu-west-1:000000000000:table/things");
		assertThat(described.table().globalSecondaryIndexes()).singleElement()
			.satisfies((index) -> assertThat(index.indexName()).isEqualTo("byName"));
		assertThat(described.table().billingModeSummary().lastUpdateToPayPerRequestDateTime())
			.isEqualTo(TestActions.CREATED);
		assertThat(described.table().hasLocalSecondaryIndexes()).isFalse();
	}

	@ParameterizedTest
	@MethodSource("clients")
	void readsAFailedConditionWithAndWithoutTheItem(String name) {
		Dynamo client = CLIENTS.get(name);
		String id = "held-" + name;
		client.put(PutItemRequest.builder().tableName("things").item(Map.of("id", AttributeValue.fromS(id))).build());
		Throwable withItem = catchThrowable(() -> client.put(PutItemRequest.builder().tableName("things")
			.item(Map.of("id", AttributeValue.fromS(id))).conditionExpression("attribute_not_exists(id)")
			.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build()));
		assertThat(withItem).isInstanceOfSatisfying(ConditionalCheckFailedException.class, (failed) -> {
			assertThat(failed.item()).isEqualTo(Map.of("id", AttributeValue.fromS(id)));
			assertThat(failed.awsErrorDetails().errorMessage()).isEqualTo("The conditional request failed");
			assertThat(failed.statusCode()).isEqualTo(400);
			assertThat(failed.requestId()).matches("[0-9A-Z]{52}");
		});
		Throwable withoutItem = catchThrowable(() -> client.put(PutItemRequest.builder().tableName("things")
			.item(Map.of("id", AttributeValue.fromS(id))).conditionExpression("attribute_not_exists(id)").build()));
		assertThat(withoutItem).isInstanceOfSatisfying(ConditionalCheckFailedException.class,
				(failed) -> assertThat(failed.hasItem()).isFalse());
	}

	@ParameterizedTest
	@MethodSource("clients")
	void readsACancelledTransactionWithItsReasons(String name) {
		Throwable thrown = catchThrowable(() -> CLIENTS.get(name).transact(TransactWriteItemsRequest.builder()
			.transactItems(TransactWriteItem.builder().build()).build()));
		assertThat(thrown).isInstanceOfSatisfying(TransactionCanceledException.class, (cancelled) -> {
			assertThat(cancelled.awsErrorDetails().errorMessage()).isEqualTo(
					"Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]");
			assertThat(cancelled.cancellationReasons()).hasSize(2);
			assertThat(cancelled.cancellationReasons().get(0).code()).isEqualTo("ConditionalCheckFailed");
			assertThat(cancelled.cancellationReasons().get(0).message()).isEqualTo("The conditional request failed");
			assertThat(cancelled.cancellationReasons().get(0).item()).isEqualTo(Map.of("id", AttributeValue.fromS("held")));
			assertThat(cancelled.cancellationReasons().get(1).code()).isEqualTo("None");
		});
	}

	@ParameterizedTest
	@MethodSource("clients")
	void readsTheEngineErrors(String name) {
		Dynamo client = CLIENTS.get(name);
		assertThat(catchThrowable(() -> client.get(GetItemRequest.builder().tableName("nothing")
			.key(Map.of("id", AttributeValue.fromS("a"))).build())))
			.isInstanceOfSatisfying(ResourceNotFoundException.class, (notFound) -> {
				assertThat(notFound.awsErrorDetails().errorCode()).isEqualTo("ResourceNotFoundException");
				assertThat(notFound.awsErrorDetails().errorMessage()).isEqualTo("Requested resource not found");
			});
		assertThat(catchThrowable(() -> client.deleteTable()))
			.isInstanceOfSatisfying(InternalServerErrorException.class,
					(internal) -> assertThat(internal.statusCode()).isEqualTo(500));
	}

	@Test
	void readsStreamRecords() {
		try (DynamoDbStreamsClient streams = Clients.streams(engine.endpoint())) {
			List<Record> records = streams.getRecords((request) -> request.shardIterator("it")).records();
			assertThat(records).singleElement().satisfies((record) -> {
				assertThat(record.eventName().toString()).isEqualTo("INSERT");
				assertThat(record.awsRegion()).isEqualTo("eu-west-1");
				assertThat(record.dynamodb().approximateCreationDateTime()).isEqualTo(TestActions.CREATED);
				assertThat(record.dynamodb().newImage()).containsEntry("n", AttributeValue.fromN("1"));
				assertThat(record.dynamodb().sizeBytes()).isEqualTo(12L);
			});
			assertThat(streams.getRecords((request) -> request.shardIterator("it")).nextShardIterator())
				.isEqualTo("it-next");
			assertThat(streams.listStreams((request) -> { }).streams()).isEmpty();
		}
	}

	/**
	 * The SDK checks the CRC32 of DynamoDB's answers: an answer with a wrong one is refused (so every answer
	 * the tests above read had a right one).
	 */
	@Test
	void theSdkRefusesAnAnswerWhoseCrc32IsWrong() throws IOException {
		HttpServer liar = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		byte[] body = "{\"TableNames\":[\"things\"]}".getBytes(StandardCharsets.UTF_8);
		liar.createContext("/", (exchange) -> {
			exchange.getRequestBody().readAllBytes();
			exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.0");
			exchange.getResponseHeaders().set("x-amz-crc32", "12345");
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		liar.start();
		URI endpoint = URI.create("http://127.0.0.1:" + liar.getAddress().getPort());
		try (DynamoDbClient client = Clients.crt(endpoint, (o) -> o.retryStrategy((r) -> r.maxAttempts(1)))) {
			assertThatThrownBy(() -> client.listTables(ListTablesRequest.builder().build()))
				.isInstanceOf(Crc32MismatchException.class)
				.hasMessageContaining("Expected 12345 as the Crc32 checksum");
		}
		finally {
			liar.stop(0);
		}
		// The engine's answer to the same call passes the same check.
		try (DynamoDbClient client = Clients.crt(engine.endpoint(), (o) -> o.retryStrategy((r) -> r.maxAttempts(1)))) {
			assertThat(client.listTables(ListTablesRequest.builder().build()).tableNames()).containsExactly("things");
		}
	}

	/** The calls of the tests, on a synchronous or an asynchronous client alike. */
	interface Dynamo extends AutoCloseable {

		PutItemResponse put(PutItemRequest request);

		GetItemResponse get(GetItemRequest request);

		DescribeTableResponse describe(DescribeTableRequest request);

		void transact(TransactWriteItemsRequest request);

		void deleteTable();

		@Override
		void close();

		static Dynamo of(DynamoDbClient client) {
			return new Dynamo() {

				public PutItemResponse put(PutItemRequest request) {
					return client.putItem(request);
				}

				public GetItemResponse get(GetItemRequest request) {
					return client.getItem(request);
				}

				public DescribeTableResponse describe(DescribeTableRequest request) {
					return client.describeTable(request);
				}

				public void transact(TransactWriteItemsRequest request) {
					client.transactWriteItems(request);
				}

				public void deleteTable() {
					client.deleteTable((request) -> request.tableName("things"));
				}

				public void close() {
					client.close();
				}

			};
		}

		static Dynamo of(DynamoDbAsyncClient client) {
			return new Dynamo() {

				public PutItemResponse put(PutItemRequest request) {
					return join(() -> client.putItem(request));
				}

				public GetItemResponse get(GetItemRequest request) {
					return join(() -> client.getItem(request));
				}

				public DescribeTableResponse describe(DescribeTableRequest request) {
					return join(() -> client.describeTable(request));
				}

				public void transact(TransactWriteItemsRequest request) {
					join(() -> client.transactWriteItems(request));
				}

				public void deleteTable() {
					join(() -> client.deleteTable((request) -> request.tableName("things")));
				}

				public void close() {
					client.close();
				}

			};
		}

		private static <T> T join(Supplier<CompletableFuture<T>> call) {
			try {
				return call.get().join();
			}
			catch (CompletionException failed) {
				throw (failed.getCause() instanceof RuntimeException cause) ? cause : failed;
			}
		}

	}

}
