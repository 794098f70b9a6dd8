package dev.dynamorelay.it.live;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Documents;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Subscriber;
import dev.dynamorelay.it.Walker;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's {@code purchaseChanges} over WebSocket, fed by the table's DynamoDB Stream: writes made straight
 * to the table, not through the server, reach the subscriber as the right kind of change, in order per item,
 * with an edge whose cursor pages on in {@code User.purchases}.
 */
class LiveConnectionsIT extends IntegrationTest {

	@org.springframework.beans.factory.annotation.Autowired
	private io.micrometer.core.instrument.MeterRegistry meterRegistry;

	static final String CHANGES = """
			subscription($userId: String!, $minAmount: Float, $after: String) {
			  purchaseChanges(userId: $userId, minAmount: $minAmount, after: $after) {
			    kind deletedId eventId edge { cursor node { id purchasedAt amount } } } }""";

	static final Duration WITHIN = Duration.ofSeconds(5);

	@Test
	void writesStraightToTheTableArriveAsAddedUpdatedAndRemoved() throws Exception {
		String userId = this.fixtures.buyer("live");
		try (Subscriber subscriber = new Subscriber(this.port, null, CHANGES, Map.of("userId", userId))) {
			long at = 1_760_000_000_000L;
			this.fixtures.putPurchases(java.util.List.of(Fixtures.purchase(userId, at, "books", "5")));
			Map<String, Object> added = subscriber.next(WITHIN);
			assertThat(added).containsEntry("kind", "ADDED").containsEntry("deletedId", null);
			Map<String, Object> node = node(added);
			assertThat(node).containsEntry("purchasedAt", "2025-10-09T08:53:20.000Z").containsEntry("amount", 5.0);
			update(userId, at, "7");
			Map<String, Object> updated = subscriber.next(WITHIN);
			assertThat(updated).containsEntry("kind", "UPDATED");
			assertThat(node(updated)).containsEntry("amount", 7.0);
			this.dynamoDb.deleteItem((delete) -> delete.tableName(this.tables.purchases()).key(key(userId, at)));
			Map<String, Object> removed = subscriber.next(WITHIN);
			assertThat(removed).containsEntry("kind", "REMOVED").containsEntry("deletedId", node.get("id"))
				.containsEntry("edge", null);
		}
	}

	@Test
	void anItemThatLeavesTheFilterIsRemovedAndOneThatEntersItIsAdded() throws Exception {
		String userId = this.fixtures.buyer("filter");
		try (Subscriber subscriber = new Subscriber(this.port, null, CHANGES, Map.of("userId", userId, "minAmount", 10))) {
			long at = 1_760_000_100_000L;
			this.fixtures.putPurchases(java.util.List.of(Fixtures.purchase(userId, at, "books", "3")));
			subscriber.nothingFor(Duration.ofMillis(700));
			update(userId, at, "12");
			assertThat(subscriber.next(WITHIN)).containsEntry("kind", "ADDED");
			update(userId, at, "9.5");
			assertThat(subscriber.next(WITHIN)).containsEntry("kind", "REMOVED");
		}
	}

	@Test
	void anotherUsersWritesReachNoOne() throws Exception {
		String mine = this.fixtures.buyer("mine");
		String theirs = this.fixtures.buyer("theirs");
		try (Subscriber subscriber = new Subscriber(this.port, null, CHANGES, Map.of("userId", mine))) {
			this.fixtures.putPurchases(java.util.List.of(Fixtures.purchase(theirs, 1_760_000_200_000L, "books", "1")));
			this.fixtures.putPurchases(java.util.List.of(Fixtures.purchase(mine, 1_760_000_300_000L, "books", "2")));
			Map<String, Object> first = subscriber.next(WITHIN);
			assertThat(node(first)).containsEntry("amount", 2.0);
			subscriber.nothingFor(Duration.ofMillis(500));
		}
	}

