package dev.dynamorelay.transport.graphql.live;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.graphql.server.WebGraphQlHandler;
import org.springframework.graphql.server.webmvc.GraphQlWebSocketHandler;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.adapter.NativeWebSocketSession;
import org.springframework.web.socket.server.HandshakeHandler;
import org.springframework.web.socket.server.support.DefaultHandshakeHandler;
import org.springframework.web.socket.server.support.OriginHandshakeInterceptor;
import org.springframework.web.socket.server.support.WebSocketHttpRequestHandler;
import reactor.core.Disposable;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.live.LiveMemory;

/**
 * The WebSocket transport of GraphQL ({@code graphql-transport-ws}, the graphql-ws library's protocol): each session a
 * {@link GraphQlWsSession}, which runs its operations through Spring GraphQL's handler (its interceptors, graphql-java)
 * and sends with Tomcat's asynchronous send, with no thread of its own; keep-alive pings for every session from one
 * timer; and the sessions it knows, to drop, refuse and close them: a client that stops reading is dropped once a
 * send has waited its send timeout, a session can be closed by id (a refused {@code connection_init}), and on
 * shutdown every session is closed with 1012 (Service Restart), which graphql-ws clients reconnect on, before the
 * server stops taking connections.
 *
 * <p>It is a {@link GraphQlWebSocketHandler} for Spring Boot's mapping of the path (which takes one, with its
 * handshake interceptors), and overrides all it does with a session: Spring GraphQL's own handler gives every
 * session a thread and every subscription a queue, most of what an idle subscriber held.
 *
 * <p>It takes messages in parts and puts each together itself, up to {@code maxMessageSize} bytes: Tomcat then
 * hands over a message a buffer at a time instead of holding each session's buffers as large as the largest
 * message (they are small, {@link LiveTransportConfiguration#webSocketContainer}, and an idle connection holds nothing
 * more). A message over the bound closes its session with 1009 (Message Too Big), which graphql-ws clients do
 * not retry.
 */
class LiveWebSocketHandler extends GraphQlWebSocketHandler implements SmartLifecycle {

	/** Service Restart: graphql-ws clients reconnect. */
	static final CloseStatus RESTART = new CloseStatus(1012, "The server is restarting: reconnect");

	/** Try Again Later, for a client a send waited for too long: graphql-ws clients reconnect. */
	static final CloseStatus NOT_READING = new CloseStatus(1013,
			"The client read nothing in time: resubscribe with after = the last eventId received");

	private static final Logger logger = LoggerFactory.getLogger(LiveWebSocketHandler.class);

	/**
	 * How many messages' worth of bytes (each up to its bound) may be put together at once, over all sessions: a
	 * bound on what messages sent slowly in parts can hold, sessions that never sent {@code connection_init}
	 * included. A session whose part would pass it is closed with 1013 (Try Again Later); messages in one part,
	 * as nearly all are, are never held back.
	 */
	static final long ASSEMBLING_MESSAGES = 32;

	private final Map<String, GraphQlWsSession> sessions = new ConcurrentHashMap<>();

	/** The message each session is in the middle of, by session id: only while its parts arrive. */
	private final Map<String, Parts> partial = new ConcurrentHashMap<>();

	/** The most bytes (UTF-8) one message may have. */
	private final long maxMessageSize;

	/** The bytes of all messages being put together now: the most is {@link #ASSEMBLING_MESSAGES} messages' worth. */
	private final AtomicLong assembling = new AtomicLong();

	private volatile boolean running;

	/** Stopped (not merely not yet started: the web server starts taking connections before this starts). */
	private volatile boolean stopped;

	/** Where each session's subscribers' bytes are counted. */
	private final LiveMemory memory;

	private final JsonMapper json;

	private final GraphQlWsProtocol protocol;

	/** How long a session may wait for its {@code connection_init}. */
	private final Duration initTimeout;

	/** How often every session is pinged, or null for never. */
	private final Duration keepAlive;

