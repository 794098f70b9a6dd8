package dev.dynamorelay.transport.graphql.http;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ServerWebInputException;

import dev.dynamorelay.error.ErrorBody;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.metrics.AnsweredErrors;

/**
 * Answers an HTTP body that is not a GraphQL request (bad JSON, no {@code query}) with a GraphQL
 * error body and {@code INVALID_ARGUMENT}, like every other request error, instead of Spring's
 * generic error page.
 */
@RestControllerAdvice
class MalformedRequestAdvice {

	@ExceptionHandler({ ServerWebInputException.class, HttpMessageNotReadableException.class })
	ResponseEntity<Map<String, Object>> malformed(Exception failure) {
		return error(HttpStatus.BAD_REQUEST, "The request body is not a GraphQL request: send JSON such as "
				+ "{\"query\": \"{ users(first: 2) { edges { cursor } } }\", \"variables\": {}}.");
	}

	private static ResponseEntity<Map<String, Object>> error(HttpStatus status, String message) {
		return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(errorBody(message));
	}

	/** A GraphQL response body of one request error. */
	static Map<String, Object> errorBody(String message) {
		return errorBody(ErrorCode.INVALID_ARGUMENT, message);
	}

	/** A GraphQL response body of one error with {@code code}. */
	static Map<String, Object> errorBody(ErrorCode code, String message) {
		AnsweredErrors.count(code);
		return ErrorBody.of(code, message);
	}

}
