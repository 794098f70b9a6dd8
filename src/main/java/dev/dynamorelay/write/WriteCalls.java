package dev.dynamorelay.write;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.dynamodb.CallTimeout;
import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.error.UnavailableException;

/**
 * What every write operation's call shares: the DynamoDB client, the time a call may take (what is left of the
 * request's, {@link CallTimeout}), the attempts it counts ({@link WriteAttempts}), what its failure means for the
 * client, and the strongly consistent GetItem a write reads what it lacks (or its answer) with.
 */
final class WriteCalls implements WritePlanner.ItemReader {

	private final DynamoDbAsyncClient dynamoDb;

	private final Duration timeout;

	WriteCalls(DynamoDbAsyncClient dynamoDb, Duration timeout) {
		this.dynamoDb = dynamoDb;
		this.timeout = timeout;
	}

	DynamoDbAsyncClient dynamoDb() {
		return this.dynamoDb;
	}

	/** One item by key, strongly consistent, with only {@code attributes} (all when empty). */
	@Override
	public CompletableFuture<Map<String, AttributeValue>> get(String table, Map<String, AttributeValue> key,
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
	AwsRequestOverrideConfiguration within(ReadStats stats) {
		Duration remaining = CallTimeout.of(stats.budget().remaining(this.timeout))
			.orElseThrow(() -> new UnavailableException(
					"DynamoDB did not serve the request within " + this.timeout + ".", null));
		return AwsRequestOverrideConfiguration.builder().apiCallTimeout(remaining).build();
	}

	/** The call's timeout, and the attempts it counts. */
	AwsRequestOverrideConfiguration within(ReadStats stats, WriteAttempts.Call attempts) {
		return within(stats).toBuilder().putExecutionAttribute(WriteAttempts.ATTRIBUTE, attempts).build();
	}

	/**
	 * One item's write sent alone: a place among the request's calls, its cost counted and its capacity recorded,
	 * the answer's image as the item written ({@code image}), a refusal told by {@link #alone}.
	 */
	<R> CompletableFuture<WriteOutcome> sendAlone(ReadStats stats, String part,
			Function<AwsRequestOverrideConfiguration, CompletableFuture<R>> call, Function<R, ConsumedCapacity> capacity,
			Function<R, Map<String, AttributeValue>> image) {
		WriteAttempts.Call attempts = new WriteAttempts.Call();
		return alone(stats.budget().calls().call(() -> stats.costs().sent(call.apply(within(stats, attempts))))
			.thenApply((response) -> {
				stats.costs().record(0, 0, units(capacity.apply(response)));
				return new WriteOutcome.Written(image.apply(response), attempts.earlierMayHaveWritten(true));
			}), part, attempts);
	}

	/**
	 * A write sent alone: a failed condition is a refusal with the stored item DynamoDB returned (of whose
	 * making an earlier attempt may be), any other failure what it means for the client.
	 */
	CompletableFuture<WriteOutcome> alone(CompletableFuture<WriteOutcome> sent, String part, WriteAttempts.Call attempts) {
		return sent.exceptionallyCompose((failure) -> {
			Throwable cause = DynamoDbFailures.unwrap(failure);
			if (cause instanceof ConditionalCheckFailedException refused) {
				return CompletableFuture.completedFuture(new WriteOutcome.Refused(0, refused.hasItem() ? refused.item()
						: Map.of(), attempts.earlierMayHaveWritten(false)));
			}
			return CompletableFuture.failedFuture(failure(cause, part, attempts));
		});
	}

	/**
	 * What a write call's failure means for the client: an item DynamoDB found too large is the client's
	 * ({@code INVALID_ARGUMENT}); DynamoDB unavailable after an attempt went out leaves the outcome unknown.
	 */
	static Throwable failure(Throwable cause, String part, WriteAttempts.Call attempts) {
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
	static boolean sizeRefusal(String message) {
		String text = String.valueOf(message).toLowerCase(Locale.ROOT);
		return text.contains("item size") && (text.contains("exceed") || text.contains("maximum"));
	}

	static InvalidArgumentException tooLarge(String part) {
		return new InvalidArgumentException(("%s would make an item over DynamoDB's limit of %d bytes (400 KB), with the "
				+ "attributes it holds already: nothing was written.").formatted(part.isEmpty() ? "The mutation"
						: "`" + part + "`", ItemComposer.MAX_ITEM_BYTES));
	}

	static Double units(ConsumedCapacity capacity) {
		return (capacity != null) ? capacity.capacityUnits() : null;
	}

	static double orZero(Double units) {
		return (units != null) ? units : 0;
	}

}
