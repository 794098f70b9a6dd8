package dev.dynamorelay.command.aot;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The AOT cache's training load: what a server in production answers, so that the classes of those paths
 * are loaded, linked and profiled in the training run and end up in the cache. Against the embedded
 * default's sample, each client loops over: README's first query (with other users), pages of
 * {@code purchasesByCategory} walked with {@code after} with each purchase's {@code user { name }} (the
 * batched lookup), {@code users} pages with each user's purchases, {@code movies} pages (titlePrefix,
 * minRating, DESC, {@code last}/{@code before}), {@code node(id)}, a query over GET, the REST view's pages
 * (followed by {@code nextToken}), refused requests (the error paths), and the probes and metrics. Every
 * answer is checked (status, {@code data}, no unexpected {@code errors}); the first failure ends the load.
 * {@code container/aot-training-load} sends the same for the container image's cache.
 */
final class TrainingLoad {

	private static final List<String> CATEGORIES = List.of("books", "games", "garden", "grocery", "health", "kitchen",
			"music", "outdoor", "tools", "toys");

	private static final String FIRST_QUERY = """
			{ user(userId: "%s") { name purchases(first: 2, minAmount: 100) { totalCount
			  edges { cursor node { purchasedAt product amount } } pageInfo { hasNextPage endCursor } } } }""";

	private static final String BY_CATEGORY = """
			query($c: String!, $n: Int, $after: String, $min: Float, $order: SortOrder) {
			  purchasesByCategory(category: $c, first: $n, after: $after, minAmount: $min, order: $order) {
			    edges { cursor node { id userId purchasedAt product category amount user { name } } }
			    pageInfo { hasNextPage endCursor } } }""";

	private static final String USERS = """
			query($after: String) { users(first: 10, after: $after) {
			  edges { cursor node { id userId name purchases(first: 3, order: DESC) { edges { node { product amount } } } } }
			  pageInfo { hasNextPage endCursor } } }""";

	private static final String MOVIES = """
			query($y: Int!, $p: String, $r: Float, $order: SortOrder, $after: String) {
			  movies(year: $y, first: 25, titlePrefix: $p, minRating: $r, order: $order, after: $after) {
			    totalCount edges { cursor node { id year title rating genres plot } } pageInfo { hasNextPage endCursor } } }""";

	private static final String MOVIES_BACK = """
			query($y: Int!, $p: String, $r: Float, $order: SortOrder, $before: String) {
			  movies(year: $y, last: 10, before: $before, titlePrefix: $p, minRating: $r, order: $order) {
			    edges { cursor node { title rating } } pageInfo { hasPreviousPage startCursor } } }""";

	private static final String NODE = """
			query($id: ID!) { node(id: $id) { __typename id ... on Purchase { product amount user { name } }
			  ... on Movie { title year } ... on User { name } } }""";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final URI base;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final AtomicInteger requests = new AtomicInteger();

	TrainingLoad(URI base) {
		this.base = base;
	}

	/** Waits until the server answers README's first query, or fails if it exits or takes longer than {@code patience}. */
	void awaitUp(Process server, Duration patience) throws InterruptedException {
		long deadline = System.nanoTime() + patience.toNanos();
		RuntimeException last = null;
		while (System.nanoTime() < deadline) {
			if (!server.isAlive()) {
				throw new IllegalStateException("the training server exited with " + server.exitValue());
			}
			try {
				graphql(FIRST_QUERY.formatted("user-01"), Map.of(), false);
				return;
			}
			catch (RuntimeException ex) {
				last = ex;
				Thread.sleep(100);
			}
		}
		throw new IllegalStateException("the training server did not answer as expected within " + patience.toSeconds()
				+ " s" + ((last != null) ? "; last: " + last.getMessage() : ""));
	}

	/**
	 * Runs {@code clients} clients for {@code length}.
	 * @return what was sent, in one line
	 * @throws IllegalStateException with the first failure
	 */
	String run(Duration length, int clients) throws InterruptedException {
		long deadline = System.nanoTime() + length.toNanos();
		AtomicReference<RuntimeException> failure = new AtomicReference<>();
		AtomicInteger rounds = new AtomicInteger();
		List<Thread> threads = new ArrayList<>();
		for (int n = 0; n < clients; n++) {
			int first = n * 7919;
			Thread thread = new Thread(() -> {
				try {
					for (int i = first; System.nanoTime() < deadline && failure.get() == null; i++) {
						round(i);
						rounds.incrementAndGet();
					}
				}
				catch (RuntimeException ex) {
					failure.compareAndSet(null, ex);
				}
			}, "aot-training-" + n);
			thread.start();
			threads.add(thread);
		}
		for (Thread thread : threads) {
			thread.join();
		}
		if (failure.get() != null) {
			throw new IllegalStateException("the training load failed: " + failure.get().getMessage(), failure.get());
		}
		return "%d requests in %d rounds of %d clients".formatted(this.requests.get(), rounds.get(), clients);
	}

