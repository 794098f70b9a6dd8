package dev.dynamorelay.write;

import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;

import dev.dynamorelay.error.ApiException;

/**
 * One item's write, ready to send alone or as a part of a transaction.
 */
sealed interface ItemWrite {

	/** The part of the mutation's input it comes from (e.g. {@code input[2]}, {@code input.lines[0]}). */
	String part();

	/** The table's name as DynamoDB knows it. */
	String table();

	/** The item's key. */
	Map<String, AttributeValue> key();

	/** Its expressions. */
	Expressions expressions();

	/** This write as a part of a TransactWriteItems. */
	TransactWriteItem transactionItem();

	/**
	 * A whole item, over none (with the condition that the item does not exist) or over the stored one.
	 *
	 * @param item every attribute of the item
	 */
	record PutItem(String part, String table, Map<String, AttributeValue> key, Map<String, AttributeValue> item,
			Expressions expressions) implements ItemWrite {

		@Override
		public TransactWriteItem transactionItem() {
			Put.Builder put = Put.builder()
				.tableName(this.table)
				.item(this.item)
				.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
			this.expressions.condition().ifPresent(put::conditionExpression);
			put.expressionAttributeNames(this.expressions.names()).expressionAttributeValues(this.expressions.values());
			return TransactWriteItem.builder().put(put.build()).build();
		}

	}

	/** The attributes an update expression sets and removes. */
	record UpdateItem(String part, String table, Map<String, AttributeValue> key, Expressions expressions)
			implements ItemWrite {

		@Override
		public TransactWriteItem transactionItem() {
			Update.Builder update = Update.builder()
				.tableName(this.table)
				.key(this.key)
				.updateExpression(this.expressions.update().orElseThrow())
				.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
			this.expressions.condition().ifPresent(update::conditionExpression);
			update.expressionAttributeNames(this.expressions.names()).expressionAttributeValues(this.expressions.values());
			return TransactWriteItem.builder().update(update.build()).build();
		}

	}

	/** The item deleted. */
	record DeleteItem(String part, String table, Map<String, AttributeValue> key, Expressions expressions)
			implements ItemWrite {

		@Override
		public TransactWriteItem transactionItem() {
			Delete.Builder delete = Delete.builder()
				.tableName(this.table)
				.key(this.key)
				.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
			this.expressions.condition().ifPresent(delete::conditionExpression);
			delete.expressionAttributeNames(this.expressions.names()).expressionAttributeValues(this.expressions.values());
			return TransactWriteItem.builder().delete(delete.build()).build();
		}

	}

	/**
	 * Nothing written: a condition on another item (that it exists; that it is the caller's), checked in the
	 * same transaction.
	 *
	 * @param refusal what a failed check means for the client
	 * @param first whether its refusal is told before any other part's: a check of whose items the caller may
	 * write, so that another part's refusal tells nothing about an item the caller may not write
	 */
	record CheckItem(String part, String table, Map<String, AttributeValue> key, Expressions expressions,
			ApiException refusal, boolean first) implements ItemWrite {

		@Override
		public TransactWriteItem transactionItem() {
			ConditionCheck.Builder check = ConditionCheck.builder()
				.tableName(this.table)
				.key(this.key)
				.conditionExpression(this.expressions.condition().orElseThrow());
			check.expressionAttributeNames(this.expressions.names()).expressionAttributeValues(this.expressions.values());
			return TransactWriteItem.builder().conditionCheck(check.build()).build();
		}

	}

}
