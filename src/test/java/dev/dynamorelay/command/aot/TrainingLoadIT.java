package dev.dynamorelay.command.aot;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.dynamorelay.DynamoRelayApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The AOT cache's training load ({@code aot-cache}) against the server it trains, the embedded default: every
 * request it sends is answered as it expects (a change of the sample or the API that breaks one fails here,
 * not in a user's {@code aot-cache} run), and the first failure ends the load and says what failed.
 */
@SpringBootTest(classes = DynamoRelayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TrainingLoadIT {

	@LocalServerPort
	private int port;

	@Test
	void everyTrainingRequestIsAnsweredAsExpected() throws Exception {
		TrainingLoad load = new TrainingLoad(URI.create("http://127.0.0.1:" + this.port));
		String done = load.run(Duration.ofSeconds(3), 2);
		assertThat(done).matches("\\d+ requests in [1-9]\\d* rounds of 2 clients");
		assertThat(Integer.parseInt(done.substring(0, done.indexOf(' ')))).as(done).isGreaterThan(20);
	}

	@Test
	void noServerFailsTheLoadAtOnce() throws Exception {
		int nothing;
		try (ServerSocket socket = new ServerSocket(0)) {
			nothing = socket.getLocalPort();
		}
		TrainingLoad load = new TrainingLoad(URI.create("http://127.0.0.1:" + nothing));
		long started = System.nanoTime();
		assertThatThrownBy(() -> load.run(Duration.ofSeconds(30), 1)).isInstanceOf(IllegalStateException.class)
			.hasMessageStartingWith("the training load failed: /graphql: ");
		assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the first failure ends it").isLessThan(Duration.ofSeconds(20));
	}

}
