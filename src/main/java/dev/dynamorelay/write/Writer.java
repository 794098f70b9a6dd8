package dev.dynamorelay.write;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.IdempotentParameterMismatchException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.dynamodb.CallTimeout;
import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.error.ConflictException;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.error.UnavailableException;

/**
 * Sends item writes to DynamoDB, alone or as one transaction, and says what came of them: what was written,
 * or which condition refused which part, with the stored item DynamoDB returns with a refusal
 * ({@code ReturnValuesOnConditionCheckFailure}), so that the refusal is told apart without a second read.
 *
 * <p>Every call takes its place among the request's calls ({@link ReadStats#calls()}), within what is left
 * of the request's time, and counts in its {@code extensions.dynamodb} with the capacity it consumed.
 *
 * <p>The SDK retries a call whose answer it did not get, and an attempt whose answer was lost may have been
 * made: each write call counts its attempts ({@link WriteAttempts}), so that its outcome says whether an
 * earlier attempt may have written (and the refusal of the last be about that attempt's own work), and a
 * call that failed after an attempt went out fails {@link WriteUnavailableException} (its outcome unknown). A
 * transaction always carries a {@code ClientRequestToken}, so that its retries are made once.
 */
final class Writer {

	private final DynamoDbAsyncClient dynamoDb;

	private final Duration timeout;

	Writer(DynamoDbAsyncClient dynamoDb, Duration timeout) {
		this.dynamoDb = dynamoDb;
		this.timeout = timeout;
	}

	/** What came of a write. */
	sealed interface Outcome {

		/**
		 * Written. A put's item, an update's new image, a delete's old image (empty: there was none).
		 *
		 * @param retried whether an earlier attempt of the call may have been made (a delete that found nothing
		 * may have been preceded by its own)
		 */
		record Written(Map<String, AttributeValue> image, boolean retried) implements Outcome {
		}

		/**
		 * A condition did not hold and nothing was written.
		 *
		 * @param index the part whose condition failed
		 * @param stored that part's item as it is (empty: there is none)
		 * @param retried whether an earlier attempt of the call may have been made: the stored item may then be
		 * what that attempt wrote
		 */
		record Refused(int index, Map<String, AttributeValue> stored, boolean retried) implements Outcome {
		}

	}

	/** One write alone: PutItem, UpdateItem (answering the new image) or DeleteItem (the old one). */
	CompletableFuture<Outcome> write(ItemWrite write, ReadStats stats) {
		WriteAttempts.Call attempts = new WriteAttempts.Call();
		CompletableFuture<Outcome> sent;
		if (write instanceof ItemWrite.PutItem put) {
			sent = put(put, stats, attempts);
		}
		else if (write instanceof ItemWrite.UpdateItem update) {
			sent = update(update, stats, attempts);
		}
		else if (write instanceof ItemWrite.DeleteItem delete) {
			sent = delete(delete, stats, attempts);
		}
		else {
			throw new IllegalArgumentException("a check is part of a transaction");
		}
		return sent.exceptionallyCompose((failure) -> {
			Throwable cause = DynamoDbFailures.unwrap(failure);
			if (cause instanceof ConditionalCheckFailedException refused) {
				return CompletableFuture.completedFuture(new Outcome.Refused(0, refused.hasItem() ? refused.item() : Map.of(),
						attempts.earlierMayHaveWritten(false)));
			}
			return CompletableFuture.failedFuture(failure(cause, write.part(), attempts));
		});
	}

	/**
	 * What a write call's failure means for the client: an item DynamoDB found too large is the client's
	 * ({@code INVALID_ARGUMENT}); DynamoDB unavailable after an attempt went out leaves the outcome unknown.
	 */
	private static Throwable failure(Throwable cause, String part, WriteAttempts.Call attempts) {
		if (cause instanceof DynamoDbException refused && refused.awsErrorDetails() != null
				&& "ValidationException".equals(refused.awsErrorDetails().errorCode())
				&& sizeRefusal(refused.awsErrorDetails().errorMessage())) {
			return tooLarge(part);
		}
		if (DynamoDbFailures.isUnavailable(cause) && attempts.mayHaveWritten()) {
			return WriteUnavailableException.unknown(cause);
		}
		return cause;
	}

	/**
	 * Whether DynamoDB refused a write for the size of the item it would make: an update (or a replace, which
	 * keeps the attributes it does not name) adds to what the item holds, which only DynamoDB measures.
	 */
	private static boolean sizeRefusal(String message) {
		String text = String.valueOf(message).toLowerCase(Locale.ROOT);
		return text.contains("item size") && (text.contains("exceed") || text.contains("maximum"));
	}

	private static InvalidArgumentException tooLarge(String part) {
		return new InvalidArgumentException(("%s would make an item over DynamoDB's limit of %d bytes (400 KB), with the "
				+ "attributes it holds already: nothing was written.").formatted(part.isEmpty() ? "The mutation"
						: "`" + part + "`", ItemComposer.MAX_ITEM_BYTES));
	}

