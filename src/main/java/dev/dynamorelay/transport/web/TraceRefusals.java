package dev.dynamorelay.transport.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.graphql.autoconfigure.GraphQlProperties;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.dynamorelay.error.ErrorCode;

/**
 * Refuses {@code TRACE} (HTTP 405) with the methods the path does take: {@code GET, POST} at the GraphQL
 * endpoint, {@code GET, HEAD} elsewhere. Left to the servlet, TRACE is refused with every method the
 * servlet declares in {@code Allow}, {@code PUT}, {@code DELETE} and the rest, none of which any path here
 * takes. The connector lets TRACE through to the filters for this ({@link TomcatErrors}); none reaches a
 * servlet, so none is echoed.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class TraceRefusals extends OncePerRequestFilter {

	private final String graphQlPath;

	TraceRefusals(GraphQlProperties properties) {
		this.graphQlPath = properties.getHttp().getPath();
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !"TRACE".equals(request.getMethod());
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws IOException {
		String path = request.getRequestURI();
		String allowed = this.graphQlPath.equals(path) ? "GET, POST" : "GET, HEAD";
		response.setHeader(HttpHeaders.ALLOW, allowed);
		ErrorResponses.write(response, path, HttpStatus.METHOD_NOT_ALLOWED, ErrorCode.INVALID_ARGUMENT,
				"TRACE is not served; `%s` takes %s.".formatted(path, allowed), false, "trace");
	}

}
