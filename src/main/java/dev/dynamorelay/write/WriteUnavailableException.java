package dev.dynamorelay.write;

import java.util.Locale;
import java.util.Map;

import dev.dynamorelay.error.UnavailableException;

/**
 * A mutation DynamoDB did not serve in time ({@code UNAVAILABLE}), with what became of its write in
 * {@code extensions.writeOutcome}: nothing written, written, or unknown (an attempt went out and its answer
 * never came back, so it may have been made).
 */
final class WriteUnavailableException extends UnavailableException {

	/** The extension that holds the outcome. */
	static final String OUTCOME = "writeOutcome";

	/** What became of a write that ended UNAVAILABLE. */
	enum Outcome {

		/** Nothing was written: sending the mutation again is safe. */
		NONE,

		/** Written; what failed was reading its answer back. */
		WRITTEN,

		/** Sent, and not answered: it may have been written. */
		UNKNOWN;

		String value() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	private final Outcome outcome;

	WriteUnavailableException(Outcome outcome, String message, Throwable cause) {
		super(message, cause);
		this.outcome = outcome;
	}

	/** A write call that failed after an attempt went out; {@link Mutations} words the client's message. */
	static WriteUnavailableException unknown(Throwable cause) {
		return new WriteUnavailableException(Outcome.UNKNOWN, "DynamoDB did not answer a write that was sent.", cause);
	}

	Outcome outcome() {
		return this.outcome;
	}

	@Override
	public Map<String, Object> extensions() {
		return Map.of(OUTCOME, this.outcome.value());
	}

	/** For the log: the outcome, and what DynamoDB's client reported (the client's message is in the answer). */
	@Override
	public String toString() {
		return "write outcome " + this.outcome.value() + ": " + ((getCause() != null) ? getCause() : getMessage());
	}

}
