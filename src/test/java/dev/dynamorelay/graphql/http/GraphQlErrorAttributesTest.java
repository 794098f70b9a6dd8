package dev.dynamorelay.graphql.http;

import java.util.List;
import java.util.Map;

import jakarta.servlet.RequestDispatcher;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.error.ErrorAttributeOptions;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.context.request.ServletWebRequest;

import static org.assertj.core.api.Assertions.assertThat;

/** Spring Boot's error answer at the GraphQL endpoint is a GraphQL error; elsewhere it is Boot's. */
class GraphQlErrorAttributesTest {

	private final GraphQlErrorAttributes attributes = new GraphQlErrorAttributes("/graphql");

	@Test
	void atTheEndpointAGraphQlErrorWithACode() {
		assertThat(code(error("/graphql", 400, new IllegalStateException("boom")))).isEqualTo("INVALID_ARGUMENT");
		Map<String, Object> internal = error("/graphql", 500, new IllegalStateException("boom"));
		assertThat(code(internal)).isEqualTo("INTERNAL");
		assertThat(internal).containsOnlyKeys("errors");
		assertThat(internal.toString()).doesNotContain("boom", "IllegalStateException");
	}

	@Test
	void elsewhereSpringBootsOwnAnswer() {
		assertThat(error("/api/users/x/purchases", 500, new IllegalStateException("boom"))).containsKeys("status", "path")
			.doesNotContainKey("errors");
	}

	private Map<String, Object> error(String path, int status, Exception failure) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/error");
		request.setAttribute(RequestDispatcher.ERROR_REQUEST_URI, path);
		request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, status);
		request.setAttribute(RequestDispatcher.ERROR_EXCEPTION, failure);
		return this.attributes.getErrorAttributes(new ServletWebRequest(request), ErrorAttributeOptions.defaults());
	}

	private static String code(Map<String, Object> body) {
		List<?> errors = (List<?>) body.get("errors");
		assertThat(errors).hasSize(1);
		return (String) ((Map<?, ?>) ((Map<?, ?>) errors.get(0)).get("extensions")).get("code");
	}

}
