package dev.dynamorelay.it;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An HTTP proxy in front of DynamoDB (Streams) that forwards every call and counts them by operation
 * ({@code X-Amz-Target}), and for {@code GetRecords} the records answered: what the server read, seen from
 * outside it.
 */
public final class CountingProxy implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** Headers the JDK's client sets itself. */
	private static final Set<String> RESTRICTED = Set.of("host", "content-length", "connection", "expect", "upgrade",
			"transfer-encoding");

	private final URI upstream;

	private final HttpServer server;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();

	private final AtomicLong records = new AtomicLong();

	private final AtomicLong readsWithRecords = new AtomicLong();

	public CountingProxy(URI upstream) throws IOException {
		this.upstream = upstream;
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
		this.server.createContext("/", this::forward);
		this.server.setExecutor(this.threads);
		this.server.start();
	}

	public URI endpoint() {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort());
	}

	/** Calls of {@code operation} (such as {@code GetRecords}) forwarded so far. */
	public long calls(String operation) {
		AtomicLong count = this.calls.get(operation);
		return (count != null) ? count.get() : 0;
	}

	/** Records answered by GetRecords so far. */
	public long records() {
		return this.records.get();
	}

	/** GetRecords that answered at least one record, so far. */
	public long readsWithRecords() {
		return this.readsWithRecords.get();
	}

	private void forward(HttpExchange exchange) throws IOException {
		try (exchange; InputStream in = exchange.getRequestBody()) {
			String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
			String operation = (target != null) ? target.substring(target.indexOf('.') + 1) : "?";
			this.calls.computeIfAbsent(operation, (key) -> new AtomicLong()).incrementAndGet();
			HttpRequest.Builder request = HttpRequest.newBuilder(this.upstream.resolve(exchange.getRequestURI()))
				.method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(in.readAllBytes()));
			exchange.getRequestHeaders().forEach((name, values) -> {
				if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
					values.forEach((value) -> request.header(name, value));
				}
			});
			HttpResponse<byte[]> response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
			if (operation.equals("GetRecords") && response.statusCode() == 200) {
				JsonNode answer = JSON.readTree(response.body());
				int found = answer.path("Records").size();
				this.records.addAndGet(found);
				if (found > 0) {
					this.readsWithRecords.incrementAndGet();
				}
			}
			response.headers().map().forEach((name, values) -> {
				if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
					exchange.getResponseHeaders().put(name, List.copyOf(values));
				}
			});
			byte[] body = response.body();
			exchange.sendResponseHeaders(response.statusCode(), (body.length == 0) ? -1 : body.length);
			exchange.getResponseBody().write(body);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.threads.shutdownNow();
	}

}
