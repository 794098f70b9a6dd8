package dev.dynamorelay.transport.graphql.live;

import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.websocket.Endpoint;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import org.junit.jupiter.api.Test;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.TextWebSocketHandler;
import org.springframework.web.socket.server.standard.ServerEndpointRegistration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The upgrade hands Tomcat a request whose headers are read by name but not listed (so Tomcat's handshake request
 * copies none), and Spring's session keeps none, while the upgrade itself is Spring's: the container it is given,
 * the endpoint that opens the session. Without compression, the offer of permessage-deflate is hidden from both.
 */
class UpgradeWithoutHeadersTest {

	private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

	@Test
	void neitherTomcatNorSpringKeepsTheHandshakesHeadersWhileEachIsStillReadByName() throws Exception {
		Upgraded upgraded = upgrade(new UpgradeWithoutHeaders(true));

		assertThat(Collections.list(upgraded.request().getHeaderNames())).as("what Tomcat's handshake request copies")
			.isEmpty();
		assertThat(upgraded.request().getHeader("Sec-WebSocket-Key")).isEqualTo(KEY);
		assertThat(Collections.list(upgraded.request().getHeaders("Sec-WebSocket-Extensions")))
			.containsExactly("permessage-deflate");
		assertThat(upgraded.config().getSubprotocols()).containsExactly("graphql-transport-ws");

		Endpoint endpoint = ((ServerEndpointRegistration) upgraded.config()).getEndpoint();
		endpoint.onOpen(fake(Session.class, (name, args) -> switch (name) {
			case "getId" -> "1";
			case "getRequestURI" -> URI.create("ws://localhost/graphql");
			case "getNegotiatedExtensions" -> List.of();
			default -> null;
		}), upgraded.config());
		WebSocketSession opened = upgraded.opened().get();
		assertThat(opened).as("the session opened").isNotNull();
		assertThat(opened.getUri()).isEqualTo(URI.create("ws://localhost/graphql"));
		assertThat(opened.getHandshakeHeaders().isEmpty()).as("Spring's session's copy of the headers").isTrue();
	}

	@Test
	void withoutCompressionNeitherSpringNorTomcatTakesTheOfferOfPermessageDeflate() throws Exception {
		UpgradeWithoutHeaders upgrade = new UpgradeWithoutHeaders(false);
		Upgraded upgraded = upgrade(upgrade);

		assertThat(upgrade.getSupportedExtensions(new ServletServerHttpRequest(handshake(null, null)))).isEmpty();
		assertThat(upgraded.request().getHeader("Sec-WebSocket-Extensions")).as("Tomcat takes it by itself").isNull();
		assertThat(Collections.list(upgraded.request().getHeaders("sec-websocket-extensions"))).isEmpty();
		assertThat(upgraded.request().getHeader("Sec-WebSocket-Key")).isEqualTo(KEY);
	}

	/** What an upgrade handed Tomcat, and the session its endpoint opens, once opened. */
	private record Upgraded(HttpServletRequest request, ServerEndpointConfig config,
			AtomicReference<WebSocketSession> opened) {
	}

	private static Upgraded upgrade(UpgradeWithoutHeaders upgrade) {
		AtomicReference<HttpServletRequest> request = new AtomicReference<>();
		AtomicReference<ServerEndpointConfig> config = new AtomicReference<>();
		AtomicReference<WebSocketSession> opened = new AtomicReference<>();
		TextWebSocketHandler handler = new TextWebSocketHandler() {
			@Override
			public void afterConnectionEstablished(WebSocketSession session) {
				opened.set(session);
			}
		};
		upgrade.upgrade(new ServletServerHttpRequest(handshake(request, config)),
				new ServletServerHttpResponse(new MockHttpServletResponse()), "graphql-transport-ws", List.of(), null,
				handler, new HashMap<>());
		return new Upgraded(request.get(), config.get(), opened);
	}

	/**
	 * A handshake offering compression, in a servlet context whose WebSocket container takes note of the request and
	 * the endpoint's configuration an upgrade hands it.
	 */
	private static MockHttpServletRequest handshake(AtomicReference<HttpServletRequest> request,
			AtomicReference<ServerEndpointConfig> config) {
		MockHttpServletRequest handshake = new MockHttpServletRequest("GET", "/graphql");
		handshake.addHeader("Upgrade", "websocket");
		handshake.addHeader("Sec-WebSocket-Key", KEY);
		handshake.addHeader("Sec-WebSocket-Extensions", "permessage-deflate");
		handshake.addHeader("Cookie", "session=" + "x".repeat(2_000));
		handshake.getServletContext().setAttribute(ServerContainer.class.getName(), fake(ServerContainer.class,
				(name, args) -> switch (name) {
					case "upgradeHttpToWebSocket" -> {
						request.set((HttpServletRequest) args[0]);
						config.set((ServerEndpointConfig) args[2]);
						yield null;
					}
					case "getInstalledExtensions" -> Set.of();
					default -> null;
				}));
		return handshake;
	}

	private interface Answer {

		Object answer(String method, Object[] args);

	}

	@SuppressWarnings("unchecked")
	private static <T> T fake(Class<T> type, Answer answer) {
		return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type },
				(proxy, method, args) -> answer.answer(method.getName(), args));
	}

}
