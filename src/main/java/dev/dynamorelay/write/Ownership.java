package dev.dynamorelay.write;

import java.util.Optional;

import dev.dynamorelay.declaration.Entity;
import dev.dynamorelay.declaration.Entity.AttributeField;

/**
 * The items of a type a caller may write under an OWNER rule: those whose owner field holds the caller's
 * identity.
 *
 * @param field the type's owner field
 * @param identity the caller's identity, as the rule's claim gives it
 */
public record Ownership(AttributeField field, String identity) {

	/** Whose items of each type the caller of one mutation may write. */
	@FunctionalInterface
	public interface Owners {

		/** Everyone's (no other rule than an OWNER one allows the caller: theirs only). */
		Owners ANYONE = (entity) -> Optional.empty();

		/**
		 * Empty when the caller may write any item of {@code entity}, else only those it owns.
		 * @throws dev.dynamorelay.error.AccessDeniedException when it may write none
		 */
		Optional<Ownership> of(Entity entity);

	}

}
