package dev.dynamorelay.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** Plain HTTP POSTs to {@code /graphql}, with or without a bearer token, answered with status, headers and body. */
public final class Http {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient client = HttpClient.newHttpClient();

	private final String url;

	public Http(int port) {
		this.url = "http://127.0.0.1:" + port + "/graphql";
	}

	/** Posts {@code document} with {@code variables}; {@code token} null sends no Authorization header. */
	public Answer post(String token, String document, Map<String, Object> variables) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.url))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("query", document,
					"variables", variables))));
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		try {
			HttpResponse<String> response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
			@SuppressWarnings("unchecked")
			Map<String, Object> body = response.body().isEmpty() ? Map.of() : JSON.readValue(response.body(), Map.class);
			return new Answer(response.statusCode(), response.headers().firstValue("WWW-Authenticate").orElse(null),
					body);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	public Answer post(String token, String document) {
		return post(token, document, Map.of());
	}

	/**
	 * An answer.
	 *
	 * @param status the HTTP status
	 * @param authenticate the {@code WWW-Authenticate} header, if any
	 * @param body the JSON body
	 */
	public record Answer(int status, String authenticate, Map<String, Object> body) {

		/** The value at a path of names and list indexes, e.g. {@code at("data", "nodes", 1)}. */
		public Object at(Object... path) {
			Object value = this.body;
			for (Object step : path) {
				if (value == null) {
					return null;
				}
				value = (step instanceof Integer index) ? ((List<?>) value).get(index) : ((Map<?, ?>) value).get(step);
			}
			return value;
		}

		@SuppressWarnings("unchecked")
		public List<Map<String, Object>> errors() {
			return (List<Map<String, Object>>) this.body.getOrDefault("errors", List.of());
		}

		/** The codes of the errors, in order. */
		public List<Object> codes() {
			return errors().stream().<Object>map((error) -> ((Map<?, ?>) error.get("extensions")).get("code")).toList();
		}

		/** The paths of the errors, each joined with dots. */
		public List<String> paths() {
			return errors().stream()
				.map((error) -> ((List<?>) error.getOrDefault("path", List.of())).stream()
					.map(String::valueOf)
					.collect(java.util.stream.Collectors.joining(".")))
				.toList();
		}

		public long requests() {
			return ((Number) at("extensions", "dynamodb", "requests")).longValue();
		}

		/** Asserts that no error message leaks a class name or stack trace. */
		public Answer clean() {
			for (Map<String, Object> error : errors()) {
				assertThat((String) error.get("message")).doesNotContain("Exception", "\tat ", "dev.dynamorelay",
						"software.amazon", "org.springframework");
			}
			return this;
		}

	}

}