	/** The keep-alive pings' timer, while running. */
	private Disposable pings;

	/** How long a send to one client may wait for it to read: a client that reads nothing is dropped then. */
	private final Duration sendTimeout;

	/** {@code spring.graphql.cors.*}, or null when none is configured. */
	private final CorsConfiguration cors;

	/** Tomcat's upgrade, which keeps no copy of the handshake's headers and takes compression only if asked. */
	private final UpgradeWithoutHeaders upgrade;

	LiveWebSocketHandler(WebGraphQlHandler handler, HttpMessageConverter<Object> converter, Duration initTimeout,
			Duration keepAlive, long maxMessageSize, LiveMemory memory, JsonMapper json, Duration sendTimeout,
			CorsConfiguration cors, UpgradeWithoutHeaders upgrade) {
		super(handler, converter, initTimeout, keepAlive);
		this.cors = cors;
		this.upgrade = upgrade;
		this.protocol = new GraphQlWsProtocol(handler, json);
		this.initTimeout = initTimeout;
		this.keepAlive = keepAlive;
		this.maxMessageSize = maxMessageSize;
		this.memory = memory;
		this.json = json;
		this.sendTimeout = sendTimeout;
	}

	/**
	 * The handshake's handler, with Spring GraphQL's check of the {@code Origin}: the origins of
	 * {@code spring.graphql.cors.*} (as for GraphQL over HTTP), or with none configured the server's own origin only,
	 * as Spring GraphQL's handler checks it. Without Spring GraphQL's capture of the handshake's thread-local
	 * context: every session held that capture for its life (Spring Security's context among it), which nothing here
	 * reads. The upgrade is Tomcat's, without a copy of the handshake's headers kept ({@link UpgradeWithoutHeaders}),
	 * in place of Spring Boot's handler, which is Spring's default one.
	 */
	@Override
	public WebSocketHttpRequestHandler initWebSocketHttpRequestHandler(HandshakeHandler handshakeHandler) {
		OriginHandshakeInterceptor origins = new OriginHandshakeInterceptor();
		if (this.cors != null && this.cors.getAllowedOrigins() != null) {
			origins.setAllowedOrigins(this.cors.getAllowedOrigins());
		}
		if (this.cors != null && this.cors.getAllowedOriginPatterns() != null) {
			origins.setAllowedOriginPatterns(this.cors.getAllowedOriginPatterns());
		}
		WebSocketHttpRequestHandler handler = new WebSocketHttpRequestHandler(this,
				new DefaultHandshakeHandler(this.upgrade));
		handler.setHandshakeInterceptors(List.of(origins));
		return handler;
	}

	/** Tomcat hands over each text message in parts of its buffer's size, put together here. */
	@Override
	public boolean supportsPartialMessages() {
		return true;
	}

	@Override
	protected void handleTextMessage(WebSocketSession raw, TextMessage message) {
		String id = raw.getId();
		GraphQlWsSession session = this.sessions.get(id);
		if (session == null || session.closing()) {
			// Closed (refused, timed out, dropped): Tomcat goes on reading until the client's Close frame.
			discard(id);
			return;
		}
		Parts parts = this.partial.get(id);
		if (parts == null && message.isLast()) {
			// A message in one part, as nearly all are: no copy.
			if (utf8Length(message.getPayload(), this.maxMessageSize) > this.maxMessageSize) {
				tooBig(session);
				return;
			}
			handle(session, message.getPayload());
			return;
		}
		if (parts == null) {
			parts = new Parts();
			this.partial.put(id, parts);
			if (session.closing()) {
				// Closed from another thread meanwhile, after its own discard.
				discard(id);
				return;
			}
		}
		long bytes = utf8Length(message.getPayload(), this.maxMessageSize - parts.bytes);
		parts.bytes += bytes;
		if (parts.bytes > this.maxMessageSize) {
			discard(id);
			tooBig(session);
			return;
		}
		synchronized (parts) {
			if (parts.discarded) {
				// Discarded from another thread (its session closed) since it was looked up.
				return;
			}
			if (this.assembling.addAndGet(bytes) > ASSEMBLING_MESSAGES * this.maxMessageSize) {
				this.assembling.addAndGet(-bytes);
				discard(id);
				busy(session);
				return;
			}
			parts.counted += bytes;
		}
		parts.text.append(message.getPayload());
		if (message.isLast()) {
			discard(id);
			handle(session, parts.text.toString());
		}
	}

