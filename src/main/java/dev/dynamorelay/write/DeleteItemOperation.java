package dev.dynamorelay.write;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

import dev.dynamorelay.budget.ReadStats;

/**
 * Sends one item's write alone with DeleteItem, as the AWS SDK's enhanced client has an operation per DynamoDB
 * call. Answers the item as it was (empty: there was none), or the refusal with the stored item DynamoDB returns
 * with it.
 */
final class DeleteItemOperation {

	private final WriteCalls calls;

	DeleteItemOperation(WriteCalls calls) {
		this.calls = calls;
	}

	CompletableFuture<WriteOutcome> send(ItemWrite.DeleteItem delete, ReadStats stats) {
		Expressions expressions = delete.expressions();
		return this.calls.sendAlone(stats,
				delete.part(), (within) -> this.calls.dynamoDb().deleteItem((request) -> request
			.tableName(delete.table())
			.key(delete.key())
			.conditionExpression(expressions.condition().orElse(null))
			.expressionAttributeNames(expressions.names())
			.expressionAttributeValues(expressions.values())
			.returnValues(ReturnValue.ALL_OLD)
			.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.overrideConfiguration(within)), DeleteItemResponse::consumedCapacity,
				(response) -> response.hasAttributes() ? response.attributes() : Map.of());
	}

}
