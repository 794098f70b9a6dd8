package dev.dynamorelay.access;

import java.util.Set;
import java.util.TreeSet;

/**
 * One way to be allowed, as an {@code @auth} rule declares it (see {@code AuthStrategy} in the
 * declaration language). Rules of one directive combine with OR.
 */
public sealed interface AuthRule {

	/** How the rule reads in an error message: whom it allows. */
	String describe();

	/** Anyone, with or without a token. */
	record Public() implements AuthRule {

		@Override
		public String describe() {
			return "anyone";
		}

	}

	/** Any caller with a valid token. */
	record SignedIn() implements AuthRule {

		@Override
		public String describe() {
			return "any signed-in caller";
		}

	}

	/**
	 * The caller whose {@code identityClaim} equals the owner field.
	 *
	 * @param ownerField on a type, a field of the type; on a field, a dotted path into its arguments, or a
	 * field of the parent item
	 * @param identityClaim the token's claim that identifies the caller
	 * @param parentField on a field, whether {@code ownerField} is a field of the parent item rather than
	 * an argument
	 */
	record Owner(String ownerField, String identityClaim, boolean parentField) implements AuthRule {

		public Owner(String ownerField, String identityClaim) {
			this(ownerField, identityClaim, false);
		}

		@Override
		public String describe() {
			return "the owner (`%s` = the token's `%s`)".formatted(this.ownerField, this.identityClaim);
		}

	}

	/**
	 * A caller in one of the groups.
	 *
	 * @param groups the groups, any of which allows
	 * @param groupClaim the token's claim that lists the caller's groups
	 */
	record Groups(Set<String> groups, String groupClaim) implements AuthRule {

		public Groups {
			groups = Set.copyOf(groups);
		}

		@Override
		public String describe() {
			return "group %s (claim `%s`)".formatted(String.join(" or ", new TreeSet<>(this.groups)), this.groupClaim);
		}

	}

	/**
	 * A caller granted one of the scopes.
	 *
	 * @param scopes the scopes, any of which allows
	 */
	record Scopes(Set<String> scopes) implements AuthRule {

		public Scopes {
			scopes = Set.copyOf(scopes);
		}

		@Override
		public String describe() {
			return "scope " + String.join(" or ", new TreeSet<>(this.scopes));
		}

	}

}
