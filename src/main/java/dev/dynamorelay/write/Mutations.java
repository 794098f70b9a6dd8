package dev.dynamorelay.write;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Kind;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.error.ApiException;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.error.UnavailableException;

/**
 * Runs declared mutations: takes a mutation's typed input ({@link MutationInput}), plans the writes of each input
 * object ({@link WritePlanner}), sends them alone or as one transaction (an operation per DynamoDB call, as the AWS
 * SDK's enhanced client has: {@link PutItemOperation}, {@link UpdateItemOperation}, {@link DeleteItemOperation},
 * {@link TransactWriteItemsOperation}), and answers what was written ({@link Written}), or the refusal
 * ({@link Refusals}).
 *
 * <p>One input object writes alone, with PutItem, UpdateItem or DeleteItem; a list of them, children,
 * references and idempotency keys go in one TransactWriteItems, all or nothing. A create whose key holds a
 * generated time that is taken is made again at the next millisecond, a few times.
 *
 * <p>An idempotency key is the writer's own: its {@code ClientRequestToken} is derived from the writer's
 * identity and the key, so that another caller's key neither conflicts with nor tells about it. A mutation
 * DynamoDB did not serve in time fails {@code UNAVAILABLE} with what became of its write
 * ({@link WriteUnavailableException}).
 */
public final class Mutations {

	/** Attempts at a mutation whose refusal a new attempt may cure: a taken generated time, a raced read. */
	static final int ATTEMPTS = 5;

	private final WritePlanner planner;

	private final PutItemOperation put;

	private final UpdateItemOperation update;

	private final DeleteItemOperation delete;

	private final TransactWriteItemsOperation transaction;

	private final Clock clock;

	private final WriteMeters.Source meters;

	/**
	 * The time each idempotency key (of a writer and a mutation) was first seen with, for as long as DynamoDB
	 * remembers a key (ten minutes): a retry generates the time its first call did. Per process: a retry that
	 * reaches another instance generates its own time.
	 */
	private final Cache<String, Long> firstSeen = Caffeine.newBuilder()
		.expireAfterWrite(Duration.ofMinutes(10))
		.maximumSize(100_000)
		.build();

	public Mutations(DynamoDbAsyncClient dynamoDb, Declarations declarations, Duration timeout, Clock clock,
			WriteMeters.Source meters) {
		WriteCalls calls = new WriteCalls(dynamoDb, timeout);
		this.planner = new WritePlanner(declarations, calls);
		this.put = new PutItemOperation(calls);
		this.update = new UpdateItemOperation(calls);
		this.delete = new DeleteItemOperation(calls);
		this.transaction = new TransactWriteItemsOperation(calls);
		this.clock = clock;
		this.meters = meters;
	}

