package dev.dynamorelay.error;

import org.springframework.graphql.execution.ErrorType;
import org.springframework.http.HttpStatus;

/**
 * The error codes of the public contract, sent as {@code extensions.code} (GraphQL) and {@code code}
 * (problem+json): each code carries the GraphQL error classification and the HTTP status it answers with.
 */
public enum ErrorCode {

	/** Bad arguments, and every request error (syntax, validation, variable coercion). */
	INVALID_ARGUMENT(ErrorType.BAD_REQUEST, HttpStatus.BAD_REQUEST),

	/** A cursor that this connection did not issue. */
	INVALID_CURSOR(ErrorType.BAD_REQUEST, HttpStatus.BAD_REQUEST),

	/** A referenced item that must exist does not. */
	NOT_FOUND(ErrorType.NOT_FOUND, HttpStatus.NOT_FOUND),

	/** A write whose condition does not hold; nothing was written. */
	CONFLICT(ErrorType.BAD_REQUEST, HttpStatus.CONFLICT),

	/** DynamoDB unreachable, throttled past retries, or not answering in time. */
	UNAVAILABLE(ErrorType.INTERNAL_ERROR, HttpStatus.SERVICE_UNAVAILABLE),

	/** A request deeper, wider or costlier than the configured limits, refused before any read. */
	QUERY_TOO_COMPLEX(ErrorType.BAD_REQUEST, HttpStatus.BAD_REQUEST),

	/** A rule needs a signed-in caller and the request has no valid token. */
	UNAUTHENTICATED(ErrorType.UNAUTHORIZED, HttpStatus.UNAUTHORIZED),

	/** The caller's token does not satisfy the field's rule; the field read nothing. */
	FORBIDDEN(ErrorType.FORBIDDEN, HttpStatus.FORBIDDEN),

	/** Anything else; details are in the server log. */
	INTERNAL(ErrorType.INTERNAL_ERROR, HttpStatus.INTERNAL_SERVER_ERROR),

	/** Apollo's automatic persisted queries: the hash is not known here; the client sends the query with it. */
	PERSISTED_QUERY_NOT_FOUND(ErrorType.BAD_REQUEST, HttpStatus.BAD_REQUEST),

	/** Apollo's automatic persisted queries are switched off: the client sends query text. */
	PERSISTED_QUERY_NOT_SUPPORTED(ErrorType.BAD_REQUEST, HttpStatus.BAD_REQUEST);

	private final ErrorType errorType;

	private final HttpStatus status;

	ErrorCode(ErrorType errorType, HttpStatus status) {
		this.errorType = errorType;
		this.status = status;
	}

	/** The classification of a GraphQL error with this code. */
	public ErrorType errorType() {
		return this.errorType;
	}

	/** The HTTP status of an answer that is this error alone (a REST problem, a refused request). */
	public HttpStatus status() {
		return this.status;
	}

	/** The code named {@code name}, if it is one. */
	public static java.util.Optional<ErrorCode> named(Object name) {
		if (name instanceof String text) {
			for (ErrorCode code : values()) {
				if (code.name().equals(text)) {
					return java.util.Optional.of(code);
				}
			}
		}
		return java.util.Optional.empty();
	}

}
