package dev.dynamorelay.transport.web;

import java.io.IOException;

import io.micrometer.core.instrument.Metrics;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.error.ErrorBody;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.Problems;
import dev.dynamorelay.metrics.AnsweredErrors;

/**
 * Answers refused before any handler runs (a filter, the security chain, Tomcat itself) in the shape of
 * the path: a problem ({@code application/problem+json}) under the REST view's {@code /api/}, a GraphQL
 * error body everywhere else; counted in {@code dynamorelay.errors}.
 */
public final class ErrorResponses {

	/** With Spring's mix-in, as the MVC message converters have it: a problem's {@code code} is a top-level member. */
	private static final JsonMapper JSON = JsonMapper.builder()
		.addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class)
		.build();

	private ErrorResponses() {
	}

	/** Writes the answer; {@code close} asks the connection to close after it (nothing more is read from it). */
	public static void write(HttpServletResponse response, String path, HttpStatus status, ErrorCode code,
			String message, boolean close) throws IOException {
		write(response, path, status, code, message, close, null);
	}

	/**
	 * Writes the answer of a request refused at the HTTP layer for {@code reason}, which is also counted in
	 * {@code dynamorelay.http.refusals} (null: not counted there). No log line: a client could write as many
	 * as it sends requests; the counters are the operator's signal.
	 */
	public static void write(HttpServletResponse response, String path, HttpStatus status, ErrorCode code,
			String message, boolean close, String reason) throws IOException {
		if (reason != null) {
			refusal(reason);
		}
		AnsweredErrors.count(code);
		response.resetBuffer();
		response.setStatus(status.value());
		if (close) {
			response.setHeader(HttpHeaders.CONNECTION, "close");
		}
		byte[] body = body(path, status, code, message);
		response.setContentType(contentType(path).toString());
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
		response.flushBuffer();
	}

	/**
	 * Counts one request refused at the HTTP layer, by reason: {@code body-too-large}, {@code body-timeout},
	 * {@code header-timeout} (a request line and headers not whole by their deadline),
	 * {@code unreadable} (Tomcat's own refusals), {@code trace}, {@code abandoned} (the client went away before its body was whole),
	 * {@code message-too-large} (a WebSocket message over its bound), {@code messages-assembling} (a WebSocket
	 * message's part beyond what all messages arriving in parts may hold together), {@code message-invalid} (a
	 * WebSocket message that is no graphql-transport-ws message), or {@code websocket-send-failed} (a WebSocket
	 * client that read nothing for the send timeout, or hung up under a send).
	 */
	public static void refusal(String reason) {
		Metrics.counter("dynamorelay.http.refusals", "reason", reason).increment();
	}

	/** The body of such an answer. */
	static byte[] body(String path, HttpStatus status, ErrorCode code, String message) {
		Object body = Problems.restPath(path) ? Problems.of(status, code, message, path) : ErrorBody.of(code, message);
		return JSON.writeValueAsBytes(body);
	}

	/** Its media type. */
	static MediaType contentType(String path) {
		return Problems.restPath(path) ? Problems.MEDIA_TYPE : MediaType.APPLICATION_JSON;
	}

}
