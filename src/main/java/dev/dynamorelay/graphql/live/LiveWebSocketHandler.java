package dev.dynamorelay.graphql.live;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.graphql.server.WebGraphQlHandler;
import org.springframework.graphql.server.webmvc.GraphQlWebSocketHandler;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.adapter.NativeWebSocketSession;

/**
 * Spring GraphQL's WebSocket handler ({@code graphql-transport-ws}), which also knows its open sessions: a
 * client that stops reading is dropped once a send has waited {@link #SEND_TIMEOUT}, a session can be closed by
 * id (a refused {@code connection_init}), and on shutdown every session is closed with 1012 (Service Restart),
 * which graphql-ws clients reconnect on, before the server stops taking connections.
 */
class LiveWebSocketHandler extends GraphQlWebSocketHandler implements SmartLifecycle {

	/** How long a send to one client may wait for it to read: a client that reads nothing is dropped then. */
	static final Duration SEND_TIMEOUT = Duration.ofSeconds(10);

	/** Service Restart: graphql-ws clients reconnect. */
	static final CloseStatus RESTART = new CloseStatus(1012, "The server is restarting: reconnect");

	private static final Logger logger = LoggerFactory.getLogger(LiveWebSocketHandler.class);

	private final Map<String, WebSocketSession> sessions = new ConcurrentHashMap<>();

	private volatile boolean running;

	LiveWebSocketHandler(WebGraphQlHandler handler, HttpMessageConverter<Object> converter, Duration initTimeout,
			Duration keepAlive) {
		super(handler, converter, initTimeout, keepAlive);
	}

	@Override
	public void afterConnectionEstablished(WebSocketSession session) {
		if (session instanceof NativeWebSocketSession nativeSession) {
			jakarta.websocket.Session tomcat = nativeSession.getNativeSession(jakarta.websocket.Session.class);
			if (tomcat != null) {
				tomcat.getUserProperties().put("org.apache.tomcat.websocket.BLOCKING_SEND_TIMEOUT", SEND_TIMEOUT.toMillis());
			}
		}
		this.sessions.put(session.getId(), session);
		super.afterConnectionEstablished(session);
	}

	@Override
	public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
		this.sessions.remove(session.getId());
		super.afterConnectionClosed(session, status);
	}

	/** Closes one session, if it is open. */
	void close(String id, CloseStatus status) {
		WebSocketSession session = this.sessions.get(id);
		if (session != null) {
			try {
				session.close(status);
			}
			catch (IOException | IllegalStateException ex) {
				logger.debug("Closing WebSocket session {} failed: {}", id, ex.toString());
			}
		}
	}

	/** The sessions open now. */
	int open() {
		return this.sessions.size();
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		List<WebSocketSession> open = List.copyOf(this.sessions.values());
		if (!open.isEmpty()) {
			logger.info("Closing {} WebSocket sessions with 1012 (Service Restart): their clients reconnect", open.size());
		}
		for (WebSocketSession session : open) {
			close(session.getId(), RESTART);
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** Before the web server's graceful shutdown, which would answer the sessions' clients 1001 too late. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 512;
	}

}
