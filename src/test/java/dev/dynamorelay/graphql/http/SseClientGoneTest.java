package dev.dynamorelay.graphql.http;

import java.io.IOException;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import org.apache.catalina.connector.ClientAbortException;
import org.junit.jupiter.api.Test;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Only the SSE handler's ERROR for a write to a client that has gone is left out; its other errors, and other
 * loggers' lines about gone clients, are logged.
 */
class SseClientGoneTest {

	private final LoggerContext context = new LoggerContext();

	private final SseClientGone filter = new SseClientGone();

	private final Logger handler = this.context.getLogger(SseClientGone.LOGGER);

	@Test
	void theHandlersErrorForAClientThatHasGoneIsLeftOut() {
		RuntimeException wrapped = new RuntimeException(new AsyncRequestNotUsableException(
				"ServletResponse failed to flushBuffer", new ClientAbortException(new IOException("Broken pipe"))));
		assertThat(decide(this.handler, Level.ERROR, wrapped)).isEqualTo(FilterReply.DENY);
		assertThat(decide(this.handler, Level.ERROR, new ClientAbortException(new IOException("Connection reset"))))
			.isEqualTo(FilterReply.DENY);
		assertThat(decide(this.handler, Level.ERROR, new RuntimeException(new IOException("Broken pipe"))))
			.isEqualTo(FilterReply.DENY);
	}

	@Test
	void everyOtherLineIsLogged() {
		assertThat(decide(this.handler, Level.ERROR, new IllegalStateException("a bug"))).isEqualTo(FilterReply.NEUTRAL);
		assertThat(decide(this.handler, Level.ERROR, new IOException("No space left on device"))).isEqualTo(FilterReply.NEUTRAL);
		assertThat(decide(this.handler, Level.ERROR, null)).isEqualTo(FilterReply.NEUTRAL);
		assertThat(decide(this.handler, Level.WARN, new ClientAbortException())).isEqualTo(FilterReply.NEUTRAL);
		assertThat(decide(this.context.getLogger("dev.dynamorelay.graphql.http.GraphQlHttpEndpoint"), Level.ERROR,
				new ClientAbortException()))
			.isEqualTo(FilterReply.NEUTRAL);
	}

	private FilterReply decide(Logger logger, Level level, Throwable failure) {
		return this.filter.decide(null, logger, level, "Unresolved", null, failure);
	}

}