	/**
	 * Runs {@code mutation} with its {@code input}, for a caller that may write the items {@code owners} says: one
	 * answer per input object, in order.
	 * @param writer the caller's identity, whose own its idempotency keys are (empty: a caller without one)
	 */
	public CompletableFuture<List<Written>> run(DeclaredMutation mutation, MutationInput input, Ownership.Owners owners,
			String writer, ReadStats stats) {
		Optional<String> key;
		try {
			check(mutation, input);
			key = token(mutation, input);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		WriteMeters meters = this.meters.mutation(mutation.name());
		// Mutation fields run one after another: what the request consumed meanwhile is this mutation's.
		double before = stats.costs().consumedCapacity();
		Optional<String> seed = key.map((given) -> writer.length() + ":" + writer + mutation.name() + '\n' + given);
		Generation now = new Generation(seed.map((first) -> this.firstSeen.get(first, (ignored) -> this.clock.millis()))
			.orElseGet(this.clock::millis), seed);
		Optional<String> token = key.map((given) -> clientRequestToken(writer, given));
		Progress progress = new Progress();
		return attempt(mutation, input.objects(), token, owners, stats, now, 1, progress)
			.exceptionallyCompose((failure) -> CompletableFuture.failedFuture(unavailable(mutation, failure, progress,
					key.isPresent())))
			.whenComplete((written, failure) -> {
				if (failure == null) {
					// A create writes all it was given, children included; other kinds what they found.
					int items = (mutation.kind() == DeclaredMutation.Kind.CREATE) ? input.items()
							: (int) written.stream().filter((each) -> each.item().isPresent()).count();
					if (items == 0) {
						meters.unchanged(stats.costs().consumedCapacity() - before); // a delete of nothing wrote nothing
					}
					else {
						meters.written(items, stats.costs().consumedCapacity() - before);
					}
				}
				else if (DynamoDbFailures.unwrap(failure) instanceof ApiException refused) {
					meters.refused(refused.code());
				}
			});
	}

	/**
	 * The {@code ClientRequestToken} of a writer's idempotency key: 36 characters (DynamoDB's most) of the
	 * SHA-256 of both (the writer's length first, so that no other pair reads the same), so that two callers'
	 * equal keys are two writes.
	 */
	static String clientRequestToken(String writer, String key) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256")
				.digest((writer.length() + ":" + writer + key).getBytes(StandardCharsets.UTF_8));
			return Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, 36);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java platform has SHA-256", ex);
		}
	}

	/** How far a mutation got: whether a write of it was made (what failed after it was reading its answer). */
	private static final class Progress {

		private volatile boolean written;

	}

	/**
	 * A mutation that ended UNAVAILABLE, with what became of its write: nothing was written (nothing went
	 * out, or DynamoDB refused every attempt), it was (its answer's read failed), or it is unknown (an attempt
	 * went out and was not answered).
	 */
	private static Throwable unavailable(DeclaredMutation mutation, Throwable failure, Progress progress, boolean keyed) {
		Throwable cause = DynamoDbFailures.unwrap(failure);
		if (!DynamoDbFailures.isUnavailable(cause)) {
			return cause;
		}
		WriteUnavailableException.Outcome outcome = (cause instanceof WriteUnavailableException unknown) ? unknown.outcome()
				: progress.written ? WriteUnavailableException.Outcome.WRITTEN : WriteUnavailableException.Outcome.NONE;
		String type = mutation.entity().name();
		String message = switch (outcome) {
			case NONE -> ((cause instanceof UnavailableException own) ? own.getMessage()
					: "DynamoDB is unavailable or did not answer in time.") + " Nothing was written: send the mutation again "
							+ "later.";
			case WRITTEN -> ("The %s was written, but DynamoDB did not answer the read of what it holds now in time: read "
					+ "it to see it; do not send the mutation again.").formatted(type);
			case UNKNOWN -> ("DynamoDB did not answer the write of the %s after it was sent: it may have been made, or not "
					+ "(extensions.writeOutcome is `unknown`). ").formatted(type) + (keyed
							? "Send the mutation again with the same idempotency key within ten minutes: it is written once, "
									+ "and answered as it was."
							: "Read the %s to learn whether it was written before you send the mutation again; an idempotency "
								.formatted(type) + "key, where the mutation takes one, makes sending it again safe.");
		};
		return new WriteUnavailableException(outcome, message,
				(cause instanceof WriteUnavailableException sent && sent.getCause() != null) ? sent.getCause() : cause);
	}

	private CompletableFuture<List<Written>> attempt(DeclaredMutation mutation, List<InputObject> inputs,
			Optional<String> token, Ownership.Owners owners, ReadStats stats, Generation now, int attempt,
			Progress progress) {
		List<CompletableFuture<Plan>> planned = new ArrayList<>(inputs.size());
		try {
			for (InputObject input : inputs) {
				planned.add(this.planner.plan(mutation, input, owners, now, stats));
			}
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		return CompletableFuture.allOf(planned.toArray(CompletableFuture[]::new))
			.thenCompose((ready) -> send(planned.stream().map(CompletableFuture::join).toList(), token, stats, progress))
			.thenCompose((sent) -> {
				if (sent.refusal().isPresent() && sent.refusal().get().retry() && attempt < ATTEMPTS) {
					return attempt(mutation, inputs, token, owners, stats, now.next(), attempt + 1, progress);
				}
				if (sent.refusal().isPresent()) {
					return CompletableFuture.failedFuture(sent.refusal().get().failure().orElseThrow());
				}
				return CompletableFuture.completedFuture(sent.written());
			});
	}

	/** The plans' writes, alone or as one transaction, and their answers. */
	private CompletableFuture<Sent> send(List<Plan> plans, Optional<String> token, ReadStats stats, Progress progress) {
		List<ItemWrite> writes;
		try {
			writes = WritePlanner.parts(plans);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		if (writes.size() == 1 && token.isEmpty()) {
			Plan plan = plans.get(0);
			return alone(writes.get(0), stats).thenApply((outcome) -> {
				if (outcome instanceof WriteOutcome.Refused refused) {
					return Sent.refused(Refusals.of(plan, plan.writes().get(0), refused.stored(), false, refused.retried()));
				}
				progress.written = true;
				WriteOutcome.Written written = (WriteOutcome.Written) outcome;
				// A delete that found nothing after an attempt whose answer was lost: that attempt deleted it.
				boolean ownEarlier = plan.kind() == Kind.DELETE && written.image().isEmpty() && written.retried();
				return Sent.written(List.of(plan.answer(ownEarlier ? plan.main().key() : written.image())));
			});
		}
		return this.transaction.before(plans, stats).thenCompose((old) -> this.transaction.send(writes, token, stats)
			.thenCompose((outcome) -> {
				if (outcome instanceof WriteOutcome.Refused refused) {
					Plan plan = owner(plans, writes.get(refused.index()));
					return CompletableFuture.completedFuture(Sent.refused(Refusals.of(plan, writes.get(refused.index()),
							refused.stored(), plans.size() > 1, refused.retried())));
				}
				progress.written = true;
				return this.transaction.after(plans, old, stats).thenApply(Sent::written);
			}));
	}

	/** One write alone, with the operation of its kind: PutItem, UpdateItem or DeleteItem. */
	private CompletableFuture<WriteOutcome> alone(ItemWrite write, ReadStats stats) {
		if (write instanceof ItemWrite.PutItem item) {
			return this.put.send(item, stats);
		}
		if (write instanceof ItemWrite.UpdateItem item) {
			return this.update.send(item, stats);
		}
		if (write instanceof ItemWrite.DeleteItem item) {
			return this.delete.send(item, stats);
		}
		throw new IllegalArgumentException("a check is part of a transaction");
	}

	/** The plan a write of the transaction belongs to (a check kept for several, the first's). */
	private static Plan owner(List<Plan> plans, ItemWrite write) {
		return plans.stream()
			.filter((plan) -> plan.writes().contains(write))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no plan has write " + write.part()));
	}

	/** Refuses an input of no objects, or of more than one transaction takes, before anything is planned. */
	private static void check(DeclaredMutation mutation, MutationInput input) {
		String name = mutation.input().argument().orElse(mutation.name());
		int objects = input.objects().size();
		if (objects == 0) {
			throw new InvalidArgumentException("`%s` is empty: give at least one item to write.".formatted(name));
		}
		if (objects > DeclaredMutation.MAX_TRANSACTION_ITEMS) {
			throw new InvalidArgumentException(("`%s` has %d items, more than one DynamoDB transaction takes (%d): write "
					+ "them in several mutations.").formatted(name, objects, DeclaredMutation.MAX_TRANSACTION_ITEMS));
		}
	}

	/** The write's idempotency key: the argument beside the input, else the (first) input object's field. */
	private static Optional<String> token(DeclaredMutation mutation, MutationInput input) {
		if (mutation.input().idempotencyArgument().isPresent()) {
			return InputObject.token(input.idempotencyKey().orElse(null), mutation.input().idempotencyArgument().get());
		}
		Optional<InputField.IdempotencyKey> field = mutation.input().shape().one(InputField.IdempotencyKey.class);
		if (field.isEmpty()) {
			return Optional.empty();
		}
		for (InputObject object : input.objects()) {
			Optional<String> token = InputObject.token(object.get(field.get().name()), object.path(field.get().name()));
			if (token.isPresent()) {
				return token;
			}
		}
		return Optional.empty();
	}

	/** What sending came to: the answers, or a refusal. */
	private record Sent(List<Written> written, Optional<Refusals.Refusal> refusal) {

		static Sent written(List<Written> written) {
			return new Sent(written, Optional.empty());
		}

		static Sent refused(Refusals.Refusal refusal) {
			if (refusal.answer().isPresent()) {
				return new Sent(List.of(refusal.answer().get()), Optional.empty());
			}
			return new Sent(List.of(), Optional.of(refusal));
		}

	}

}
