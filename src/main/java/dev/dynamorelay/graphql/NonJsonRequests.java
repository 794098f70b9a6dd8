package dev.dynamorelay.graphql;

import java.util.Optional;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * A POST to the GraphQL endpoint whose body is not JSON (no content type, a form, plain text) is
 * answered 415 with a GraphQL error saying what to send. Spring Boot's own route answers it 415 with
 * an empty body.
 */
@Configuration(proxyBeanMethods = false)
class NonJsonRequests {

	private static final MediaType GRAPHQL = new MediaType("application", "graphql");

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	RouterFunction<ServerResponse> nonJsonGraphQlRequests(@Value("${spring.graphql.http.path:/graphql}") String path) {
		return RouterFunctions.route(RequestPredicates.POST(path).and((request) -> !json(request.headers().contentType())),
				(request) -> {
					String sent = request.headers().contentType().map(MediaType::toString).orElse("no content type");
					return ServerResponse.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
						.header(HttpHeaders.ACCEPT, MediaType.APPLICATION_JSON_VALUE)
						.contentType(MediaType.APPLICATION_JSON)
						.body(MalformedRequestAdvice.errorBody("A GraphQL request is sent as JSON with "
								+ "`Content-Type: application/json`, not " + sent + "."));
				});
	}

	/** What Spring GraphQL reads as a JSON request body. */
	private static boolean json(Optional<MediaType> contentType) {
		return contentType.map((type) -> MediaType.APPLICATION_JSON.isCompatibleWith(type)
				|| GRAPHQL.isCompatibleWith(type) || (type.getSubtype().endsWith("+json")
						&& "application".equals(type.getType())))
			.orElse(false);
	}

}
