package dev.dynamorelay.graphql.http;

import java.util.Map;

import org.springframework.boot.web.error.ErrorAttributeOptions;
import org.springframework.boot.webmvc.error.DefaultErrorAttributes;
import org.springframework.web.context.request.WebRequest;

import dev.dynamorelay.error.ErrorCode;

/**
 * Spring Boot's error answer ({@code /error}), for a failure at the GraphQL endpoint that happens
 * before the endpoint answers (a URL whose encoding cannot be read, an unexpected exception), is a
 * GraphQL error body with a code instead of Boot's {@code timestamp}/{@code status}/{@code path} map,
 * so that every answer of the endpoint is a GraphQL response. Every other path keeps Boot's answer.
 */
class GraphQlErrorAttributes extends DefaultErrorAttributes {

	private final String path;

	GraphQlErrorAttributes(String path) {
		this.path = path;
	}

	@Override
	public Map<String, Object> getErrorAttributes(WebRequest request, ErrorAttributeOptions options) {
		Map<String, Object> attributes = super.getErrorAttributes(request, options);
		// Boot's `path` includes the servlet context path; the endpoint's path does not.
		String path = String.valueOf(attributes.get("path"));
		String context = request.getContextPath();
		if (context != null && !context.isEmpty() && path.startsWith(context)) {
			path = path.substring(context.length());
		}
		if (!this.path.equals(path)) {
			return attributes;
		}
		int status = (attributes.get("status") instanceof Integer code) ? code : 500;
		if (status >= 500) {
			return MalformedRequestAdvice.errorBody(ErrorCode.INTERNAL,
					"Internal server error (HTTP " + status + "); the server log has the details.");
		}
		return MalformedRequestAdvice.errorBody(ErrorCode.INVALID_ARGUMENT, "The request could not be read (HTTP "
				+ status + " " + attributes.get("error") + "): send JSON with POST, or a query in the URL's "
				+ "`query` parameter with GET, percent-encoded as UTF-8.");
	}

}
