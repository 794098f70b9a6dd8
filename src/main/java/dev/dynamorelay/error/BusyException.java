package dev.dynamorelay.error;

/**
 * The server itself is at one of its limits (its live subscriptions, a subscriber's buffer), not DynamoDB:
 * {@code UNAVAILABLE}, with a message that says which limit and what to do.
 */
public class BusyException extends ApiException {

	public BusyException(String message) {
		super(message, null);
	}

	@Override
	public ErrorCode code() {
		return ErrorCode.UNAVAILABLE;
	}

}
