package dev.dynamorelay.transport.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.graphql.autoconfigure.GraphQlProperties;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.dynamorelay.error.ErrorCode;

/**
 * The methods a path takes, told wherever the servlet would tell every method it declares ({@code PUT},
 * {@code DELETE} and the rest, none of which any path here takes): {@code GET, POST} at the GraphQL
 * endpoint, {@code GET, HEAD} elsewhere.
 *
 * <p>{@code TRACE} is refused (HTTP 405) with them; the connector lets TRACE through to the filters for this
 * ({@link TomcatErrors}), none reaches a servlet, so none is echoed. A CORS preflight goes on to Spring's CORS
 * processing (which answers it as configured, and without {@code Access-Control-Allow-*} where cross-origin
 * requests are not configured) with them in {@code Allow}, as a plain {@code OPTIONS} of the path has them:
 * left alone, the servlet added its own list to a preflight that no handler answered.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class AllowedMethods extends OncePerRequestFilter {

	private final String graphQlPath;

	AllowedMethods(GraphQlProperties properties) {
		this.graphQlPath = properties.getHttp().getPath();
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !"TRACE".equals(request.getMethod()) && !CorsUtils.isPreFlightRequest(request);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		String path = request.getRequestURI();
		boolean graphQl = this.graphQlPath.equals(path);
		if (CorsUtils.isPreFlightRequest(request)) {
			// As the plain OPTIONS of the path answers it (HttpHeaders.setAllow's form).
			response.setHeader(HttpHeaders.ALLOW, graphQl ? "GET,POST" : "GET,HEAD");
			chain.doFilter(request, response);
			return;
		}
		String allowed = graphQl ? "GET, POST" : "GET, HEAD";
		response.setHeader(HttpHeaders.ALLOW, allowed);
		ErrorResponses.write(response, path, HttpStatus.METHOD_NOT_ALLOWED, ErrorCode.INVALID_ARGUMENT,
				"TRACE is not served; `%s` takes %s.".formatted(path, allowed), false, "trace");
	}

}
