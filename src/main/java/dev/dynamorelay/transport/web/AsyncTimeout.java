package dev.dynamorelay.transport.web;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.webmvc.autoconfigure.WebMvcProperties;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.async.AsyncRequestTimeoutException;
import org.springframework.web.servlet.config.annotation.AsyncSupportConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.error.ErrorBody;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.Problems;
import dev.dynamorelay.metrics.AnsweredErrors;

/**
 * The servlet's async timeout, a backstop behind the request's deadline: a GraphQL request (and a REST
 * page) answers by itself within {@code dynamo-relay.dynamodb.timeout}, whatever its calls wait for, so
 * this only fires if something the deadline does not cover hangs. Unless
 * {@code spring.mvc.async.request-timeout} is set, it is the timeout plus {@link #BACKSTOP_MARGIN}.
 *
 * <p>If it fires, the answer is {@code UNAVAILABLE} (HTTP 503): a GraphQL error body, or a problem under
 * {@code /api/}; one WARN line names the request's id, and the execution, which may still finish later,
 * logs nothing more for it ({@link #ANSWERED}).
 */
@RestControllerAdvice
public class AsyncTimeout implements WebMvcConfigurer {

	/** How far behind the request's timeout the servlet's async timeout fires. */
	static final Duration BACKSTOP_MARGIN = Duration.ofSeconds(3);

	/**
	 * A request attribute holding an {@link AtomicBoolean}, set once the servlet's async timeout has answered
	 * the request: the execution's own log line for it is then left out.
	 */
	public static final String ANSWERED = AsyncTimeout.class.getName() + ".answered";

	private static final Logger logger = LoggerFactory.getLogger(AsyncTimeout.class);

	private final Duration timeout;

	AsyncTimeout(DynamoDbProperties dynamoDb, WebMvcProperties mvc) {
		Duration configured = mvc.getAsync().getRequestTimeout();
		this.timeout = (configured != null) ? configured : dynamoDb.timeout().plus(BACKSTOP_MARGIN);
		if (configured != null && configured.compareTo(dynamoDb.timeout()) <= 0) {
			logger.warn("spring.mvc.async.request-timeout ({}) is not above dynamo-relay.dynamodb.timeout ({}): requests "
					+ "still reading are answered UNAVAILABLE at {}, before their own deadline", configured,
					dynamoDb.timeout(), configured);
		}
	}

	/** The backstop; Spring Boot's own configurer sets the same when the property is set. */
	@Override
	public void configureAsyncSupport(AsyncSupportConfigurer configurer) {
		configurer.setDefaultTimeout(this.timeout.toMillis());
	}

	@ExceptionHandler(AsyncRequestTimeoutException.class)
	ResponseEntity<Object> timedOut(HttpServletRequest request, jakarta.servlet.http.HttpServletResponse response) {
		if (response.isCommitted()) {
			// A stream that has begun (server-sent events): it ends here, and nothing more can be said.
			return null;
		}
		if (request.getAttribute(ANSWERED) instanceof AtomicBoolean answered) {
			answered.set(true);
		}
		Object id = request.getAttribute(RequestIdFilter.ATTRIBUTE);
		logger.warn("Request {} was not answered within {} (spring.mvc.async.request-timeout): answered UNAVAILABLE",
				id, this.timeout);
		AnsweredErrors.count(ErrorCode.UNAVAILABLE);
		HttpStatus status = HttpStatus.SERVICE_UNAVAILABLE;
		String path = request.getRequestURI().substring(request.getContextPath().length());
		String message = "The request was not answered in time; retry the request later.";
		if (Problems.restPath(path)) {
			return ResponseEntity.status(status)
				.contentType(Problems.MEDIA_TYPE)
				.body(Problems.of(status, ErrorCode.UNAVAILABLE, message, path));
		}
		return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON)
			.body(ErrorBody.of(ErrorCode.UNAVAILABLE, message));
	}

}
