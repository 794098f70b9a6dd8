package dev.dynamorelay.it.guards;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.it.FreezableProxy;
import dev.dynamorelay.it.ProxiedDynamoDb;
import dev.dynamorelay.it.ProxiedIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The servlet's async timeout, the backstop behind the request's deadline, configured here below the
 * DynamoDB timeout so that it fires while DynamoDB is frozen: the answer is UNAVAILABLE (a GraphQL error
 * body, a problem under {@code /api/}), HTTP 503, with one log line naming the request's id, and none
 * more when the execution ends later.
 */
class AsyncTimeoutIT extends ProxiedIntegrationTest {

	private static final ProxiedDynamoDb DYNAMODB = proxiedDynamoDb(AsyncTimeoutIT.class);

	private static final FreezableProxy PROXY = DYNAMODB.proxy();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final Duration ASYNC_TIMEOUT = Duration.ofSeconds(1);

	@DynamicPropertySource
	static void dynamoDbBehindTheProxy(DynamicPropertyRegistry registry) {
		DYNAMODB.serveSample(registry, "async-secret");
		registry.add("dynamo-relay.dynamodb.timeout", TIMEOUT::toString);
		registry.add("spring.mvc.async.request-timeout", ASYNC_TIMEOUT::toString);
	}

	@Test
	void theBackstopAnswersUnavailableAndLogsOneLine() throws Exception {
		Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
		ListAppender<ILoggingEvent> logged = new ListAppender<>();
		logged.start();
		root.addAppender(logged);
		try {
			PROXY.mode(FreezableProxy.Mode.FROZEN);
			HttpResponse<String> graphQl = send(HttpRequest.newBuilder(uri("/graphql"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("query",
						"{ purchasesByCategory(category: \"books\", first: 3) { edges { cursor } } }")))), "backstop-graphql");
			HttpResponse<String> rest = send(HttpRequest.newBuilder(uri("/api/purchasesByCategory?category=books")),
					"backstop-rest");
			// Past the requests' own deadline: their executions have ended too.
			Thread.sleep(TIMEOUT.toMillis());
			PROXY.mode(FreezableProxy.Mode.FORWARD);

			assertThat(graphQl.statusCode()).as(graphQl.body()).isEqualTo(503);
			Map<?, ?> body = JSON.readValue(graphQl.body(), Map.class);
			assertThat((List<?>) body.get("errors")).singleElement()
				.satisfies((error) -> assertThat(((Map<?, ?>) ((Map<?, ?>) error).get("extensions")).get("code"))
					.isEqualTo("UNAVAILABLE"));
			assertThat(rest.statusCode()).as(rest.body()).isEqualTo(503);
			assertThat(rest.headers().firstValue("Content-Type")).get().asString().startsWith("application/problem+json");
			assertThat(JSON.readValue(rest.body(), Map.class).get("code")).isEqualTo("UNAVAILABLE");
			for (String id : List.of("backstop-graphql", "backstop-rest")) {
				assertThat(logged.list.stream()
					.filter((event) -> event.getLevel().isGreaterOrEqual(Level.INFO))
					.filter((event) -> id.equals(event.getMDCPropertyMap().get("requestId"))
							|| event.getFormattedMessage().contains(id))
					.toList()).as("the log lines of %s", id).singleElement().satisfies((line) -> {
						assertThat(line.getFormattedMessage()).contains(id);
						assertThat(line.getLevel()).isEqualTo(Level.WARN);
					});
			}
		}
		finally {
			root.detachAppender(logged);
		}
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	private static HttpResponse<String> send(HttpRequest.Builder request, String requestId) throws Exception {
		long started = System.nanoTime();
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(request.header("X-Request-Id", requestId).timeout(Duration.ofSeconds(60)).build(),
					HttpResponse.BodyHandlers.ofString());
		Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
		assertThat(elapsed).as("answered by the backstop, before the request's own deadline").isLessThan(TIMEOUT);
		return response;
	}

}
