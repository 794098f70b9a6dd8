package dev.dynamorelay.transport.graphql.live;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Hooks;

/**
 * What a WebSocket session that closes while its subscriptions send leaves behind, told in one DEBUG line instead of
 * an ERROR with a stack trace; any client that hangs up at the wrong moment could cause either:
 * <ul>
 * <li>an error that reaches a subscription's pipeline after the session cancelled it (it ended, fell behind or its
 * token expired just as its client went): Reactor drops it, and by default logs "Operator called default
 * onErrorDropped" at ERROR with its stack trace;</li>
 * <li>Tomcat's asynchronous send of a message larger than its output buffer, which it writes a part at a time: when
 * the session closes between two parts (its client went away), the next part throws "Message will not be sent
 * because the WebSocket session has been closed" out of Tomcat's executor thread, which prints it to standard error.
 * Only that exception, from that method, is kept from standard error; every other uncaught exception goes where it
 * went before.</li>
 * </ul>
 */
final class ClosedUnderSends implements Thread.UncaughtExceptionHandler {

	private static final Logger logger = LoggerFactory.getLogger(ClosedUnderSends.class);

	private final Thread.UncaughtExceptionHandler previous;

	private ClosedUnderSends(Thread.UncaughtExceptionHandler previous) {
		this.previous = previous;
	}

	/** Sets Reactor's hook for dropped errors and the JVM's default handler of uncaught exceptions, once. */
	static synchronized void install() {
		Hooks.onErrorDropped((failure) -> logger.debug("An error came after its subscriber had gone (a subscription "
				+ "ending as its session closed): {}", failure.toString()));
		Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
		if (!(previous instanceof ClosedUnderSends)) {
			Thread.setDefaultUncaughtExceptionHandler(new ClosedUnderSends(previous));
		}
	}

	@Override
	public void uncaughtException(Thread thread, Throwable failure) {
		if (closedUnderSend(failure)) {
			logger.debug("WebSocket session closed while Tomcat sent a message in parts: {}", failure.toString());
			return;
		}
		if (this.previous != null) {
			this.previous.uncaughtException(thread, failure);
			return;
		}
		// What the JVM does with no handler set.
		System.err.print("Exception in thread \"" + thread.getName() + "\" ");
		failure.printStackTrace(System.err);
	}

	/** Whether {@code failure} is Tomcat's refusal to send the next part of a message on a closed session. */
	static boolean closedUnderSend(Throwable failure) {
		if (!(failure instanceof IllegalStateException) || failure.getStackTrace().length == 0) {
			return false;
		}
		StackTraceElement top = failure.getStackTrace()[0];
		return "org.apache.tomcat.websocket.WsRemoteEndpointImplBase".equals(top.getClassName())
				&& "writeMessagePart".equals(top.getMethodName());
	}

}
