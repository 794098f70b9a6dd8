package dev.dynamorelay.it.reads;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.budget.FairShare;
import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.FreezableProxy;
import dev.dynamorelay.it.ProxiedDynamoDb;
import dev.dynamorelay.it.ProxiedIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Requests of many DynamoDB calls beside a steady stream of one-page requests (issue 31, finding 3): 16
 * connections keep sending a one-page request each, and the four requests of the finding, sent one after
 * another meanwhile, are each answered whole within the deadline, as is every page. Before aging, the first
 * of them was answered {@code UNAVAILABLE} at its deadline.
 *
 * <p>Ordered by calls started alone, a request past its first call was overtaken by every new one-page
 * request, and answered {@code UNAVAILABLE} at its deadline. Here DynamoDB is slowed down through the proxy
 * (each call takes 10 ms at least) and the server has 2 places for all requests' calls, one of them for heavy
 * requests (as on a machine of 2 cores), so that the 16 connections keep calls of requests that have started
 * none waiting for a place on a fast machine or a loaded one: the place a multi-call request's next call needs
 * is always wanted by a newer one-page request. The calls' pace, not the machine's cores, bounds the load.
 */
class MultiCallRequestsIT extends ProxiedIntegrationTest {

	/**
	 * Twice the default: on a machine loaded by other work each call here takes several times its 10 ms, and the
	 * 20,100-item request's 20 calls past its 32nd go through its one heavy place one after another (2.2 s, at a
	 * load average of 27 on 2 cores). Starved, a request fails at any deadline.
	 */
	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final int CONNECTIONS = 16;

	private static final ProxiedDynamoDb DYNAMODB = proxiedDynamoDb(MultiCallRequestsIT.class);

	private static final FreezableProxy PROXY = DYNAMODB.proxy();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** The one-page request of the 16 connections: one Query. */
	private static final String PAGE = """
			{ purchasesByCategory(category: "music", first: 20) { edges { cursor node { id product amount } } } }""";

	@Autowired
	private FairShare fairShare;

	@DynamicPropertySource
	static void dynamoDbBehindTheProxy(DynamicPropertyRegistry registry) {
		DYNAMODB.serveSample(registry, "multi-call-secret");
		registry.add("dynamo-relay.dynamodb.timeout", TIMEOUT::toString);
		registry.add("dynamo-relay.dynamodb.fair-share.max-in-flight", () -> "2");
		// One heavy place, as a DynamoDB on a 2-core machine gets, on any machine.
		registry.add("dynamo-relay.dynamodb.fair-share.max-heavy-in-flight", () -> "1");
	}

	/** The four requests of the finding, each with what its whole answer holds. */
	private List<Request> requests() {
		return List.of(new Request("users(first: 20) -> purchases(first: 10), 21 calls", """
				{ users(first: 20) { edges { node { userId name purchases(first: 10) { edges { node { id product amount } } } } } } }""",
				(response) -> {
					List<Map<String, Object>> users = response.field("users.edges").getValue();
					assertThat(users).hasSize(20);
					for (int i = 0; i < 20; i++) {
						assertThat(response.field("users.edges[%d].node.purchases.edges".formatted(i)).<List<?>>getValue())
							.hasSize(10);
					}
				}), new Request("the infinite-scroll page's first request: a user, a page of purchases, totalCount", """
						{ user(userId: "user-07") { id userId name purchases(first: 20, order: ASC) { totalCount
						  edges { cursor node { id purchasedAt product category amount } } pageInfo { hasNextPage endCursor } } } }""",
						(response) -> {
							assertThat(response.field("user.purchases.totalCount").<Integer>getValue()).isEqualTo(100);
							assertThat(response.field("user.purchases.edges").<List<?>>getValue()).hasSize(20);
						}),
				new Request("a page with totalCount", """
						{ purchasesByCategory(category: "books", first: 20) { totalCount edges { cursor node { id product } }
						  pageInfo { hasNextPage endCursor } } }""", (response) -> {
							assertThat(response.field("purchasesByCategory.totalCount").<Integer>getValue()).isEqualTo(500);
							assertThat(response.field("purchasesByCategory.edges").<List<?>>getValue()).hasSize(20);
						}),
				new Request("README's 20,100-item example: 100 users x 100 purchases x their user, 52 calls", """
						{ users(first: 100) { edges { node { userId purchases(first: 100) { edges { node { id amount user { name } } } } } } } }""",
						(response) -> {
							List<Map<String, Object>> users = response.field("users.edges").getValue();
							assertThat(users).hasSize(50);
							for (int i = 0; i < 50; i++) {
								assertThat(response.field("users.edges[%d].node.purchases.edges".formatted(i)).<List<?>>getValue())
									.hasSize(100);
							}
							assertThat(response.field("users.edges[49].node.purchases.edges[99].node.user.name").<String>getValue())
								.isNotBlank();
						}));
	}

