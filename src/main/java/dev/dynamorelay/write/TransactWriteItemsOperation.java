package dev.dynamorelay.write;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.IdempotentParameterMismatchException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.error.ConflictException;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.error.UnavailableException;

/**
 * Sends several writes (and checks) as one TransactWriteItems, all or none, as the AWS SDK's enhanced client has
 * an operation per DynamoDB call; and reads the answers a transaction does not return (what its deletes find
 * before, what its updates made after), strongly consistent.
 *
 * <p>A transaction always carries a {@code ClientRequestToken}, so that the SDK's retries of a call whose answer
 * was lost are made once.
 */
final class TransactWriteItemsOperation {

	private final WriteCalls calls;

	TransactWriteItemsOperation(WriteCalls calls) {
		this.calls = calls;
	}

	/**
	 * Sends {@code writes} as one transaction, made once for ten minutes under its {@code ClientRequestToken}:
	 * {@code token} (an idempotency key's), else one of its own. Answers {@link WriteOutcome.Written} with no image
	 * (a transaction returns none), or {@link WriteOutcome.Refused} naming the part whose condition failed (an
	 * ownership check first: it decides before anything else is told). Another transaction holding one of the
	 * items, or the token used with another input, fails {@link ConflictException}.
	 */
	CompletableFuture<WriteOutcome> send(List<ItemWrite> writes, Optional<String> token, ReadStats stats) {
		WriteAttempts.Call attempts = new WriteAttempts.Call();
		String clientRequestToken = token.orElseGet(() -> UUID.randomUUID().toString());
		return stats.budget().calls().call(() -> stats.costs()
			.sent(this.calls.dynamoDb().transactWriteItems((request) -> request
			.transactItems(writes.stream().map(ItemWrite::transactionItem).toList())
			.clientRequestToken(clientRequestToken)
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.overrideConfiguration(this.calls.within(stats, attempts))))).<WriteOutcome>thenApply((response) -> {
				double units = response.hasConsumedCapacity() ? response.consumedCapacity()
					.stream()
					.mapToDouble((each) -> WriteCalls.orZero(each.capacityUnits()))
					.sum() : 0;
				stats.costs().record(0, 0, units);
				return new WriteOutcome.Written(Map.of(), attempts.earlierMayHaveWritten(true));
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
				return CompletableFuture.failedFuture(WriteCalls.failure(cause, "", attempts));
			});
	}

	/**
	 * A transaction DynamoDB canceled: the part that refused it, and why. A failed check that decides first
	 * ({@link ItemWrite.CheckItem#first()}: whose items the caller may write under) is told before any other
	 * part's refusal, so that a refusal never tells about items the caller may not write.
	 */
	private static CompletableFuture<WriteOutcome> canceled(List<ItemWrite> writes, List<CancellationReason> reasons) {
		for (int i = 0; i < reasons.size() && i < writes.size(); i++) {
			if (writes.get(i) instanceof ItemWrite.CheckItem check && check.first()
					&& "ConditionalCheckFailed".equals(reasons.get(i).code())) {
				return CompletableFuture.completedFuture(new WriteOutcome.Refused(i, Map.of(), false));
			}
		}
		for (int i = 0; i < reasons.size() && i < writes.size(); i++) {
			CancellationReason reason = reasons.get(i);
			String code = (reason.code() != null) ? reason.code() : "None";
			if (!"None".equals(code)) {
				return canceled(i, writes.get(i).part(), reason, code);
			}
		}
		return CompletableFuture.failedFuture(new IllegalStateException("a transaction canceled for no reason given"));
	}

	/** What the refusal of part {@code index} ({@code part} of the input) for {@code code} means. */
	private static CompletableFuture<WriteOutcome> canceled(int index, String part, CancellationReason reason,
			String code) {
		return switch (code) {
			case "ConditionalCheckFailed" -> CompletableFuture.completedFuture(new WriteOutcome.Refused(index,
					reason.hasItem() ? reason.item() : Map.of(), false));
			case "TransactionConflict" -> CompletableFuture.failedFuture(new ConflictException(("Another write to the "
					+ "item of `%s` was in progress: nothing was written; make the mutation again.").formatted(part),
					Optional.empty(), Optional.of(part)));
			case "ValidationError" -> CompletableFuture.failedFuture(WriteCalls.sizeRefusal(reason.message())
					? WriteCalls.tooLarge(part) : new InvalidArgumentException(
							"DynamoDB refused the item of `%s` (%s): nothing was written.".formatted(part, reason.message())));
			default -> CompletableFuture.failedFuture(new UnavailableException(
					"DynamoDB did not write the item of `%s` (%s); retry the mutation later.".formatted(part, code), null));
		};
	}

	/** What deletes in a transaction will delete, read first: a transaction answers no old items. */
	CompletableFuture<List<Map<String, AttributeValue>>> before(List<Plan> plans, ReadStats stats) {
		List<CompletableFuture<Map<String, AttributeValue>>> reads = new ArrayList<>();
		for (Plan plan : plans) {
			reads.add(plan.main() instanceof ItemWrite.DeleteItem delete
					? this.calls.get(delete.table(), delete.key(), List.of(), stats)
					: CompletableFuture.completedFuture(Map.of()));
		}
		return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
			.thenApply((done) -> reads.stream().map(CompletableFuture::join).toList());
	}

	/** The answers of a transaction: what creates composed, what updates wrote (read back), what deletes found. */
	CompletableFuture<List<Written>> after(List<Plan> plans, List<Map<String, AttributeValue>> old, ReadStats stats) {
		List<CompletableFuture<Written>> answers = new ArrayList<>();
		for (int i = 0; i < plans.size(); i++) {
			Plan plan = plans.get(i);
			answers.add(switch (plan.kind()) {
				case CREATE -> CompletableFuture.completedFuture(plan.answer(Map.of()));
				case DELETE -> CompletableFuture.completedFuture(plan.answer(old.get(i)));
				case UPDATE, REPLACE -> this.calls.get(plan.main().table(), plan.main().key(), List.of(), stats)
					.thenApply(plan::answer);
			});
		}
		return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
			.thenApply((done) -> answers.stream().map(CompletableFuture::join).toList());
	}

}
