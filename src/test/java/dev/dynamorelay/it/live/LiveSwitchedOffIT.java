package dev.dynamorelay.it.live;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.graphql.client.ClientGraphQlResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Subscriber;
import dev.dynamorelay.live.LiveConnections;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An instance started with {@code dynamo-relay.live.enabled=false}, as the instances of a deployment that leave
 * subscriptions to at most two others (DynamoDB Streams serves two readers of a shard): it reads no stream,
 * refuses a subscription with UNAVAILABLE and a message that says where to subscribe, and serves queries as
 * before.
 */
class LiveSwitchedOffIT extends IntegrationTest {

	@Autowired
	private LiveConnections live;

	@DynamicPropertySource
	static void liveSwitchedOff(DynamicPropertyRegistry registry) {
		registry.add("dynamo-relay.live.enabled", () -> "false");
	}

	@Test
	void readsNoStreamAndRefusesSubscriptionsButServesQueries() throws Exception {
		assertThat(this.live.tablesRead()).as("tables whose streams are read").isEmpty();
		String userId = this.fixtures.buyer("off-1");
		this.dynamoDb.putItem((put) -> put.tableName(this.tables.purchases())
			.item(Fixtures.purchase(userId, 1_700_000_000_000L, "books", "12", "A book")));
		try (Subscriber subscriber = new Subscriber(this.port, null,
				"subscription($u: String!) { purchaseChanges(userId: $u) { kind } }", Map.of("u", userId))) {
			ClientGraphQlResponse response = subscriber.response(Duration.ofSeconds(5));
			assertThat(response).as("a refusal").isNotNull();
			assertThat(response.getErrors()).singleElement().satisfies((error) -> {
				assertThat(error.getExtensions()).containsEntry("code", "UNAVAILABLE");
				assertThat(error.getMessage()).isEqualTo("This server instance serves no live subscriptions "
						+ "(dynamo-relay.live.enabled=false): subscribe at an instance that does.");
			});
		}
		GraphQlResponse purchases = execute(
				"query($u: String!) { user(userId: $u) { purchases(first: 5) { edges { node { product } } } } }",
				Map.of("u", userId));
		assertThat(purchases.getErrors()).isEmpty();
		assertThat(purchases.field("user.purchases.edges[0].node.product").<String>getValue()).isEqualTo("A book");
	}

}
