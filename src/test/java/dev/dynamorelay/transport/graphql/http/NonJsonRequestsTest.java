package dev.dynamorelay.transport.graphql.http;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.springframework.boot.graphql.autoconfigure.GraphQlProperties;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.servlet.function.EntityResponse;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A POST to the GraphQL endpoint whose body is not JSON is answered 415 with a request error naming what was
 * sent and what to send; a JSON request, or a request elsewhere, is left to the endpoint.
 */
class NonJsonRequestsTest {

	private final RouterFunction<ServerResponse> route = new NonJsonRequests()
		.nonJsonGraphQlRequests(new GraphQlProperties());

	@Test
	void aBodyOfAnotherTypeIsAnswered415WithWhatToSend() throws Exception {
		ServerResponse answer = answer(post("/graphql", "text/plain")).orElseThrow();
		assertThat(answer.statusCode()).isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE);
		assertThat(answer.headers().getFirst(HttpHeaders.ACCEPT)).isEqualTo("application/json");
		assertThat(((EntityResponse<?>) answer).entity()).isEqualTo(Map.of("errors", List.of(Map.of("message",
				"A GraphQL request is sent as JSON with `Content-Type: application/json`, not `text/plain`.", "extensions",
				Map.of("code", "INVALID_ARGUMENT")))));
	}

	@Test
	void noContentTypeAFormAndAMalformedTypeAreNoJson() throws Exception {
		assertThat(message(answer(post("/graphql", null)).orElseThrow()))
			.endsWith("not without a content type.");
		assertThat(answer(post("/graphql", "application/x-www-form-urlencoded"))).isPresent();
		assertThat(message(answer(post("/graphql", "json")).orElseThrow())).endsWith("not `json`.");
	}

	@Test
	void jsonRequestsAndOtherPathsAreLeftToTheirHandlers() throws Exception {
		assertThat(answer(post("/graphql", "application/json"))).isEmpty();
		assertThat(answer(post("/graphql", "application/json;charset=UTF-8"))).isEmpty();
		assertThat(answer(post("/graphql", "application/graphql"))).isEmpty();
		assertThat(answer(post("/api/users", "text/plain"))).isEmpty();
		MockHttpServletRequest get = new MockHttpServletRequest("GET", "/graphql");
		assertThat(answer(ServerRequest.create(get, List.of()))).isEmpty();
	}

	private Optional<ServerResponse> answer(ServerRequest request) throws Exception {
		Optional<HandlerFunction<ServerResponse>> handler = this.route.route(request);
		return handler.isPresent() ? Optional.of(handler.get().handle(request)) : Optional.empty();
	}

	@SuppressWarnings("unchecked")
	private static String message(ServerResponse answer) {
		Map<String, List<Map<String, Object>>> body = (Map<String, List<Map<String, Object>>>) ((EntityResponse<?>) answer)
			.entity();
		return (String) body.get("errors").get(0).get("message");
	}

	private static ServerRequest post(String path, String contentType) {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", path);
		if (contentType != null) {
			request.addHeader(HttpHeaders.CONTENT_TYPE, contentType);
		}
		request.setContent("{}".getBytes());
		return ServerRequest.create(request, List.of());
	}

}
