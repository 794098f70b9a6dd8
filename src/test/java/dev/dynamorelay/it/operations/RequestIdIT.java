package dev.dynamorelay.it.operations;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every answer carries {@code X-Request-Id}: the client's own when it is short and plain, else a new UUID.
 */
class RequestIdIT extends IntegrationTest {

	private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void everyAnswerHasAnId() throws Exception {
		HttpResponse<String> graphQl = send("/graphql", null);
		assertThat(graphQl.statusCode()).isEqualTo(200);
		assertThat(graphQl.headers().allValues("X-Request-Id")).singleElement().asString().matches(UUID);
		HttpResponse<String> other = send("/graphql", null);
		assertThat(other.headers().firstValue("X-Request-Id")).isPresent()
			.isNotEqualTo(graphQl.headers().firstValue("X-Request-Id"));
		assertThat(send("/actuator/health", null).headers().firstValue("X-Request-Id")).get().asString().matches(UUID);
		HttpResponse<String> missing = send("/no-such-page", null);
		assertThat(missing.statusCode()).isEqualTo(404);
		assertThat(missing.headers().firstValue("X-Request-Id")).get().asString().matches(UUID);
	}

	@Test
	void aClientsOwnIdIsKept() throws Exception {
		HttpResponse<String> answer = send("/graphql", "lb-1700000000.abc_DEF:42");
		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(answer.headers().allValues("X-Request-Id")).containsExactly("lb-1700000000.abc_DEF:42");
		assertThat(send("/no-such-page", "client-404").headers().allValues("X-Request-Id"))
			.containsExactly("client-404");
	}

	@Test
	void aMalformedIdIsReplaced() throws Exception {
		for (String malformed : new String[] { "has spaces in it", "<script>", "x".repeat(129), "\"quoted\"" }) {
			HttpResponse<String> answer = send("/graphql", malformed);
			assertThat(answer.statusCode()).isEqualTo(200);
			assertThat(answer.headers().allValues("X-Request-Id")).as(malformed).singleElement().asString().matches(UUID);
		}
		assertThat(send("/graphql", "x".repeat(128)).headers().allValues("X-Request-Id"))
			.containsExactly("x".repeat(128));
	}

	private HttpResponse<String> send(String path, String requestId) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path));
		if (path.equals("/graphql")) {
			request.header("content-type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"{ __typename }\"}"));
		}
		if (requestId != null) {
			request.header("X-Request-Id", requestId);
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
