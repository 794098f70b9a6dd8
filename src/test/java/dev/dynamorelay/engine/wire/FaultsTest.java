package dev.dynamorelay.engine.wire;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.dynamorelay.engine.DynamoDbEngine;
import dev.dynamorelay.engine.EngineOptions;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * The engine's injected faults, as a client meets them: throttling the SDK retries (and gives up on past its
 * attempts), server errors, latency, a stall that the client's attempt timeout cuts; set from the start, from
 * Java while running, and over HTTP for a separate process.
 */
class FaultsTest {

	private final TestActions actions = new TestActions();

	private DynamoDbEngine engine;

	@BeforeEach
	void start() {
		this.engine = DynamoDbEngine.start(EngineOptions.defaults().withActions(this.actions.actions()));
		this.actions.items.put("a", Map.of("id", AttributeValue.fromS("a")));
	}

	@AfterEach
	void stop() {
		this.engine.close();
	}

	private static GetItemRequest get() {
		return GetItemRequest.builder().tableName("things").key(Map.of("id", AttributeValue.fromS("a"))).build();
	}

	private static void attempts(ClientOverrideConfiguration.Builder override, int attempts) {
		override.retryStrategy((retry) -> retry.maxAttempts(attempts)
			.backoffStrategy(BackoffStrategy.retryImmediately())
			.throttlingBackoffStrategy(BackoffStrategy.retryImmediately()));
	}

	@Test
	void theSdkRetriesThrottledCallsUntilTheyPass() {
		this.engine.faults().set("DynamoDB_20120810.GetItem", Fault.throttling(0.5));
		try (DynamoDbClient client = Clients.crt(this.engine.endpoint(), (o) -> attempts(o, 40))) {
			for (int i = 0; i < 20; i++) {
				assertThat(client.getItem(get()).item()).containsKey("id");
			}
		}
		// Half the calls were throttled (one in a million runs draws none in 20), each retried to success.
		assertThat(this.engine.faults().injected()).isPositive();
		assertThat(this.actions.calls.get()).isEqualTo(20);
	}

	@Test
	void throttlingPastTheAttemptsReachesTheCallerAsDynamoDbSendsIt() {
		this.engine.faults().set(Faults.ALL, Fault.throttling(1));
		try (DynamoDbClient client = Clients.crt(this.engine.endpoint(), (o) -> attempts(o, 3))) {
			Throwable thrown = catchThrowable(() -> client.getItem(get()));
			assertThat(thrown).isInstanceOfSatisfying(ProvisionedThroughputExceededException.class, (throttled) -> {
				assertThat(throttled.numAttempts()).isEqualTo(3);
				assertThat(throttled.statusCode()).isEqualTo(400);
				assertThat(throttled.isThrottlingException()).isTrue();
				assertThat(throttled.awsErrorDetails().errorMessage()).startsWith("The level of configured provisioned");
			});
			this.engine.faults().set(Faults.ALL, Fault.NONE.withThrottling(1, "ThrottlingException"));
			assertThat(catchThrowable(() -> client.getItem(get()))).isInstanceOfSatisfying(ThrottlingException.class,
					(throttled) -> assertThat(throttled.numAttempts()).isEqualTo(3));
			this.engine.faults().clear();
			assertThat(client.getItem(get()).item()).containsKey("id");
		}
		assertThat(this.actions.calls.get()).isEqualTo(1);
		assertThat(this.engine.faults().injected()).isEqualTo(6);
	}

	@Test
	void serverErrorsAreRetriedAndReachTheCallerWithTheirStatus() {
		this.engine.faults().set("DynamoDB_20120810.GetItem", Fault.serverErrors(1));
		try (DynamoDbClient client = Clients.crt(this.engine.endpoint(), (o) -> attempts(o, 2))) {
			assertThat(catchThrowable(() -> client.getItem(get()))).isInstanceOfSatisfying(
					InternalServerErrorException.class, (error) -> {
						assertThat(error.statusCode()).isEqualTo(500);
						assertThat(error.numAttempts()).isEqualTo(2);
					});
			this.engine.faults().set("DynamoDB_20120810.GetItem", Fault.NONE.withServerErrors(1, 503));
			assertThat(catchThrowable(() -> client.getItem(get()))).isInstanceOfSatisfying(DynamoDbException.class,
					(error) -> {
						assertThat(error.statusCode()).isEqualTo(503);
						assertThat(error.numAttempts()).isEqualTo(2);
					});
			// Only the target's calls: another operation is served.
			client.putItem(PutItemRequest.builder().tableName("things").item(Map.of("id", AttributeValue.fromS("b")))
				.build());
		}
	}

	@Test
	void addsLatencyToEveryCall() {
		this.engine.faults().set(Faults.ALL, Fault.latency(Duration.ofMillis(300)));
		try (DynamoDbClient client = Clients.crt(this.engine.endpoint(), (o) -> attempts(o, 1))) {
			long start = System.nanoTime();
			client.getItem(get());
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
		}
	}

