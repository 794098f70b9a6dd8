package dev.dynamorelay.it.start;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import dev.dynamorelay.DynamoRelayApplication;
import dev.dynamorelay.it.Http;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a server stops under live streams. A server that stops while subscriptions over Server-Sent Events whose clients have gone are still open logs no
 * ERROR: Tomcat ends and recycles their requests without telling Spring, and each stream's next keep-alive met the
 * recycled response. Before, every such stream logged {@code QueriesOverSse: Unresolved IllegalStateException: The
 * response object has been recycled} with its stack and Reactor's {@code Operator called default onErrorDropped}, as
 * ERROR; now the stream ends as one whose client has gone, with one DEBUG line.
 */
class ShutdownLogsIT {

	private static final int STREAMS = 10;

	@Test
	void aServerStoppingWithServerSentEventsWhoseClientsHaveGoneLogsNoError() throws Exception {
		Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
		Logger clientGone = (Logger) LoggerFactory.getLogger("dev.dynamorelay.transport.graphql.http.SseClientGone");
		ListAppender<ILoggingEvent> logged = new ListAppender<>();
		// A keep-alive every 5 s (15 s by default) and a graceful shutdown of 2 s (20 s): the same course, sooner.
		ConfigurableApplicationContext server = new SpringApplicationBuilder(DynamoRelayApplication.class).run(
				"--server.port=0", "--dynamo-relay.sample-data.enabled=false", "--dynamo-relay.dynamodb.timeout=20s",
				"--spring.graphql.http.sse.keep-alive=5s", "--spring.lifecycle.timeout-per-shutdown-phase=2s");
		Level level = clientGone.getLevel();
		try {
			// Once the start has configured logging (it resets Logback's appenders).
			logged.start();
			root.addAppender(logged);
			clientGone.setLevel(Level.DEBUG);
			int port = ((WebServerApplicationContext) server).getWebServer().getPort();
			List<Socket> gone = new ArrayList<>();
			for (int i = 0; i < STREAMS; i++) {
				Socket socket = new Socket("127.0.0.1", port);
				byte[] body = ("{\"query\": \"subscription { purchaseChanges(userId: \\\"nobody-" + i + "\\\") { kind } }\"}")
					.getBytes(StandardCharsets.UTF_8);
				socket.getOutputStream().write(("POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
						+ "Accept: text/event-stream\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
				socket.getOutputStream().write(body);
				socket.getOutputStream().flush();
				gone.add(socket);
			}
			MeterRegistry meters = server.getBean(MeterRegistry.class);
			await(() -> subscribers(meters) >= STREAMS, Duration.ofSeconds(60));
			assertThat(subscribers(meters)).as("subscriptions open").isEqualTo(STREAMS);
			// The clients go, and the server stops before a keep-alive could have told it.
			for (Socket socket : gone) {
				socket.close();
			}
			server.close();
			// The streams write their keep-alives on after the server stopped, to the recycled responses.
			Predicate<ILoggingEvent> error = (event) -> event.getLevel() == Level.ERROR;
			Predicate<ILoggingEvent> told = (event) -> event.getLoggerName().equals(clientGone.getName());
			await(() -> count(logged, error) > 0 || count(logged, told) >= STREAMS, Duration.ofSeconds(60));
			assertThat(List.copyOf(logged.list)).as("ERROR lines").noneMatch(error);
			assertThat(count(logged, told)).as("streams ended as a client gone (SseClientGone's DEBUG line)").isPositive();
		}
		finally {
			server.close();
			root.detachAppender(logged);
			clientGone.setLevel(level);
		}
	}

	/**
	 * A stop ends the open streams of Server-Sent Events before the web server's graceful shutdown: a client that
	 * still reads is told {@code UNAVAILABLE} with the event id to resume after, and one that has gone holds nothing.
	 * Before, the graceful shutdown waited its whole timeout (20 s by default) for streams that nothing would end.
	 */
	@Test
	void aStopEndsLiveStreamsResumablyWithoutWaitingForClientsThatHaveGone() throws Exception {
		ConfigurableApplicationContext server = new SpringApplicationBuilder(DynamoRelayApplication.class).run(
				"--server.port=0", "--dynamo-relay.dynamodb.timeout=20s");
		try {
			int port = ((WebServerApplicationContext) server).getWebServer().getPort();
			Socket reading = subscribe(port, "user-01");
			Socket gone = subscribe(port, "user-02");
			MeterRegistry meters = server.getBean(MeterRegistry.class);
			await(() -> subscribers(meters) >= 2, Duration.ofSeconds(60));
			assertThat(subscribers(meters)).as("subscriptions open").isEqualTo(2);
			StringBuilder received = new StringBuilder();
			Thread reader = new Thread(() -> {
				try (var in = reading.getInputStream()) {
					byte[] buffer = new byte[8192];
					for (int read; (read = in.read(buffer)) >= 0;) {
						synchronized (received) {
							received.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
						}
					}
				}
				catch (java.io.IOException ex) {
					// The server closed the connection.
				}
			});
			reader.start();
			var created = new Http(port).post(null, "mutation { createPurchase(input: {userId: \"user-01\", product: \"Tent\", "
					+ "category: \"outdoor\", amount: 120}) { id } }");
			assertThat(created.body()).as("the mutation's answer").doesNotContainKey("errors");
			await(() -> text(received).contains("eventId"), Duration.ofSeconds(30));
			assertThat(text(received)).as("the change reached the reading client").contains("\"kind\":\"ADDED\"");
			gone.close();
			long started = System.nanoTime();
			server.close();
			Duration stop = Duration.ofNanos(System.nanoTime() - started);
			reader.join(10_000);
			// The graceful shutdown's timeout is 20 s: a stop that waited for the streams would take all of it.
			assertThat(stop).as("the stop's time").isLessThan(Duration.ofSeconds(10));
			assertThat(text(received)).as("the reading client's end")
				.contains("\"code\":\"UNAVAILABLE\"")
				.contains("The server is stopping")
				.containsPattern("\"after\":\"[A-Za-z0-9_-]+\"")
				.contains("event:complete");
		}
		finally {
			server.close();
		}
	}

	/**
	 * Once the stop has ended the subscriptions, a new one (a client told UNAVAILABLE subscribes again at once) is
	 * refused UNAVAILABLE: nothing would end it, and the graceful shutdown would wait for it to its timeout. A context
	 * started again takes them again (a paused test context refused them all before).
	 */
	@Test
	void aSubscriptionAfterTheStopEndedTheOthersIsRefusedUnavailable() throws Exception {
		ConfigurableApplicationContext server = new SpringApplicationBuilder(DynamoRelayApplication.class).run(
				"--server.port=0", "--dynamo-relay.sample-data.enabled=false", "--spring.lifecycle.timeout-per-shutdown-phase=2s");
		try {
			int port = ((WebServerApplicationContext) server).getWebServer().getPort();
			// What the stop's first phase does, before the web server's graceful shutdown.
			server.getBean(dev.dynamorelay.live.LiveConnections.class).endSubscriptions();
			try (Socket late = subscribe(port, "late-subscriber")) {
				// A subscription taken sends only keep-alives: read until the stream completes or 20 s have passed.
				late.setSoTimeout(1_000);
				StringBuilder received = new StringBuilder();
				var in = late.getInputStream();
				byte[] buffer = new byte[8192];
				long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
				while (!received.toString().contains("event:complete") && System.nanoTime() < deadline) {
					try {
						int read = in.read(buffer);
						if (read < 0) {
							break;
						}
						received.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
					}
					catch (java.net.SocketTimeoutException ex) {
						// nothing yet
					}
				}
				assertThat(received.toString()).as("the late subscriber's answer")
					.contains("\"code\":\"UNAVAILABLE\"", "The server is stopping", "event:complete");
			}
			assertThat(subscribers(server.getBean(MeterRegistry.class))).as("subscriptions held").isZero();
			// A context stopped and started again (Spring's test contexts are, when paused) takes subscriptions again.
			server.stop();
			server.start();
			int again = ((WebServerApplicationContext) server).getWebServer().getPort();
			try (Socket subscriber = subscribe(again, "after-restart")) {
				subscriber.setSoTimeout(20_000);
				StringBuilder received = new StringBuilder();
				var in = subscriber.getInputStream();
				byte[] buffer = new byte[8192];
				for (int read; !received.toString().contains(":subscribed") && !received.toString().contains("errors")
						&& (read = in.read(buffer)) >= 0;) {
					received.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
				}
				assertThat(received.toString()).as("a subscription after the restart").contains(":subscribed")
					.doesNotContain("errors");
			}
		}
		finally {
			server.close();
		}
	}

	private static Socket subscribe(int port, String userId) throws java.io.IOException {
		Socket socket = new Socket("127.0.0.1", port);
		byte[] body = ("{\"query\": \"subscription { purchaseChanges(userId: \\\"" + userId
				+ "\\\") { kind eventId } }\"}").getBytes(StandardCharsets.UTF_8);
		socket.getOutputStream().write(("POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
				+ "Accept: text/event-stream\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		socket.getOutputStream().write(body);
		socket.getOutputStream().flush();
		return socket;
	}

	private static String text(StringBuilder received) {
		synchronized (received) {
			return received.toString();
		}
	}

	private static long count(ListAppender<ILoggingEvent> logged, Predicate<ILoggingEvent> which) {
		return List.copyOf(logged.list).stream().filter(which).count();
	}

	private static double subscribers(MeterRegistry meters) {
		return meters.find("dynamorelay.live.subscribers").gauges().stream().mapToDouble(Gauge::value).sum();
	}

	private static void await(java.util.function.BooleanSupplier condition, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
			Thread.sleep(100);
		}
	}

}
