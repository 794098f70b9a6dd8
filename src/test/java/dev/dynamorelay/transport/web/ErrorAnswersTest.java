package dev.dynamorelay.transport.web;

import java.util.List;
import java.util.Map;

import jakarta.servlet.RequestDispatcher;
import org.junit.jupiter.api.Test;
import org.springframework.boot.graphql.autoconfigure.GraphQlProperties;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** The error page's answers: the shape of the failed path, the code of its status, no failure's details. */
class ErrorAnswersTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final ErrorAnswers answers = new ErrorAnswers(new GraphQlProperties());

	@Test
	void atTheEndpointAGraphQlErrorWithACode() throws Exception {
		MockHttpServletResponse bad = error("/graphql", 400, new IllegalStateException("boom"));
		assertThat(bad.getStatus()).isEqualTo(400);
		assertThat(code(bad)).isEqualTo("INVALID_ARGUMENT");
		MockHttpServletResponse internal = error("/graphql", 500, new IllegalStateException("boom"));
		assertThat(code(internal)).isEqualTo("INTERNAL");
		assertThat(JSON.readValue(internal.getContentAsString(), Map.class)).containsOnlyKeys("errors");
		assertThat(internal.getContentAsString()).doesNotContain("boom", "IllegalStateException");
	}

	@Test
	void underTheRestViewAProblem() throws Exception {
		MockHttpServletResponse internal = error("/api/users/x/purchases", 500, new IllegalStateException("boom"));
		assertThat(internal.getContentType()).startsWith("application/problem+json");
		assertThat(JSON.readValue(internal.getContentAsString(), Map.class)).containsEntry("code", "INTERNAL")
			.containsEntry("status", 500);
		assertThat(internal.getContentAsString()).doesNotContain("boom");
	}

	@Test
	void aPathTheServerDoesNotServeIsNotFound() throws Exception {
		MockHttpServletResponse missing = error("/nope", 404, null);
		assertThat(missing.getStatus()).isEqualTo(404);
		assertThat(code(missing)).isEqualTo("NOT_FOUND");
		assertThat(message(missing)).contains("/nope", "/graphql", "/api/");
	}

	@Test
	void theErrorPageItselfIsNotFound() throws Exception {
		MockHttpServletResponse response = new MockHttpServletResponse();
		this.answers.answer(new MockHttpServletRequest("GET", "/error"), response);
		assertThat(response.getStatus()).isEqualTo(404);
		assertThat(code(response)).isEqualTo("NOT_FOUND");
		assertThat(response.getContentAsString()).doesNotContain("999", "None");
	}

	private MockHttpServletResponse error(String path, int status, Exception failure) throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/error");
		request.setAttribute(RequestDispatcher.ERROR_REQUEST_URI, path);
		request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, status);
		if (failure != null) {
			request.setAttribute(RequestDispatcher.ERROR_EXCEPTION, failure);
		}
		MockHttpServletResponse response = new MockHttpServletResponse();
		this.answers.answer(request, response);
		return response;
	}

	private static Map<?, ?> firstError(MockHttpServletResponse response) throws Exception {
		List<?> errors = (List<?>) JSON.readValue(response.getContentAsString(), Map.class).get("errors");
		assertThat(errors).hasSize(1);
		return (Map<?, ?>) errors.get(0);
	}

	private static String code(MockHttpServletResponse response) throws Exception {
		return (String) ((Map<?, ?>) firstError(response).get("extensions")).get("code");
	}

	private static String message(MockHttpServletResponse response) throws Exception {
		return (String) firstError(response).get("message");
	}

}
