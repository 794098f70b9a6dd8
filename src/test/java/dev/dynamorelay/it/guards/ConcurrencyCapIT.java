package dev.dynamorelay.it.guards;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.FreezableProxy;
import dev.dynamorelay.it.ProxiedDynamoDb;
import dev.dynamorelay.it.ProxiedIntegrationTest;
import dev.dynamorelay.it.TenPages;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cap on one request's DynamoDB calls in flight, seen from DynamoDB's side: behind a proxy that is
 * frozen while a request runs, only as many calls as the cap reach it (the others wait in the server,
 * not on the wire), each request has its own share, and once DynamoDB answers the waiting calls run
 * and the request is served whole. Frozen for good, the request is still UNAVAILABLE inside the timeout.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConcurrencyCapIT extends ProxiedIntegrationTest {

	private static final int CAP = 3;

	private static final ProxiedDynamoDb DYNAMODB = proxiedDynamoDb(ConcurrencyCapIT.class);

	private static final FreezableProxy PROXY = DYNAMODB.proxy();

	private static final String TEN = TenPages.DOCUMENT;

	@DynamicPropertySource
	static void dynamoDbBehindTheProxy(DynamicPropertyRegistry registry) {
		DYNAMODB.serveSample(registry, "cap-secret");
		registry.add("dynamo-relay.dynamodb.max-concurrency-per-request", () -> Integer.toString(CAP));
	}

	@Test
	@Order(1)
	void aRequestHasAtMostTheCapOfCallsInFlightAndTheRestRunOnceOnesFinish() throws Exception {
		TenPages.assertServedWhole(execute(TEN));
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
		TenPages.assertServedWhole(served);
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
		TenPages.assertServedWhole(first.get(10, TimeUnit.SECONDS));
		TenPages.assertServedWhole(second.get(10, TimeUnit.SECONDS));
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

}
