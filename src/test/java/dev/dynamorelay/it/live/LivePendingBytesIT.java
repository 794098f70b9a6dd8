package dev.dynamorelay.it.live;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.JsonNode;

import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.fixtures.RawWebSocket;
import dev.dynamorelay.it.Subscriber;
import dev.dynamorelay.it.Tokens;
import dev.dynamorelay.live.LiveConnections;
import dev.dynamorelay.live.StreamPosition;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bytes held for live subscribers are bounded (issue 31, finding 1): one signed-in caller holds 100
 * subscriptions on one WebSocket, each selecting its purchases' 300 KB {@code product} under two aliases, and
 * stops reading while its purchases are written. The bytes waiting for it never pass the configured bounds (but
 * for what was handed to the transport already: the send window and one message); each of its subscriptions is
 * ended with {@code UNAVAILABLE} and {@code extensions.after}, the eventId of the last change it was sent (or of
 * the place before the first it missed), from which it resumes and receives what it missed; another caller's
 * subscription and queries are served all along; and nothing is logged as an ERROR.
 */
class LivePendingBytesIT extends IntegrationTest {

	private static final long PER_SUBSCRIPTION = 1024 * 1024;

	private static final long PER_CONNECTION = 4 * 1024 * 1024;

	private static final long MAX = 8 * 1024 * 1024;

	private static final int SUBSCRIPTIONS = 100;

	private static final int PURCHASES = 6;

	private static final String PRODUCT = "p".repeat(300_000);

	private static final String ATTACK = "subscription($u: String!) { purchaseChanges(userId: $u) { eventId edge { node { a: product b: product } } } }";

	private static final Duration WITHIN = Duration.ofSeconds(20);

	/** What one connection may have handed to its transport and not yet written ({@code LiveMemory.SEND_WINDOW}). */
	private static final long SEND_WINDOW = 256 * 1024;

	@DynamicPropertySource
	static void bounds(DynamicPropertyRegistry registry) {
		Tokens.configure(registry);
		registry.add("dynamo-relay.live.max-pending-bytes-per-subscription", () -> PER_SUBSCRIPTION + "B");
		registry.add("dynamo-relay.live.max-pending-bytes-per-connection", () -> PER_CONNECTION + "B");
		registry.add("dynamo-relay.live.max-pending-bytes", () -> MAX + "B");
		// Long enough for the attacker to read its errors after the attack: the send timeout has a test of its own.
		registry.add("dynamo-relay.live.send-timeout", () -> "120s");
	}

	@Autowired
	private LiveConnections live;

	@Autowired
	private MeterRegistry registry;