	@Test
	void theEdgeOfAChangeIsACursorOfTheConnection() throws Exception {
		String userId = this.fixtures.buyer("cursor");
		long start = 1_760_000_400_000L;
		this.fixtures.putPurchases(java.util.List.of(Fixtures.purchase(userId, start, "books", "1"),
				Fixtures.purchase(userId, start + 2_000, "books", "3")));
		try (Subscriber subscriber = new Subscriber(this.port, null, CHANGES, Map.of("userId", userId))) {
			// Writes of the last second before subscribing may still arrive: wait until none does.
			while (subscriber.response(Duration.ofMillis(1_200)) != null) {
				// drained
			}
			this.fixtures.putPurchases(java.util.List.of(Fixtures.purchase(userId, start + 1_000, "books", "2")));
			String cursor = (String) ((Map<?, ?>) subscriber.next(WITHIN).get("edge")).get("cursor");
			Walker.Page page = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
					Map.of("userId", userId, "after", cursor));
			assertThat(page.edges()).hasSize(1);
			assertThat(Walker.node(page.edges().get(0))).containsEntry("amount", 3.0);
		}
	}

	@Test
	void aSubscriberThatReconnectsResumesAfterTheLastChangeItSaw() throws Exception {
		String userId = this.fixtures.buyer("resume");
		long at = 1_760_000_500_000L;
		String eventId;
		try (Subscriber subscriber = new Subscriber(this.port, null, CHANGES, Map.of("userId", userId))) {
			this.fixtures.putPurchases(java.util.List.of(Fixtures.purchase(userId, at, "books", "1")));
			eventId = (String) subscriber.next(WITHIN).get("eventId");
		}
		this.fixtures.putPurchases(java.util.List.of(Fixtures.purchase(userId, at + 1, "books", "2")));
		update(userId, at, "3");
		try (Subscriber again = new Subscriber(this.port, null, CHANGES, Map.of("userId", userId, "after", eventId))) {
			Map<String, Object> first = again.next(WITHIN);
			assertThat(first).containsEntry("kind", "ADDED");
			assertThat(node(first)).containsEntry("amount", 2.0);
			Map<String, Object> second = again.next(WITHIN);
			assertThat(second).containsEntry("kind", "UPDATED");
			assertThat(node(second)).containsEntry("amount", 3.0);
			this.fixtures.putPurchases(java.util.List.of(Fixtures.purchase(userId, at + 2, "books", "4")));
			assertThat(node(again.next(WITHIN))).containsEntry("amount", 4.0);
			again.nothingFor(Duration.ofMillis(500));
		}
	}

	@Test
	void theStreamLagIsZeroOnceTheReaderHasReadEverything() throws Exception {
		String userId = this.fixtures.buyer("lag");
		try (Subscriber subscriber = new Subscriber(this.port, null, CHANGES, Map.of("userId", userId))) {
			this.fixtures.putPurchases(java.util.List.of(Fixtures.purchase(userId, 1_760_000_600_000L, "books", "1")));
			subscriber.next(WITHIN);
			Thread.sleep(1_500); // quiet: reads that find nothing more
			assertThat(this.meterRegistry.get("dynamorelay.live.stream.lag").gauge().value()).isZero();
		}
	}

	@Test
	void anEventIdThatIsNoneOfOursIsRefused() throws Exception {
		String userId = this.fixtures.buyer("badresume");
		try (Subscriber subscriber = new Subscriber(this.port, null, CHANGES,
				Map.of("userId", userId, "after", "not-an-event"))) {
			var response = subscriber.response(WITHIN);
			assertThat(response).isNotNull();
			assertThat(response.getErrors()).hasSize(1);
			assertThat(response.getErrors().get(0).getExtensions()).containsEntry("code", "INVALID_CURSOR");
		}
	}

	@SuppressWarnings("unchecked")
	static Map<String, Object> node(Map<String, Object> change) {
		return (Map<String, Object>) ((Map<String, Object>) change.get("edge")).get("node");
	}

	private void update(String userId, long at, String amount) {
		this.dynamoDb.updateItem((update) -> update.tableName(this.tables.purchases())
			.key(key(userId, at))
			.updateExpression("SET amount = :a")
			.expressionAttributeValues(Map.of(":a", AttributeValue.fromN(amount))));
	}

	private static Map<String, AttributeValue> key(String userId, long at) {
		return Map.of("userId", AttributeValue.fromS(userId), "purchasedAt", AttributeValue.fromN(Long.toString(at)));
	}

}
