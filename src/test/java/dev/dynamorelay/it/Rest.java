package dev.dynamorelay.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** Plain HTTP requests to the REST view ({@code /api/...}), answered with status, headers and JSON body. */
public final class Rest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient client = HttpClient.newHttpClient();

	private final String base;

	public Rest(int port) {
		this.base = "http://127.0.0.1:" + port;
	}

	/** A query string of {@code name, value, name, value...}, each URL-encoded; null values left out. */
	public static String query(Object... pairs) {
		StringBuilder query = new StringBuilder();
		for (int i = 0; i < pairs.length; i += 2) {
			if (pairs[i + 1] == null) {
				continue;
			}
			query.append((query.length() == 0) ? "?" : "&")
				.append(URLEncoder.encode(String.valueOf(pairs[i]), StandardCharsets.UTF_8))
				.append('=')
				.append(URLEncoder.encode(String.valueOf(pairs[i + 1]), StandardCharsets.UTF_8));
		}
		return query.toString();
	}

	public Answer get(String pathAndQuery) {
		return send(null, "GET", pathAndQuery);
	}

	public Answer get(String token, String pathAndQuery) {
		return send(token, "GET", pathAndQuery);
	}

	public Answer send(String token, String method, String pathAndQuery) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.base + pathAndQuery))
			.method(method, HttpRequest.BodyPublishers.noBody());
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		try {
			HttpResponse<String> response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
			@SuppressWarnings("unchecked")
			Map<String, Object> body = response.body().isEmpty() ? Map.of() : JSON.readValue(response.body(), Map.class);
			return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(null),
					response.headers().map(), body);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Walks a route to its end: {@code path} is the path with its own query string (or none), pages of
	 * {@code limit}; asserts on the way that every token leads to a page with items.
	 */
	public Walk walk(String token, String path, String itemsKey, int limit) {
		List<Map<String, Object>> nodes = new ArrayList<>();
		List<Integer> sizes = new ArrayList<>();
		String next = null;
		String separator = path.contains("?") ? "&" : "?";
		do {
			String url = path + separator + "limit=" + limit
					+ ((next != null) ? "&nextToken=" + URLEncoder.encode(next, StandardCharsets.UTF_8) : "");
			Answer page = get(token, url);
			assertThat(page.status()).as(url + " " + page.body()).isEqualTo(200);
			List<Map<String, Object>> items = page.items(itemsKey);
			assertThat(items.size()).as("page size").isLessThanOrEqualTo(limit);
			if (next != null) {
				assertThat(items).as("a page behind a nextToken holds items").isNotEmpty();
			}
			sizes.add(items.size());
			nodes.addAll(items);
			next = (String) page.body().get("nextToken");
			assertThat(sizes.size()).as("pages").isLessThan(10_000);
		}
		while (next != null);
		return new Walk(nodes, sizes);
	}

	/** The nodes of a walk and each page's size. */
	public record Walk(List<Map<String, Object>> nodes, List<Integer> sizes) {

		public <T> List<T> map(Function<Map<String, Object>, T> key) {
			return this.nodes.stream().map(key).toList();
		}

	}

	/**
	 * An answer.
	 *
	 * @param status the HTTP status
	 * @param contentType the {@code Content-Type}
	 * @param headers every header
	 * @param body the JSON body
	 */
	public record Answer(int status, String contentType, Map<String, List<String>> headers, Map<String, Object> body) {

		@SuppressWarnings("unchecked")
		public List<Map<String, Object>> items(String key) {
			return (List<Map<String, Object>>) this.body.get(key);
		}

		public String nextToken() {
			return (String) this.body.get("nextToken");
		}

		/** Asserts a problem (RFC 9457) with this status and code, and no internals in its detail; returns the detail. */
		public String assertProblem(int status, String code) {
			assertThat(this.status).as("status of " + this.body).isEqualTo(status);
			assertThat(this.contentType).isEqualTo("application/problem+json");
			assertThat(this.body).containsEntry("status", status).containsEntry("code", code).containsKeys("type", "title",
					"detail");
			String detail = (String) this.body.get("detail");
			assertThat(detail).doesNotContain("Exception", "\tat ", "dev.dynamorelay", "software.amazon",
					"org.springframework");
			return detail;
		}

	}

}
