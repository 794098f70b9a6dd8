package dev.dynamorelay.transport.web;

import java.io.IOException;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.graphql.autoconfigure.GraphQlProperties;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;

import dev.dynamorelay.error.ErrorCode;

/**
 * The answer of every request that ends in the servlet container's error page ({@code /error}), in place of Spring
 * Boot's {@code {"timestamp", "status", "error", "path"}} map, which has no code: in the shape of the path that
 * failed (a problem under {@code /api/}, a GraphQL error body elsewhere, {@link ErrorResponses}) with the contract's
 * code of its status: {@code NOT_FOUND} for a path the server does not serve, {@code INVALID_ARGUMENT} for another
 * 4xx, {@code UNAVAILABLE} for a 503, {@code INTERNAL} for another 5xx (never the failure's details). A request
 * for {@code /error} itself, which Boot answered {@code {"status":999,"error":"None"}} with HTTP 500, is a path
 * like any other the server does not serve: 404, {@code NOT_FOUND}.
 */
@Controller
class ErrorAnswers implements ErrorController {

	/** The most of a path an answer shows: a URL may be some 8 KB long. */
	private static final int SHOWN = 200;

	private final String graphQlPath;

	ErrorAnswers(GraphQlProperties graphQl) {
		this.graphQlPath = graphQl.getHttp().getPath();
	}

	@RequestMapping("${server.error.path:${error.path:/error}}")
	void answer(HttpServletRequest request, HttpServletResponse response) throws IOException {
		Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
		Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
		boolean dispatched = code instanceof Integer && uri instanceof String;
		String path = dispatched ? (String) uri : request.getRequestURI();
		HttpStatus known = dispatched ? HttpStatus.resolve((Integer) code) : HttpStatus.NOT_FOUND;
		HttpStatus status = (known != null) ? known : HttpStatus.INTERNAL_SERVER_ERROR;
		String context = request.getContextPath();
		// The error's URI includes the servlet context's path; the endpoint's path does not.
		String served = (!context.isEmpty() && path.startsWith(context)) ? path.substring(context.length()) : path;
		ErrorResponses.write(response, path, status, code(status), message(status, served), false);
	}

	private static ErrorCode code(HttpStatus status) {
		return switch (status) {
			case NOT_FOUND -> ErrorCode.NOT_FOUND;
			case UNAUTHORIZED -> ErrorCode.UNAUTHENTICATED;
			case FORBIDDEN -> ErrorCode.FORBIDDEN;
			case SERVICE_UNAVAILABLE -> ErrorCode.UNAVAILABLE;
			default -> status.is4xxClientError() ? ErrorCode.INVALID_ARGUMENT : ErrorCode.INTERNAL;
		};
	}

	private String message(HttpStatus status, String path) {
		if (status.is5xxServerError()) {
			return "The server could not answer the request (HTTP %d %s); the server log has the details."
				.formatted(status.value(), status.getReasonPhrase());
		}
		if (status == HttpStatus.NOT_FOUND) {
			String shown = (path.length() > SHOWN) ? path.substring(0, SHOWN) + "..." : path;
			return ("The server has no page at %s. It serves GraphQL at %s, the REST view under /api/ (its paths in "
					+ "/api/openapi.json), GraphiQL at /graphiql and an infinite-scroll page at /.")
				.formatted(shown, this.graphQlPath);
		}
		if (path.equals(this.graphQlPath)) {
			return ("The request could not be read (HTTP %d %s): send JSON with POST, or a query in the URL's `query` "
					+ "parameter with GET, percent-encoded as UTF-8.").formatted(status.value(), status.getReasonPhrase());
		}
		return "The request could not be served (HTTP %d %s).".formatted(status.value(), status.getReasonPhrase());
	}

}
