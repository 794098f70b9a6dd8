package dev.dynamorelay.it;

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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server that stops while subscriptions over Server-Sent Events whose clients have gone are still open logs no
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
		Logger clientGone = (Logger) LoggerFactory.getLogger("dev.dynamorelay.graphql.http.SseClientGone");
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
