package dev.dynamorelay.live;

/**
 * A fleet's part that stops the start ({@code dynamo-relay.live.broker=redis}): Redis missing, unreachable or too
 * old, a lease table of another shape or missing where the server creates none. Its message says what to fix, and
 * {@link FleetFailureAnalyzer} reports it so, without a stack trace.
 */
public final class FleetStartException extends IllegalStateException {

	FleetStartException(String message) {
		super(message);
	}

}
