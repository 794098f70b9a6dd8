package dev.dynamorelay.write;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Kind;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.error.ApiException;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.error.UnavailableException;
import dev.dynamorelay.model.Entity;

/**
 * Runs declared mutations: reads each input object, plans its writes ({@link WritePlanner}), sends them alone
 * or as one transaction ({@link Writer}), and answers what was written, or the refusal ({@link Refusals}).
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

	private final Writer writer;

	private final WritePlanner planner;

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
		this.writer = new Writer(dynamoDb, timeout);
		this.planner = new WritePlanner(declarations, this.writer);
		this.clock = clock;
		this.meters = meters;
	}

	/**
	 * What a mutation wrote for one input object.
	 *
	 * @param entity the type of the item
	 * @param item the item as written (a delete: as it was); empty when a delete found none
	 * @param clientMutationId the input's {@code clientMutationId}, answered as given
	 */
	public record Written(Entity entity, Optional<Map<String, AttributeValue>> item, Optional<String> clientMutationId) {
	}

	/**
	 * Runs {@code mutation} with the field's {@code arguments} (as GraphQL hands them over), for a caller that
	 * may write the items {@code owners} says: one answer per input object, in order.
	 * @param writer the caller's identity, whose own its idempotency keys are (empty: a caller without one)
	 */
	public CompletableFuture<List<Written>> run(DeclaredMutation mutation, Map<String, Object> arguments,
			Ownership.Owners owners, String writer, ReadStats stats) {
		List<InputValues> inputs;
		Optional<String> key;
		try {
			inputs = inputs(mutation, arguments);
			key = token(mutation, arguments, inputs);
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
		return attempt(mutation, inputs, token, owners, stats, now, 1, progress)
			.exceptionallyCompose((failure) -> CompletableFuture.failedFuture(unavailable(mutation, failure, progress,
					key.isPresent())))
			.whenComplete((written, failure) -> {
			if (failure == null) {
				// A create writes all it was given, children included; other kinds what they found.
				int items = (mutation.kind() == DeclaredMutation.Kind.CREATE) ? mutation.itemsWritten(arguments)
						: written.stream().mapToInt((each) -> each.item().isPresent() ? 1 : 0).sum();
				meters.written(items, stats.costs().consumedCapacity() - before);
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

	private CompletableFuture<List<Written>> attempt(DeclaredMutation mutation, List<InputValues> inputs,
			Optional<String> token, Ownership.Owners owners, ReadStats stats, Generation now, int attempt,
			Progress progress) {
		List<CompletableFuture<WritePlanner.Plan>> planned = new ArrayList<>(inputs.size());
		try {
			for (InputValues input : inputs) {
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
	private CompletableFuture<Sent> send(List<WritePlanner.Plan> plans, Optional<String> token, ReadStats stats,
			Progress progress) {
		List<ItemWrite> writes = new ArrayList<>();
		plans.forEach((plan) -> writes.addAll(plan.writes()));
		// Items that must exist are checked once (a transaction names an item once), and not beside their write;
		// of two checks of one item, the one of whose items the caller may write under is kept (it checks existence
		// too), else the first.
		writes.removeIf((write) -> write instanceof ItemWrite.CheckItem check && writes.stream()
			.anyMatch((other) -> other != check && other.table().equals(check.table()) && other.key().equals(check.key())
					&& (!(other instanceof ItemWrite.CheckItem kept) || (kept.first() && !check.first())
							|| (kept.first() == check.first() && writes.indexOf(other) < writes.indexOf(check)))));
		if (writes.size() > DeclaredMutation.MAX_TRANSACTION_ITEMS) {
			return CompletableFuture.failedFuture(new InvalidArgumentException(("The mutation writes %d items, more than "
					+ "one DynamoDB transaction takes (%d): write them in several mutations.").formatted(writes.size(),
							DeclaredMutation.MAX_TRANSACTION_ITEMS)));
		}
		for (int i = 0; i < writes.size(); i++) {
			for (int j = 0; j < i; j++) {
				if (writes.get(i).table().equals(writes.get(j).table()) && writes.get(i).key().equals(writes.get(j).key())) {
					return CompletableFuture.failedFuture(new InvalidArgumentException(("`%s` and `%s` write the same "
							+ "item: one transaction writes an item once.").formatted(writes.get(j).part(), writes.get(i).part())));
				}
			}
		}
		if (writes.size() == 1 && token.isEmpty()) {
			WritePlanner.Plan plan = plans.get(0);
			return this.writer.write(writes.get(0), stats).thenApply((outcome) -> {
				if (outcome instanceof Writer.Outcome.Refused refused) {
					return Sent.refused(Refusals.of(plan, plan.writes().get(0), refused.stored(), false, refused.retried()));
				}
				progress.written = true;
				Writer.Outcome.Written written = (Writer.Outcome.Written) outcome;
				// A delete that found nothing after an attempt whose answer was lost: that attempt deleted it.
				boolean ownEarlier = plan.kind() == Kind.DELETE && written.image().isEmpty() && written.retried();
				return Sent.written(List.of(plan.answer(ownEarlier ? plan.main().key() : written.image())));
			});
		}
		return before(plans, stats).thenCompose((old) -> this.writer.transact(writes, token, stats)
			.thenCompose((outcome) -> {
				if (outcome instanceof Writer.Outcome.Refused refused) {
					WritePlanner.Plan plan = owner(plans, writes.get(refused.index()));
					return CompletableFuture.completedFuture(Sent.refused(Refusals.of(plan, writes.get(refused.index()),
							refused.stored(), plans.size() > 1, refused.retried())));
				}
				progress.written = true;
				return after(plans, old, stats).thenApply(Sent::written);
			}));
	}

	/** What deletes in a transaction will delete, read first: a transaction answers no old items. */
	private CompletableFuture<List<Map<String, AttributeValue>>> before(List<WritePlanner.Plan> plans, ReadStats stats) {
		List<CompletableFuture<Map<String, AttributeValue>>> reads = new ArrayList<>();
		for (WritePlanner.Plan plan : plans) {
			reads.add((plan.kind() == Kind.DELETE) ? this.writer.get(plan.main().table(), plan.main().key(), List.of(), stats)
					: CompletableFuture.completedFuture(Map.of()));
		}
		return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
			.thenApply((done) -> reads.stream().map(CompletableFuture::join).toList());
	}

	/** The answers of a transaction: what creates composed, what updates wrote (read back), what deletes found. */
	private CompletableFuture<List<Written>> after(List<WritePlanner.Plan> plans, List<Map<String, AttributeValue>> old,
			ReadStats stats) {
		List<CompletableFuture<Written>> answers = new ArrayList<>();
		for (int i = 0; i < plans.size(); i++) {
			WritePlanner.Plan plan = plans.get(i);
			answers.add(switch (plan.kind()) {
				case CREATE -> CompletableFuture.completedFuture(plan.answer(Map.of()));
				case DELETE -> CompletableFuture.completedFuture(plan.answer(old.get(i)));
				case UPDATE, REPLACE -> this.writer.get(plan.main().table(), plan.main().key(), List.of(), stats)
					.thenApply(plan::answer);
			});
		}
		return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
			.thenApply((done) -> answers.stream().map(CompletableFuture::join).toList());
	}

	/** The plan a write of the transaction belongs to (a check kept for several, the first's). */
	private static WritePlanner.Plan owner(List<WritePlanner.Plan> plans, ItemWrite write) {
		return plans.stream()
			.filter((plan) -> plan.writes().contains(write))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no plan has write " + write.part()));
	}

	/** The mutation's input objects: one, the items of a list, or the field's arguments. */
	@SuppressWarnings("unchecked")
	private static List<InputValues> inputs(DeclaredMutation mutation, Map<String, Object> arguments) {
		DeclaredMutation.Input input = mutation.input();
		if (input.argument().isEmpty()) {
			return List.of(new InputValues(arguments, ""));
		}
		String name = input.argument().get();
		Object value = arguments.get(name);
		if (!input.many()) {
			return List.of(new InputValues((Map<String, Object>) value, name));
		}
		List<Map<String, Object>> items = (List<Map<String, Object>>) value;
		if (items.isEmpty()) {
			throw new InvalidArgumentException("`%s` is empty: give at least one item to write.".formatted(name));
		}
		if (items.size() > DeclaredMutation.MAX_TRANSACTION_ITEMS) {
			throw new InvalidArgumentException(("`%s` has %d items, more than one DynamoDB transaction takes (%d): write "
					+ "them in several mutations.").formatted(name, items.size(), DeclaredMutation.MAX_TRANSACTION_ITEMS));
		}
		List<InputValues> inputs = new ArrayList<>(items.size());
		for (int i = 0; i < items.size(); i++) {
			inputs.add(new InputValues(items.get(i), name + "[" + i + "]"));
		}
		return inputs;
	}

	/** The write's idempotency key: the argument beside the input, else the (first) input object's field. */
	private static Optional<String> token(DeclaredMutation mutation, Map<String, Object> arguments,
			List<InputValues> inputs) {
		if (mutation.input().idempotencyArgument().isPresent()) {
			String name = mutation.input().idempotencyArgument().get();
			return InputValues.token(arguments.get(name), name);
		}
		Optional<InputField.IdempotencyKey> field = mutation.input().shape().one(InputField.IdempotencyKey.class);
		if (field.isEmpty()) {
			return Optional.empty();
		}
		for (InputValues input : inputs) {
			Optional<String> token = InputValues.token(input.get(field.get().name()), input.path(field.get().name()));
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
