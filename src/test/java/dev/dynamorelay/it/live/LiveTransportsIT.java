package dev.dynamorelay.it.live;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.DynamoRelayApplication;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.fixtures.RawWebSocket;
import dev.dynamorelay.it.Subscriber;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The transports of live connections: Server-Sent Events (graphql-sse's distinct-connections mode: a POST
 * that accepts {@code text/event-stream}) as well as WebSocket; and a server that stops closes its WebSocket
 * sessions with 1012 (Service Restart), which graphql-ws clients reconnect on.
 */
class LiveTransportsIT extends IntegrationTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Test
	void changesArriveOverServerSentEvents() throws Exception {
		String userId = this.fixtures.buyer("sse");
		HttpClient client = HttpClient.newHttpClient();
		HttpRequest request = changesOverServerSentEvents(userId);
		HttpResponse<Stream<String>> response = client.send(request, HttpResponse.BodyHandlers.ofLines());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).get().asString().startsWith("text/event-stream");
		BlockingQueue<String> lines = linesOf(response);
		try {
			// The subscription reads from the stream's newest records once it is registered: write until it sees one.
			String data = null;
			for (int attempt = 0; attempt < 10 && data == null; attempt++) {
				this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, 1_760_001_000_000L + attempt, "books", "8")));
				data = dataOfNext(lines, Duration.ofSeconds(2));
			}
			assertThat(data).as("an event: next").isNotNull().contains("\"kind\":\"ADDED\"").contains("\"amount\":8.0");
		}
		finally {
			response.body().close();
		}
	}

	/**
	 * graphql-sse has no acknowledgement: a client knows its subscription is live when the response starts (its
	 * {@code connected} listener, EventSource's {@code open}, a resolved fetch). The server starts it once the
	 * subscription is registered, with a {@code : subscribed} comment, so that one write made right then reaches it.
	 * Before, the response's head waited for the first change or keep-alive (15 s), and a client that wrote on
	 * {@code connected} could not know whether its write would be seen.
	 */
	@Test
	void aSubscriptionOverServerSentEventsIsLiveOnceItsResponseStarts() throws Exception {
		HttpClient client = HttpClient.newHttpClient();
		for (int round = 0; round < 3; round++) {
			String userId = this.fixtures.buyer("sse-live");
			HttpRequest request = changesOverServerSentEvents(userId);
			long asked = System.nanoTime();
			HttpResponse<Stream<String>> response = client.sendAsync(request, HttpResponse.BodyHandlers.ofLines())
				.get(10, TimeUnit.SECONDS);
			Duration head = Duration.ofNanos(System.nanoTime() - asked);
			BlockingQueue<String> lines = linesOf(response);
			try {
				assertThat(response.statusCode()).isEqualTo(200);
				// The keep-alive comes every 15 s: a head that waited for it would take that long.
				assertThat(head).as("the response's head, round " + round).isLessThan(Duration.ofSeconds(10));
				assertThat(lines.poll(10, TimeUnit.SECONDS)).as("the stream's first line").isEqualTo(":subscribed");
				// One write, right away, with no retry: the subscription is live.
				this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, 1_760_002_000_000L + round, "books", "9")));
				assertThat(dataOfNext(lines, Duration.ofSeconds(10))).as("the change written once the head arrived")
					.isNotNull()
					.contains("\"kind\":\"ADDED\"")
					.contains("\"amount\":9.0");
			}
			finally {
				response.body().close();
			}
		}
	}

	/**
	 * The same answer prints the same JSON over both transports: a {@code Float} of 120 is {@code 120.0} over
	 * graphql-transport-ws as over HTTP (a query, and a subscription's change against Server-Sent Events), not
	 * {@code 120} over the WebSocket alone.
	 */
	@Test
	void aFloatPrintsOverWebSocketAsOverHttp() throws Exception {
		String userId = this.fixtures.buyer("ws-float");
		this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, 1_760_003_000_000L, "books", "120")));
		String query = "query($u: String!) { user(userId: $u) { purchases { edges { node { amount } } } } }";
		HttpResponse<String> overHttp = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/graphql"))
				.header("Content-Type", "application/json")
				.header("Accept", "application/graphql-response+json")
				.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("query", query, "variables",
						Map.of("u", userId)))))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(overHttp.body()).contains("\"amount\":120.0");
		HttpResponse<Stream<String>> events = HttpClient.newHttpClient()
			.send(changesOverServerSentEvents(userId), HttpResponse.BodyHandlers.ofLines());
		BlockingQueue<String> lines = linesOf(events);
		try (RawWebSocket socket = RawWebSocket.open(this.port, 65536, null)) {
			socket.send(RawWebSocket.subscribe("q", query, Map.of("u", userId)));
			assertThat(socket.nextText(Duration.ofSeconds(10))).as("the query's answer over the WebSocket")
				.contains("\"amount\":120.0");
			assertThat(socket.nextText(Duration.ofSeconds(10))).as("the query's end").contains("\"complete\"");
			socket.send(RawWebSocket.subscribe("s",
					"subscription($u: String!) { purchaseChanges(userId: $u) { kind edge { node { amount } } } }",
					Map.of("u", userId)));
			assertThat(lines.poll(10, TimeUnit.SECONDS)).as("the stream's first line").isEqualTo(":subscribed");
			// The WebSocket's subscription is registered once a write reaches it: write until one does.
			String overWebSocket = null;
			for (int attempt = 0; attempt < 10 && overWebSocket == null; attempt++) {
				this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, 1_760_003_100_000L + attempt, "books", "120")));
				overWebSocket = socket.nextText(Duration.ofSeconds(2));
			}
			assertThat(overWebSocket).as("a change over the WebSocket").isNotNull().contains("\"amount\":120.0");
			assertThat(dataOfNext(lines, Duration.ofSeconds(10))).as("a change over Server-Sent Events")
				.contains("\"amount\":120.0");
		}
		finally {
			events.body().close();
		}
	}

	@Test
	void aStoppingServerClosesItsWebSocketsWithServiceRestart() throws Exception {
		try (ConfigurableApplicationContext server = new SpringApplicationBuilder(DynamoRelayApplication.class)
			.run("--server.port=0", "--dynamo-relay.sample-data.enabled=false")) {
			int port = ((WebServerApplicationContext) server).getWebServer().getPort();
			CompletableFuture<Integer> closed = new CompletableFuture<>();
			BlockingQueue<String> messages = new LinkedBlockingQueue<>();
			WebSocket socket = HttpClient.newHttpClient()
				.newWebSocketBuilder()
				.subprotocols("graphql-transport-ws")
				.buildAsync(URI.create("ws://127.0.0.1:" + port + "/graphql"), new WebSocket.Listener() {

					@Override
					public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
						messages.add(data.toString());
						webSocket.request(1);
						return null;
					}

					@Override
					public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
						closed.complete(statusCode);
						return null;
					}

				})
				.get(10, TimeUnit.SECONDS);
			socket.sendText("{\"type\":\"connection_init\"}", true).get(5, TimeUnit.SECONDS);
			assertThat(messages.poll(5, TimeUnit.SECONDS)).contains("connection_ack");
			socket.sendText(JSON.writeValueAsString(Map.of("id", "1", "type", "subscribe", "payload",
					Map.of("query", "subscription { purchaseChanges(userId: \"nobody\") { kind } }"))), true)
				.get(5, TimeUnit.SECONDS);
			server.close();
			assertThat(closed.get(20, TimeUnit.SECONDS)).isEqualTo(1012);
		}
	}

	/**
	 * Clients of Server-Sent Events that stop reading (more of them than the server has processors) hold up no
	 * other subscriber: each stream is written on a thread of its own, and waits in its subscriber's buffer,
	 * bounded in bytes (Spring GraphQL's writer wrote on the Reactor threads every subscription shares, each write
	 * to a client that reads nothing waiting up to Tomcat's 10 s).
	 */
	@Test
	void serverSentEventsClientsThatStopReadingHoldUpNoOtherSubscriber() throws Exception {
		String slow = this.fixtures.buyer("sse-slow");
		String other = this.fixtures.buyer("sse-other");
		int streams = Runtime.getRuntime().availableProcessors() + 2;
		List<java.net.Socket> sockets = new java.util.ArrayList<>();
		try (Subscriber subscriber = new Subscriber(this.port, null, LiveConnectionsIT.CHANGES, Map.of("userId", other))) {
			byte[] body = JSON.writeValueAsBytes(Map.of("query",
					"subscription($u: String!) { purchaseChanges(userId: $u) { edge { node { product } } } }", "variables",
					Map.of("u", slow)));
			for (int i = 0; i < streams; i++) {
				java.net.Socket socket = new java.net.Socket();
				socket.setReceiveBufferSize(4096);
				socket.connect(new java.net.InetSocketAddress("127.0.0.1", this.port), 5_000);
				socket.getOutputStream().write(("POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
						+ "Accept: text/event-stream\r\nContent-Length: " + body.length + "\r\n\r\n")
					.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
				socket.getOutputStream().write(body);
				socket.getOutputStream().flush();
				sockets.add(socket);
			}
			// They read nothing: 24 changes of 300 KB are more than their sockets hold, and the server's writes wait.
			Thread.sleep(1_000);
			long at = 1_760_006_000_000L;
			for (int i = 0; i < 24; i++) {
				this.fixtures.putPurchases(List.of(Fixtures.purchase(slow, at + i, "books", "1", "s".repeat(300_000))));
			}
			Thread.sleep(1_000);
			Map<String, Object> change = null;
			for (int attempt = 0; attempt < 3 && change == null; attempt++) {
				this.fixtures.putPurchases(List.of(Fixtures.purchase(other, at + attempt, "books", "7")));
				org.springframework.graphql.client.ClientGraphQlResponse response = subscriber.response(Duration.ofSeconds(5));
				change = (response != null) ? response.field("purchaseChanges").getValue() : null;
			}
			assertThat(change).as("the other subscriber's change, within 5 s").isNotNull();
		}
		finally {
			for (java.net.Socket socket : sockets) {
				socket.close();
			}
		}
	}

	/** A subscription to the user's purchaseChanges over Server-Sent Events. */
	private HttpRequest changesOverServerSentEvents(String userId) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/graphql"))
			.header("Content-Type", "application/json")
			.header("Accept", "text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("query",
					"subscription($u: String!) { purchaseChanges(userId: $u) { kind edge { node { amount } } } }",
					"variables", Map.of("u", userId)))))
			.build();
	}

	/** The lines of the response's body as they arrive, read by a daemon thread until the body is closed. */
	private static BlockingQueue<String> linesOf(HttpResponse<Stream<String>> response) {
		BlockingQueue<String> lines = new LinkedBlockingQueue<>();
		Thread reader = new Thread(() -> response.body().forEach(lines::add), "sse-lines");
		reader.setDaemon(true);
		reader.start();
		return lines;
	}

	/** The data of the next {@code event: next}, or null within {@code timeout}. */
	private static String dataOfNext(BlockingQueue<String> lines, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		boolean next = false;
		while (System.nanoTime() < deadline) {
			String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			if (line == null) {
				return null;
			}
			if (line.startsWith("event:")) {
				next = line.substring(6).trim().equals("next");
			}
			else if (next && line.startsWith("data:")) {
				return line.substring(5).trim();
			}
		}
		return null;
	}

}
