package dev.dynamorelay.error;

/** The error codes of the public contract, sent as {@code extensions.code}. */
public enum ErrorCode {

	/** Bad arguments, and every request error (syntax, validation, variable coercion). */
	INVALID_ARGUMENT,

	/** A cursor that this connection did not issue. */
	INVALID_CURSOR,

	/** A referenced item that must exist does not. */
	NOT_FOUND,

	/** DynamoDB unreachable, throttled past retries, or not answering in time. */
	UNAVAILABLE,

	/** A request deeper, wider or costlier than the configured limits, refused before any read. */
	QUERY_TOO_COMPLEX,

	/** A rule needs a signed-in caller and the request has no valid token. */
	UNAUTHENTICATED,

	/** The caller's token does not satisfy the field's rule; the field read nothing. */
	FORBIDDEN,

	/** Anything else; details are in the server log. */
	INTERNAL

}