	/** The call's timeout, and the attempts it counts. */
	private AwsRequestOverrideConfiguration within(ReadStats stats, WriteAttempts.Call attempts) {
		return within(stats).toBuilder().putExecutionAttribute(WriteAttempts.ATTRIBUTE, attempts).build();
	}

	private CompletableFuture<Outcome> put(ItemWrite.PutItem put, ReadStats stats, WriteAttempts.Call attempts) {
		Expressions expressions = put.expressions();
		return stats.budget().calls().call(() -> stats.costs().sent(this.dynamoDb.putItem((request) -> request.tableName(put.table())
			.item(put.item())
			.conditionExpression(expressions.condition().orElse(null))
			.expressionAttributeNames(expressions.names())
			.expressionAttributeValues(expressions.values())
			.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.overrideConfiguration(within(stats, attempts))))).thenApply((response) -> {
				stats.costs().record(0, 0, units(response.consumedCapacity()));
				return new Outcome.Written(put.item(), attempts.earlierMayHaveWritten(true));
			});
	}

	private CompletableFuture<Outcome> update(ItemWrite.UpdateItem update, ReadStats stats, WriteAttempts.Call attempts) {
		Expressions expressions = update.expressions();
		return stats.budget().calls().call(() -> stats.costs().sent(this.dynamoDb.updateItem((request) -> request.tableName(update.table())
			.key(update.key())
			.updateExpression(expressions.update().orElseThrow())
			.conditionExpression(expressions.condition().orElse(null))
			.expressionAttributeNames(expressions.names())
			.expressionAttributeValues(expressions.values())
			.returnValues(ReturnValue.ALL_NEW)
			.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.overrideConfiguration(within(stats, attempts))))).thenApply((response) -> {
				stats.costs().record(0, 0, units(response.consumedCapacity()));
				return new Outcome.Written(response.hasAttributes() ? response.attributes() : Map.of(),
						attempts.earlierMayHaveWritten(true));
			});
	}

	private CompletableFuture<Outcome> delete(ItemWrite.DeleteItem delete, ReadStats stats, WriteAttempts.Call attempts) {
		Expressions expressions = delete.expressions();
		return stats.budget().calls().call(() -> stats.costs().sent(this.dynamoDb.deleteItem((request) -> request.tableName(delete.table())
			.key(delete.key())
			.conditionExpression(expressions.condition().orElse(null))
			.expressionAttributeNames(expressions.names())
			.expressionAttributeValues(expressions.values())
			.returnValues(ReturnValue.ALL_OLD)
			.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.overrideConfiguration(within(stats, attempts))))).thenApply((response) -> {
				stats.costs().record(0, 0, units(response.consumedCapacity()));
				return new Outcome.Written(response.hasAttributes() ? response.attributes() : Map.of(),
						attempts.earlierMayHaveWritten(true));
			});
	}

	/**
	 * Several writes (and checks) in one TransactWriteItems: all or none, made once for ten minutes under its
	 * {@code ClientRequestToken}: {@code token} (an idempotency key's), else one of its own, so that the SDK's
	 * retries of a call whose answer was lost are answered as it was made. Answers {@link Outcome.Written} with
	 * no image (a transaction returns none), or {@link Outcome.Refused} naming the part whose condition failed
	 * (an ownership check first: it decides before anything else is told).
	 * @throws ConflictException (in the future) when another transaction held one of the items, or the token
	 * was used with another input
	 */
	CompletableFuture<Outcome> transact(List<ItemWrite> writes, Optional<String> token, ReadStats stats) {
		WriteAttempts.Call attempts = new WriteAttempts.Call();
		String clientRequestToken = token.orElseGet(() -> UUID.randomUUID().toString());
		return stats.budget().calls().call(() -> stats.costs().sent(this.dynamoDb.transactWriteItems((request) -> request
			.transactItems(writes.stream().map(ItemWrite::transactionItem).toList())
			.clientRequestToken(clientRequestToken)
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.overrideConfiguration(within(stats, attempts))))).<Outcome>thenApply((response) -> {
				double units = response.hasConsumedCapacity()
						? response.consumedCapacity().stream().mapToDouble((each) -> orZero(each.capacityUnits())).sum() : 0;
				stats.costs().record(0, 0, units);
				return new Outcome.Written(Map.of(), attempts.earlierMayHaveWritten(true));
			}).exceptionallyCompose((failure) -> {
				Throwable cause = DynamoDbFailures.unwrap(failure);
				if (cause instanceof TransactionCanceledException canceled && canceled.hasCancellationReasons()) {
					return canceled(writes, canceled.cancellationReasons());
				}
				if (cause instanceof IdempotentParameterMismatchException) {
					return CompletableFuture.failedFuture(new ConflictException(("The idempotency key was used within the "
							+ "last ten minutes for another write: nothing was written. Use a new key for new input."),
							Optional.empty(), Optional.empty()));
				}
				return CompletableFuture.failedFuture(failure(cause, "", attempts));
			});
	}

