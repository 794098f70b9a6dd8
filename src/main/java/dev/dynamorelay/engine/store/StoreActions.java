package dev.dynamorelay.engine.store;

import java.util.List;

import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTagsOfResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TagResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UntagResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;

import dev.dynamorelay.engine.action.Action;

/** The store's operations as the engine's registry takes them: one line each, its target, its request, its method. */
public final class StoreActions {

	private static final String PREFIX = "DynamoDB_20120810.";

	private StoreActions() {
	}

	/** Every DynamoDB operation {@code database} serves (DynamoDB Streams' are the streams'). */
	public static List<Action<?, ?>> all(Database database) {
		return List.of(
				new Action<>(PREFIX + "CreateTable", CreateTableRequest::builder, database::createTable),
				new Action<>(PREFIX + "DescribeTable", DescribeTableRequest::builder, database::describeTable),
				new Action<>(PREFIX + "ListTables", ListTablesRequest::builder, database::listTables),
				new Action<>(PREFIX + "UpdateTable", UpdateTableRequest::builder, database::updateTable),
				new Action<>(PREFIX + "DeleteTable", DeleteTableRequest::builder, database::deleteTable),
				new Action<>(PREFIX + "DescribeTimeToLive", DescribeTimeToLiveRequest::builder, database::describeTimeToLive),
				new Action<>(PREFIX + "UpdateTimeToLive", UpdateTimeToLiveRequest::builder, database::updateTimeToLive),
				new Action<>(PREFIX + "TagResource", TagResourceRequest::builder, database::tagResource),
				new Action<>(PREFIX + "UntagResource", UntagResourceRequest::builder, database::untagResource),
				new Action<>(PREFIX + "ListTagsOfResource", ListTagsOfResourceRequest::builder, database::listTagsOfResource),
				new Action<>(PREFIX + "PutItem", PutItemRequest::builder, database::putItem),
				new Action<>(PREFIX + "GetItem", GetItemRequest::builder, database::getItem),
				new Action<>(PREFIX + "UpdateItem", UpdateItemRequest::builder, database::updateItem),
				new Action<>(PREFIX + "DeleteItem", DeleteItemRequest::builder, database::deleteItem),
				new Action<>(PREFIX + "Query", QueryRequest::builder, database::query),
				new Action<>(PREFIX + "Scan", ScanRequest::builder, database::scan),
				new Action<>(PREFIX + "BatchGetItem", BatchGetItemRequest::builder, database::batchGetItem),
				new Action<>(PREFIX + "BatchWriteItem", BatchWriteItemRequest::builder, database::batchWriteItem),
				new Action<>(PREFIX + "TransactWriteItems", TransactWriteItemsRequest::builder, database::transactWriteItems),
				new Action<>(PREFIX + "TransactGetItems", TransactGetItemsRequest::builder, database::transactGetItems));
	}

}
