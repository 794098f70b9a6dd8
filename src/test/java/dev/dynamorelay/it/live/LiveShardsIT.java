package dev.dynamorelay.it.live;

import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Subscriber;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Live connections across a shard's end: the engine closes every open shard of every stream at once on its
 * {@code rollover()} (as DynamoDB rotates shards every few hours, or splits them), and the reader goes on
 * with the children once the parents are drained: nothing is lost, nothing arrives twice, and a subscriber that
 * resumes after an event of a closed shard gets what followed, in the children too, once.
 *
 * <p>Its server is closed after the class (its own DynamoDB engine is closed then, and a cached server would go
 * on reading its streams).
 */
@DirtiesContext
class LiveShardsIT extends IntegrationTest {

	private static final EmbeddedDynamoDb DYNAMODB = EmbeddedDynamoDb.start();

	private static final Duration WITHIN = Duration.ofSeconds(10);

	@DynamicPropertySource
	static void ownDynamoDb(DynamicPropertyRegistry registry) {
		registry.add("dynamo-relay.dynamodb.endpoint", () -> DYNAMODB.endpoint().toString());
		registry.add("dynamo-relay.tables.create", () -> "true");
		registry.add("dynamo-relay.cursor.secret", () -> "shards-secret");
		registry.add("dynamo-relay.sample-data.enabled", () -> "false");
	}

	@Override
	protected URI dynamoDbEndpoint() {
		return DYNAMODB.endpoint();
	}

	@AfterAll
	static void stop() {
		DYNAMODB.close();
	}

	@Test
	void changesGoOnAcrossAShardsEndOnceEachAndResumeAcrossIt() throws Exception {
		String userId = this.fixtures.buyer("shards");
		long at = 1_760_002_000_000L;
		String before;
		try (Subscriber subscriber = new Subscriber(this.port, null, LiveConnectionsIT.CHANGES, Map.of("userId", userId))) {
			this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, at, "books", "1")));
			Map<String, Object> first = subscriber.next(WITHIN);
			before = (String) first.get("eventId");
			rollover();
			this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, at + 1, "books", "2")));
			this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, at + 2, "books", "3")));
			assertThat(amounts(subscriber, 2)).containsExactly(2.0, 3.0);
			subscriber.nothingFor(Duration.ofSeconds(1));
		}
		try (Subscriber resumed = new Subscriber(this.port, null, LiveConnectionsIT.CHANGES,
				Map.of("userId", userId, "after", before))) {
			assertThat(amounts(resumed, 2)).containsExactly(2.0, 3.0);
			resumed.nothingFor(Duration.ofSeconds(1));
		}
	}

	/** The amounts of the next {@code count} changes, each checked to be another event. */
	private static List<Object> amounts(Subscriber subscriber, int count) throws InterruptedException {
		List<Object> amounts = new java.util.ArrayList<>();
		Set<Object> events = new HashSet<>();
		for (int i = 0; i < count; i++) {
			Map<String, Object> change = subscriber.next(WITHIN);
			assertThat(events.add(change.get("eventId"))).as("a new event").isTrue();
			amounts.add(((Map<?, ?>) ((Map<?, ?>) change.get("edge")).get("node")).get("amount"));
		}
		return amounts;
	}

	/** Closes every open shard of every stream, and opens their children. */
	private void rollover() {
		assertThat(DYNAMODB.engine().streams().rollover()).as("the open shards closed").isPositive();
	}

}
