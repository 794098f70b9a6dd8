package dev.dynamorelay.it.guards;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.FreezableProxy;
import dev.dynamorelay.it.ProxiedDynamoDb;
import dev.dynamorelay.it.ProxiedIntegrationTest;
import dev.dynamorelay.it.Rest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DynamoDB frozen (accepting connections, never answering), stopped (nothing listening) or resetting
 * connections: the server answers UNAVAILABLE inside its timeout (the default, 5 s), within a second
 * when it cannot connect, reports DOWN, and serves again once DynamoDB is back, with no restart.
 * DynamoDB answering what the SDK cannot read is INTERNAL, not UNAVAILABLE.
 *
 * <p>The frozen case runs first, while the SDK's retry quota is whole, so that it retries after each
 * attempt timeout: the slowest way to fail. Once failures have spent the quota, the SDK stops retrying
 * and fails sooner.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DynamoDbFaultsIT extends ProxiedIntegrationTest {

	private static final ProxiedDynamoDb DYNAMODB = proxiedDynamoDb(DynamoDbFaultsIT.class);

	private static final FreezableProxy PROXY = DYNAMODB.proxy();

	private static final String QUERY = "{ purchasesByCategory(category: \"books\", first: 3) { edges { cursor } } }";

	/** Two root fields read at once, a lookup and a connection, and a connection below a lookup. */
	private static final String WIDE = """
			{ purchasesByCategory(category: "books", first: 3) { totalCount edges { cursor } }
			  user(userId: "user-01") { name purchases(first: 2) { edges { cursor } } } }""";

	private static final String CREATE = """
			mutation { createPurchase(input: { userId: "nobody-faults", product: "Frozen", category: "faults", amount: 1 }) { id } }""";

	/** The configured bound: the default, which this test leaves unset. */
	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	/** A refused or reset connection is answered within this. */
	private static final Duration UNREACHABLE_BOUND = Duration.ofSeconds(1);

	@Autowired
	private DynamoDbProperties properties;

	@DynamicPropertySource
	static void dynamoDbBehindTheProxy(DynamicPropertyRegistry registry) {
		DYNAMODB.serveSample(registry, "faults-secret");
		registry.add("dynamo-relay.extensions.enabled", () -> "false");
	}

	@Test
	void theDefaultTimeoutIsFiveSeconds() {
		assertThat(this.properties.timeout()).isEqualTo(TIMEOUT);
	}

	@Test
	@Order(1)
	void aSilentDynamoDbIsUnavailableWithinTheTimeoutAndRecovers() throws Exception {
		assertServes();
		PROXY.mode(FreezableProxy.Mode.FROZEN);
		for (String document : List.of(QUERY, WIDE, CREATE)) {
			long started = System.nanoTime();
			GraphQlResponse frozen = execute(document);
			Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
			Errors.assertCode(frozen, "UNAVAILABLE");
			System.out.printf("frozen DynamoDB: UNAVAILABLE after %d ms (bound %d ms)%n", elapsed.toMillis(),
					TIMEOUT.toMillis());
			// Not before an attempt has been given up (after a third of the timeout), and inside the timeout.
			assertThat(elapsed).as(document).isGreaterThan(Duration.ofSeconds(1)).isLessThan(TIMEOUT);
		}
		for (String path : List.of("/api/purchasesByCategory?category=books&limit=3", "/api/users/user-01/purchases",
				"/api/purchasesByCategory?category=books&minAmount=499.99")) {
			long started = System.nanoTime();
			Rest.Answer frozen = new Rest(this.port).get(path);
			Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
			frozen.assertProblem(503, "UNAVAILABLE");
			assertThat(elapsed).as(path).isGreaterThan(Duration.ofSeconds(1)).isLessThan(TIMEOUT);
		}
		assertThat(health()).isEqualTo(503);
		PROXY.mode(FreezableProxy.Mode.FORWARD);
		assertServes();
		assertThat(health()).isEqualTo(200);
	}

	@Test
	void aStoppedDynamoDbIsUnavailableWithinASecondAndRecovers() throws Exception {
		assertServes();
		assertThat(health("/readiness")).isEqualTo(200);
		assertThat(health("/liveness")).isEqualTo(200);
		PROXY.mode(FreezableProxy.Mode.STOPPED);
		assertUnreachable("stopped");
		assertThat(health()).isEqualTo(503);
		assertThat(health("/readiness")).as("no traffic while DynamoDB is unreachable").isEqualTo(503);
		assertThat(health("/liveness")).as("a restart would not bring DynamoDB back").isEqualTo(200);
		PROXY.mode(FreezableProxy.Mode.FORWARD);
		assertServes();
		assertThat(health()).isEqualTo(200);
		assertThat(health("/readiness")).isEqualTo(200);
		assertThat(health("/liveness")).isEqualTo(200);
	}

	@Test
	void aDynamoDbResettingConnectionsIsUnavailableWithinASecondAndRecovers() throws Exception {
		assertServes();
		PROXY.mode(FreezableProxy.Mode.CUT);
		assertUnreachable("resetting");
		assertThat(health()).isEqualTo(503);
		PROXY.mode(FreezableProxy.Mode.FORWARD);
		assertServes();
		assertThat(health()).isEqualTo(200);
	}

	@Test
	void anAnswerTheSdkCannotReadIsInternalNotUnavailable() {
		assertServes();
		PROXY.mode(FreezableProxy.Mode.GARBLED);
		GraphQlResponse garbled = execute(QUERY);
		Errors.assertCode(garbled, "INTERNAL");
		assertThat(garbled.getErrors().get(0).getMessage()).contains("reference");
		new Rest(this.port).get("/api/purchasesByCategory?category=books").assertProblem(500, "INTERNAL");
		PROXY.mode(FreezableProxy.Mode.FORWARD);
		assertServes();
	}

	@Test
	void extensionsCanBeSwitchedOff() {
		GraphQlResponse response = execute(QUERY);
		assertThat(response.getErrors()).isEmpty();
		assertThat(response.getExtensions()).doesNotContainKey("dynamodb");
	}

	/** Every kind of request, several times over: UNAVAILABLE within {@link #UNREACHABLE_BOUND}. */
	private void assertUnreachable(String state) {
		for (int i = 0; i < 5; i++) {
			for (String document : List.of(QUERY, WIDE, CREATE)) {
				long started = System.nanoTime();
				GraphQlResponse response = execute(document);
				Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
				Errors.assertCode(response, "UNAVAILABLE");
				System.out.printf("%s DynamoDB: UNAVAILABLE after %d ms%n", state, elapsed.toMillis());
				assertThat(elapsed).as(document).isLessThan(UNREACHABLE_BOUND);
			}
			long started = System.nanoTime();
			new Rest(this.port).get("/api/users/user-01/purchases").assertProblem(503, "UNAVAILABLE");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("REST").isLessThan(UNREACHABLE_BOUND);
		}
	}

	private void assertServes() {
		GraphQlResponse response = execute(QUERY);
		assertThat(response.getErrors()).isEmpty();
		assertThat((List<?>) response.field("purchasesByCategory.edges").getValue()).hasSize(3);
	}

	private int health() throws Exception {
		return health("");
	}

	/** The status of {@code /actuator/health} and its probes ({@code /liveness}, {@code /readiness}). */
	private int health(String probe) throws Exception {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
		HttpResponse<String> response = http.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/health" + probe))
					.timeout(Duration.ofSeconds(10))
					.build(),
				HttpResponse.BodyHandlers.ofString());
		return response.statusCode();
	}

}