	@Test
	void aStallHoldsCallsUntilTheClientsAttemptTimeoutCutsThem() throws Exception {
		this.engine.faults().set("DynamoDB_20120810.GetItem", Fault.stalled());
		try (DynamoDbAsyncClient client = Clients.netty(this.engine.endpoint(), (o) -> {
			attempts(o, 2);
			o.apiCallAttemptTimeout(Duration.ofMillis(400)).apiCallTimeout(Duration.ofSeconds(2));
		})) {
			long start = System.nanoTime();
			Throwable thrown = catchThrowable(() -> client.getItem(get()).join());
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			assertThat(thrown).isInstanceOf(CompletionException.class);
			// The async client reports the attempt's timeout inside an SdkClientException, or, when the timeout's
			// cancel reaches the Netty client's channel first, as that channel's "Request cancelled" (seen once in CI).
			assertThat(causes(thrown)).anyMatch((cause) -> cause instanceof ApiCallAttemptTimeoutException
					|| cause instanceof ApiCallTimeoutException
					|| (cause instanceof java.io.IOException && "Request cancelled".equals(cause.getMessage())));
			assertThat(((SdkException) thrown.getCause()).numAttempts()).isEqualTo(2);
			// Within the client's own bound, not hung.
			assertThat(took).isLessThan(Duration.ofSeconds(2));
			// The client closed the connections of the attempts it gave up on: nothing is held for them.
			await().atMost(Duration.ofSeconds(5)).until(() -> this.engine.faults().stalled() == 0);
			// Another operation is served meanwhile.
			client.putItem(PutItemRequest.builder().tableName("things").item(Map.of("id", AttributeValue.fromS("b")))
				.build()).get(5, TimeUnit.SECONDS);
			// A held call is answered once the stall is lifted.
			this.engine.faults().set("DynamoDB_20120810.GetItem", Fault.stalled());
			ClientOverrideConfiguration patient = ClientOverrideConfiguration.builder()
				.apiCallAttemptTimeout(Duration.ofSeconds(10)).apiCallTimeout(Duration.ofSeconds(10)).build();
			CompletableFuture<?> held = client.getItem(get().toBuilder().overrideConfiguration(
					software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration.builder()
						.apiCallAttemptTimeout(patient.apiCallAttemptTimeout().get())
						.apiCallTimeout(patient.apiCallTimeout().get())
						.build()).build());
			await().atMost(Duration.ofSeconds(5)).until(() -> this.engine.faults().stalled() == 1);
			assertThat(held).isNotDone();
			this.engine.faults().clear();
			assertThat(held.get(5, TimeUnit.SECONDS)).isNotNull();
			assertThat(this.engine.faults().stalled()).isZero();
		}
	}

	private static java.util.List<Throwable> causes(Throwable thrown) {
		java.util.List<Throwable> causes = new java.util.ArrayList<>();
		for (Throwable cause = thrown; cause != null && !causes.contains(cause); cause = cause.getCause()) {
			causes.add(cause);
		}
		return causes;
	}

	@Test
	void faultsSetAtStartApply() {
		this.engine.close();
		this.engine = DynamoDbEngine.start(EngineOptions.defaults().withActions(this.actions.actions())
			.withFaults(Map.of(Faults.ALL, Fault.serverErrors(1))));
		try (DynamoDbClient client = Clients.crt(this.engine.endpoint(), (o) -> attempts(o, 1))) {
			assertThat(catchThrowable(() -> client.getItem(get()))).isInstanceOf(InternalServerErrorException.class);
		}
	}

	@Test
	void aSeparateProcessSetsFaultsOverHttp() throws Exception {
		int port = this.engine.endpoint().getPort();
		Map<String, String> json = Map.of("Content-Type", "application/json", "X-Amz-Target",
				"DynamoRelayEngine.SetFaults");
		RawHttp.Response set = RawHttp.exchange(port, "POST", "/", json,
				"{\"Faults\":{\"DynamoDB_20120810.GetItem\":{\"ThrottleShare\":1,\"ThrottleType\":\"ThrottlingException\"},"
						+ "\"*\":{\"LatencyMillis\":1}}}");
		assertThat(set.status()).isEqualTo(200);
		assertThat(set.body()).isEqualTo("{\"Faults\":{\"DynamoDB_20120810.GetItem\":{\"ThrottleShare\":1.0,"
				+ "\"ThrottleType\":\"ThrottlingException\",\"ErrorShare\":0.0,\"ErrorStatus\":500,\"LatencyMillis\":0,"
				+ "\"Stall\":false},\"*\":{\"ThrottleShare\":0.0,\"ThrottleType\":\"ProvisionedThroughputExceededException\","
				+ "\"ErrorShare\":0.0,\"ErrorStatus\":500,\"LatencyMillis\":1,\"Stall\":false}},\"Stalled\":0}");
		try (DynamoDbClient client = Clients.crt(this.engine.endpoint(), (o) -> attempts(o, 1))) {
			assertThat(catchThrowable(() -> client.getItem(get()))).isInstanceOf(ThrottlingException.class);
			RawHttp.exchange(port, "POST", "/", json, "{\"Faults\":{\"*\":{\"Stall\":true}}}");
			CompletableFuture<Void> stalled = CompletableFuture.runAsync(() -> client.getItem(get()));
			await().atMost(Duration.ofSeconds(5)).until(() -> RawHttp.exchange(port, "POST", "/",
					Map.of("Content-Type", "application/json", "X-Amz-Target", "DynamoRelayEngine.GetFaults"), "{}")
				.body()
				.endsWith("\"Stalled\":1}"));
			RawHttp.exchange(port, "POST", "/",
					Map.of("Content-Type", "application/json", "X-Amz-Target", "DynamoRelayEngine.ReleaseStalled"), "{}");
			stalled.get(5, TimeUnit.SECONDS);
			RawHttp.Response cleared = RawHttp.exchange(port, "POST", "/", json, "{\"Faults\":{}}");
			assertThat(cleared.body()).isEqualTo("{\"Faults\":{},\"Stalled\":0}");
			assertThat(client.getItem(get()).item()).containsKey("id");
		}
		RawHttp.Response invalid = RawHttp.exchange(port, "POST", "/", json,
				"{\"Faults\":{\"*\":{\"ThrottleShare\":2}}}");
		assertThat(invalid.status()).isEqualTo(400);
		assertThat(invalid.body()).contains("ValidationException")
			.contains("Shares must be between 0 and 1 and add up to at most 1");
	}

}
