package dev.dynamorelay.it.live;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import dev.dynamorelay.fixtures.RawWebSocket;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.NoErrorLogged;
import dev.dynamorelay.it.Tokens;
import dev.dynamorelay.live.LiveConnections;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The graphql-transport-ws protocol as the server speaks it, message by message from a raw socket: the close codes
 * for what a client must not send (4403 a refused token, 4401 a subscribe before the connection was acknowledged,
 * 4429 a second {@code connection_init}, 4408 none within its timeout, 4400 a server's message, a subscribe without
 * a document or the old graphql-ws protocol, 1003 a binary message), a {@code pong} for a {@code ping}, keep-alive
 * pings on an idle connection, a query's {@code next} and {@code complete}, each operation's in order when many run
 * at once on one connection, and a client's {@code complete} ending its subscription. None of them logs an ERROR.
 */
@TestPropertySource(properties = { "spring.graphql.websocket.connection-init-timeout=2s",
		"spring.graphql.websocket.keep-alive=1s", "dynamo-relay.live.send-timeout=120s" })
class LiveProtocolIT extends IntegrationTest {

	private static final Duration WITHIN = Duration.ofSeconds(10);

	private static final String CHANGES = "subscription($u: String!) { purchaseChanges(userId: $u) { kind eventId } }";

	@Autowired
	private LiveConnections live;

	@Autowired
	private MeterRegistry registry;

	@DynamicPropertySource
	static void tokens(DynamicPropertyRegistry registry) {
		Tokens.configure(registry);
	}

	@RegisterExtension
	final NoErrorLogged noErrorLogged = new NoErrorLogged();

	@Test
	void aSubscribeBeforeConnectionInitClosesWithUnauthorized() {
		try (RawWebSocket socket = RawWebSocket.connect(this.port, 64 * 1024)) {
			socket.send(RawWebSocket.subscribe("1", CHANGES, Map.of("u", "user-01")));
			assertThat(socket.next(WITHIN)).isNull();
			assertThat(socket.closeCode()).isEqualTo(4401);
		}
	}

