package dev.dynamorelay.live;

import java.util.Objects;

/**
 * Whose subscriptions count together against the per-caller limit: a signed-in caller's subject, or, for a
 * caller without one, the client's address (anonymous callers behind one address share it).
 *
 * @param kind whether {@code value} is a subject or an address
 * @param value the subject or the address
 */
public record SubscriberId(Kind kind, String value) {

	public SubscriberId {
		Objects.requireNonNull(kind, "kind");
		Objects.requireNonNull(value, "value");
	}

	public static SubscriberId subject(String subject) {
		return new SubscriberId(Kind.SUBJECT, subject);
	}

	public static SubscriberId address(String address) {
		return new SubscriberId(Kind.ADDRESS, address);
	}

	/** What identifies a subscriber. */
	public enum Kind {

		/** The {@code sub} claim of a validated token. */
		SUBJECT,

		/** The client's address, for a caller without a subject. */
		ADDRESS

	}

}