	private void round(int i) {
		String user = "user-%02d".formatted(1 + i % 50);
		String category = CATEGORIES.get(i % CATEGORIES.size());
		int year = 1995 + i % 20;
		JsonNode first = graphql(FIRST_QUERY.formatted(user), Map.of(), false);
		if (first.path("user").isNull()) {
			throw new IllegalStateException("no " + user + ": " + first);
		}
		Map<String, Object> byCategory = new LinkedHashMap<>();
		byCategory.put("c", category);
		byCategory.put("n", 20);
		byCategory.put("order", (i % 3 == 0) ? "DESC" : "ASC");
		byCategory.put("min", (i % 2 == 1) ? 250.0 : null);
		JsonNode page = walk(BY_CATEGORY, byCategory, "purchasesByCategory", 3);
		walk(USERS, new LinkedHashMap<>(), "users", 2 + i % 4);
		Map<String, Object> movieArguments = new LinkedHashMap<>();
		movieArguments.put("y", year);
		movieArguments.put("p", (i % 4 == 0) ? "The" : null);
		movieArguments.put("r", (i % 2 == 1) ? 6.5 : null);
		movieArguments.put("order", (i % 5 == 0) ? "DESC" : "ASC");
		JsonNode movies = walk(MOVIES, movieArguments, "movies", 2);
		if (!movies.path("edges").isEmpty()) {
			Map<String, Object> back = new LinkedHashMap<>(movieArguments);
			back.put("before", movies.path("edges").get(movies.path("edges").size() - 1).path("cursor").asString());
			graphql(MOVIES_BACK, back, false);
		}
		if (!page.path("edges").isEmpty()) {
			graphql(NODE, Map.of("id", page.path("edges").get(0).path("node").path("id").asString()), false);
		}
		get("/graphql?query=" + URLEncoder.encode(FIRST_QUERY.formatted(user), StandardCharsets.UTF_8), 200);
		graphql("{ users(first: 500) { edges { cursor } } }", Map.of(), true);
		graphql("{ nosuchfield }", Map.of(), true);
		restWalk("/api/users/" + user + "/purchases?limit=5&minAmount=100", "purchases", 2);
		restWalk("/api/purchasesByCategory?category=" + category + "&limit=50", "purchasesByCategory", 2);
		restWalk("/api/movies?year=" + year + "&titlePrefix=The", "movies", 2);
		restWalk("/api/users?limit=20", "users", 2);
		get("/api/users/" + user + "/purchases?limit=500", 400);
		if (i % 10 == 0) {
			get("/api/openapi.json", 200);
			get("/actuator/prometheus", 200);
		}
		get("/actuator/health/readiness", 200);
	}

	private JsonNode walk(String query, Map<String, Object> variables, String field, int pages) {
		Map<String, Object> next = new LinkedHashMap<>(variables);
		JsonNode connection = null;
		for (int page = 0; page < pages; page++) {
			connection = graphql(query, next, false).path(field);
			if (!connection.path("pageInfo").path("hasNextPage").asBoolean()) {
				break;
			}
			next.put("after", connection.path("pageInfo").path("endCursor").asString());
		}
		return connection;
	}

	private void restWalk(String path, String key, int pages) {
		String token = null;
		for (int page = 0; page < pages; page++) {
			String url = (token == null) ? path : path + "&nextToken=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
			JsonNode answer = JSON.readTree(get(url, 200));
			if (!answer.path(key).isArray()) {
				throw new IllegalStateException(url + " answered " + answer);
			}
			token = answer.path("nextToken").isString() ? answer.path("nextToken").asString() : null;
			if (token == null) {
				break;
			}
		}
	}

	private JsonNode graphql(String query, Map<String, Object> variables, boolean refused) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("query", query);
		body.put("variables", variables);
		JsonNode answer = JSON.readTree(send(HttpRequest.newBuilder(this.base.resolve("/graphql"))
			.header("content-type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))), 200));
		boolean errors = answer.has("errors");
		if (refused != errors || (!refused && !answer.path("data").isObject())) {
			throw new IllegalStateException(query.lines().findFirst().orElse("") + " answered " + answer);
		}
		return answer.path("data");
	}

	private String get(String path, int status) {
		return send(HttpRequest.newBuilder(this.base.resolve(path)).GET(), status);
	}

	private String send(HttpRequest.Builder request, int status) {
		try {
			HttpResponse<String> response = this.http.send(request.timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString());
			this.requests.incrementAndGet();
			if (response.statusCode() != status) {
				throw new IllegalStateException(response.request().uri().getPath() + ": HTTP " + response.statusCode()
						+ ", expected " + status + ": " + response.body());
			}
			return response.body();
		}
		catch (IOException ex) {
			throw new IllegalStateException(request.build().uri().getPath() + ": " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

}
