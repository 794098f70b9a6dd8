package dev.dynamorelay.it.live;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.client.ClientGraphQlResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.dynamorelay.fixtures.RawWebSocket;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Subscriber;
import dev.dynamorelay.it.Tokens;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limits of live connections: a caller holds at most so many subscriptions (QUERY_TOO_COMPLEX beyond), the
 * server at most so many in all (UNAVAILABLE beyond), and a subscription that ends gives its place back.
 */
class LiveLimitsIT extends IntegrationTest {

	private static final String CHANGES = "subscription($u: String!) { purchaseChanges(userId: $u) { kind } }";

	@DynamicPropertySource
	static void limits(DynamicPropertyRegistry registry) {
		Tokens.configure(registry);
		registry.add("dynamo-relay.live.max-subscriptions-per-caller", () -> "2");
		registry.add("dynamo-relay.live.max-subscriptions", () -> "3");
	}

	@Test
	void aCallerAndTheServerHoldAtMostTheirLimitsOfSubscriptions() throws Exception {
		String alice = this.fixtures.buyer("alice");
		String bob = this.fixtures.buyer("bob");
		String carol = this.fixtures.buyer("carol");
		List<Subscriber> open = new ArrayList<>();
		try {
			open.add(subscribed(alice));
			open.add(subscribed(alice));
			assertThat(refusal(alice)).startsWith("QUERY_TOO_COMPLEX: This caller holds 2 live subscriptions");
			open.add(subscribed(bob));
			assertThat(refusal(carol)).as("the server's own limit, not DynamoDB")
				.isEqualTo("UNAVAILABLE: The server holds 3 live subscriptions, the most it serves "
						+ "(dynamo-relay.live.max-subscriptions): subscribe again later.");
			open.remove(0).close();
			Thread.sleep(300);
			open.add(subscribed(carol));
		}
		finally {
			open.forEach(Subscriber::close);
		}
	}

	/**
	 * A subscription ended as it starts gives its place back, however the end meets its answer: a {@code complete}
	 * sent with the {@code subscribe}, or the client gone at once. A place held by an answer dropped on its way would
	 * leave the caller refused for good. (The server answers a subscription as it reads its {@code subscribe}, so here
	 * the answer comes before the end; an end from another thread racing the answer is not made here.)
	 */
	@Test
	void aSubscriptionEndedAsItStartsGivesItsPlaceBack() throws Exception {
		String dave = this.fixtures.buyer("dave");
		try (RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, Tokens.of(dave))) {
			for (int round = 0; round < 40; round++) {
				String id = "s" + round;
				socket.send(RawWebSocket.subscribe(id, CHANGES, Map.of("u", dave)));
				socket.send("{\"id\":\"" + id + "\",\"type\":\"complete\"}");
			}
			socket.send(RawWebSocket.subscribe("q", "query { __typename }", Map.of()));
			assertThat(socket.next(Duration.ofSeconds(10))).as("the connection serves on").isNotNull();
		}
		for (int round = 0; round < 20; round++) {
			RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, Tokens.of(dave));
			socket.send(RawWebSocket.subscribe("s", CHANGES, Map.of("u", dave)));
			socket.abort();
		}
		Thread.sleep(1_000);
		List<Subscriber> open = new ArrayList<>();
		try {
			open.add(subscribed(dave));
			open.add(subscribed(dave));
			assertThat(refusal(dave)).startsWith("QUERY_TOO_COMPLEX: This caller holds 2 live subscriptions");
		}
		finally {
			open.forEach(Subscriber::close);
		}
	}

	/** A subscription of {@code userId}'s own purchases, checked to be open (no error within a moment). */
	private Subscriber subscribed(String userId) throws InterruptedException {
		Subscriber subscriber = new Subscriber(this.port, Tokens.of(userId), CHANGES, Map.of("u", userId));
		ClientGraphQlResponse response = subscriber.response(Duration.ofMillis(400));
		assertThat(response).as("no error for %s", userId).isNull();
		assertThat(subscriber.failure()).isNull();
		return subscriber;
	}

	/** The code and message of the refusal of one more subscription of {@code userId}. */
	private String refusal(String userId) throws InterruptedException {
		try (Subscriber subscriber = new Subscriber(this.port, Tokens.of(userId), CHANGES, Map.of("u", userId))) {
			ClientGraphQlResponse response = subscriber.response(Duration.ofSeconds(5));
			assertThat(response).as("a refusal").isNotNull();
			return response.getErrors().get(0).getExtensions().get("code") + ": " + response.getErrors().get(0).getMessage();
		}
	}

}
