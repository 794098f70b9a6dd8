package dev.dynamorelay.it.live;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.NoErrorLogged;
import dev.dynamorelay.fixtures.RawWebSocket;
import dev.dynamorelay.it.Subscriber;
import dev.dynamorelay.live.LiveConnections;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What clients can send over a WebSocket is answered with the protocol's codes and never logged as a server error
 * (issue 31, finding 6): a message that is no graphql-transport-ws message closes the connection with 4400 (Bad
 * Request), a second subscription under an id in use with 4409; a client that hangs up under a subscription is
 * dropped quietly; an {@code after} forged with sequence number 0 is {@code INVALID_CURSOR}. None of them writes
 * an ERROR line, with a stack trace or without; no token is needed for any of them.
 */
class LiveHostileMessagesIT extends IntegrationTest {

	private static final String CHANGES = "subscription($u: String!, $after: String) { purchaseChanges(userId: $u, after: $after) { kind eventId } }";

	private static final Duration WITHIN = Duration.ofSeconds(10);

	@Autowired
	private LiveConnections live;

	@RegisterExtension
	final NoErrorLogged noErrorLogged = new NoErrorLogged();

	@Test
	void messagesThatAreNoProtocolMessagesCloseWithBadRequest() {
		String deep = "[".repeat(100_000) + "]".repeat(100_000);
		List<String> invalid = List.of("not json at all", "{\"type\":\"subscribe\",\"id\":",
				"{\"type\":\"no-such-type\"}", "{\"type\":42}", "[1, 2]",
				"{\"type\":\"subscribe\",\"id\":\"1\",\"payload\":\"a string\"}",
				"{\"type\":\"subscribe\",\"id\":\"1\",\"payload\":{\"query\":\"{ __typename }\",\"variables\":\"a string\"}}",
				"{\"type\":\"subscribe\",\"id\":\"1\",\"payload\":{\"query\":42}}",
				"{\"type\":\"subscribe\",\"id\":[],\"payload\":{\"query\":\"{ __typename }\"}}",
				"{\"type\":\"subscribe\",\"id\":\"1\",\"payload\":{\"query\":\"{ __typename }\",\"variables\":" + deep + "}}",
				deep);
		for (String message : invalid) {
			try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, null)) {
				socket.send(message);
				JsonNode answer = socket.next(WITHIN);
				assertThat(answer).as("no answer to %.60s", message).isNull();
				assertThat(socket.closeCode()).as("closed for %.60s (%s)", message, socket.closeReason()).isEqualTo(4400);
				assertThat(socket.closeReason()).startsWith("Invalid message");
			}
		}
		// Before connection_init too.
		try (RawWebSocket socket = RawWebSocket.connect(this.port, 64 * 1024)) {
			socket.send("{\"type\":\"connection_init\",\"payload\":\"a string\"}");
			assertThat(socket.next(WITHIN)).isNull();
			assertThat(socket.closeCode()).isEqualTo(4400);
		}
	}

	@Test
	void aSecondSubscriptionUnderAnIdInUseClosesWithSubscriberAlreadyExists() {
		String userId = this.fixtures.buyer("twice");
		int before = this.live.subscriptions();
		try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, null)) {
			socket.send(RawWebSocket.subscribe("same", CHANGES, Map.of("u", userId)));
			socket.send(RawWebSocket.subscribe("same", CHANGES, Map.of("u", userId)));
			assertThat(socket.next(WITHIN)).isNull();
			assertThat(socket.closeCode()).isEqualTo(4409);
			assertThat(socket.closeReason()).isEqualTo("Subscriber for same already exists");
		}
		LiveSubscriptions.await(this.live, before);
	}

	@Test
	void aClientThatHangsUpUnderASubscriptionIsDroppedQuietly() throws Exception {
		String userId = this.fixtures.buyer("hang-up");
		int before = this.live.subscriptions();
		long at = 1_770_100_000_000L;
		for (int round = 0; round < 5; round++) {
			RawWebSocket socket = RawWebSocket.open(this.port, 4096, null);
			socket.send(RawWebSocket.subscribe("1", "subscription($u: String!) { purchaseChanges(userId: $u) { edge { node { product } } } }",
					Map.of("u", userId)));
			LiveSubscriptions.await(this.live, before + 1);
			for (int i = 0; i < 8; i++) {
				this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, at++, "books", "1", "x".repeat(100_000))));
			}
			// Gone in the middle of the changes, without a close frame: the server's writes find the connection closed.
			assertThat(socket.next(WITHIN)).isNotNull();
			socket.close();
			LiveSubscriptions.await(this.live, before);
		}
	}

	@Test
	void anAfterForgedWithSequenceNumberZeroIsAnInvalidCursor() throws Exception {
		String userId = this.fixtures.buyer("forged");
		String eventId;
		int before = this.live.subscriptions();
		try (Subscriber subscriber = new Subscriber(this.port, null, CHANGES, Map.of("u", userId))) {
			LiveSubscriptions.await(this.live, before + 1);
			this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, 1_770_200_000_000L, "books", "1")));
			eventId = (String) subscriber.next(WITHIN).get("eventId");
		}
		String[] parts = new String(Base64.getUrlDecoder().decode(eventId), StandardCharsets.US_ASCII).split("\\|");
		String forged = Base64.getUrlEncoder().withoutPadding()
			.encodeToString((parts[0] + "|" + parts[1] + "|0").getBytes(StandardCharsets.US_ASCII));
		try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, null)) {
			for (int i = 0; i < 10; i++) {
				socket.send(RawWebSocket.subscribe("s" + i, CHANGES, Map.of("u", userId, "after", forged)));
			}
			for (int i = 0; i < 10; i++) {
				JsonNode answer = socket.next(WITHIN);
				assertThat(answer).as("an answer (closed %s)", socket.closeCode()).isNotNull();
				JsonNode error = answer.path("type").asString().equals("error") ? answer.path("payload").get(0)
						: answer.path("payload").path("errors").get(0);
				assertThat(error.path("extensions").path("code").asString()).as(answer.toString()).isEqualTo("INVALID_CURSOR");
				if (answer.path("type").asString().equals("next")) {
					assertThat(socket.next(WITHIN).path("type").asString()).isEqualTo("complete");
				}
			}
		}
	}
}
