package dev.dynamorelay.transport.graphql.http;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.server.support.SerializableGraphQlRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.servlet.function.EntityResponse;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the GraphQL endpoint decides before any execution: whether the client accepts what it answers, that a
 * request body's {@code query} is text (a number is no request), and the shape of an answer that is no execution.
 */
class GraphQlHttpEndpointTest {

	@Test
	void aRequestAcceptingGraphQlResponsesOrJsonOrAnythingIsAnswered() {
		for (String accept : List.of("application/graphql-response+json", "application/json", "*/*", "application/*",
				"text/html, application/json;q=0.9")) {
			assertThat(GraphQlHttpEndpoint.acceptable(get(accept), GraphQlHttpEndpoint.RESPONSE_TYPES)).as(accept).isTrue();
		}
		assertThat(GraphQlHttpEndpoint.acceptable(get(null), GraphQlHttpEndpoint.RESPONSE_TYPES)).as("no Accept").isTrue();
	}

	@Test
	void aRequestAcceptingOnlyOtherTypesOrAMalformedAcceptIsNot() {
		assertThat(GraphQlHttpEndpoint.acceptable(get("text/html"), GraphQlHttpEndpoint.RESPONSE_TYPES)).isFalse();
		assertThat(GraphQlHttpEndpoint.acceptable(get("text/plain, image/*"), GraphQlHttpEndpoint.RESPONSE_TYPES)).isFalse();
		assertThat(GraphQlHttpEndpoint.acceptable(get("nonsense"), GraphQlHttpEndpoint.RESPONSE_TYPES)).isFalse();
	}

	@Test
	void aQueryThatIsANumberOrABooleanIsNoRequest() {
		JsonMapper lenient = JsonMapper.builder().build();
		JsonMapper strict = GraphQlHttpEndpoint.strict(lenient);
		assertThat(strict.readValue("{\"query\": \"{ users { totalCount } }\"}", SerializableGraphQlRequest.class).getQuery())
			.isEqualTo("{ users { totalCount } }");
		assertThat(lenient.readValue("{\"query\": 42}", SerializableGraphQlRequest.class).getQuery())
			.as("what Jackson would make of it").isEqualTo("42");
		for (String body : List.of("{\"query\": 42}", "{\"query\": 4.2}", "{\"query\": true}")) {
			assertThatExceptionOfType(JacksonException.class).as(body)
				.isThrownBy(() -> strict.readValue(body, SerializableGraphQlRequest.class));
		}
	}

	@Test
	void anAnswerThatIsNoExecutionIsARequestErrorWithTheMethodsAllowed() {
		ServerResponse answer = GraphQlHttpEndpoint.error(HttpStatus.METHOD_NOT_ALLOWED, "Send mutations with POST.",
				HttpMethod.POST);
		assertThat(answer.statusCode()).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
		assertThat(answer.headers().getAllow()).containsExactly(HttpMethod.POST);
		assertThat(answer.headers().getContentType()).isEqualTo(MediaType.APPLICATION_JSON);
		assertThat(((EntityResponse<?>) answer).entity()).isEqualTo(Map.of("errors", List.of(Map.of("message",
				"Send mutations with POST.", "extensions", Map.of("code", "INVALID_ARGUMENT")))));
		assertThat(GraphQlHttpEndpoint.error(HttpStatus.BAD_REQUEST, "m").headers().containsHeader(HttpHeaders.ALLOW))
			.isFalse();
	}

	private static ServerRequest get(String accept) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/graphql");
		if (accept != null) {
			request.addHeader(HttpHeaders.ACCEPT, accept);
		}
		return ServerRequest.create(request, List.of());
	}

}
