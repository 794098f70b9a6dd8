package dev.dynamorelay.it.guards;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.fixtures.RawHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an anonymous client can send that must not take the server down, blind its monitoring or hold its
 * threads: megabyte operation names, bodies larger than the bound, bodies that trickle in, URLs and
 * headers Tomcat refuses, values of the wrong JSON type, TRACE, queries over SSE. The server runs as
 * README's production set-up has it (the actuator on its own management port, health details there), with
 * few workers and a short body time, so that holding them all takes few connections.
 */
@TestPropertySource(properties = { "management.server.port=0", "management.endpoint.health.show-details=always",
		"server.tomcat.threads.max=8", "dynamo-relay.http.body-timeout=2s", "dynamo-relay.http.header-timeout=3s" })
class HostileRequestsIT extends IntegrationTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String QUERY = "{ users(first: 1) { edges { cursor } } }";

	@LocalManagementPort
	private int managementPort;

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@Test
	void longOperationNamesAreCountedAsOtherAndTheScrapeStaysSmall() throws Exception {
		for (int i = 0; i < 5; i++) {
			String name = "Q" + i + "x".repeat(200_000);
			HttpResponse<String> answer = post("/graphql", JSON.writeValueAsString(Map.of("query",
					"query " + name + " " + QUERY, "operationName", name)));
			assertThat(answer.statusCode()).isEqualTo(200);
		}
		String scrape = get(this.managementPort, "/actuator/prometheus").body();
		assertThat(scrape.length()).as("the scrape holds no megabyte label").isLessThan(1_000_000);
		assertThat(scrape).contains("dynamorelay_graphql_requests_seconds_count{operation=\"other\",outcome=\"ok\"}");
		Matcher labels = Pattern.compile("operation=\"([^\"]*)\"").matcher(scrape);
		while (labels.find()) {
			assertThat(labels.group(1).length()).isLessThanOrEqualTo(100);
		}
	}

	@Test
	void aBodyOverTheBoundIsRefusedBeforeItIsRead() throws Exception {
		for (String path : List.of("/graphql", "/api/users")) {
			try (RawHttp http = new RawHttp(this.port)) {
				RawHttp.Answer answer = http.send(RawHttp.request("POST", path, "Content-Type: application/json",
						"Content-Length: 104857600")).send("{\"query\": \"").read();
				assertThat(answer.status()).as(path).isEqualTo(413);
				assertThat(answer.code()).isEqualTo("INVALID_ARGUMENT");
				assertThat(answer.headers().get("connection")).isEqualTo("close");
				assertThat(answer.headers().get("content-type"))
					.startsWith(path.startsWith("/api") ? "application/problem+json" : "application/json");
			}
		}
		assertThat(get(this.managementPort, "/actuator/prometheus").body())
			.contains("dynamorelay_http_refusals_total{reason=\"body-too-large\"}");
	}

	@Test
	void aChunkedBodyIsRefusedOnceItPassesTheBound() {
		try (RawHttp http = new RawHttp(this.port)) {
			http.send(RawHttp.request("POST", "/graphql", "Content-Type: application/json", "Transfer-Encoding: chunked"));
			byte[] chunk = ("10000\r\n" + "a".repeat(0x10000) + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
			RawHttp.Answer answer = null;
			for (int i = 0; i < 32 && answer == null; i++) { // 2 MB at most; the bound is 1 MB
				try {
					http.send(chunk);
				}
				catch (java.io.UncheckedIOException ex) {
					break; // refused and closed while sending
				}
			}
			answer = http.read();
			assertThat(answer.status()).isEqualTo(413);
			assertThat(answer.code()).isEqualTo("INVALID_ARGUMENT");
		}
	}

	@Test
	void aBodyUnderTheBoundIsServed() throws Exception {
		String padding = "x".repeat(900_000);
		HttpResponse<String> answer = post("/graphql",
				JSON.writeValueAsString(Map.of("query", QUERY, "variables", Map.of("padding", padding))));
		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(answer.body()).contains("\"users\"").doesNotContain("errors");
	}

	@Test
	void slowBodiesHoldNoWorkerAndAreRefusedInTime() throws Exception {
		List<RawHttp> slow = new ArrayList<>();
		try {
			for (int i = 0; i < 24; i++) { // three times the workers
				slow.add(new RawHttp(this.port).send(RawHttp.request("POST", "/graphql", "Content-Type: application/json",
						"Content-Length: 1000") + "{"));
			}
			long start = System.nanoTime();
			HttpResponse<String> page = post("/graphql", JSON.writeValueAsString(Map.of("query", QUERY)));
			assertThat(page.statusCode()).isEqualTo(200);
			assertThat(page.body()).contains("\"users\"");
			assertThat(get(this.managementPort, "/actuator/health/liveness").statusCode()).isEqualTo(200);
			assertThat(get(this.port, "/api/users?limit=1").statusCode()).isEqualTo(200);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as("served beside the slow bodies")
				.isLessThan(Duration.ofSeconds(2));
			for (RawHttp each : slow) {
				RawHttp.Answer refused = each.read();
				assertThat(refused.status()).isEqualTo(408);
				assertThat(refused.code()).isEqualTo("INVALID_ARGUMENT");
				assertThat((String) ((Map<?, ?>) ((List<?>) refused.json().get("errors")).get(0)).get("message"))
					.contains("dynamo-relay.http.body-timeout");
			}
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as("refused within the body time and a margin")
				.isLessThan(Duration.ofSeconds(6));
			assertThat(get(this.managementPort, "/actuator/prometheus").body())
				.contains("dynamorelay_http_refusals_total{reason=\"body-timeout\"}");
		}
		finally {
			slow.forEach(RawHttp::close);
		}
	}

	/**
	 * Headers that trickle in, a line every half second (far inside Tomcat's 10 s between reads), are cut at the
	 * header deadline counted from the request's first byte: before, such connections were held for as long as the
	 * client went on (8,300 of them for 45 s). A page is served beside them.
	 */
	@Test
	void headersThatTrickleAreCutAtTheHeaderDeadline() throws Exception {
		double cut = counter("dynamorelay_http_refusals_total{reason=\"header-timeout\"}");
		List<Socket> open = new ArrayList<>();
		try {
			for (int i = 0; i < 16; i++) { // twice the workers
				Socket socket = new Socket("127.0.0.1", this.port);
				socket.setSoTimeout(20);
				socket.getOutputStream()
					.write("GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
				open.add(socket);
			}
			long start = System.nanoTime();
			Duration firstCut = null;
			List<Socket> trickling = new ArrayList<>(open);
			while (!trickling.isEmpty() && System.nanoTime() - start < Duration.ofSeconds(8).toNanos()) {
				Thread.sleep(500); // the attack's own pace
				for (java.util.Iterator<Socket> each = trickling.iterator(); each.hasNext();) {
					Socket socket = each.next();
					if (closedByServer(socket)) {
						firstCut = (firstCut != null) ? firstCut : Duration.ofNanos(System.nanoTime() - start);
						each.remove();
						continue;
					}
					socket.getOutputStream().write("X-Trickle: 1\r\n".getBytes(StandardCharsets.US_ASCII));
				}
				if (firstCut == null) {
					assertThat(post("/graphql", JSON.writeValueAsString(Map.of("query", QUERY))).statusCode())
						.as("a page beside the trickling headers").isEqualTo(200);
				}
			}
			assertThat(trickling).as("connections whose headers still trickled in after 8 s").isEmpty();
			assertThat(firstCut).as("cut at the deadline of 3 s, not before").isGreaterThan(Duration.ofMillis(2_500));
			assertThat(counter("dynamorelay_http_refusals_total{reason=\"header-timeout\"}")).isEqualTo(cut + 16);
		}
		finally {
			for (Socket socket : open) {
				socket.close();
			}
		}
	}

	/** Whether the server has closed the connection (it sends nothing before the headers are whole). */
	private static boolean closedByServer(Socket socket) {
		try {
			return socket.getInputStream().read() < 0;
		}
		catch (java.net.SocketTimeoutException ex) {
			return false;
		}
		catch (java.io.IOException ex) {
			return true;
		}
	}

	@Test
	void aClientThatHangsUpMidBodyIsNoServerError() throws Exception {
		double internal = counter("dynamorelay_errors_total{code=\"INTERNAL\"}");
		double abandoned = counter("dynamorelay_http_refusals_total{reason=\"abandoned\"}");
		for (int i = 0; i < 3; i++) {
			try (RawHttp gone = new RawHttp(this.port)) {
				gone.send(RawHttp.request("POST", "/graphql", "Content-Type: application/json", "Content-Length: 1000") + "{");
			}
		}
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		while (counter("dynamorelay_http_refusals_total{reason=\"abandoned\"}") < abandoned + 3
				&& System.nanoTime() < deadline) {
			Thread.sleep(50);
		}
		assertThat(counter("dynamorelay_http_refusals_total{reason=\"abandoned\"}")).isEqualTo(abandoned + 3);
		assertThat(counter("dynamorelay_errors_total{code=\"INTERNAL\"}")).as("nothing went wrong in the server")
			.isEqualTo(internal);
	}

	/** A counter of the scrape, 0 before it first counts. */
	private double counter(String series) throws Exception {
		for (String line : get(this.managementPort, "/actuator/prometheus").body().split("\n")) {
			if (line.startsWith(series + " ")) {
				return Double.parseDouble(line.substring(series.length() + 1).trim());
			}
		}
		return 0;
	}

	@Test
	void urlsAndHeadersTomcatRefusesGetTheServersErrorBodies() throws Exception {
		for (String target : List.of("/api/users%00", "/api/users%FF", "/api/a%5Cb", "/graphql%00", "/x%5Cy")) {
			try (RawHttp http = new RawHttp(this.port)) {
				RawHttp.Answer answer = http.send(RawHttp.request("GET", target)).read();
				assertThat(answer.status()).as(target).isEqualTo(400);
				assertThat(answer.body()).as(target).doesNotContain("<html");
				assertThat(answer.code()).as(target).isEqualTo("INVALID_ARGUMENT");
				assertThat(answer.headers().get("content-type")).as(target)
					.startsWith(target.startsWith("/api") ? "application/problem+json" : "application/json");
			}
		}
		// Refused in the request line itself, before Tomcat has a path: a raw control byte, a URL of 100 KB.
		for (String target : List.of("/api/us\u0001ers", "/api/users?limit=1&x=" + "a".repeat(100_000), "/api/" + "a".repeat(100_000),
				"/graphql\u0001", "/graphql?query=" + "a".repeat(100_000))) {
			String shown = target.substring(0, Math.min(target.length(), 30));
			try (RawHttp http = new RawHttp(this.port)) {
				RawHttp.Answer answer = http.send(RawHttp.request("GET", target)).read();
				assertThat(answer.status()).as(shown).isEqualTo(400);
				assertThat(answer.code()).as(shown).isEqualTo("INVALID_ARGUMENT");
				assertThat(answer.headers().get("content-type")).as(shown)
					.startsWith(target.startsWith("/api") ? "application/problem+json" : "application/json");
			}
		}
		for (String target : List.of("/graphql?query=%7B__typename%7D", "/api/users")) {
			try (RawHttp http = new RawHttp(this.port)) {
				RawHttp.Answer answer = http.send(RawHttp.request("GET", target, "X-Large: " + "a".repeat(9_000))).read();
				assertThat(answer.status()).as(target).isBetween(400, 431);
				assertThat(answer.body()).as(target).doesNotContain("<html");
				assertThat(answer.code()).as(target).isEqualTo("INVALID_ARGUMENT");
			}
		}
		assertThat(get(this.managementPort, "/actuator/prometheus").body())
			.contains("dynamorelay_http_refusals_total{reason=\"unreadable\"}");
	}

	@Test
	void aQueryThatIsNotAStringIsABadRequest() throws Exception {
		for (String body : List.of("{\"query\": 42}", "{\"query\": true}", "{\"query\": 4.2}",
				"{\"query\": \"{ __typename }\", \"operationName\": 7}")) {
			HttpResponse<String> answer = post("/graphql", body);
			assertThat(answer.statusCode()).as(body).isEqualTo(400);
			assertThat(answer.body()).as(body).contains("INVALID_ARGUMENT").doesNotContain("Exception");
		}
	}

	@Test
	void traceListsOnlyTheMethodsAPathTakes() {
		for (String path : List.of("/graphql", "/api/users")) {
			try (RawHttp http = new RawHttp(this.port)) {
				RawHttp.Answer answer = http.send(RawHttp.request("TRACE", path)).read();
				assertThat(answer.status()).as(path).isEqualTo(405);
				assertThat(answer.headers().get("allow")).as(path)
					.isEqualTo(path.equals("/graphql") ? "GET, POST" : "GET, HEAD")
					.doesNotContain("PUT", "DELETE", "PATCH");
			}
		}
	}

	@Test
	void aCorsPreflightListsOnlyTheMethodsAPathTakes() throws Exception {
		for (String path : List.of("/graphql", "/api/users")) {
			HttpResponse<String> answer = this.client.send(HttpRequest.newBuilder(URI.create(url(this.port, path)))
				.header("Origin", "https://elsewhere.example")
				.header("Access-Control-Request-Method", path.equals("/graphql") ? "POST" : "GET")
				.header("Access-Control-Request-Headers", "content-type")
				.timeout(Duration.ofSeconds(20))
				.method("OPTIONS", HttpRequest.BodyPublishers.noBody())
				.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(answer.headers().firstValue("Allow")).as(path)
				.hasValue(path.equals("/graphql") ? "GET,POST" : "GET,HEAD");
			assertThat(answer.headers().firstValue("Access-Control-Allow-Origin")).as("cross-origin is not configured")
				.isEmpty();
		}
	}

	@Test
	void aQueryOverServerSentEventsIsAnswered() throws Exception {
		HttpResponse<String> answer = this.client.send(HttpRequest.newBuilder(URI.create(url(this.port, "/graphql")))
			.header("Content-Type", "application/json")
			.header("Accept", "text/event-stream")
			.timeout(Duration.ofSeconds(20))
			.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("query", QUERY))))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(answer.body()).contains("event:next", "\"users\"", "\"requests\"", "event:complete")
			.doesNotContain("\"errors\"");
		HttpResponse<String> refused = this.client.send(HttpRequest.newBuilder(URI.create(url(this.port, "/graphql")))
			.header("Content-Type", "application/json")
			.header("Accept", "text/event-stream")
			.timeout(Duration.ofSeconds(20))
			.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("query", "{ nope }"))))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(refused.body()).contains("event:next", "\"code\":\"INVALID_ARGUMENT\"", "event:complete");
	}

	/**
	 * A client that sends a query over SSE and hangs up before its answer: the handler's failed write is no
	 * server error (Spring GraphQL's SSE handler logged "Unresolved RuntimeException" with some 170 lines of
	 * stack for each), and the server goes on answering.
	 */
	@Test
	void aClientThatHangsUpOnAQueryOverServerSentEventsIsNoServerError() throws Exception {
		Logger handler = (Logger) LoggerFactory.getLogger("dev.dynamorelay.transport.graphql.http.QueriesOverSse");
		ListAppender<ILoggingEvent> logged = new ListAppender<>();
		logged.start();
		handler.addAppender(logged);
		// Where the hang-ups are told instead, at DEBUG: proof that the failed writes happened.
		Logger told = (Logger) LoggerFactory.getLogger("dev.dynamorelay.transport.graphql.http.SseClientGone");
		Level level = told.getLevel();
		told.setLevel(Level.DEBUG);
		ListAppender<ILoggingEvent> hangUps = new ListAppender<>();
		hangUps.start();
		told.addAppender(hangUps);
		try {
			byte[] body = JSON.writeValueAsString(Map.of("query",
					"{ purchasesByCategory(category: \"books\", first: 100) { edges { node { product } } } }"))
				.getBytes(StandardCharsets.UTF_8);
			byte[] head = ("POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
					+ "Accept: text/event-stream\r\nContent-Length: " + body.length + "\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII);
			for (int i = 0; i < 10; i++) {
				try (Socket socket = new Socket("127.0.0.1", this.port)) {
					socket.getOutputStream().write(head);
					socket.getOutputStream().write(body);
					socket.getOutputStream().flush();
					Thread.sleep(5);
				}
			}
			long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			while (hangUps.list.isEmpty() && System.nanoTime() < deadline) {
				Thread.sleep(50);
			}
			assertThat(hangUps.list).as("writes to a client that had hung up").isNotEmpty();
			aQueryOverServerSentEventsIsAnswered();
			assertThat(logged.list).as("the SSE handler's ERROR lines")
				.noneMatch((event) -> event.getLevel() == Level.ERROR);
		}
		finally {
			handler.detachAppender(logged);
			told.detachAppender(hangUps);
			told.setLevel(level);
		}
	}

	@Test
	void theManagementPortServesTheProbesAndDetailsAndThePublicPortNeither() throws Exception {
		assertThat(get(this.managementPort, "/actuator/health/liveness").statusCode()).isEqualTo(200);
		assertThat(get(this.managementPort, "/actuator/health/readiness").statusCode()).isEqualTo(200);
		assertThat(get(this.managementPort, "/actuator/health").body()).contains("\"dynamoDb\"", "\"details\"");
		assertThat(get(this.port, "/actuator/health").statusCode()).isEqualTo(404);
		assertThat(get(this.port, "/actuator/prometheus").statusCode()).isEqualTo(404);
	}

	private HttpResponse<String> post(String path, String body) throws Exception {
		return this.client.send(HttpRequest.newBuilder(URI.create(url(this.port, path)))
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(20))
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		return this.client.send(HttpRequest.newBuilder(URI.create(url(port, path))).timeout(Duration.ofSeconds(20)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private static String url(int port, String path) {
		return "http://127.0.0.1:" + port + path;
	}

}
