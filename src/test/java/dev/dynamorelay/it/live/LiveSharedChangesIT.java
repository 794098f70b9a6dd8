package dev.dynamorelay.it.live;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import dev.dynamorelay.fixtures.RawWebSocket;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Tokens;
import dev.dynamorelay.live.LiveConnections;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Work done once for subscriptions of one shape: a change of a connection that several subscriptions with the same
 * document, variables and caller's rights receive is executed and serialized once, and each subscription's message
 * carries those bytes under its own id; subscriptions of another selection or other rights get answers of their own.
 */
class LiveSharedChangesIT extends IntegrationTest {

	private static final String FIELD = "Subscription.purchaseChanges";

	private static final String CHANGES = """
			subscription($u: String!) { purchaseChanges(userId: $u) {
			  kind eventId edge { cursor node { id purchasedAt product amount } } } }""";

	private static final String OTHER_SELECTION = """
			subscription($u: String!) { purchaseChanges(userId: $u) { kind edge { node { amount } } } }""";

	private static final Duration WITHIN = Duration.ofSeconds(10);

	@Autowired
	private MeterRegistry meterRegistry;

	@Autowired
	private LiveConnections live;

	@DynamicPropertySource
	static void tokens(DynamicPropertyRegistry registry) {
		Tokens.configure(registry);
	}

	@Test
	void subscriptionsOfOneShapeShareOneAnswerOfEachChange() throws Exception {
		String userId = this.fixtures.buyer("shared");
		List<RawWebSocket> sockets = new ArrayList<>();
		try {
			int before = this.live.subscriptions();
			for (int i = 0; i < 5; i++) {
				RawWebSocket socket = RawWebSocket.open(this.port, 64 * 1024, Tokens.of(userId));
				socket.send(RawWebSocket.subscribe("sub-" + i, CHANGES, Map.of("u", userId)));
				sockets.add(socket);
			}
			LiveSubscriptions.awaitAtLeast(this.live, before + 5);
			double serialized = count("dynamorelay.live.changes.serialized");
			double shared = count("dynamorelay.live.changes.shared");
			double delivered = count("dynamorelay.live.changes.delivered");
			this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, 1_760_100_000_000L, "books", "12")));
			List<JsonNode> payloads = new ArrayList<>();
			for (int i = 0; i < sockets.size(); i++) {
				JsonNode message = sockets.get(i).next(WITHIN);
				assertThat(message).as("subscription %d's change", i).isNotNull();
				assertThat(message.path("type").asString()).isEqualTo("next");
				assertThat(message.path("id").asString()).as("its own id").isEqualTo("sub-" + i);
				payloads.add(message.path("payload"));
			}
			JsonNode change = payloads.get(0).path("data").path("purchaseChanges");
			assertThat(change.path("kind").asString()).isEqualTo("ADDED");
			assertThat(change.path("edge").path("node").path("amount").asDouble()).isEqualTo(12.0);
			assertThat(payloads).as("the same payload for each").allSatisfy((payload) -> assertThat(payload).isEqualTo(payloads.get(0)));
			assertThat(count("dynamorelay.live.changes.delivered") - delivered).as("handed to each").isEqualTo(5);
			assertThat(count("dynamorelay.live.changes.serialized") - serialized).as("executed and serialized once")
				.isEqualTo(1);
			assertThat(count("dynamorelay.live.changes.shared") - shared).as("the answer reused by the four others")
				.isEqualTo(4);
		}
		finally {
			sockets.forEach(RawWebSocket::close);
		}
	}

	/**
	 * A user and an admin subscribed to the user's purchases receive the same change, judged once for both: their
	 * rights differ, so each gets an answer of its own; so does a subscription with another selection.
	 */
	@Test
	void otherRightsAndOtherSelectionsGetAnswersOfTheirOwn() throws Exception {
		String userId = this.fixtures.buyer("unshared");
		String admin = Tokens.of("root", Map.of("groups", List.of("admin")));
		int before = this.live.subscriptions();
		try (RawWebSocket own = RawWebSocket.open(this.port, 64 * 1024, Tokens.of(userId));
				RawWebSocket admins = RawWebSocket.open(this.port, 64 * 1024, admin);
				RawWebSocket other = RawWebSocket.open(this.port, 64 * 1024, Tokens.of(userId))) {
			own.send(RawWebSocket.subscribe("own", CHANGES, Map.of("u", userId)));
			admins.send(RawWebSocket.subscribe("admin", CHANGES, Map.of("u", userId)));
			other.send(RawWebSocket.subscribe("other", OTHER_SELECTION, Map.of("u", userId)));
			LiveSubscriptions.awaitAtLeast(this.live, before + 3);
			double serialized = count("dynamorelay.live.changes.serialized");
			double shared = count("dynamorelay.live.changes.shared");
			this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, 1_760_100_001_000L, "books", "7")));
			JsonNode mine = own.next(WITHIN);
			JsonNode theirs = admins.next(WITHIN);
			JsonNode less = other.next(WITHIN);
			assertThat(mine.path("payload")).isEqualTo(theirs.path("payload"));
			assertThat(less.path("payload").path("data").path("purchaseChanges").path("edge").path("node").toString())
				.isEqualTo("{\"amount\":7.0}");
			assertThat(count("dynamorelay.live.changes.serialized") - serialized).as("one answer each").isEqualTo(3);
			assertThat(count("dynamorelay.live.changes.shared") - shared).isZero();
		}
	}

	private double count(String name) {
		Counter counter = this.meterRegistry.find(name).tag("subscription", FIELD).counter();
		return (counter != null) ? counter.count() : 0;
	}
}
