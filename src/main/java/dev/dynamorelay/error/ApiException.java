package dev.dynamorelay.error;

/**
 * A failure a client caused or must know about, carrying the contract's {@code extensions.code}.
 *
 * <p>Messages are written for a client developer: they say what was wrong and how to fix it, and
 * never name an internal class.
 */
public abstract class ApiException extends RuntimeException {

	protected ApiException(String message) {
		super(message, null, false, false);
	}

	protected ApiException(String message, Throwable cause) {
		super(message, cause, false, false);
	}

	/** The value of {@code extensions.code} in the GraphQL error. */
	public abstract ErrorCode code();

	/** What the GraphQL error's {@code extensions} hold beside the code (e.g. {@code currentVersion}). */
	public java.util.Map<String, Object> extensions() {
		return java.util.Map.of();
	}

}
