package dev.dynamorelay.it.live;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What messages sent slowly in parts may hold, over all sessions: 32 messages' worth of bytes (each up to
 * max-body-size + 1 KB, here 16 KB + 1 KB). A session whose part would pass it is closed with 1013 (Try Again
 * Later), and what closed sessions held is given back.
 */
@DirtiesContext
class LiveMessagesAssemblingIT extends IntegrationTest {

	/** 32 x (16 KB + 1 KB). */
	private static final long BUDGET = 32 * (16 * 1024 + 1024);

	@Autowired
	private MeterRegistry registry;

	@DynamicPropertySource
	static void smallMessages(DynamicPropertyRegistry registry) {
		registry.add("dynamo-relay.http.max-body-size", () -> "16KB");
	}

	@Test
	void messagesPutTogetherAtOnceHoldAtMostTheirBudget() throws Exception {
		String part = "x".repeat(16_000);
		int fit = (int) (BUDGET / part.length());
		double before = refused();
		List<LiveMessagesIT.Socket> sockets = new ArrayList<>();
		try {
			for (int i = 0; i < fit + 2; i++) {
				LiveMessagesIT.Socket socket = LiveMessagesIT.Socket.open(this.port);
				sockets.add(socket);
				socket.sendPart(part);
			}
			Thread.sleep(1000);
			long busy = sockets.stream()
				.filter((socket) -> socket.closed.isDone() && socket.closed.getNow(0) == 1013)
				.count();
			long closed = sockets.stream().filter((socket) -> socket.closed.isDone()).count();
			assertThat(busy).as("sessions closed with 1013, of %d that each sent %d of %d bytes", sockets.size(),
					part.length(), BUDGET).isEqualTo(2);
			assertThat(closed).as("sessions closed").isEqualTo(2);
			assertThat(refused()).isEqualTo(before + 2);
		}
		finally {
			sockets.forEach(LiveMessagesIT.Socket::close);
		}
		// What the closed sessions held is given back: a new one's part fits again.
		Thread.sleep(1000);
		try (LiveMessagesIT.Socket socket = LiveMessagesIT.Socket.open(this.port)) {
			socket.sendPart(part);
			Thread.sleep(500);
			assertThat(socket.closed).isNotDone();
			socket.send("\"}");
			assertThat(socket.closed.get(5, TimeUnit.SECONDS)).as("an unreadable message, whole").isNotEqualTo(1013);
		}
	}

	private double refused() {
		Counter counter = this.registry.find("dynamorelay.http.refusals").tag("reason", "messages-assembling").counter();
		return counter == null ? 0 : counter.count();
	}

}
