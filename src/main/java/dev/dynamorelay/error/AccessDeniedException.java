package dev.dynamorelay.error;

/**
 * A field the caller may not use: {@code UNAUTHENTICATED} when a signed-in caller could, and the
 * request has no valid token; {@code FORBIDDEN} when the caller's token does not satisfy the rules.
 * Thrown before the field reads anything.
 */
public class AccessDeniedException extends ApiException {

	private final ErrorCode code;

	private AccessDeniedException(ErrorCode code, String message) {
		super(message);
		this.code = code;
	}

	public static AccessDeniedException unauthenticated(String message) {
		return new AccessDeniedException(ErrorCode.UNAUTHENTICATED, message);
	}

	public static AccessDeniedException forbidden(String message) {
		return new AccessDeniedException(ErrorCode.FORBIDDEN, message);
	}

	@Override
	public ErrorCode code() {
		return this.code;
	}

}
