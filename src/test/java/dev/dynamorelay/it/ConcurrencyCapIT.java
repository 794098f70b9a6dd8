package dev.dynamorelay.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cap on one request's DynamoDB calls in flight, seen from DynamoDB's side: behind a proxy that is
 * frozen while a request runs, only as many calls as the cap reach it (the others wait in the server,
 * not on the wire), each request has its own share, and once DynamoDB answers the waiting calls run
 * and the request is served whole. Frozen for good, the request is still UNAVAILABLE inside the timeout.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConcurrencyCapIT extends IntegrationTest {

	private static final int CAP = 3;

	private static final EmbeddedDynamoDb DYNAMODB = EmbeddedDynamoDb.start();

	private static final FreezableProxy PROXY = proxy();

	/** Ten connection fields, which graphql-java starts at once: ten Queries. */
	private static final String TEN = IntStream.range(0, 10)
		.mapToObj((i) -> "f%d: purchasesByCategory(category: \"books\", first: %d) { edges { cursor } }".formatted(i,
				i + 1))
		.collect(Collectors.joining("\n", "{ ", " }"));

	@DynamicPropertySource
	static void dynamoDbBehindTheProxy(DynamicPropertyRegistry registry) {
		registry.add("dynamo-relay.dynamodb.endpoint", () -> "http://127.0.0.1:" + PROXY.port());
		registry.add("dynamo-relay.cursor.secret", () -> "cap-secret");
		registry.add("dynamo-relay.sample-data.enabled", () -> "true");
		registry.add("dynamo-relay.dynamodb.max-concurrency-per-request", () -> Integer.toString(CAP));
	}

	@Override
	protected URI dynamoDbEndpoint() {
		return DYNAMODB.endpoint();
	}

	@AfterEach
	void thaw() {
		PROXY.mode(FreezableProxy.Mode.FORWARD);
	}

	@AfterAll
	static void stop() throws IOException {
		PROXY.close();
		DYNAMODB.close();
	}

	@Test
	@Order(1)
	void aRequestHasAtMostTheCapOfCallsInFlightAndTheRestRunOnceOnesFinish() throws Exception {
		assertServedWhole(execute(TEN));
		PROXY.mode(FreezableProxy.Mode.FROZEN);
		CompletableFuture<GraphQlResponse> response = CompletableFuture.supplyAsync(() -> execute(TEN));
		int reached = awaitHeld(CAP);
		// Long enough for the other seven to reach DynamoDB if nothing held them back; shorter than an
		// attempt's timeout (a third of 5 s), so no call is given up meanwhile.
		Thread.sleep(300);
		int held = PROXY.heldRequests();
		PROXY.mode(FreezableProxy.Mode.FORWARD);
		GraphQlResponse served = response.get(10, TimeUnit.SECONDS);
		assertThat(reached).as("calls that reached DynamoDB").isEqualTo(CAP);
		assertThat(held).as("calls that reached DynamoDB 300 ms later").isEqualTo(CAP);
		assertServedWhole(served);
	}

	@Test
	@Order(2)
	void eachRequestHasItsOwnShare() throws Exception {
		PROXY.mode(FreezableProxy.Mode.FROZEN);
		CompletableFuture<GraphQlResponse> first = CompletableFuture.supplyAsync(() -> execute(TEN));
		CompletableFuture<GraphQlResponse> second = CompletableFuture.supplyAsync(() -> execute(TEN));
		int reached = awaitHeld(2 * CAP);
		Thread.sleep(300);
		int held = PROXY.heldRequests();
		PROXY.mode(FreezableProxy.Mode.FORWARD);
		assertServedWhole(first.get(10, TimeUnit.SECONDS));
		assertServedWhole(second.get(10, TimeUnit.SECONDS));
		assertThat(reached).isEqualTo(2 * CAP);
		assertThat(held).isEqualTo(2 * CAP);
	}

	@Test
	@Order(3)
	void callsWaitingForAPlaceDoNotStretchTheTimeout() {
		PROXY.mode(FreezableProxy.Mode.FROZEN);
		long started = System.nanoTime();
		GraphQlResponse frozen = execute(TEN);
		Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
		Errors.assertCode(frozen, "UNAVAILABLE");
		System.out.printf("frozen DynamoDB, %d calls behind a cap of %d: UNAVAILABLE after %d ms%n", 10, CAP,
				elapsed.toMillis());
		assertThat(elapsed).isLessThan(Duration.ofSeconds(5));
	}

	private static void assertServedWhole(GraphQlResponse response) {
		assertThat(response.getErrors()).isEmpty();
		for (int i = 0; i < 10; i++) {
			assertThat(response.field("f" + i + ".edges").<List<?>>getValue()).hasSize(i + 1);
		}
		assertThat(Errors.requests(response)).isEqualTo(10);
	}

	/** The calls held by the frozen proxy once {@code expected} have arrived, or after a second. */
	private static int awaitHeld(int expected) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
		int held = PROXY.heldRequests();
		while (held < expected && System.nanoTime() < deadline) {
			Thread.sleep(10);
			held = PROXY.heldRequests();
		}
		return held;
	}

	private static FreezableProxy proxy() {
		try {
			return new FreezableProxy(new InetSocketAddress("127.0.0.1", DYNAMODB.endpoint().getPort()));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
