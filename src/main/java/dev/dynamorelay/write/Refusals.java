package dev.dynamorelay.write;

import java.util.Map;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.DeclaredMutation.Kind;
import dev.dynamorelay.error.ConflictException;
import dev.dynamorelay.error.NotFoundException;
import dev.dynamorelay.model.Entity;

/**
 * Tells what a refused write means for the client, from the stored item DynamoDB returned with the refusal:
 * the item exists already (a create: {@code CONFLICT}), is not there ({@code NOT_FOUND}, or a delete of
 * nothing), belongs to another owner (answered as one that is not there, so that neither its content nor its
 * existence shows), has another version ({@code CONFLICT} with {@code currentVersion}), or fails a declared
 * condition ({@code CONFLICT}); or a new attempt may succeed (a generated time that is taken, a value read
 * that changed since).
 *
 * <p>A write the SDK sent again after an attempt whose answer was lost may be refused for that attempt's own
 * work: the create's item exists, the update's version has moved on, the delete's item is gone. When the
 * stored item is what the write would have made, the refusal is answered as the write ({@link
 * Plan#madeBy}).
 */
final class Refusals {

	private Refusals() {
	}

	/**
	 * What a refusal comes to: try again, fail, or answer (a delete of an item that is not there).
	 *
	 * @param retry whether a new attempt may succeed
	 * @param failure the client's error
	 * @param answer the answer despite the refusal
	 */
	record Refusal(boolean retry, Optional<RuntimeException> failure, Optional<Written> answer) {

		/** A new attempt may succeed; {@code otherwise} is the failure once attempts run out. */
		static Refusal again(RuntimeException otherwise) {
			return new Refusal(true, Optional.of(otherwise), Optional.empty());
		}

		static Refusal fail(RuntimeException failure) {
			return new Refusal(false, Optional.of(failure), Optional.empty());
		}

		static Refusal answer(Written answer) {
			return new Refusal(false, Optional.empty(), Optional.of(answer));
		}

	}

	/**
	 * The refusal of {@code write}, a part of {@code plan}.
	 * @param inTransaction whether the plan's writes went with others, so that the error names the part
	 * @param retried whether an earlier attempt of the same call may have been made
	 */
	static Refusal of(Plan plan, ItemWrite write, Map<String, AttributeValue> stored,
			boolean inTransaction, boolean retried) {
		Optional<String> part = inTransaction ? Optional.of(write.part()) : Optional.empty();
		if (write instanceof ItemWrite.CheckItem check) {
			return Refusal.fail(check.refusal());
		}
		if (retried && write == plan.main() && plan.madeBy(stored)) {
			// The call's own earlier attempt wrote it: answered as written.
			return Refusal.answer(plan.answer(stored.isEmpty() ? write.key() : stored));
		}
		Entity entity = plan.entity();
		if (write != plan.main()) {
			return Refusal.fail(new ConflictException("An item with the key of `%s` exists already: nothing was written."
				.formatted(write.part()), version(entity, stored), Optional.of(write.part())));
		}
		String item = "%s %s".formatted(entity.name(), entity.node() ? "`" + WritePlanner.id(entity, write.key()) + "`"
				: "with key " + write.key());
		if (plan.kind() == Kind.CREATE) {
			ConflictException exists = new ConflictException("The %s of this key exists already (%s): nothing was written."
				.formatted(entity.name(), item), version(entity, stored), part);
			return plan.generatedKey() ? Refusal.again(exists) : Refusal.fail(exists);
		}
		boolean missing = stored.isEmpty() || plan.owned()
			.filter((ownership) -> !ownership.identity().equals(WritePlanner.text(stored.get(ownership.field().attribute()))))
			.isPresent();
		if (missing) {
			return switch (plan.kind()) {
				case DELETE -> inTransaction ? Refusal.fail(new NotFoundException("No %s exists: nothing was deleted."
					.formatted(item))) : Refusal.answer(plan.answer(Map.of()));
				default -> Refusal.fail(new NotFoundException("No %s exists: nothing was written.".formatted(item)));
			};
		}
		Optional<Long> current = version(entity, stored);
		boolean changedSince = plan.read().entrySet().stream()
			.anyMatch((read) -> !read.getValue().equals(Optional.ofNullable(stored.get(read.getKey()))));
		if (changedSince) {
			return Refusal.again(new ConflictException(("The %s kept changing while it was written: nothing was written; "
					+ "make the mutation again.").formatted(item), current, part));
		}
		if (plan.expectedVersion().isPresent() && !plan.expectedVersion().equals(current)) {
			return Refusal.fail(new ConflictException(("The %s is at version %s, not the expected %d: nothing was written; "
					+ "read it again, and write from what it is now.").formatted(item, current.map(String::valueOf).orElse("?"),
							plan.expectedVersion().get()), current, part));
		}
		return Refusal.fail(new ConflictException("A condition of `%s` does not hold for the %s: nothing was written."
			.formatted(plan.mutation().name(), item), current, part));
	}

	/** The stored item's version, where the type has one (0 for an item written without it). */
	static Optional<Long> version(Entity entity, Map<String, AttributeValue> stored) {
		if (entity.version().isEmpty() || stored.isEmpty()) {
			return Optional.empty();
		}
		AttributeValue value = stored.get(entity.version().get().attribute());
		if (value == null || value.n() == null) {
			return Optional.of(0L);
		}
		try {
			return Optional.of(new java.math.BigDecimal(value.n()).longValueExact());
		}
		catch (ArithmeticException ex) {
			return Optional.empty();
		}
	}

}
