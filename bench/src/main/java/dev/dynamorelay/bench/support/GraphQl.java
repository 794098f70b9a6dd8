package dev.dynamorelay.bench.support;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.util.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The load generator's client of one server's {@code /graphql}: blocking Apache HttpClient 5 on pooled keep-alive
 * connections, on the calling thread, with the bodies and checks that keep its own CPU low.
 */
public final class GraphQl {

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	private static final byte[] PAGE_START = "{\"data\":{\"purchasesByCategory\":{\"edges\":[{\"cursor\":\""
		.getBytes(StandardCharsets.UTF_8);

	private static final byte[] ERRORS = "\"errors\"".getBytes(StandardCharsets.UTF_8);

	/**
	 * The load generator's HTTP client: blocking, on pooled keep-alive connections, on the calling thread.
	 * With {@code java.net.http.HttpClient} (whose selector thread hands every response to another
	 * thread) a page measured about 0.5 ms slower here, and its CPU competed with the server's.
	 */
	private final CloseableHttpClient http = httpClient();

	private final URI graphql;

	public GraphQl(URI graphql) {
		this.graphql = graphql;
	}

	/** The server's {@code /graphql} address. */
	public URI uri() {
		return this.graphql;
	}

	/** The load generator's client (see {@link #http}), also the start-up and abuse sections'. */
	public static CloseableHttpClient httpClient() {
		return HttpClients.custom()
			.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
				.setMaxConnTotal(64)
				.setMaxConnPerRoute(64)
				.setDefaultConnectionConfig(ConnectionConfig.custom()
					.setConnectTimeout(Timeout.ofSeconds(5))
					.setSocketTimeout(Timeout.ofSeconds(60))
					.build())
				.build())
			.disableAutomaticRetries()
			.disableContentCompression()
			.disableCookieManagement()
			.build();
	}

	public static byte[] body(String query, Map<String, Object> variables) {
		return JSON.writeValueAsBytes(Map.of("query", query, "variables", variables));
	}

	public static Map<String, Object> vars(Object... pairs) {
		Map<String, Object> variables = new LinkedHashMap<>();
		for (int i = 0; i < pairs.length; i += 2) {
			variables.put((String) pairs[i], pairs[i + 1]);
		}
		return variables;
	}

	/**
	 * The throughput clients' request: a body serialized once, and an answer checked without parsing it
	 * (a page's first edge, no {@code "errors"} anywhere). The load generator shares the 2 cores with the
	 * server and the engine, so it spends as little CPU as it can.
	 */
	public void postPage(byte[] body) {
		send(body, (bytes) -> startsWith(bytes, PAGE_START) && indexOf(bytes, ERRORS) < 0 ? bytes : null);
	}

	public JsonNode post(String query, Map<String, Object> variables) {
		return send(body(query, variables), (bytes) -> {
			JsonNode json = JSON.readTree(bytes);
			return json.has("errors") ? null : json;
		});
	}

	/** POSTs a GraphQL body; an answer that is not 200, or that {@code accept} maps to null, fails. */
	public <T> T send(byte[] body, Function<byte[], T> accept) {
		HttpPost request = new HttpPost(this.graphql);
		request.setEntity(new ByteArrayEntity(body, ContentType.APPLICATION_JSON));
		try {
			return this.http.execute(request, (response) -> {
				byte[] bytes = EntityUtils.toByteArray(response.getEntity());
				T accepted = (response.getCode() == 200) ? accept.apply(bytes) : null;
				if (accepted == null) {
					throw new IllegalStateException("the server answered " + response.getCode() + ": "
							+ new String(bytes, StandardCharsets.UTF_8));
				}
				return accepted;
			});
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * POSTs a GraphQL body and hands the status and the whole answer to {@code answer}, whatever they are; an
	 * exchange that fails is {@code failed}'s.
	 */
	public <T> T exchange(byte[] body, Answer<T> answer, T failed) {
		HttpPost request = new HttpPost(this.graphql);
		request.setEntity(new ByteArrayEntity(body, ContentType.APPLICATION_JSON));
		try {
			return this.http.execute(request, (response) -> answer.of(response.getCode(),
					EntityUtils.toByteArray(response.getEntity())));
		}
		catch (IOException ex) {
			return failed;
		}
	}

	/** GETs a REST page; an answer that is not 200 fails. */
	public JsonNode get(URI uri) {
		try {
			return this.http.execute(new HttpGet(uri), (response) -> {
				byte[] bytes = EntityUtils.toByteArray(response.getEntity());
				if (response.getCode() != 200) {
					throw new IllegalStateException("the server answered " + response.getCode() + ": "
							+ new String(bytes, StandardCharsets.UTF_8));
				}
				return JSON.readTree(bytes);
			});
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	public static boolean startsWith(byte[] bytes, byte[] prefix) {
		return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
	}

	public static int indexOf(byte[] bytes, byte[] part) {
		outer: for (int i = 0; i <= bytes.length - part.length; i++) {
			for (int j = 0; j < part.length; j++) {
				if (bytes[i + j] != part[j]) {
					continue outer;
				}
			}
			return i;
		}
		return -1;
	}

	/** What an answer (its status and body) comes to. */
	@FunctionalInterface
	public interface Answer<T> {

		T of(int status, byte[] body);

	}

}
