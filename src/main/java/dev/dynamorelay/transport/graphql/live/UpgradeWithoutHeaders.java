package dev.dynamorelay.transport.graphql.live;

import java.security.Principal;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.socket.WebSocketExtension;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.server.standard.StandardWebSocketUpgradeStrategy;

/**
 * Tomcat's upgrade to a WebSocket (Spring's {@link StandardWebSocketUpgradeStrategy}) that does not keep the
 * handshake's headers for the life of the connection, and declines compression unless it is asked to. Spring's session copies them all, and so does Tomcat's
 * handshake request, which Tomcat's upgrade handler holds until the connection closes: together about 4 KB of an idle
 * connection, for headers nothing reads once it is open (its caller comes from {@code connection_init},
 * {@link WebSocketCallers}; an operation's request has no headers). The handshake is checked with every header as
 * before (Spring's checks of the upgrade, the origin, Tomcat's of the key, version, protocol and extensions): only
 * the list of their names is hidden from the two copies, and each is still read by its name.
 *
 * <p>Compression (permessage-deflate, RFC 7692, which browsers offer) costs each connection that takes it zlib's
 * compressor and decompressor for as long as it is open, about 100 KB of native memory (the server's resident memory
 * grew 140 KB a connection with 500 idle clients that offered it, 36 KB without). Unless {@code compression}, no
 * extension is supported, and the offer is hidden from Tomcat too, which would otherwise take it by itself.
 */
final class UpgradeWithoutHeaders extends StandardWebSocketUpgradeStrategy {

	private static final String EXTENSIONS = "Sec-WebSocket-Extensions";

	private final boolean compression;

	UpgradeWithoutHeaders(boolean compression) {
		this.compression = compression;
	}

	@Override
	public List<WebSocketExtension> getSupportedExtensions(ServerHttpRequest request) {
		return this.compression ? super.getSupportedExtensions(request) : List.of();
	}

	@Override
	public void upgrade(ServerHttpRequest request, ServerHttpResponse response, String selectedProtocol,
			List<WebSocketExtension> selectedExtensions, Principal user, WebSocketHandler handler,
			Map<String, Object> attributes) {
		super.upgrade(new ServletServerHttpRequest(new UnlistedHeaders(getHttpServletRequest(request), this.compression)),
				response, selectedProtocol, selectedExtensions, user, handler, attributes);
	}

	/** The request, its headers read by name only; without its offer of extensions unless they are taken. */
	private static final class UnlistedHeaders extends HttpServletRequestWrapper {

		private final boolean extensions;

		UnlistedHeaders(HttpServletRequest request, boolean extensions) {
			super(request);
			this.extensions = extensions;
		}

		@Override
		public Enumeration<String> getHeaderNames() {
			return Collections.emptyEnumeration();
		}

		@Override
		public String getHeader(String name) {
			return hidden(name) ? null : super.getHeader(name);
		}

		@Override
		public Enumeration<String> getHeaders(String name) {
			return hidden(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
		}

		private boolean hidden(String name) {
			return !this.extensions && EXTENSIONS.equalsIgnoreCase(name);
		}

	}

}
