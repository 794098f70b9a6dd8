package dev.dynamorelay.transport.graphql.http;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import graphql.GraphQLError;
import org.springframework.context.i18n.LocaleContextHolder;
import org.springframework.graphql.MediaTypes;
import org.springframework.graphql.server.WebGraphQlHandler;
import org.springframework.graphql.server.WebGraphQlRequest;
import org.springframework.graphql.server.WebGraphQlResponse;
import org.springframework.graphql.server.support.SerializableGraphQlRequest;
import org.springframework.graphql.server.webmvc.GraphQlHttpHandler;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.util.AlternativeJdkIdGenerator;
import org.springframework.util.IdGenerator;
import org.springframework.util.MultiValueMap;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

import dev.dynamorelay.access.Access;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.GraphQlErrors;
import dev.dynamorelay.transport.request.RequestScope;
import dev.dynamorelay.transport.request.Transport;

/**
 * The GraphQL endpoint over HTTP: Spring GraphQL's {@link GraphQlHttpHandler} (POST, as Spring Boot
 * configures it), and GET as the GraphQL over HTTP specification describes it, which Spring GraphQL
 * does not serve: {@code query}, {@code variables}, {@code operationName} and {@code extensions} in
 * the URL ({@code variables} and {@code extensions} as JSON).
 *
 * <p>A GET request goes through the same {@link WebGraphQlHandler} as a POST (interceptors, error
 * codes, {@code extensions.dynamodb}, persisted queries) and is answered by the same response
 * writing. A mutation over GET is refused before anything runs: HTTP 405 with {@code Allow: POST}
 * and a GraphQL error. Apollo's persisted-query answers ({@code PersistedQueryNotFound},
 * {@code PersistedQueryNotSupported}) are HTTP 200, as Apollo's link expects, whatever the
 * response's media type.
 */
class GraphQlHttpEndpoint extends GraphQlHttpHandler {

	/** What a GraphQL response can be sent as. */
	static final List<MediaType> RESPONSE_TYPES = List.of(MediaTypes.APPLICATION_GRAPHQL_RESPONSE,
			MediaType.APPLICATION_JSON);

	private static final String GET_USAGE = "GET /graphql takes the query in the URL: `query` (the document), "
			+ "and optionally `variables` and `extensions` (JSON objects) and `operationName`, each URL-encoded, "
			+ "e.g. /graphql?query=%7B%20users(first%3A%202)%20%7B%20edges%20%7B%20cursor%20%7D%20%7D%20%7D";

	private final WebGraphQlHandler graphQlHandler;

	private final JsonMapper json;

	private final IdGenerator ids = new AlternativeJdkIdGenerator();

	GraphQlHttpEndpoint(WebGraphQlHandler graphQlHandler, JsonMapper json) {
		super(graphQlHandler, converter(json));
		this.graphQlHandler = graphQlHandler;
		this.json = json;
	}

	/** Reads request bodies with {@link #strict}; {@code application/graphql} too, as JSON (as Spring GraphQL does). */
	private static JacksonJsonHttpMessageConverter converter(JsonMapper json) {
		JacksonJsonHttpMessageConverter converter = new JacksonJsonHttpMessageConverter(strict(json));
		List<MediaType> types = new java.util.ArrayList<>(converter.getSupportedMediaTypes());
		types.add(new MediaType("application", "graphql"));
		converter.setSupportedMediaTypes(types);
		return converter;
	}

