package dev.dynamorelay.graphql.http;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * Leaves out the ERROR that Spring GraphQL's Server-Sent Events handler logs when it finishes a stream whose
 * client has gone: "Unresolved RuntimeException", a broken pipe and some 170 lines of stack, for every query sent
 * over SSE whose client hung up before its answer was written (its {@code complete} event fails, and the
 * handler takes that for an error of the execution). A client that hangs up is no server error, and anyone
 * could fill the log with them. Every other error of the handler is logged as before.
 *
 * <p>Written as a log filter because the handler's subscriber, which catches the failed write and logs it, is
 * private to Spring GraphQL; the filter matches only the handler's own logger (its class's name) and only a
 * failure that Spring's {@link DisconnectedClientHelper} takes for a client that went away.
 */
final class SseClientGone extends TurboFilter {

	/** The SSE handler's logger: Spring GraphQL names it after the handler's class. */
	static final String LOGGER = QueriesOverSse.class.getName();

	/** Where a line left out is told instead, at DEBUG and in one line. */
	private static final org.slf4j.Logger leftOut = LoggerFactory.getLogger(SseClientGone.class);

	@Override
	public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
			Throwable failure) {
		if (failure == null || level != Level.ERROR || !LOGGER.equals(logger.getName())) {
			return FilterReply.NEUTRAL;
		}
		// Spring's own judgement: by type along the causes, and by the most specific cause's message.
		if (!DisconnectedClientHelper.isClientDisconnectedException(failure)) {
			return FilterReply.NEUTRAL;
		}
		leftOut.debug("A client hung up before its answer over SSE was written: {}", failure.toString());
		return FilterReply.DENY;
	}

	/** Adds the filter to Logback's context, once, if Logback is the logging system. */
	static void install() {
		if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context
				&& context.getTurboFilterList().stream().noneMatch(SseClientGone.class::isInstance)) {
			SseClientGone filter = new SseClientGone();
			filter.setContext(context);
			filter.start();
			context.addTurboFilter(filter);
		}
	}

}