	/**
	 * Hands a whole message to its session once it is a graphql-transport-ws message: one it cannot read (not JSON,
	 * too deeply nested, an unknown {@code type}, a {@code payload} or its {@code variables} of another type)
	 * closes the session with 4400 (Bad Request), as the protocol has it.
	 */
	private void handle(GraphQlWsSession session, String text) {
		GraphQlWsMessages.Message message;
		try {
			message = GraphQlWsMessages.read(this.json, text);
		}
		catch (GraphQlWsMessages.InvalidMessage ex) {
			session.refuse("message-invalid", new CloseStatus(4400, GraphQlWsMessages.reason(ex.getMessage())),
					"an invalid message (" + ex.getMessage() + ")");
			return;
		}
		session.receive(message);
	}

	/** Forgets the message {@code id}'s session was in the middle of, if any, and its bytes. */
	private void discard(String id) {
		Parts parts = this.partial.remove(id);
		if (parts != null) {
			synchronized (parts) {
				parts.discarded = true;
				this.assembling.addAndGet(-parts.counted);
				parts.counted = 0;
			}
		}
	}

	private void tooBig(GraphQlWsSession session) {
		session.refuse("message-too-large", new CloseStatus(CloseStatus.TOO_BIG_TO_PROCESS.getCode(),
				"Message over %d bytes (dynamo-relay.http.max-body-size + 1 KB)".formatted(this.maxMessageSize)),
				"a message over " + this.maxMessageSize + " bytes");
	}

	/** Too many large messages arrive at once: this one's session is closed with 1013 (Try Again Later). */
	private void busy(GraphQlWsSession session) {
		session.refuse("messages-assembling", new CloseStatus(1013, "Too many large messages at once: try again later"),
				ASSEMBLING_MESSAGES + " messages being put together already");
	}

	/**
	 * The bytes of {@code text} in UTF-8, counted exactly up to {@code bound}; above it, some number above it.
	 * Counted rather than encoded: the message is never encoded again. A part of a message may end between the
	 * two chars of a surrogate pair: each of them counts 2 bytes.
	 */
	static long utf8Length(CharSequence text, long bound) {
		int length = text.length();
		if (length > bound) {
			// A byte a char at least.
			return length;
		}
		long bytes = length;
		for (int i = 0; i < length && bytes <= bound; i++) {
			char c = text.charAt(i);
			if (c >= 0x80) {
				// 2 bytes below U+0800, 3 above; a surrogate pair, 4 for its two chars.
				bytes += (c < 0x800 || Character.isSurrogate(c)) ? 1 : 2;
			}
		}
		return bytes;
	}

