package dev.dynamorelay.transport.graphql.live;

import java.io.IOException;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import org.junit.jupiter.api.Test;
import reactor.core.Exceptions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Only the WebSocket handler's ERROR for a subscription that sends after its session closed is left out; its
 * other errors, and other loggers' lines, are logged.
 */
class WebSocketSessionGoneTest {

	private final LoggerContext context = new LoggerContext();

	private final WebSocketSessionGone filter = new WebSocketSessionGone();

	private final Logger handler = this.context.getLogger(WebSocketSessionGone.LOGGER);

	@Test
	void theHandlersErrorForASessionThatHasClosedIsLeftOut() {
		assertThat(decide(this.handler, Level.ERROR, Exceptions.failWithRejected())).isEqualTo(FilterReply.DENY);
		assertThat(decide(this.handler, Level.ERROR, new RuntimeException(Exceptions.failWithRejected())))
			.isEqualTo(FilterReply.DENY);
		assertThat(decide(this.handler, Level.ERROR, new IOException("Broken pipe"))).isEqualTo(FilterReply.DENY);
	}

	@Test
	void everyOtherLineIsLogged() {
		assertThat(decide(this.handler, Level.ERROR, new IllegalStateException("a bug"))).isEqualTo(FilterReply.NEUTRAL);
		assertThat(decide(this.handler, Level.ERROR, null)).isEqualTo(FilterReply.NEUTRAL);
		assertThat(decide(this.handler, Level.WARN, Exceptions.failWithRejected())).isEqualTo(FilterReply.NEUTRAL);
		assertThat(decide(this.context.getLogger("dev.dynamorelay.live.StreamReader"), Level.ERROR,
				Exceptions.failWithRejected()))
			.isEqualTo(FilterReply.NEUTRAL);
	}

	private FilterReply decide(Logger logger, Level level, Throwable failure) {
		return this.filter.decide(null, logger, level, "Closing session due to exception", null, failure);
	}

}
