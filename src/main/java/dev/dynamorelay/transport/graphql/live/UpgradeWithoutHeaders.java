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
 * handshake's headers for the life of the connection. Spring's session copies them all, and so does Tomcat's
 * handshake request, which Tomcat's upgrade handler holds until the connection closes: together about 4 KB of an idle
 * connection, for headers nothing reads once it is open (its caller comes from {@code connection_init},
 * {@link WebSocketCallers}; an operation's request has no headers). The handshake is checked with every header as
 * before (Spring's checks of the upgrade, the origin, Tomcat's of the key, version, protocol and extensions): only
 * the list of their names is hidden from the two copies, and each is still read by its name.
 */
final class UpgradeWithoutHeaders extends StandardWebSocketUpgradeStrategy {

	@Override
	public void upgrade(ServerHttpRequest request, ServerHttpResponse response, String selectedProtocol,
			List<WebSocketExtension> selectedExtensions, Principal user, WebSocketHandler handler,
			Map<String, Object> attributes) {
		super.upgrade(new ServletServerHttpRequest(new UnlistedHeaders(getHttpServletRequest(request))), response,
				selectedProtocol, selectedExtensions, user, handler, attributes);
	}

	/** The request, its headers read by name only. */
	private static final class UnlistedHeaders extends HttpServletRequestWrapper {

		UnlistedHeaders(HttpServletRequest request) {
			super(request);
		}

		@Override
		public Enumeration<String> getHeaderNames() {
			return Collections.emptyEnumeration();
		}

	}

}
