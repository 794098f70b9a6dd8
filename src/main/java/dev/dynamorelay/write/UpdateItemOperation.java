package dev.dynamorelay.write;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

import dev.dynamorelay.budget.ReadStats;

/**
 * Sends one item's write alone with UpdateItem (an update's or a replace's expression), as the AWS SDK's
 * enhanced client has an operation per DynamoDB call. Answers the item's new image, or the refusal with the
 * stored item DynamoDB returns with it.
 */
final class UpdateItemOperation {

	private final WriteCalls calls;

	UpdateItemOperation(WriteCalls calls) {
		this.calls = calls;
	}

	CompletableFuture<WriteOutcome> send(ItemWrite.UpdateItem update, ReadStats stats) {
		Expressions expressions = update.expressions();
		return this.calls.sendAlone(stats,
				update.part(), (within) -> this.calls.dynamoDb().updateItem((request) -> request
			.tableName(update.table())
			.key(update.key())
			.updateExpression(expressions.update().orElseThrow())
			.conditionExpression(expressions.condition().orElse(null))
			.expressionAttributeNames(expressions.names())
			.expressionAttributeValues(expressions.values())
			.returnValues(ReturnValue.ALL_NEW)
			.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.overrideConfiguration(within)), UpdateItemResponse::consumedCapacity,
				(response) -> response.hasAttributes() ? response.attributes() : Map.of());
	}

}
