package dev.dynamorelay.bench.abuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.fixtures.RawHttp;

/** A request on the attacks' client: status (-1 when none came), body and seconds. */
record Exchange(int status, byte[] body, double seconds, String failure, String allow) {

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	String describe() {
		if (this.status < 0) {
			return "no answer: " + this.failure;
		}
		return describe(this.status, (this.body == null) ? "" : new String(this.body, StandardCharsets.UTF_8),
				this.allow);
	}

	/** {@code request} on {@code client}: its status (-1 when none came), body and seconds. */
	static Exchange of(CloseableHttpClient client, ClassicHttpRequest request) {
		long sent = System.nanoTime();
		try {
			return client.execute(request, (response) -> {
				byte[] body = EntityUtils.toByteArray(response.getEntity());
				var allow = response.getFirstHeader("Allow");
				return new Exchange(response.getCode(), body, (System.nanoTime() - sent) / 1e9, null,
						(allow == null) ? null : allow.getValue());
			});
		}
		catch (IOException ex) {
			return new Exchange(-1, null, (System.nanoTime() - sent) / 1e9, ex.toString(), null);
		}
	}

	static String describe(RawHttp.Answer answer) {
		return describe(answer.status(), answer.body(), answer.headers().get("allow"));
	}

	/**
	 * An answer as status and code: {@code 200 ok} for data without errors, {@code 413 INVALID_ARGUMENT} (a
	 * GraphQL error body's first code, or a problem's), {@code 405 Allow: GET, POST}, {@code 400 HTML} for an
	 * HTML page.
	 */
	static String describe(int status, String body, String allow) {
		String code = null;
		if (body.length() <= 256 * 1024 && !body.isBlank()) {
			try {
				JsonNode json = JSON.readTree(body);
				JsonNode errors = json.path("errors");
				if (errors.isArray() && !errors.isEmpty()) {
					code = errors.path(0).path("extensions").path("code").asString("(no code)");
				}
				else if (json.has("code")) {
					code = json.path("code").asString();
				}
				else if (status == 200 && json.has("data")) {
					code = "ok";
				}
			}
			catch (RuntimeException ex) {
				code = body.contains("<html") ? "HTML" : "not JSON";
			}
		}
		StringBuilder answer = new StringBuilder().append(status);
		if (code != null) {
			answer.append(' ').append(code);
		}
		if (status == 405) {
			answer.append(" Allow: ").append(allow);
		}
		return answer.toString();
	}

}
