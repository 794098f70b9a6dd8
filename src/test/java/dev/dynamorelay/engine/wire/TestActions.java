package dev.dynamorelay.engine.wire;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.dynamorelay.engine.action.Action;
import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.action.RequestContext;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingModeSummary;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsResponse;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputDescription;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableResponse;

/**
 * Operations of the tests' own, to drive the wire until the store's are there: one table ({@code id} a string
 * key) in a map, and answers that exercise every kind of member and error the wire must carry.
 */
final class TestActions {

	static final Instant CREATED = Instant.ofEpochMilli(1_700_000_000_123L);

	final Map<String, Map<String, AttributeValue>> items = new ConcurrentHashMap<>();

	final AtomicInteger calls = new AtomicInteger();

	/** The last PutItem request, as the wire read it. */
	final AtomicReference<PutItemRequest> lastPut = new AtomicReference<>();

	List<Action<?, ?>> actions() {
		return List.of(new Action<>("DynamoDB_20120810.PutItem", PutItemRequest::builder, this::putItem),
				new Action<>("DynamoDB_20120810.GetItem", GetItemRequest::builder, this::getItem),
				new Action<>("DynamoDB_20120810.ListTables", ListTablesRequest::builder,
						(request) -> ListTablesResponse.builder().tableNames("things").build()),
				new Action<>("DynamoDB_20120810.DescribeTable", DescribeTableRequest::builder, this::describeTable),
				new Action<>("DynamoDB_20120810.TransactWriteItems", TransactWriteItemsRequest::builder,
						this::transactWriteItems),
				new Action<>("DynamoDB_20120810.DeleteTable", DeleteTableRequest::builder, this::deleteTable),
				new Action<>("DynamoDB_20120810.UpdateTable", UpdateTableRequest::builder, this::updateTable),
				new Action<>("DynamoDBStreams_20120810.ListStreams", ListStreamsRequest::builder,
						(request) -> ListStreamsResponse.builder().streams(List.of()).build()),
				new Action<>("DynamoDBStreams_20120810.GetRecords", GetRecordsRequest::builder, this::getRecords));
	}

	private PutItemResponse putItem(PutItemRequest request) {
		this.calls.incrementAndGet();
		this.lastPut.set(request);
		if (!"things".equals(request.tableName())) {
			throw AwsError.resourceNotFound("Requested resource not found");
		}
		AttributeValue id = request.item().get("id");
		if (id == null || id.s() == null) {
			throw AwsError.validation("One or more parameter values were invalid: Missing the key id in the item");
		}
		Map<String, AttributeValue> old = this.items.get(id.s());
		if ("attribute_not_exists(id)".equals(request.conditionExpression()) && old != null) {
			throw AwsError.conditionalCheckFailed(
					"ALL_OLD".equals(request.returnValuesOnConditionCheckFailureAsString()) ? old : null);
		}
		this.items.put(id.s(), request.item());
		PutItemResponse.Builder response = PutItemResponse.builder();
		if ("ALL_OLD".equals(request.returnValuesAsString()) && old != null) {
			response.attributes(old);
		}
		return response.build();
	}

	private GetItemResponse getItem(GetItemRequest request) {
		this.calls.incrementAndGet();
		if (!"things".equals(request.tableName())) {
			throw AwsError.resourceNotFound("Requested resource not found");
		}
		Map<String, AttributeValue> item = this.items.get(request.key().get("id").s());
		return (item == null) ? GetItemResponse.builder().build() : GetItemResponse.builder().item(item).build();
	}

	private DescribeTableResponse describeTable(DescribeTableRequest request) {
		String arn = "arn:aws:dynamodb:" + RequestContext.region() + ":000000000000:table/" + request.tableName();
		return DescribeTableResponse.builder()
			.table(TableDescription.builder()
				.tableName(request.tableName())
				.tableArn(arn)
				.tableStatus("ACTIVE")
				.creationDateTime(CREATED)
				.attributeDefinitions(AttributeDefinition.builder().attributeName("id").attributeType("S").build())
				.keySchema(KeySchemaElement.builder().attributeName("id").keyType("HASH").build())
				.itemCount((long) this.items.size())
				.tableSizeBytes(0L)
				.billingModeSummary(BillingModeSummary.builder()
					.billingMode("PAY_PER_REQUEST")
					.lastUpdateToPayPerRequestDateTime(CREATED)
					.build())
				.provisionedThroughput(ProvisionedThroughputDescription.builder()
					.numberOfDecreasesToday(0L)
					.readCapacityUnits(0L)
					.writeCapacityUnits(0L)
					.build())
				.globalSecondaryIndexes(GlobalSecondaryIndexDescription.builder()
					.indexName("byName")
					.keySchema(KeySchemaElement.builder().attributeName("name").keyType("HASH").build())
					.projection(Projection.builder().projectionType("ALL").build())
					.indexStatus("ACTIVE")
					.build())
				.build())
			.build();
	}

	private TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
		throw AwsError.transactionCanceled(
				"Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]",
				List.of(CancellationReason.builder()
					.code("ConditionalCheckFailed")
					.message("The conditional request failed")
					.item(Map.of("id", AttributeValue.fromS("held")))
					.build(), CancellationReason.builder().code("None").build()));
	}

	private DeleteTableResponse deleteTable(DeleteTableRequest request) {
		// A bug of the engine: the wire answers it InternalServerError.
		throw new IllegalStateException("a bug");
	}

	private UpdateTableResponse updateTable(UpdateTableRequest request) {
		// A class the engine cannot load (its jar replaced under it): the wire answers it InternalServerError too.
		throw new NoClassDefFoundError("dev/dynamorelay/engine/Lost");
	}

	private GetRecordsResponse getRecords(GetRecordsRequest request) {
		return GetRecordsResponse.builder()
			.records(Record.builder()
				.eventID("1")
				.eventName("INSERT")
				.eventVersion("1.1")
				.eventSource("aws:dynamodb")
				.awsRegion(RequestContext.region())
				.dynamodb(StreamRecord.builder()
					.approximateCreationDateTime(CREATED)
					.keys(Map.of("id", AttributeValue.fromS("a")))
					.newImage(Map.of("id", AttributeValue.fromS("a"), "n", AttributeValue.fromN("1")))
					.sequenceNumber("000000000000000000001")
					.sizeBytes(12L)
					.streamViewType("NEW_IMAGE")
					.build())
				.build())
			.nextShardIterator(request.shardIterator() + "-next")
			.build();
	}

}