	@Test
	void requestsOfManyCallsAreAnsweredBesideSixteenConnectionsOfOnePageRequests() throws Exception {
		List<Request> requests = requests();
		for (Request request : requests) {
			request.assertServedWhole(execute(request.document));
		}
		PROXY.slow(Duration.ofMillis(10));
		AtomicBoolean stop = new AtomicBoolean();
		AtomicInteger pages = new AtomicInteger();
		AtomicInteger failedPages = new AtomicInteger();
		AtomicReference<String> failedPage = new AtomicReference<>();
		AtomicInteger mostWaiting = new AtomicInteger();
		ExecutorService connections = Executors.newFixedThreadPool(CONNECTIONS + 1);
		List<CompletableFuture<Void>> running = new ArrayList<>();
		try {
			for (int c = 0; c < CONNECTIONS; c++) {
				running.add(CompletableFuture.runAsync(() -> {
					HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
					while (!stop.get()) {
						HttpResponse<String> answer = post(http, PAGE);
						if (answer.statusCode() != 200 || answer.body().contains("\"errors\"")) {
							failedPages.incrementAndGet();
							failedPage.compareAndSet(null, answer.statusCode() + " " + answer.body());
						}
						pages.incrementAndGet();
					}
				}, connections));
			}
			// A sample every millisecond of how many calls wait for a place (a sampling period, not a wait).
			running.add(CompletableFuture.runAsync(() -> {
				while (!stop.get()) {
					mostWaiting.accumulateAndGet(this.fairShare.waiting(), Math::max);
					LockSupport.parkNanos(1_000_000);
				}
			}, connections));
			// The stream is steady: calls of one-page requests wait for places.
			await().atMost(Duration.ofSeconds(60)).until(() -> pages.get() >= 100 && this.fairShare.waiting() > 0);
			List<String> answered = new ArrayList<>();
			int pagesBefore = pages.get();
			Map<Request, GraphQlResponse> responses = new LinkedHashMap<>();
			for (Request request : requests) {
				long sent = System.nanoTime();
				GraphQlResponse response = execute(request.document);
				long millis = Duration.ofNanos(System.nanoTime() - sent).toMillis();
				answered.add("%s: %d ms, %d DynamoDB requests, %d errors".formatted(request.name, millis,
						Errors.requests(response), response.getErrors().size()));
				responses.put(request, response);
			}
			int pagesMeanwhile = pages.get();
			stop.set(true);
			CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
			System.out.printf("Beside %d connections of one-page requests (%d answered, most calls waiting %d):%n  %s%n",
					CONNECTIONS, pagesMeanwhile, mostWaiting.get(), String.join("\n  ", answered));
			SoftAssertions.assertSoftly((softly) -> responses
				.forEach((request, response) -> softly.check(() -> request.assertServedWhole(response))));
			assertThat(failedPages.get()).as("one-page requests failed, the first: %s", failedPage.get()).isZero();
			assertThat(mostWaiting.get()).as("calls waited for places meanwhile").isGreaterThanOrEqualTo(CONNECTIONS / 2);
			assertThat(pages.get()).as("one-page requests answered while the four ran").isGreaterThan(pagesBefore);
		}
		finally {
			stop.set(true);
			connections.shutdownNow();
		}
	}

	private HttpResponse<String> post(HttpClient http, String document) {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/graphql"))
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(60))
			.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("query", document))))
			.build();
		try {
			return http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** One of the finding's requests: what it is, its document and what its whole answer holds. */
	private record Request(String name, String document, Consumer<GraphQlResponse> whole) {

		/** Answered without an error ({@code UNAVAILABLE} at the deadline, before the fix), and whole. */
		void assertServedWhole(GraphQlResponse response) {
			assertThat(response.getErrors()).as(this.name).isEmpty();
			this.whole.accept(response);
		}

	}

}
