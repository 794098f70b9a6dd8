package dev.dynamorelay.transport.graphql.http;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.graphql.autoconfigure.GraphQlProperties;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.graphql.MediaTypes;
import org.springframework.graphql.server.WebGraphQlHandler;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RequestPredicate;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.live.LiveConnections;
import dev.dynamorelay.transport.graphql.document.PersistedQueryProperties;

/**
 * The GraphQL endpoint's HTTP routes beside Spring Boot's POST route: GET (through
 * {@link GraphQlHttpEndpoint}, which replaces Boot's {@code GraphQlHttpHandler}), and a GraphQL error
 * body for every request Boot would answer with an empty one: an unacceptable {@code Accept} (406) and
 * a method other than GET and POST (405). Bodies that are not JSON are {@link NonJsonRequests}'s; what
 * else fails before the endpoint answers is {@code web.ErrorAnswers}'s.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PersistedQueryProperties.class)
class GraphQlHttpConfiguration {

	/** What a POST can be answered with: a GraphQL response, or Spring GraphQL's server-sent events. */
	private static final List<MediaType> POST_RESPONSE_TYPES = List.of(MediaTypes.APPLICATION_GRAPHQL_RESPONSE,
			MediaType.APPLICATION_JSON, MediaType.TEXT_EVENT_STREAM);

	private static final Set<HttpMethod> ALLOWED = new LinkedHashSet<>(List.of(HttpMethod.GET, HttpMethod.POST));

	/**
	 * JSON numbers with a fraction or an exponent read as {@link java.math.BigDecimal}s, never as doubles, by
	 * Spring Boot's mapper, which reads every request: POST bodies, GET's {@code variables}, the Server-Sent
	 * Events handler's bodies and WebSocket messages. A variable {@code 98765432109876543210.12345} reaches
	 * its scalar as that number, where a double would have made it {@code 98765432109876540000} with no word,
	 * and {@code 1e400} as itself rather than Infinity. Whole numbers read exact already (Integer, Long,
	 * BigInteger by size).
	 */
	@Bean
	JsonMapperBuilderCustomizer exactNumbers() {
		return (builder) -> builder.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
	}

	@Bean
	GraphQlHttpEndpoint graphQlHttpEndpoint(WebGraphQlHandler graphQlHandler, JsonMapper json) {
		return new GraphQlHttpEndpoint(graphQlHandler, json);
	}

	/**
	 * Replaces Boot's handler of the same name: queries over SSE too ({@link QueriesOverSse}), each stream written
	 * by {@link SseStream} (bounded, on its own writer, no ERROR for a client that hung up).
	 */
	@Bean
	QueriesOverSse graphQlSseHandler(WebGraphQlHandler graphQlHandler, GraphQlProperties properties,
			LiveConnections live) {
		return new QueriesOverSse(graphQlHandler, properties.getHttp().getSse().getTimeout(),
				properties.getHttp().getSse().getKeepAlive(), live.memory());
	}

	/** After {@link NonJsonRequests}: a POST whose body is not JSON is a 415 whatever it accepts. */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 1)
	RouterFunction<ServerResponse> graphQlHttpRoutes(GraphQlProperties properties, GraphQlHttpEndpoint endpoint) {
		String path = properties.getHttp().getPath();
		// HEAD too: it would run the query only to drop its answer. A CORS preflight is routed by the
		// method it asks for, so OPTIONS here is a plain OPTIONS.
		RequestPredicate otherMethods = RequestPredicates.path(path)
			.and(RequestPredicates.methods(HttpMethod.GET, HttpMethod.POST, HttpMethod.OPTIONS).negate());
		return RouterFunctions.route()
			.GET(path, (request) -> !GraphQlHttpEndpoint.acceptable(request, GraphQlHttpEndpoint.RESPONSE_TYPES),
					(request) -> notAcceptable(request.headers().firstHeader("Accept")))
			.GET(path, endpoint::handleGet)
			.POST(path, (request) -> !GraphQlHttpEndpoint.acceptable(request, POST_RESPONSE_TYPES),
					(request) -> notAcceptable(request.headers().firstHeader("Accept")))
			.OPTIONS(path, (request) -> ServerResponse.ok().headers((headers) -> headers.setAllow(ALLOWED)).build())
			.route(otherMethods, (request) -> GraphQlHttpEndpoint.error(HttpStatus.METHOD_NOT_ALLOWED,
					"GraphQL requests are sent with POST (JSON) or, for queries, GET; not " + request.method().name() + ".",
					ALLOWED.toArray(HttpMethod[]::new)))
			.build();
	}

	private static ServerResponse notAcceptable(String accept) {
		return GraphQlHttpEndpoint.error(HttpStatus.NOT_ACCEPTABLE, "GraphQL responses are "
				+ "application/graphql-response+json or application/json; the request accepts only `" + accept + "`.");
	}

}