	/**
	 * Makes the session's {@link GraphQlWsSession}, with its account of subscribers' bytes
	 * ({@link LiveMemory#CONNECTION_ATTRIBUTE}, among its attributes, which its requests carry), and starts the wait
	 * for its {@code connection_init}. A client of the old {@code graphql-ws} protocol (subscriptions-transport-ws)
	 * is closed with 4400, as Spring GraphQL does.
	 */
	@Override
	public void afterConnectionEstablished(WebSocketSession raw) {
		if ("graphql-ws".equalsIgnoreCase(raw.getAcceptedProtocol())) {
			logger.debug("WebSocket session {}: the graphql-ws protocol of subscriptions-transport-ws, closed with 4400; "
					+ "graphql-transport-ws is served", raw.getId());
			closeQuietly(raw, GraphQlWsSession.INVALID_MESSAGE);
			return;
		}
		if (this.stopped) {
			// Opened after the stop closed the others (the web server still takes connections until its own stop).
			closeQuietly(raw, RESTART);
			return;
		}
		jakarta.websocket.Session tomcat = (raw instanceof NativeWebSocketSession nativeSession)
				? nativeSession.getNativeSession(jakarta.websocket.Session.class) : null;
		if (tomcat == null) {
			throw new IllegalStateException("A WebSocket session of the Jakarta WebSocket API was expected: " + raw);
		}
		// Tomcat's blocking sends of its own (close frames, pongs to the client's pings) wait no longer either.
		tomcat.getUserProperties().put("org.apache.tomcat.websocket.BLOCKING_SEND_TIMEOUT", this.sendTimeout.toMillis());
		LiveMemory.Connection connection = this.memory.connection();
		GraphQlWsSession session = new GraphQlWsSession(this.protocol, raw,
				new Outbox(raw, tomcat.getAsyncRemote(), this.sendTimeout.toMillis()), connection);
		raw.getAttributes().put(LiveMemory.CONNECTION_ATTRIBUTE, connection);
		this.sessions.put(raw.getId(), session);
		session.initTimeout(Schedulers.parallel().schedule(session::initTimedOut, this.initTimeout.toMillis(),
				TimeUnit.MILLISECONDS));
	}

	@Override
	public void afterConnectionClosed(WebSocketSession raw, CloseStatus status) {
		discard(raw.getId());
		GraphQlWsSession session = this.sessions.remove(raw.getId());
		if (session != null) {
			session.closed(status);
		}
	}

	/** Closes one session, if it is open. */
	void close(String id, CloseStatus status) {
		// What the client still sends until its Close frame is dropped unread.
		GraphQlWsSession session = this.sessions.get(id);
		if (session != null) {
			session.close(status);
		}
	}

	private static void closeQuietly(WebSocketSession session, CloseStatus status) {
		try {
			session.close(status);
		}
		catch (IOException | IllegalStateException ex) {
			logger.debug("Closing WebSocket session {} failed: {}", session.getId(), ex.toString());
		}
	}

	@Override
	public synchronized void start() {
		this.running = true;
		this.stopped = false;
		if (this.keepAlive != null && !this.keepAlive.isZero() && this.pings == null) {
			this.pings = Schedulers.parallel().schedulePeriodically(this::ping, this.keepAlive.toMillis(),
					this.keepAlive.toMillis(), TimeUnit.MILLISECONDS);
		}
	}

	/** Pings every acknowledged session that is sending nothing now. */
	private void ping() {
		for (GraphQlWsSession session : this.sessions.values()) {
			try {
				session.keepAlive();
			}
			catch (RuntimeException ex) {
				// One session's failure ends neither the timer nor the others' pings.
				logger.debug("WebSocket session {}: the keep-alive ping failed: {}", session.getId(), ex.toString());
			}
		}
	}

	@Override
	public synchronized void stop() {
		this.running = false;
		this.stopped = true;
		if (this.pings != null) {
			this.pings.dispose();
			this.pings = null;
		}
		List<GraphQlWsSession> open = List.copyOf(this.sessions.values());
		if (!open.isEmpty()) {
			logger.info("Closing {} WebSocket sessions with 1012 (Service Restart): their clients reconnect", open.size());
		}
		for (GraphQlWsSession session : open) {
			close(session.getId(), RESTART);
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * A message whose parts are arriving: its text so far, its size in bytes, and the bytes of it counted in
	 * {@link #assembling}. Its session's reading thread adds to it (Tomcat reads a connection on one thread at a
	 * time); a close on another thread may discard it meanwhile, so what is counted is guarded by it.
	 */
	private static final class Parts {

		final StringBuilder text = new StringBuilder();

		long bytes;

		long counted;

		boolean discarded;

	}

	/** Before the web server's graceful shutdown, which would answer the sessions' clients 1001 too late. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 512;
	}

}
