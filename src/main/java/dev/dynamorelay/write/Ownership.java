package dev.dynamorelay.write;

import java.util.Optional;

import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;

/**
 * The items of a type a caller may write under an OWNER rule: those whose owner field holds the caller's
 * identity.
 *
 * @param field the type's owner field
 * @param identity the caller's identity, as the rule's claim gives it
 */
public record Ownership(AttributeField field, String identity) {

	/** Whose items of each type the caller of one mutation may write, and under whose items it may write. */
	public interface Owners {

		/** Everyone's: no rule is checked. */
		Owners ANYONE = new Owners() {

			@Override
			public Optional<Ownership> of(Entity entity) {
				return Optional.empty();
			}

			@Override
			public Optional<Ownership> under(Entity parent) {
				return Optional.empty();
			}

		};

		/**
		 * Empty when the caller may write any item of {@code entity}, else only those it owns.
		 * @throws dev.dynamorelay.error.AccessDeniedException when it may write none
		 */
		Optional<Ownership> of(Entity entity);

		/**
		 * Under which items of {@code parent} the caller may write their children ({@code @children}): any
		 * (empty), else only its own, by {@code parent}'s rules whatever the children's own rules allow.
		 * @throws dev.dynamorelay.error.AccessDeniedException when it may write under none
		 */
		Optional<Ownership> under(Entity parent);

	}

}
