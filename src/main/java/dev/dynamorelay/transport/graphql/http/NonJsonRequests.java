package dev.dynamorelay.transport.graphql.http;

import java.util.List;
import java.util.Optional;

import org.springframework.boot.graphql.autoconfigure.GraphQlProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * A POST to the GraphQL endpoint whose body is not JSON (no content type, a malformed one, a form,
 * plain text) is answered 415 with a GraphQL error saying what to send. Spring Boot's own route answers
 * it 415 with an empty body (and a malformed content type would fail here with a 500).
 */
@Configuration(proxyBeanMethods = false)
class NonJsonRequests {

	/** What Spring GraphQL reads as a JSON request body: content types these two include. */
	private static final List<MediaType> JSON = List.of(MediaType.APPLICATION_JSON, new MediaType("application", "graphql"));

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	RouterFunction<ServerResponse> nonJsonGraphQlRequests(GraphQlProperties properties) {
		return RouterFunctions.route(RequestPredicates.POST(properties.getHttp().getPath()).and(NonJsonRequests::notJson),
				(request) -> {
					String sent = request.headers().firstHeader(HttpHeaders.CONTENT_TYPE);
					return ServerResponse.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
						.header(HttpHeaders.ACCEPT, MediaType.APPLICATION_JSON_VALUE)
						.contentType(MediaType.APPLICATION_JSON)
						.body(MalformedRequestAdvice.errorBody("A GraphQL request is sent as JSON with "
								+ "`Content-Type: application/json`, not "
								+ ((sent != null) ? "`" + sent + "`" : "without a content type") + "."));
				});
	}

	private static boolean notJson(ServerRequest request) {
		try {
			Optional<MediaType> type = request.headers().contentType();
			return type.isEmpty() || JSON.stream().noneMatch((json) -> json.includes(type.get()));
		}
		catch (InvalidMediaTypeException ex) {
			return true;
		}
	}

}