	/**
	 * A transaction DynamoDB canceled: the part that refused it, and why. A failed check that decides first
	 * ({@link ItemWrite.CheckItem#first()}: whose items the caller may write under) is told before any other
	 * part's refusal, so that a refusal never tells about items the caller may not write.
	 */
	private static CompletableFuture<Outcome> canceled(List<ItemWrite> writes, List<CancellationReason> reasons) {
		for (int i = 0; i < reasons.size() && i < writes.size(); i++) {
			if (writes.get(i) instanceof ItemWrite.CheckItem check && check.first()
					&& "ConditionalCheckFailed".equals(reasons.get(i).code())) {
				return CompletableFuture.completedFuture(new Outcome.Refused(i, Map.of(), false));
			}
		}
		for (int i = 0; i < reasons.size() && i < writes.size(); i++) {
			CancellationReason reason = reasons.get(i);
			String code = (reason.code() != null) ? reason.code() : "None";
			String part = writes.get(i).part();
			switch (code) {
				case "None" -> {
				}
				case "ConditionalCheckFailed" -> {
					return CompletableFuture.completedFuture(new Outcome.Refused(i, reason.hasItem() ? reason.item() : Map.of(),
							false));
				}
				case "TransactionConflict" -> {
					return CompletableFuture.failedFuture(new ConflictException(("Another write to the item of `%s` was in "
							+ "progress: nothing was written; make the mutation again.").formatted(part), Optional.empty(),
							Optional.of(part)));
				}
				case "ValidationError" -> {
					return CompletableFuture.failedFuture(sizeRefusal(reason.message()) ? tooLarge(part)
							: new InvalidArgumentException(
									"DynamoDB refused the item of `%s` (%s): nothing was written.".formatted(part, reason.message())));
				}
				default -> {
					return CompletableFuture.failedFuture(new UnavailableException(
							"DynamoDB did not write the item of `%s` (%s); retry the mutation later.".formatted(part, code),
							null));
				}
			}
		}
		return CompletableFuture.failedFuture(new IllegalStateException("a transaction canceled for no reason given"));
	}

	/**
	 * Items read by key with strongly consistent reads (BatchGetItem), for answers a transaction does not
	 * return: in the order of {@code keys}, an empty map where there is no item.
	 */
	CompletableFuture<List<Map<String, AttributeValue>>> read(String table, List<Map<String, AttributeValue>> keys,
			ReadStats stats) {
		if (keys.isEmpty()) {
			return CompletableFuture.completedFuture(List.of());
		}
		return stats.budget().calls().call(() -> stats.costs().sent(this.dynamoDb.batchGetItem((request) -> request
			.requestItems(Map.of(table, KeysAndAttributes.builder().keys(keys).consistentRead(true).build()))
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.overrideConfiguration(within(stats))))).thenApply((response) -> {
				double units = response.hasConsumedCapacity()
						? response.consumedCapacity().stream().mapToDouble((each) -> orZero(each.capacityUnits())).sum() : 0;
				List<Map<String, AttributeValue>> found = response.responses().getOrDefault(table, List.of());
				stats.costs().record(found.size(), found.size(), units);
				if (response.hasUnprocessedKeys() && !response.unprocessedKeys().isEmpty()) {
					throw new UnavailableException("DynamoDB did not read every item back in time; the write was made.",
							null);
				}
				return keys.stream()
					.map((key) -> found.stream()
						.filter((item) -> key.entrySet().stream().allMatch((entry) -> entry.getValue().equals(item.get(entry.getKey()))))
						.findFirst()
						.orElse(Map.of()))
					.toList();
			});
	}

	/** One item by key, strongly consistent, with only {@code attributes} (all when empty). */
	CompletableFuture<Map<String, AttributeValue>> get(String table, Map<String, AttributeValue> key,
			List<String> attributes, ReadStats stats) {
		Expressions names = new Expressions();
		String projection = attributes.isEmpty() ? null
				: String.join(", ", attributes.stream().map(names::name).toList());
		return stats.budget().calls().call(() -> stats.costs().sent(this.dynamoDb.getItem((request) -> request.tableName(table)
			.key(key)
			.consistentRead(true)
			.projectionExpression(projection)
			.expressionAttributeNames(names.names())
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.overrideConfiguration(within(stats))))).thenApply((response) -> {
				int found = response.hasItem() ? 1 : 0;
				stats.costs().record(found, found, units(response.consumedCapacity()));
				return response.hasItem() ? response.item() : Map.of();
			});
	}

	/**
	 * A call's timeout: what is left of the request's time, so that its calls one after another end within
	 * it; none left (under a millisecond, {@link CallTimeout}) is UNAVAILABLE at once.
	 */
	private AwsRequestOverrideConfiguration within(ReadStats stats) {
		Duration remaining = CallTimeout.of(stats.budget().remaining(this.timeout))
			.orElseThrow(() -> new UnavailableException(
					"DynamoDB did not serve the request within " + this.timeout + ".", null));
		return AwsRequestOverrideConfiguration.builder().apiCallTimeout(remaining).build();
	}

	private static Double units(ConsumedCapacity capacity) {
		return (capacity != null) ? capacity.capacityUnits() : null;
	}

	private static double orZero(Double units) {
		return (units != null) ? units : 0;
	}

}
