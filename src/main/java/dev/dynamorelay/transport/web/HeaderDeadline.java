package dev.dynamorelay.transport.web;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.apache.coyote.Processor;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.coyote.http11.Http11Processor;
import org.apache.tomcat.util.net.AbstractEndpoint.Handler.SocketState;
import org.apache.tomcat.util.net.SocketEvent;
import org.apache.tomcat.util.net.SocketWrapperBase;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * A deadline on the time a request's line and headers may take to arrive ({@code dynamo-relay.http.header-timeout}),
 * counted from their first byte. Tomcat has none: its {@code connectionTimeout} bounds each wait for the next bytes,
 * so a client that sends a header line every 5 s holds its connection for as long as it likes (8,300 such
 * connections were held for 45 s), and no valve or filter runs before the headers are whole. Tomcat's HTTP/1.1
 * connector is therefore used with {@link Protocol}, whose processor, each time a request's head is still
 * incomplete, lets the connection wait for more only until the deadline, and closes it past the deadline, as Tomcat
 * closes an idle one.
 */
@Component
class HeaderDeadline implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

	private final HttpLimitsProperties limits;

	HeaderDeadline(HttpLimitsProperties limits) {
		this.limits = limits;
	}

	@Override
	public void customize(TomcatServletWebServerFactory factory) {
		factory.setProtocol(Protocol.class.getName());
		factory.addConnectorCustomizers((connector) -> {
			if (connector.getProtocolHandler() instanceof Protocol protocol) {
				protocol.setHeaderTimeout(this.limits.headerTimeout().toMillis());
			}
		});
	}

	/**
	 * Tomcat's NIO HTTP/1.1 connector (the one Spring Boot uses) whose processors keep the header deadline. Public,
	 * with a constructor without arguments: Tomcat makes it from its class name.
	 */
	public static class Protocol extends Http11NioProtocol {

		private volatile long headerTimeout = TimeUnit.SECONDS.toMillis(10);

		/** How long a request's line and headers may take, in milliseconds from their first byte. */
		public long getHeaderTimeout() {
			return this.headerTimeout;
		}

		public void setHeaderTimeout(long headerTimeout) {
			this.headerTimeout = headerTimeout;
		}

		@Override
		protected Processor createProcessor() {
			return new DeadlineProcessor(this);
		}

	}

	/** Tomcat's processor, which returns a connection whose request head is incomplete to the poller with a deadline. */
	static final class DeadlineProcessor extends Http11Processor {

		private final Protocol protocol;

		DeadlineProcessor(Protocol protocol) {
			super(protocol, protocol.getAdapter());
			this.protocol = protocol;
		}

		@Override
		public SocketState service(SocketWrapperBase<?> socket) throws IOException {
			SocketState state = super.service(socket);
			if (state != SocketState.LONG || !readingHead()) {
				return state;
			}
			long left = this.protocol.getHeaderTimeout() - elapsedMillis();
			if (left <= 0) {
				ErrorResponses.refusal("header-timeout");
				return SocketState.CLOSED;
			}
			// The poller closes a connection that reads nothing for its read timeout: no longer than what is left.
			long timeout = socket.getReadTimeout();
			socket.setReadTimeout((timeout > 0) ? Math.min(timeout, left) : left);
			return state;
		}

		@Override
		public SocketState process(SocketWrapperBase<?> socket, SocketEvent status) throws IOException {
			if (status == SocketEvent.ERROR && readingHead() && elapsedMillis() >= this.protocol.getHeaderTimeout()) {
				// The poller's read timeout, which service() set to the deadline, is ending the connection.
				ErrorResponses.refusal("header-timeout");
			}
			return super.process(socket, status);
		}

		/**
		 * Whether a request's line or headers have begun to arrive and are not whole: Tomcat marks a request's start at
		 * its first byte and clears it when the request ends; a request being served asynchronously or upgraded has
		 * its head whole.
		 */
		private boolean readingHead() {
			return this.request.getStartTimeNanos() >= 0 && !isAsync() && !isUpgrade();
		}

		private long elapsedMillis() {
			return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.request.getStartTimeNanos());
		}

	}

}
