package dev.dynamorelay.transport.graphql.live;

import java.util.concurrent.RejectedExecutionException;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.springframework.graphql.server.webmvc.GraphQlWebSocketHandler;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * Leaves out the ERROR that Spring GraphQL's WebSocket handler logs when a subscription's stream goes on after its
 * session closed: "Closing session due to exception" and a stack trace, when the session's sending thread, disposed
 * with the session, refuses the stream's next signal (Reactor's "Scheduler unavailable"), or when the write finds
 * the client gone. A session that closes while its subscriptions send (a client that hangs up, a duplicate
 * subscription id closed with 4409) is no server error, and any client could fill the log with them; the line is
 * told at DEBUG instead. Every other error of the handler is logged as before.
 *
 * <p>A log filter because the subscriber that catches the failure and logs it is private to Spring GraphQL; it
 * matches only the handler's own logger (its class's name).
 */
final class WebSocketSessionGone extends TurboFilter {

	/** The handler's logger: Spring GraphQL names it after the handler's class. */
	static final String LOGGER = GraphQlWebSocketHandler.class.getName();

	private static final org.slf4j.Logger leftOut = LoggerFactory.getLogger(WebSocketSessionGone.class);

	@Override
	public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
			Throwable failure) {
		if (failure == null || level != Level.ERROR || !LOGGER.equals(logger.getName())) {
			return FilterReply.NEUTRAL;
		}
		if (!rejected(failure) && !DisconnectedClientHelper.isClientDisconnectedException(failure)) {
			return FilterReply.NEUTRAL;
		}
		leftOut.debug("A WebSocket session closed while its subscriptions sent: {}", failure.toString());
		return FilterReply.DENY;
	}

	/** Whether a sending thread refused the signal: only a disposed session's thread does. */
	private static boolean rejected(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof RejectedExecutionException) {
				return true;
			}
		}
		return false;
	}

	/** Adds the filter to Logback's context, once, if Logback is the logging system. */
	static void install() {
		if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context
				&& context.getTurboFilterList().stream().noneMatch(WebSocketSessionGone.class::isInstance)) {
			WebSocketSessionGone filter = new WebSocketSessionGone();
			filter.setContext(context);
			filter.start();
			context.addTurboFilter(filter);
		}
	}

}
