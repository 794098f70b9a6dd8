package dev.dynamorelay.it.guards;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.dynamorelay.it.FreezableProxy;
import dev.dynamorelay.it.ProxiedDynamoDb;
import dev.dynamorelay.it.ProxiedIntegrationTest;
import dev.dynamorelay.it.TenPages;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * All requests' calls sharing DynamoDB, seen from DynamoDB's side through a frozen proxy: a request past
 * {@code heavy-after} calls is heavy, and heavy requests together hold at most
 * {@code max-heavy-in-flight} places, whatever their own cap would allow; a request of one page still
 * reaches DynamoDB at once beside them, and all are served whole once DynamoDB answers.
 */
class FairShareIT extends ProxiedIntegrationTest {

	private static final int HEAVY_AFTER = 2;

	private static final ProxiedDynamoDb DYNAMODB = proxiedDynamoDb(FairShareIT.class);

	private static final FreezableProxy PROXY = DYNAMODB.proxy();

	private static final String TEN = TenPages.DOCUMENT;

	private static final String ONE = "{ purchasesByCategory(category: \"music\", first: 3) { edges { cursor } } }";

	@DynamicPropertySource
	static void dynamoDbBehindTheProxy(DynamicPropertyRegistry registry) {
		DYNAMODB.serveSample(registry, "fair-secret");
		// Each call's attempt may take a third of it: long enough for the held calls to wait out the test.
		registry.add("dynamo-relay.dynamodb.timeout", () -> "15s");
		registry.add("dynamo-relay.dynamodb.max-concurrency-per-request", () -> "10");
		registry.add("dynamo-relay.dynamodb.fair-share.max-in-flight", () -> "20");
		registry.add("dynamo-relay.dynamodb.fair-share.heavy-after", () -> Integer.toString(HEAVY_AFTER));
		registry.add("dynamo-relay.dynamodb.fair-share.max-heavy-in-flight", () -> "1");
	}

	@Test
	void heavyRequestsHoldTheirPlacesTogetherAndARequestOfOnePageStillGoesThrough() throws Exception {
		TenPages.assertServedWhole(execute(TEN));
		PROXY.mode(FreezableProxy.Mode.FROZEN);
		// A thread per client: the three requests block at once, whatever the common pool's size.
		ExecutorService clients = Executors.newFixedThreadPool(3);
		CompletableFuture<GraphQlResponse> first = CompletableFuture.supplyAsync(() -> execute(TEN), clients);
		int firstReached = settle(HEAVY_AFTER + 1);
		CompletableFuture<GraphQlResponse> second = CompletableFuture.supplyAsync(() -> execute(TEN), clients);
		int bothReached = settle(firstReached + HEAVY_AFTER);
		CompletableFuture<GraphQlResponse> page = CompletableFuture.supplyAsync(() -> execute(ONE), clients);
		int allReached = settle(bothReached + 1);
		PROXY.mode(FreezableProxy.Mode.FORWARD);
		clients.shutdown();
		TenPages.assertServedWhole(first.get(10, TimeUnit.SECONDS));
		TenPages.assertServedWhole(second.get(10, TimeUnit.SECONDS));
		GraphQlResponse served = page.get(10, TimeUnit.SECONDS);

		assertThat(firstReached).as("the first request's calls at DynamoDB: %d before it is heavy, then one heavy place",
				HEAVY_AFTER).isEqualTo(HEAVY_AFTER + 1);
		assertThat(bothReached).as("the second request's calls before it is heavy join them; the heavy place is taken")
			.isEqualTo(2 * HEAVY_AFTER + 1);
		assertThat(allReached).as("a request of one page reaches DynamoDB at once").isEqualTo(2 * HEAVY_AFTER + 2);
		assertThat(served.getErrors()).isEmpty();
		assertThat(served.field("purchasesByCategory.edges").<List<?>>getValue()).hasSize(3);
	}

	/**
	 * The calls held by the frozen proxy once {@code expected} have arrived (or after a second), and 300 ms
	 * later: long enough for any others to arrive if nothing held them back, shorter than an attempt's
	 * timeout (a third of 15 s), so no call is given up meanwhile.
	 */
	private static int settle(int expected) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
		while (PROXY.heldRequests() < expected && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		Thread.sleep(300);
		return PROXY.heldRequests();
	}

}