	@Test
	void aRefusedTokenClosesWithForbiddenAndAValidOneIsAcknowledged() {
		try (RawWebSocket socket = RawWebSocket.connect(this.port, 64 * 1024)) {
			socket.send("{\"type\":\"connection_init\",\"payload\":{\"Authorization\":\"Bearer "
					+ Tokens.signedByAnotherKey("user-01") + "\"}}");
			assertThat(socket.next(WITHIN)).as("no connection_ack").isNull();
			assertThat(socket.closeCode()).isEqualTo(4403);
		}
		try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, Tokens.of("user-01"))) {
			assertThat(socket.closeCode()).isNull();
		}
	}

	@Test
	void aSecondConnectionInitClosesWithTooManyInitialisationRequests() {
		try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, null)) {
			socket.send("{\"type\":\"connection_init\"}");
			assertThat(socket.next(WITHIN)).isNull();
			assertThat(socket.closeCode()).isEqualTo(4429);
		}
	}

	@Test
	void noConnectionInitWithinItsTimeoutClosesWithTimeout() {
		try (RawWebSocket socket = RawWebSocket.connect(this.port, 64 * 1024)) {
			long start = System.nanoTime();
			assertThat(socket.next(WITHIN)).isNull();
			assertThat(socket.closeCode()).isEqualTo(4408);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the configured 2 s, not before")
				.isGreaterThanOrEqualTo(Duration.ofMillis(1_900));
		}
	}

	@Test
	void aPingIsAnsweredWithAPongAndAnIdleConnectionIsPinged() {
		try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, null)) {
			socket.send("{\"type\":\"ping\"}");
			List<String> messages = new java.util.ArrayList<>();
			// The pong, and the keep-alive pings every second (in either order with the first of them).
			for (int i = 0; i < 3; i++) {
				String message = socket.nextText(WITHIN);
				assertThat(message).as("message %d (closed %s)", i, socket.closeCode()).isNotNull();
				messages.add(message);
			}
			assertThat(messages).filteredOn((message) -> message.contains("\"type\":\"pong\"")).hasSize(1);
			assertThat(messages).filteredOn((message) -> message.contains("\"type\":\"ping\"")).isNotEmpty();
		}
	}

	@Test
	void aServersMessageFromAClientClosesWithBadRequest() {
		for (String message : List.of("{\"type\":\"next\",\"id\":\"1\",\"payload\":{}}", "{\"type\":\"connection_ack\"}",
				"{\"type\":\"error\",\"id\":\"1\",\"payload\":{}}")) {
			try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, null)) {
				socket.send(message);
				assertThat(socket.next(WITHIN)).as(message).isNull();
				assertThat(socket.closeCode()).as(message).isEqualTo(4400);
			}
		}
	}

	@Test
	void theOldGraphqlWsProtocolIsClosedWithBadRequest() {
		// subscriptions-transport-ws's protocol, which is not served: graphql-transport-ws is.
		try (RawWebSocket socket = RawWebSocket.connect(null, this.port, 64 * 1024, "graphql-ws")) {
			assertThat(socket.next(WITHIN)).isNull();
			assertThat(socket.closeCode()).isEqualTo(4400);
		}
	}

	@Test
	void aBinaryMessageClosesWithUnsupportedData() {
		try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, null)) {
			socket.sendBinary(new byte[] { 1, 2, 3 });
			assertThat(socket.next(WITHIN)).isNull();
			assertThat(socket.closeCode()).isEqualTo(1003);
		}
	}

	@Test
	void aSubscribeWithoutADocumentClosesWithBadRequest() {
		try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, null)) {
			socket.send("{\"type\":\"subscribe\",\"id\":\"1\",\"payload\":{\"variables\":{}}}");
			assertThat(socket.next(WITHIN)).isNull();
			assertThat(socket.closeCode()).isEqualTo(4400);
			assertThat(socket.closeReason()).startsWith("Invalid message");
		}
	}

	@Test
	void manyQueriesAtOnceAnswerEachNextThenComplete() {
		int queries = 200;
		try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, null)) {
			for (int i = 0; i < queries; i++) {
				socket.send(RawWebSocket.subscribe("q" + i, "query($id: ID!) { node(id: $id) { id } }",
						Map.of("id", "q" + i)));
			}
			Map<String, List<String>> byId = new HashMap<>();
			int completed = 0;
			while (completed < queries) {
				JsonNode message = socket.next(WITHIN);
				assertThat(message).as("after %d of %d completed (closed %s)", completed, queries, socket.closeCode())
					.isNotNull();
				String type = message.path("type").asString();
				byId.computeIfAbsent(message.path("id").asString(), (id) -> new java.util.ArrayList<>()).add(type);
				if (type.equals("complete")) {
					completed++;
				}
			}
			assertThat(byId).hasSize(queries);
			assertThat(byId.values()).allSatisfy((types) -> assertThat(types).containsExactly("next", "complete"));
		}
	}

	@Test
	void anIdIsFreeAgainOnceItsOperationCompleted() {
		try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, null)) {
			for (int round = 0; round < 50; round++) {
				socket.send(RawWebSocket.subscribe("again", "{ __typename }", Map.of()));
				JsonNode next = socket.next(WITHIN);
				JsonNode complete = socket.next(WITHIN);
				assertThat(next).as("round %d (closed %s %s)", round, socket.closeCode(), socket.closeReason()).isNotNull();
				assertThat(next.path("type").asString()).isEqualTo("next");
				assertThat(complete).as("round %d (closed %s %s)", round, socket.closeCode(), socket.closeReason())
					.isNotNull();
				assertThat(complete.path("type").asString()).isEqualTo("complete");
			}
		}
	}

	@Test
	void aClientThatAsksButReadsNothingIsDropped() throws InterruptedException {
		// Queries' answers wait in the connection's outbox, not held back by the send window as changes are: past
		// twice that window waiting, the client is dropped as one that reads nothing, long before the send timeout
		// (120 s here) would drop it.
		String introspection = "{ __schema { types { name description fields { name description args { name } type { name } } } } }";
		double dropped = sendFailures();
		try (RawWebSocket socket = RawWebSocket.open(this.port, 4096, null)) {
			// 600 answers of 16 KB: more than the sockets' buffers and the outbox's bound together.
			for (int i = 0; i < 600; i++) {
				socket.send(RawWebSocket.subscribe("q" + i, introspection, Map.of()));
			}
			long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
			while (sendFailures() == dropped) {
				assertThat(System.nanoTime()).as("the client that reads nothing dropped").isLessThan(deadline);
				Thread.sleep(50);
			}
			int answers = 0;
			while (socket.next(WITHIN) != null) {
				answers++;
			}
			assertThat(socket.closeCode()).as("dropped after %d of 1,200 messages", answers).isIn(1013, 1006);
			assertThat(answers).isLessThan(1_200);
		}
		// The server serves the next client.
		try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, null)) {
			socket.send(RawWebSocket.subscribe("q", "{ __typename }", Map.of()));
			assertThat(socket.next(WITHIN)).isNotNull();
		}
	}

	/** The server's count of WebSocket clients dropped for reading nothing (in this context's registry). */
	private double sendFailures() {
		Counter counter = this.registry.find("dynamorelay.http.refusals").tag("reason", "websocket-send-failed").counter();
		return (counter != null) ? counter.count() : 0;
	}

	@Test
	void aPageOfAnotherOriginIsRefusedAtTheHandshake() throws Exception {
		assertThat(LiveHandshakes.handshake(this.port, "https://elsewhere.example")).startsWith("HTTP/1.1 403");
		assertThat(LiveHandshakes.handshake(this.port, "http://127.0.0.1:" + this.port)).startsWith("HTTP/1.1 101");
		assertThat(LiveHandshakes.handshake(this.port, null)).startsWith("HTTP/1.1 101");
	}

	/**
	 * A browser's offer of permessage-deflate is declined (dynamo-relay.live.compression is off): a connection that took
	 * it would hold zlib's compressor and decompressor while open, idle or not.
	 */
	@Test
	void anOfferOfCompressionIsDeclined() throws Exception {
		String head = LiveHandshakes.head(this.port, "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n");
		assertThat(head).startsWith("HTTP/1.1 101").doesNotContainIgnoringCase("Sec-WebSocket-Extensions");
	}

	@Test
	void aClientsCompleteEndsItsSubscription() {
		String userId = this.fixtures.buyer("protocol-complete");
		int before = this.live.subscriptions();
		try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, Tokens.of(userId))) {
			socket.send(RawWebSocket.subscribe("s", CHANGES, Map.of("u", userId)));
			LiveSubscriptions.await(this.live, before + 1);
			socket.send("{\"type\":\"complete\",\"id\":\"s\"}");
			LiveSubscriptions.await(this.live, before);
			// The connection goes on: a query is answered.
			socket.send(RawWebSocket.subscribe("q", "{ __typename }", Map.of()));
			JsonNode answer = socket.next(WITHIN);
			assertThat(answer).isNotNull();
			assertThat(answer.path("id").asString()).isEqualTo("q");
			assertThat(answer.path("payload").path("data").path("__typename").asString()).isEqualTo("Query");
		}
	}
}