	@Test
	void aHundredSubscriptionsThatStopReadingAreEndedResumablyWithinTheBoundsAndOthersAreServed() throws Exception {
		Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
		ListAppender<ILoggingEvent> logged = new ListAppender<>();
		logged.start();
		root.addAppender(logged);
		String alice = this.fixtures.buyer("alice");
		String bob = this.fixtures.buyer("bob");
		int before = this.live.subscriptions();
		long at = 1_770_000_000_000L;
		// The server's count of the bytes it holds for subscribers, read every millisecond.
		java.util.concurrent.atomic.AtomicLong peak = new java.util.concurrent.atomic.AtomicLong(-1);
		java.util.concurrent.atomic.AtomicBoolean watching = new java.util.concurrent.atomic.AtomicBoolean(true);
		Thread watcher = new Thread(() -> {
			while (watching.get()) {
				Gauge pending = this.registry.find("dynamorelay.live.pending").gauge();
				if (pending != null) {
					peak.accumulateAndGet((long) pending.value(), Math::max);
				}
				try {
					Thread.sleep(1);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		});
		watcher.start();
		try (RawWebSocket attacker = RawWebSocket.open(this.port, 4096, Tokens.of(alice));
				Subscriber other = new Subscriber(this.port, Tokens.of(bob), LiveConnectionsIT.CHANGES,
						Map.of("userId", bob))) {
			await(() -> this.live.subscriptions() == before + 1, "the other caller's subscription open");
			// The stream's reader has a place in it: a subscription ended before any of its changes was sent resumes there.
			this.fixtures.putPurchases(List.of(Fixtures.purchase(bob, at - 1, "books", "41")));
			assertThat(LiveConnectionsIT.node(other.next(WITHIN))).containsEntry("amount", 41.0);
			for (int i = 0; i < SUBSCRIPTIONS; i++) {
				attacker.send(RawWebSocket.subscribe("s" + i, ATTACK, Map.of("u", alice)));
			}
			await(() -> this.live.subscriptions() == before + SUBSCRIPTIONS + 1, "the subscriptions open");
			// The attacker reads nothing from here on.
			for (int i = 0; i < PURCHASES; i++) {
				this.fixtures.putPurchases(List.of(Fixtures.purchase(alice, at + i, "books", Integer.toString(i + 1), PRODUCT)));
			}
			await(() -> this.live.subscriptions() == before + 1, "the attacker's subscriptions ended");
			// Another caller is served meanwhile.
			this.fixtures.putPurchases(List.of(Fixtures.purchase(bob, at, "books", "42")));
			assertThat(LiveConnectionsIT.node(other.next(WITHIN))).containsEntry("amount", 42.0);
			assertThat(this.graphQl.mutate()
				.header("Authorization", "Bearer " + Tokens.of(bob))
				.build()
				.document("query($u: String!) { user(userId: $u) { purchases(first: 5) { edges { node { amount } } } } }")
				.variable("u", bob)
				.execute()
				.returnResponse()
				.getErrors()).isEmpty();
			// The attacker reads again: what was sent to it, then each subscription's end.
			Map<String, List<String>> received = new HashMap<>();
			Map<String, JsonNode> ends = new HashMap<>();
			while (ends.size() < SUBSCRIPTIONS) {
				JsonNode message1 = attacker.next(WITHIN);
				assertThat(message1).as("a message (closed %s %s; %d ended)", attacker.closeCode(), attacker.closeReason(),
						ends.size()).isNotNull();
				String id = message1.path("id").asString();
				if (message1.path("type").asString().equals("next")) {
					assertThat(ends).as("a change after its subscription's end").doesNotContainKey(id);
					received.computeIfAbsent(id, (key) -> new ArrayList<>())
						.add(message1.path("payload").path("data").path("purchaseChanges").path("eventId").asString());
				}
				else {
					assertThat(message1.path("type").asString()).as(message1.toString()).isEqualTo("error");
					ends.put(id, message1.path("payload").get(0));
				}
			}
			List<String> resumeFrom = new ArrayList<>();
			for (Map.Entry<String, JsonNode> end : ends.entrySet()) {
				JsonNode extensions = end.getValue().path("extensions");
				assertThat(extensions.path("code").asString()).as(end.getValue().toString()).isEqualTo("UNAVAILABLE");
				String after = extensions.path("after").asString();
				List<String> got = received.getOrDefault(end.getKey(), List.of());
				if (after.isEmpty()) {
					// Subscribed while its shard had delivered nothing yet, and ended before anything was written to
					// it: there is no eventId before its first change (sequence 0 is none), so its end says to refetch
					// the connection and subscribe without `after`, which misses nothing. Only such a subscription may
					// get it (a clean clone's run saw it once, the drain racing the end).
					assertThat(got).as("%s ended without `after` having received changes", end.getKey()).isEmpty();
					assertThat(end.getValue().path("message").asString()).contains("refetch the connection");
					continue;
				}
				assertThat(StreamPosition.of(after)).as("a resumable end: %s", end.getValue()).isPresent();
				if (!got.contains(after)) {
					// Before its first change received: resuming there misses nothing it did not receive.
					assertThat(got.isEmpty() || sequence(after).compareTo(sequence(got.get(0))) < 0)
						.as("%s resumes after %s, having received %s", end.getKey(), after, got).isTrue();
					resumeFrom.add(after);
				}
			}
			assertThat(resumeFrom).as("subscriptions ended before any of their changes was written").isNotEmpty();
			watching.set(false);
			watcher.join();
			// Past the bound, at most what was handed to the transport already: the window, and one message.
			long message = 2 * PRODUCT.length() + 1024;
			assertThat(peak.get()).as("the most bytes held at once").isBetween(PER_CONNECTION / 2, MAX + SEND_WINDOW + message);
			// One resumes from where it was ended, reading now: it receives every purchase it missed, in order.
			try (Subscriber resumed = new Subscriber(this.port, Tokens.of(alice), LiveConnectionsIT.CHANGES,
					Map.of("userId", alice, "after", resumeFrom.get(0)))) {
				for (int i = 0; i < PURCHASES; i++) {
					assertThat(LiveConnectionsIT.node(resumed.next(WITHIN))).containsEntry("amount", (double) (i + 1));
				}
			}
		}
		finally {
			watching.set(false);
			root.detachAppender(logged);
		}
		assertThat(logged.list).as("ERROR lines").noneMatch((event) -> event.getLevel() == Level.ERROR);
	}

	private static java.math.BigInteger sequence(String eventId) {
		return StreamPosition.of(eventId).orElseThrow().sequenceNumber();
	}

	private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
		long deadline = System.nanoTime() + WITHIN.toNanos();
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as(what).isLessThan(deadline);
			Thread.sleep(20);
		}
	}

}
