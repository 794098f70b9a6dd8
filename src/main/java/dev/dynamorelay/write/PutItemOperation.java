package dev.dynamorelay.write;

import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

import dev.dynamorelay.budget.ReadStats;

/**
 * Sends one item's write alone with PutItem (a create's item, never over a stored one: its condition says so),
 * as the AWS SDK's enhanced client has an operation per DynamoDB call. Answers the item put, or the refusal with
 * the stored item DynamoDB returns with it ({@code ReturnValuesOnConditionCheckFailure}).
 */
final class PutItemOperation {

	private final WriteCalls calls;

	PutItemOperation(WriteCalls calls) {
		this.calls = calls;
	}

	CompletableFuture<WriteOutcome> send(ItemWrite.PutItem put, ReadStats stats) {
		Expressions expressions = put.expressions();
		return this.calls.sendAlone(stats,
				put.part(), (within) -> this.calls.dynamoDb().putItem((request) -> request
			.tableName(put.table())
			.item(put.item())
			.conditionExpression(expressions.condition().orElse(null))
			.expressionAttributeNames(expressions.names())
			.expressionAttributeValues(expressions.values())
			.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.overrideConfiguration(within)), PutItemResponse::consumedCapacity,
				(response) -> put.item());
	}

}
