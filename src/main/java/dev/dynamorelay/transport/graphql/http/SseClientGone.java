package dev.dynamorelay.transport.graphql.http;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a Server-Sent Events stream whose client has gone is told: in one DEBUG line. A client that hangs up
 * before its answer is written (or the server that recycles the response at shutdown) is no server error, and
 * anyone could fill the log with them.
 */
final class SseClientGone {

	private static final Logger logger = LoggerFactory.getLogger(SseClientGone.class);

	private SseClientGone() {
	}

	/** Tells that a write to a stream failed with {@code failure}: its client is gone, or its response over. */
	static void told(Throwable failure) {
		logger.debug("A client hung up before its answer over SSE was written: {}", failure.toString());
	}

}
