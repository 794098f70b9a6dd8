package dev.dynamorelay.it.live;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebSocket messages larger than Tomcat's 512-byte buffers of a session: the server takes a message in parts up to
 * {@code dynamo-relay.http.max-body-size} + 1 KB (1 MB + 1 KB), closes the session with 1009 (Message Too
 * Big) beyond, counting the refusal, and sends a large result in frames that the client puts together.
 */
class LiveMessagesIT extends IntegrationTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	private MeterRegistry registry;

	private static final String CHANGES = "subscription($u: String!) { purchaseChanges(userId: $u) { kind edge { node { amount product } } } }";

	@Test
	void aSubscribeMessageOfManyBuffersIsTakenAndItsLargeChangesArriveWhole() throws Exception {
		String userId = this.fixtures.buyer("large-subscribe");
		// 20 KB of comment: the message arrives in parts of 128 chars, about 160 of them.
		String document = "# " + "padding ".repeat(2_500) + "\n" + CHANGES;
		try (Socket socket = Socket.open(this.port)) {
			String subscribe = subscribe("1", document, Map.of("u", userId));
			assertThat(subscribe.length()).isGreaterThan(20_000);
			socket.send(subscribe);
			// A change of 5 KB (its product), ten frames of the server's 512-byte encoder buffer.
			String product = "p".repeat(5_000);
			JsonNode next = null;
			for (int attempt = 0; attempt < 10 && next == null; attempt++) {
				this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, 1_760_002_000_000L + attempt, "books", "8", product)));
				next = socket.next(Duration.ofSeconds(2));
			}
			assertThat(next).as("a change (socket closed: %s)", socket.closed.getNow(null)).isNotNull();
			assertThat(next.path("payload").path("errors").isMissingNode()).as(next.toString()).isTrue();
			JsonNode change = next.path("payload").path("data").path("purchaseChanges");
			assertThat(change.path("kind").asString()).isEqualTo("ADDED");
			assertThat(change.path("edge").path("node").path("product").asString()).isEqualTo(product);
			assertThat(socket.parts).as("the change came in frames of 512 bytes").isGreaterThanOrEqualTo(10);
			assertThat(socket.closed).isNotDone();
		}
	}

	@Test
	void aMessageOverTheBoundClosesTheSessionWithMessageTooBig() throws Exception {
		double before = refusals();
		try (Socket socket = Socket.open(this.port)) {
			// 400,000 chars, 1,200,000 bytes in UTF-8: over 1 MB + 1 KB by its bytes, not by its chars.
			String document = "# " + "\u20ac".repeat(400_000) + "\n" + CHANGES;
			socket.send(subscribe("1", document, Map.of("u", "nobody")));
			assertThat(socket.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1009);
		}
		assertThat(refusals()).isEqualTo(before + 1);
		// The server goes on taking messages of other sessions.
		try (Socket socket = Socket.open(this.port)) {
			socket.send(subscribe("1", "query { __typename }", Map.of()));
			assertThat(socket.next(Duration.ofSeconds(5)).path("payload").path("data").path("__typename").asString())
				.isEqualTo("Query");
		}
	}

	@Test
	void aResultOfAHundredEdgesArrivesWhole() throws Exception {
		String userId = this.fixtures.buyer("large-result");
		List<Map<String, AttributeValue>> purchases = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			purchases.add(Fixtures.purchase(userId, 1_760_003_000_000L + i, "books", Integer.toString(i + 1)));
		}
		this.fixtures.putPurchases(purchases);
		try (Socket socket = Socket.open(this.port)) {
			socket.send(subscribe("1", "query($u: String!) { user(userId: $u) { purchases(first: 100) { edges { cursor node { amount product purchasedAt } } } } }",
					Map.of("u", userId)));
			JsonNode next = socket.next(Duration.ofSeconds(10));
			assertThat(next).as("the result (socket closed: %s)", socket.closed.getNow(null)).isNotNull();
			assertThat(next.path("type").asString()).isEqualTo("next");
			JsonNode edges = next.path("payload").path("data").path("user").path("purchases").path("edges");
			assertThat(edges.size()).isEqualTo(100);
			assertThat(edges.get(99).path("node").path("amount").asDouble()).isEqualTo(100.0);
			assertThat(socket.length).as("a result over 10 KB").isGreaterThan(10_000);
			assertThat(socket.parts).as("in frames of 512 bytes").isGreaterThanOrEqualTo(socket.length / 512);
		}
	}

	/**
	 * A message over twice the bound: the parts Tomcat still hands over once the session is closed are dropped,
	 * not put together as a message of their own, and the refusal is counted once.
	 */
	@Test
	void theRestOfAMessageOverTheBoundIsDroppedAndCountedOnce() throws Exception {
		double before = refusals();
		try (Socket socket = Socket.open(this.port)) {
			// 3,000,000 chars: almost three times the bound.
			socket.send(subscribe("1", "# " + "x".repeat(3_000_000) + "\n" + CHANGES, Map.of("u", "nobody")));
			assertThat(socket.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1009);
		}
		Thread.sleep(500);
		assertThat(refusals()).isEqualTo(before + 1);
	}

	static String subscribe(String id, String document, Map<String, Object> variables) {
		return JSON.writeValueAsString(Map.of("id", id, "type", "subscribe", "payload",
				Map.of("query", document, "variables", variables)));
	}

	/**
	 * The server's count, read from its own registry: the global one also holds the registries of the servers of
	 * classes that ran before, closed, whose counters read 0.
	 */
	private double refusals() {
		Counter counter = this.registry.find("dynamorelay.http.refusals").tag("reason", "message-too-large").counter();
		return counter == null ? 0 : counter.count();
	}

	/**
	 * A {@code graphql-transport-ws} connection on {@code java.net.http.WebSocket}, acknowledged; it puts each
	 * message's parts together and counts them.
	 */
	static final class Socket implements AutoCloseable {

		final BlockingQueue<Received> messages = new LinkedBlockingQueue<>();

		final CompletableFuture<Integer> closed = new CompletableFuture<>();

		/** The parts (frames, or pieces of them) of the message {@link #next} returned last. */
		int parts;

		/** Its length, in chars. */
		int length;

		private WebSocket socket;

		static Socket open(int port) throws Exception {
			Socket socket = new Socket();
			StringBuilder message = new StringBuilder();
			AtomicInteger count = new AtomicInteger();
			socket.socket = HttpClient.newHttpClient()
				.newWebSocketBuilder()
				.subprotocols("graphql-transport-ws")
				.buildAsync(URI.create("ws://127.0.0.1:" + port + "/graphql"), new WebSocket.Listener() {

					@Override
					public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
						message.append(data);
						count.incrementAndGet();
						if (last) {
							socket.messages.add(new Received(message.toString(), count.getAndSet(0)));
							message.setLength(0);
						}
						webSocket.request(1);
						return null;
					}

					@Override
					public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
						socket.closed.complete(statusCode);
						return null;
					}

					@Override
					public void onError(WebSocket webSocket, Throwable error) {
						socket.closed.completeExceptionally(error);
					}

				})
				.get(10, TimeUnit.SECONDS);
			socket.send("{\"type\":\"connection_init\"}");
			assertThat(socket.next(Duration.ofSeconds(5)).path("type").asString()).isEqualTo("connection_ack");
			return socket;
		}

		void send(String text) throws Exception {
			this.socket.sendText(text, true).get(10, TimeUnit.SECONDS);
		}

		/** The first part of a message, whose rest never comes. */
		void sendPart(String text) throws Exception {
			this.socket.sendText(text, false).get(10, TimeUnit.SECONDS);
		}

		/** The next message other than a ping, or null within {@code timeout}. */
		JsonNode next(Duration timeout) throws InterruptedException {
			long deadline = System.nanoTime() + timeout.toNanos();
			while (System.nanoTime() < deadline) {
				Received received = this.messages.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
				if (received == null) {
					return null;
				}
				JsonNode message = JSON.readTree(received.text());
				if (!message.path("type").asString().equals("ping")) {
					this.parts = received.parts();
					this.length = received.text().length();
					return message;
				}
			}
			return null;
		}

		@Override
		public void close() {
			this.socket.abort();
		}

		/** A message put together, and the parts it came in. */
		record Received(String text, int parts) {
		}

	}

}
