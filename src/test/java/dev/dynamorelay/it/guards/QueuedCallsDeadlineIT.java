package dev.dynamorelay.it.guards;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

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
 * A request whose calls wait for their places behind frozen calls that never free them in its time: its
 * answer still arrives at its deadline, HTTP 200, each field {@code UNAVAILABLE}, its DynamoDB requests
 * counted, and one log line for the whole request.
 *
 * <p>DynamoDB is frozen; the wide request's first two calls take the two shared places, its other calls
 * wait, and requests of one page keep coming and wait beside them: the frozen calls hold their places to
 * the deadline, so no place frees for the wide request's other calls in its time.
 */
class QueuedCallsDeadlineIT extends ProxiedIntegrationTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	/** Generous, so that a loaded machine does not fail the bound. */
	private static final Duration MARGIN = Duration.ofMillis(1500);

	private static final ProxiedDynamoDb DYNAMODB = proxiedDynamoDb(QueuedCallsDeadlineIT.class);

	private static final FreezableProxy PROXY = DYNAMODB.proxy();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final int FIELDS = 20;

	/** Twenty aliased fields, as many root fields as the cost limits accept. */
	private static final String WIDE = IntStream.range(0, FIELDS)
		.mapToObj((i) -> "f%d: purchasesByCategory(category: \"books\", first: 3) { edges { cursor } }".formatted(i))
		.collect(Collectors.joining("\n", "{ ", " }"));

	private static final String PAGE = "{ purchasesByCategory(category: \"music\", first: 3) { edges { cursor } } }";

	private static final String REQUEST_ID = "queued-calls-deadline";

	@DynamicPropertySource
	static void dynamoDbBehindTheProxy(DynamicPropertyRegistry registry) {
		DYNAMODB.serveSample(registry, "deadline-secret");
		registry.add("dynamo-relay.dynamodb.timeout", TIMEOUT::toString);
		registry.add("dynamo-relay.dynamodb.max-concurrency-per-request", () -> "2");
		registry.add("dynamo-relay.dynamodb.fair-share.max-in-flight", () -> "2");
	}

	@Test
	void aRequestWhoseCallsNeverGetAPlaceAnswersAtItsDeadline() throws Exception {
		assertThat(post(WIDE, null).statusCode()).isEqualTo(200);
		Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
		ListAppender<ILoggingEvent> logged = new ListAppender<>();
		logged.start();
		root.addAppender(logged);
		AtomicBoolean stop = new AtomicBoolean();
		ExecutorService clients = Executors.newFixedThreadPool(5);
		try {
			PROXY.mode(FreezableProxy.Mode.FROZEN);
			long started = System.nanoTime();
			CompletableFuture<HttpResponse<String>> wide = CompletableFuture.supplyAsync(() -> post(WIDE, REQUEST_ID),
					clients);
			awaitHeld(2);
			List<CompletableFuture<Void>> pages = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				pages.add(CompletableFuture.runAsync(() -> {
					while (!stop.get()) {
						post(PAGE, null);
					}
				}, clients));
			}
			HttpResponse<String> answer = wide.get(30, TimeUnit.SECONDS);
			Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
			stop.set(true);
			System.out.printf("%d fields queued behind frozen calls: answered after %d ms (timeout %d ms)%n", FIELDS,
					elapsed.toMillis(), TIMEOUT.toMillis());
			PROXY.mode(FreezableProxy.Mode.FORWARD);
			CompletableFuture.allOf(pages.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

			assertThat(elapsed).as("answered within the timeout and a margin").isLessThan(TIMEOUT.plus(MARGIN));
			assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
			Map<?, ?> body = JSON.readValue(answer.body(), Map.class);
			List<?> errors = (List<?>) body.get("errors");
			assertThat(errors).as(answer.body()).hasSize(FIELDS);
			for (Object error : errors) {
				assertThat(((Map<?, ?>) ((Map<?, ?>) error).get("extensions")).get("code")).isEqualTo("UNAVAILABLE");
			}
			assertThat(errors.stream().map((error) -> ((List<?>) ((Map<?, ?>) error).get("path")).get(0)))
				.as("one error per field")
				.doesNotHaveDuplicates();
			Map<?, ?> dynamodb = (Map<?, ?>) ((Map<?, ?>) body.get("extensions")).get("dynamodb");
			assertThat(((Number) dynamodb.get("requests")).longValue())
				.as("the calls sent, which timed out, are counted").isPositive();
			List<ILoggingEvent> lines = logged.list.stream()
				.filter((event) -> event.getLevel().isGreaterOrEqual(Level.INFO))
				.filter((event) -> REQUEST_ID.equals(event.getMDCPropertyMap().get("requestId"))
						|| event.getFormattedMessage().contains(REQUEST_ID))
				.toList();
			assertThat(lines).as("the request's log lines").singleElement().satisfies((line) -> {
				assertThat(line.getFormattedMessage()).contains(REQUEST_ID, Integer.toString(FIELDS));
				assertThat(line.getLevel()).isEqualTo(Level.WARN);
			});
		}
		finally {
			stop.set(true);
			root.detachAppender(logged);
			clients.shutdownNow();
		}
	}

	private HttpResponse<String> post(String document, String requestId) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/graphql"))
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(60))
			.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("query", document))));
		if (requestId != null) {
			request.header("X-Request-Id", requestId);
		}
		try {
			return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** Waits until the frozen proxy holds {@code expected} calls, or a second. */
	private static void awaitHeld(int expected) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
		while (PROXY.heldRequests() < expected && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
	}

}
