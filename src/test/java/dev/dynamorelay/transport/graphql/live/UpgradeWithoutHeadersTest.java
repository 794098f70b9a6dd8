package dev.dynamorelay.transport.graphql.live;

import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
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
 * the endpoint that opens the session.
 */
class UpgradeWithoutHeadersTest {

	private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

	@Test
	void neitherTomcatNorSpringKeepsTheHandshakesHeadersWhileEachIsStillReadByName() throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/graphql");
		request.addHeader("Upgrade", "websocket");
		request.addHeader("Sec-WebSocket-Key", KEY);
		request.addHeader("Sec-WebSocket-Extensions", "permessage-deflate");
		request.addHeader("Cookie", "session=" + "x".repeat(2_000));
		AtomicReference<HttpServletRequest> upgraded = new AtomicReference<>();
		AtomicReference<ServerEndpointConfig> config = new AtomicReference<>();
		request.getServletContext().setAttribute(ServerContainer.class.getName(), fake(ServerContainer.class, (name, args) -> {
			if (name.equals("upgradeHttpToWebSocket")) {
				upgraded.set((HttpServletRequest) args[0]);
				config.set((ServerEndpointConfig) args[2]);
			}
			return null;
		}));
		AtomicReference<WebSocketSession> opened = new AtomicReference<>();
		TextWebSocketHandler handler = new TextWebSocketHandler() {
			@Override
			public void afterConnectionEstablished(WebSocketSession session) {
				opened.set(session);
			}
		};

		new UpgradeWithoutHeaders().upgrade(new ServletServerHttpRequest(request),
				new ServletServerHttpResponse(new MockHttpServletResponse()), "graphql-transport-ws", List.of(), null,
				handler, new HashMap<>());

		assertThat(Collections.list(upgraded.get().getHeaderNames())).as("what Tomcat's handshake request copies").isEmpty();
		assertThat(upgraded.get().getHeader("Sec-WebSocket-Key")).isEqualTo(KEY);
		assertThat(Collections.list(upgraded.get().getHeaders("Sec-WebSocket-Extensions"))).containsExactly("permessage-deflate");
		assertThat(config.get().getSubprotocols()).containsExactly("graphql-transport-ws");

		Endpoint endpoint = ((ServerEndpointRegistration) config.get()).getEndpoint();
		endpoint.onOpen(fake(Session.class, (name, args) -> switch (name) {
			case "getId" -> "1";
			case "getRequestURI" -> URI.create("ws://localhost/graphql");
			case "getNegotiatedExtensions" -> List.of();
			default -> null;
		}), config.get());
		assertThat(opened.get()).as("the session opened").isNotNull();
		assertThat(opened.get().getUri()).isEqualTo(URI.create("ws://localhost/graphql"));
		assertThat(opened.get().getHandshakeHeaders().isEmpty()).as("Spring's session's copy of the headers").isTrue();
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
