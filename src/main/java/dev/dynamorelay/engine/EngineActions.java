package dev.dynamorelay.engine;

import java.util.List;

import dev.dynamorelay.engine.store.Database;
import dev.dynamorelay.engine.streams.Streams;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;

/**
 * The registry of the engine's operations: one line per operation, its {@code X-Amz-Target}, its request's
 * builder and what runs it. Each part of the engine (the store's tables and items, the streams) adds its
 * operations here; the wire serves exactly these, and answers any other target {@code UnknownOperationException}.
 */
final class EngineActions {

	private static final String DYNAMODB = "DynamoDB_20120810.";

	private static final String STREAMS = "DynamoDBStreams_20120810.";

	private EngineActions() {
	}

	/** The operations of the store and of the streams. */
	static List<Action<?, ?>> all(Database database, Streams streams) {
		return List.of(
				new Action<>(DYNAMODB + "CreateTable", CreateTableRequest::builder, database::createTable),
				new Action<>(DYNAMODB + "DescribeTable", DescribeTableRequest::builder, database::describeTable),
				new Action<>(DYNAMODB + "ListTables", ListTablesRequest::builder, database::listTables),
				new Action<>(DYNAMODB + "UpdateTable", UpdateTableRequest::builder, database::updateTable),
				new Action<>(DYNAMODB + "DeleteTable", DeleteTableRequest::builder, database::deleteTable),
				new Action<>(DYNAMODB + "DescribeTimeToLive", DescribeTimeToLiveRequest::builder, database::describeTimeToLive),
				new Action<>(DYNAMODB + "UpdateTimeToLive", UpdateTimeToLiveRequest::builder, database::updateTimeToLive),
				new Action<>(DYNAMODB + "PutItem", PutItemRequest::builder, database::putItem),
				new Action<>(DYNAMODB + "GetItem", GetItemRequest::builder, database::getItem),
				new Action<>(DYNAMODB + "UpdateItem", UpdateItemRequest::builder, database::updateItem),
				new Action<>(DYNAMODB + "DeleteItem", DeleteItemRequest::builder, database::deleteItem),
				new Action<>(DYNAMODB + "Query", QueryRequest::builder, database::query),
				new Action<>(DYNAMODB + "Scan", ScanRequest::builder, database::scan),
				new Action<>(DYNAMODB + "BatchGetItem", BatchGetItemRequest::builder, database::batchGetItem),
				new Action<>(DYNAMODB + "BatchWriteItem", BatchWriteItemRequest::builder, database::batchWriteItem),
				new Action<>(DYNAMODB + "TransactWriteItems", TransactWriteItemsRequest::builder, database::transactWriteItems),
				new Action<>(DYNAMODB + "TransactGetItems", TransactGetItemsRequest::builder, database::transactGetItems),
				new Action<>(STREAMS + "ListStreams", ListStreamsRequest::builder, streams::listStreams),
				new Action<>(STREAMS + "DescribeStream", DescribeStreamRequest::builder, streams::describeStream),
				new Action<>(STREAMS + "GetShardIterator", GetShardIteratorRequest::builder, streams::getShardIterator),
				new Action<>(STREAMS + "GetRecords", GetRecordsRequest::builder, streams::getRecords));
	}

}
