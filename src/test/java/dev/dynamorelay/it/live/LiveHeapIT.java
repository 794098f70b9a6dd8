package dev.dynamorelay.it.live;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.DynamoRelayApplication;
import dev.dynamorelay.fixtures.RawWebSocket;
import dev.dynamorelay.it.Tokens;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A subscriber that stops reading cannot take the server's heap, on a server in a JVM of its own with a small
 * heap that exits on {@code OutOfMemoryError}, as the container image's does (issue 31, finding 1): one client
 * holds 100 subscriptions (the most one caller may) on one WebSocket, each selecting the purchase's
 * {@code product} twice, stops reading, and creates purchases of 350,000-byte products. The server stays up,
 * another client's subscription and queries are served meanwhile, the attacker is dropped once a send has waited
 * for it the send timeout, and nothing is logged as an ERROR.
 */
class LiveHeapIT {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** The heap: the image's 512 MB halved, so that a few purchases would fill it without a bound. */
	private static final String HEAP = "-Xmx256m";

	private static final int SUBSCRIPTIONS = 100;

	private static final int PURCHASES = 24;

	private static final String PRODUCT = "p".repeat(350_000);

	private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");

	@TempDir
	Path dir;

	private Process server;

	private final HttpClient http = HttpClient.newHttpClient();

	@AfterEach
	void stop() throws InterruptedException {
		if (this.server != null) {
			this.server.destroy();
			if (!this.server.waitFor(20, TimeUnit.SECONDS)) {
				this.server.destroyForcibly();
			}
		}
	}

	@Test
	void aHundredSubscriptionsThatStopReadingLeaveTheServerUpAndOthersServed() throws Exception {
		Path log = this.dir.resolve("server.log");
		int port = start(log);
		try (RawWebSocket attacker = RawWebSocket.open(port, 4096, Tokens.of("user-01"));
				RawWebSocket other = RawWebSocket.open(port, 64 * 1024, Tokens.of("user-02"))) {
			for (int i = 0; i < SUBSCRIPTIONS; i++) {
				attacker.send(RawWebSocket.subscribe("s" + i,
						"subscription($u: String!) { purchaseChanges(userId: $u) { eventId edge { node { a: product b: product } } } }",
						Map.of("u", "user-01")));
			}
			other.send(RawWebSocket.subscribe("o", "subscription($u: String!) { purchaseChanges(userId: $u) { kind edge { node { amount } } } }",
					Map.of("u", "user-02")));
			awaitSubscribers(port, SUBSCRIPTIONS + 1, log);
			// The attacker reads nothing from here on.
			for (int i = 0; i < PURCHASES; i++) {
				HttpResponse<String> created;
				try {
					created = createPurchase(port, "user-01", PRODUCT, 100 + i);
				}
				catch (java.io.IOException ex) {
					throw new AssertionError("purchase %d: %s (server alive: %s)%n%s".formatted(i, ex, alive(), tail(log)), ex);
				}
				assertThat(created.statusCode()).as("purchase %d (server alive: %s)%n%s", i, this.server.isAlive(),
						tail(log)).isEqualTo(200);
				assertThat(created.body()).as("purchase %d", i).doesNotContain("\"errors\"");
			}
			// Another client is served while the attacker's connection is still open.
			assertThat(createPurchase(port, "user-02", "Kettle", 42).statusCode()).isEqualTo(200);
			JsonNode change = other.next(Duration.ofSeconds(15));
			assertThat(change).as("the other client's change (closed: %s)%n%s", other.closeCode(), tail(log)).isNotNull();
			assertThat(change.path("payload").path("data").path("purchaseChanges").path("edge").path("node").path("amount")
				.asDouble()).isEqualTo(42.0);
			assertThat(page(port).statusCode()).isEqualTo(200);
			// The attacker, who reads nothing, is dropped once a send has waited for it the send timeout (10 s).
			awaitSubscribers(port, 1, log);
		}
		assertThat(this.server.isAlive()).as(tail(log)).isTrue();
		String logged = Files.readString(log, StandardCharsets.UTF_8);
		assertThat(logged).as("the server's log")
			.doesNotContain("OutOfMemoryError", "Terminating due to java.lang.OutOfMemoryError");
		assertThat(logged.lines().filter((line) -> line.contains(" ERROR ") || line.startsWith("\tat ")))
			.as("ERROR lines and stack traces").isEmpty();
	}

	/** Starts the server's main class with the small heap; answers its port once it listens. */
	private int start(Path log) throws Exception {
		String java = ProcessHandle.current().info().command().orElse(
				Path.of(System.getProperty("java.home"), "bin", "java").toString());
		List<String> command = new ArrayList<>(List.of(java, HEAP, "-XX:+ExitOnOutOfMemoryError",
				"-cp", System.getProperty("java.class.path"), DynamoRelayApplication.class.getName(), "--server.port=0"));
		command.addAll(Tokens.arguments());
		this.server = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.directory(new File(System.getProperty("user.dir")))
			.start();
		long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
		while (System.nanoTime() < deadline) {
			Matcher port = PORT.matcher(Files.readString(log, StandardCharsets.UTF_8));
			if (port.find()) {
				return Integer.parseInt(port.group(1));
			}
			assertThat(this.server.isAlive()).as(tail(log)).isTrue();
			Thread.sleep(200);
		}
		throw new AssertionError("the server did not start within 120 s:\n" + tail(log));
	}

	/** Waits until the server holds {@code count} subscriptions (its own gauge). */
	private void awaitSubscribers(int port, int count, Path log) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		double held = 0;
		while (System.nanoTime() < deadline) {
			HttpResponse<String> scrape = this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
					+ "/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString());
			Matcher gauge = Pattern.compile("(?m)^dynamorelay_live_subscribers\\{[^}]*} ([0-9.E]+)$").matcher(scrape.body());
			held = gauge.find() ? Double.parseDouble(gauge.group(1)) : 0;
			if (held == count) {
				return;
			}
			Thread.sleep(100);
		}
		throw new AssertionError("the server holds " + held + " subscriptions, not " + count + "\n" + tail(log));
	}

	private HttpResponse<String> createPurchase(int port, String userId, String product, double amount) throws Exception {
		return graphQl(port, userId, "mutation($u: String!, $p: String!, $a: Float!) { createPurchase(input: {userId: $u, "
				+ "product: $p, category: \"attack\", amount: $a}) { id } }", Map.of("u", userId, "p", product, "a", amount));
	}

	private HttpResponse<String> page(int port) throws Exception {
		return graphQl(port, "user-03", "{ user(userId: \"user-03\") { purchases(first: 20) { edges { node { amount } } } } }", Map.of());
	}

	private HttpResponse<String> graphQl(int port, String userId, String document, Map<String, Object> variables)
			throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/graphql"))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer " + Tokens.of(userId))
			.timeout(Duration.ofSeconds(30))
			.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("query", document, "variables",
					variables))))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	/** Whether the server's process is alive, after a moment for a dying one to end. */
	private boolean alive() throws InterruptedException {
		return !this.server.waitFor(2, TimeUnit.SECONDS);
	}

	/** The last lines the server logged. */
	private static String tail(Path log) {
		try {
			List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()).stream().filter((line) -> !line.startsWith("\tat ")).toList());
		}
		catch (java.io.IOException ex) {
			return "(no log: " + ex + ")";
		}
	}

}
