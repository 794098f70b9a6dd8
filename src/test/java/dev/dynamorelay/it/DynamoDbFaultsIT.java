package dev.dynamorelay.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DynamoDB stopped, or accepting connections and never answering: the server answers UNAVAILABLE
 * within its timeout, reports DOWN, and serves again once DynamoDB is back, with no restart.
 */
class DynamoDbFaultsIT extends IntegrationTest {

	private static final EmbeddedDynamoDb DYNAMODB = EmbeddedDynamoDb.start();

	private static final FreezableProxy PROXY = proxy();

	private static final String QUERY = "{ purchasesByCategory(category: \"books\", first: 3) { edges { cursor } } }";

	@DynamicPropertySource
	static void dynamoDbBehindTheProxy(DynamicPropertyRegistry registry) {
		registry.add("dynamo-relay.dynamodb.endpoint", () -> "http://127.0.0.1:" + PROXY.port());
		registry.add("dynamo-relay.dynamodb.timeout", () -> "2s");
		registry.add("dynamo-relay.cursor.secret", () -> "faults-secret");
		registry.add("dynamo-relay.sample-data.enabled", () -> "true");
		registry.add("dynamo-relay.extensions.enabled", () -> "false");
	}

	@Override
	protected URI dynamoDbEndpoint() {
		return DYNAMODB.endpoint();
	}

	@AfterEach
	void restore() {
		PROXY.mode(FreezableProxy.Mode.FORWARD);
	}

	@AfterAll
	static void stop() throws IOException {
		PROXY.close();
		DYNAMODB.close();
	}

	@Test
	void aSilentDynamoDbIsUnavailableWithinTheTimeoutAndRecovers() throws Exception {
		assertServes();
		PROXY.mode(FreezableProxy.Mode.FROZEN);
		GraphQlResponse frozen = execute(QUERY);
		Errors.assertCode(frozen, "UNAVAILABLE");
		assertThat(health()).isEqualTo(503);
		PROXY.mode(FreezableProxy.Mode.FORWARD);
		assertServes();
		assertThat(health()).isEqualTo(200);
	}

	@Test
	void aStoppedDynamoDbIsUnavailableAndRecovers() throws Exception {
		assertServes();
		PROXY.mode(FreezableProxy.Mode.CUT);
		Errors.assertCode(execute(QUERY), "UNAVAILABLE");
		Errors.assertCode(execute("{ user(userId: \"user-01\") { name } }"), "UNAVAILABLE");
		assertThat(health()).isEqualTo(503);
		PROXY.mode(FreezableProxy.Mode.FORWARD);
		assertServes();
		assertThat(health()).isEqualTo(200);
	}

	@Test
	void extensionsCanBeSwitchedOff() {
		GraphQlResponse response = execute(QUERY);
		assertThat(response.getErrors()).isEmpty();
		assertThat(response.getExtensions()).doesNotContainKey("dynamodb");
	}

	private void assertServes() {
		GraphQlResponse response = execute(QUERY);
		assertThat(response.getErrors()).isEmpty();
		assertThat((java.util.List<?>) response.field("purchasesByCategory.edges").getValue()).hasSize(3);
	}

	private int health() throws Exception {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
		HttpResponse<String> response = http.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/health"))
					.timeout(Duration.ofSeconds(10))
					.build(),
				HttpResponse.BodyHandlers.ofString());
		return response.statusCode();
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