	/**
	 * {@code json} without coercing numbers and booleans to strings: {@code "query": 42} is not a request
	 * (400), rather than the document {@code 42} (a syntax error).
	 */
	static JsonMapper strict(JsonMapper json) {
		return json.rebuild()
			.withCoercionConfig(LogicalType.Textual, (config) -> config.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
				.setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
				.setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
			.build();
	}

	/** Runs a GraphQL request sent as GET. */
	ServerResponse handleGet(ServerRequest request) {
		SerializableGraphQlRequest body;
		try {
			body = readParameters(request.params());
		}
		catch (BadParameter ex) {
			return error(HttpStatus.BAD_REQUEST, ex.getMessage());
		}
		catch (IllegalStateException ex) { // Tomcat's InvalidParameterException, from the parameters' first read
			return error(HttpStatus.BAD_REQUEST, "The URL's parameters cannot be decoded: percent-encode them as UTF-8. "
					+ GET_USAGE);
		}
		request.attributes().put(Transport.ATTRIBUTE, Transport.GET);
		WebGraphQlRequest graphQlRequest = new WebGraphQlRequest(request.uri(), request.headers().asHttpHeaders(),
				ServerRequests.cookies(request), request.remoteAddress().orElse(null), request.attributes(), body,
				this.ids.generateId().toString(), LocaleContextHolder.getLocale());
		Mono<WebGraphQlResponse> response = this.graphQlHandler.handleRequest(graphQlRequest).doOnNext((answer) -> {
			if (refusedMutation(answer)) {
				answer.getResponseHeaders().setAllow(Set.of(HttpMethod.POST));
			}
		});
		return prepareResponse(request, response);
	}

	@Override
	protected HttpStatus selectResponseStatus(WebGraphQlResponse response, MediaType responseMediaType) {
		if (refusedMutation(response)) {
			return HttpStatus.METHOD_NOT_ALLOWED;
		}
		if (persistedQueryProtocol(response)) {
			return HttpStatus.OK;
		}
		if (Access.nothingRanUnauthenticated(response.getExecutionResult())) {
			return HttpStatus.UNAUTHORIZED;
		}
		return super.selectResponseStatus(response, responseMediaType);
	}

	/** Whether the request accepts one of {@code produced} (no Accept header accepts anything). */
	static boolean acceptable(ServerRequest request, List<MediaType> produced) {
		List<MediaType> accepted;
		try {
			accepted = request.headers().accept();
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
		return accepted.isEmpty()
				|| accepted.stream().anyMatch((type) -> produced.stream().anyMatch(type::isCompatibleWith));
	}

	/**
	 * An answer that is not a GraphQL execution: a GraphQL error body with {@code INVALID_ARGUMENT},
	 * and {@code Allow} when {@code allowed} are given.
	 */
	static ServerResponse error(HttpStatus status, String message, HttpMethod... allowed) {
		ServerResponse.BodyBuilder response = ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON);
		if (allowed.length > 0) {
			response.headers((headers) -> headers.setAllow(new LinkedHashSet<>(List.of(allowed))));
		}
		return response.body(MalformedRequestAdvice.errorBody(message));
	}

	private static boolean refusedMutation(WebGraphQlResponse response) {
		return RequestScope.of(response.getExecutionInput().getGraphQLContext()).refusedMutation();
	}

	/** Whether every error is Apollo's persisted-query protocol (the client resends or stops hashing). */
	private static boolean persistedQueryProtocol(WebGraphQlResponse response) {
		List<GraphQLError> errors = response.getExecutionResult().getErrors();
		return !errors.isEmpty() && errors.stream()
			.map((error) -> GraphQlErrors.code(error).orElse(null))
			.allMatch((code) -> code == ErrorCode.PERSISTED_QUERY_NOT_FOUND
					|| code == ErrorCode.PERSISTED_QUERY_NOT_SUPPORTED);
	}

	private SerializableGraphQlRequest readParameters(MultiValueMap<String, String> parameters) {
		SerializableGraphQlRequest request = new SerializableGraphQlRequest();
		String query = parameters.getFirst("query");
		request.setQuery((query == null || query.isBlank()) ? null : query);
		String operationName = parameters.getFirst("operationName");
		request.setOperationName((operationName == null || operationName.isEmpty()) ? null : operationName);
		request.setVariables(jsonObject(parameters, "variables"));
		Map<String, Object> extensions = jsonObject(parameters, "extensions");
		request.setExtensions(extensions);
		if (request.getQuery() == null && extensions.get("persistedQuery") == null) {
			throw new BadParameter("No `query` parameter. " + GET_USAGE);
		}
		return request;
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> jsonObject(MultiValueMap<String, String> parameters, String name) {
		String text = parameters.getFirst(name);
		if (text == null || text.isBlank()) {
			return Map.of();
		}
		Object value;
		try {
			value = this.json.readValue(text, Object.class);
		}
		catch (JacksonException ex) {
			throw new BadParameter("The `" + name + "` parameter is not JSON. " + GET_USAGE);
		}
		if (value == null) {
			return Map.of();
		}
		if (!(value instanceof Map<?, ?>)) {
			throw new BadParameter("The `" + name + "` parameter must be a JSON object. " + GET_USAGE);
		}
		return (Map<String, Object>) value;
	}

	private static final class BadParameter extends RuntimeException {

		BadParameter(String message) {
			super(message, null, false, false);
		}

	}

}
