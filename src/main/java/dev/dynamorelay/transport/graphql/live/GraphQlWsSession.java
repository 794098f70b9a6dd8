package dev.dynamorelay.transport.graphql.live;

import java.net.InetSocketAddress;
import java.net.URI;
import java.security.Principal;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import org.reactivestreams.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.graphql.server.WebSocketGraphQlRequest;
import org.springframework.graphql.server.WebSocketSessionInfo;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;
import reactor.core.Disposable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.dynamorelay.live.LiveMemory;
import dev.dynamorelay.transport.web.ErrorResponses;

/**
 * One graphql-transport-ws connection (the protocol of the graphql-ws library): its {@code connection_init}, its
 * operations by id, and what it sends ({@link Outbox}). It holds no thread: each operation's messages are sent as
 * its results come, through Tomcat's asynchronous send.
 *
 * <p>The protocol's close codes: 4400 for a message that is none of the protocol's or one a client does not send,
 * 4401 for a {@code subscribe} before the connection was acknowledged, 4408 when no {@code connection_init} came
 * within its timeout, 4409 for a {@code subscribe} under an id in use, 4429 for a second {@code connection_init}.
 */
final class GraphQlWsSession implements WebSocketSessionInfo {

	private static final Logger logger = LoggerFactory.getLogger(GraphQlWsSession.class);

	static final CloseStatus INVALID_MESSAGE = new CloseStatus(4400, "Invalid message");

	static final CloseStatus UNAUTHORIZED = new CloseStatus(4401, "Unauthorized");

	static final CloseStatus INIT_TIMEOUT = new CloseStatus(4408, "Connection initialisation timeout");

	static final CloseStatus TOO_MANY_INITS = new CloseStatus(4429, "Too many initialisation requests");

	private final GraphQlWsProtocol protocol;

	private final WebSocketSession session;

	private final Outbox outbox;

	private final LiveMemory.Connection connection;

	/** The {@code connection_init} payload, once it came (or an empty one, once its time ran out). */
	private final AtomicReference<Map<String, Object>> init = new AtomicReference<>();

	/** Whether the connection was acknowledged: operations are taken from then on. */
	private volatile boolean acknowledged;

	/** The operations running, by id. */
	private final Map<String, Operation> operations = new ConcurrentHashMap<>(4);

	/** The wait for {@code connection_init}, until it came. */
	private volatile Disposable initTimeout;

	/** Closed by the server: what the client still sends is dropped unread. */
	private volatile boolean closing;

	/** The session closed: its operations are ended, and no other starts. */
	private volatile boolean ended;

	GraphQlWsSession(GraphQlWsProtocol protocol, WebSocketSession session, Outbox outbox,
			LiveMemory.Connection connection) {
		this.protocol = protocol;
		this.session = session;
		this.outbox = outbox;
		this.connection = connection;
	}

	/** A keep-alive ping, once acknowledged and if it is sending nothing (a busy connection needs none). */
	void keepAlive() {
		if (this.acknowledged) {
			this.outbox.sendIfIdle(this.protocol.ping());
		}
	}

	/** Closes the session with 4408 unless {@code connection_init} came first. */
	void initTimedOut() {
		if (this.init.compareAndSet(null, Collections.emptyMap())) {
			close(INIT_TIMEOUT);
		}
	}

	void initTimeout(Disposable timeout) {
		this.initTimeout = timeout;
	}

	/** Takes one message of the client's: Tomcat hands a session's messages over one at a time. */
	void receive(GraphQlWsMessages.Message message) {
		switch (message.type()) {
			case "connection_init" -> init(message.payload());
			case "subscribe" -> subscribe(message.id(), message.payload());
			case "complete" -> complete(message.id());
			case "ping" -> this.outbox.sendOnce(this.protocol.pong());
			case "pong" -> {
			}
			// A server's message (connection_ack, next, error) from a client.
			default -> refuse("message-invalid", INVALID_MESSAGE,
					"a message of type " + message.type() + ", which clients do not send");
		}
	}

	private void init(Map<String, Object> payload) {
		Map<String, Object> given = (payload != null) ? payload : Collections.emptyMap();
		if (!this.init.compareAndSet(null, given)) {
			refuse("message-invalid", TOO_MANY_INITS, "a second connection_init");
			return;
		}
		Disposable timeout = this.initTimeout;
		if (timeout != null) {
			timeout.dispose();
		}
		this.protocol.interceptor()
			.handleConnectionInitialization(this, given)
			.defaultIfEmpty(Collections.emptyMap())
			.subscribe((ack) -> {
				if (!this.closing) {
					this.acknowledged = true;
					this.outbox.send(this.protocol.ack(ack), null, false, false);
				}
			}, (failure) -> {
				logger.debug("WebSocket session {}: connection_init refused: {}", getId(), failure.toString());
				close(UNAUTHORIZED);
			});
	}

	private void subscribe(String id, Map<String, Object> payload) {
		if (!this.acknowledged) {
			refuse("message-invalid", UNAUTHORIZED, "subscribe before the connection was acknowledged");
			return;
		}
		if (id == null) {
			refuse("message-invalid", INVALID_MESSAGE, "subscribe without an id");
			return;
		}
		WebSocketGraphQlRequest request;
		try {
			request = new WebSocketGraphQlRequest(this.session.getUri(), this.session.getHandshakeHeaders(), null,
					this.session.getRemoteAddress(), this.session.getAttributes(),
					(payload != null) ? payload : Collections.emptyMap(), id, null, this);
		}
		catch (ServerWebInputException ex) {
			refuse("message-invalid", new CloseStatus(4400, GraphQlWsMessages.reason(String.valueOf(ex.getReason()))),
					ex.getReason());
			return;
		}
		Operation operation = new Operation(id);
		if (this.operations.putIfAbsent(id, operation) != null) {
			refuse("message-invalid", new CloseStatus(4409, "Subscriber for " + id + " already exists"),
					"a subscribe under an id in use");
			return;
		}
		if (this.ended) {
			// Closed from another thread meanwhile, after its operations were ended.
			this.operations.remove(id, operation);
			return;
		}
		operation.start(this.protocol.execute(request, operation::windowed));
	}

	private void complete(String id) {
		if (id == null) {
			return;
		}
		Operation operation = this.operations.remove(id);
		if (operation != null) {
			operation.end();
		}
		this.protocol.interceptor().handleCancelledSubscription(this, id).subscribe(null,
				(failure) -> logger.debug("WebSocket session {}: the interceptors failed on complete: {}", getId(),
						failure.toString()));
	}

	/**
	 * Closes the session for a message it cannot take: one DEBUG line, a refusal counted under {@code counted}
	 * ({@code dynamorelay.http.refusals}).
	 */
	void refuse(String counted, CloseStatus status, String what) {
		ErrorResponses.refusal(counted);
		logger.debug("WebSocket session {}: {}, closed with {}", getId(), what, status.getCode());
		close(status);
	}

	/** Whether the server closed the session (or a send failed): its client's messages are no longer read. */
	boolean closing() {
		return this.closing || this.outbox.isClosed();
	}

	/** Closes the session with {@code status}, after the message being written ({@link Outbox#close}). */
	void close(CloseStatus status) {
		this.closing = true;
		this.outbox.close(status);
	}

	/** The session closed: its operations end, what waited to be sent is dropped, and its bytes are freed. */
	void closed(CloseStatus status) {
		this.ended = true;
		this.outbox.closed();
		Disposable timeout = this.initTimeout;
		if (timeout != null) {
			timeout.dispose();
		}
		for (Operation operation : this.operations.values()) {
			operation.end();
		}
		this.operations.clear();
		this.connection.close();
		Map<String, Object> payload = this.init.get();
		if (this.acknowledged && payload != null) {
			this.protocol.interceptor().handleConnectionClosed(this, status.getCode(), payload);
		}
	}

	@Override
	public String getId() {
		return this.session.getId();
	}

	@Override
	public Map<String, Object> getAttributes() {
		return this.session.getAttributes();
	}

	@Override
	public URI getUri() {
		return this.session.getUri();
	}

	@Override
	public HttpHeaders getHeaders() {
		return this.session.getHandshakeHeaders();
	}

	@Override
	public Mono<Principal> getPrincipal() {
		return Mono.justOrEmpty(this.session.getPrincipal());
	}

	@Override
	public InetSocketAddress getRemoteAddress() {
		return this.session.getRemoteAddress();
	}

	/**
	 * One operation's messages on their way to the outbox, each as it comes, and its end: {@code complete}, or
	 * {@code error} with the errors a subscription ended with. The transport asks for all of them, as the
	 * subscription's changes are held back upstream while the connection's send window is full
	 * ({@link LiveMemory}); each one written frees its bytes there. Its id stays in use until its end goes to the
	 * socket: the client may use it again once it has heard of that end.
	 */
	private final class Operation extends BaseSubscriber<String> implements Outbox.Written {

		private final String id;

		/** Ended by the client or by the session's close: its account is gone, and nothing of it is counted. */
		private volatile boolean cancelled;

		/** Whether it is a subscription, whose messages its connection's send window bounds. */
		private volatile boolean windowed;

		Operation(String id) {
			this.id = id;
		}

		/**
		 * Runs it: its messages once its answer comes; a failure before is its error, no answer its end. The answer
		 * is never cancelled: a subscription's place is taken as it is answered and given back when its stream is
		 * cancelled, so an answer dropped on its way would hold its place for good. An operation ended before its
		 * answer (a {@code complete} right after {@code subscribe}, a client that leaves) cancels the stream as
		 * soon as it comes; until then the request runs on, within its time.
		 */
		void start(Mono<Flux<String>> answer) {
			if (this.cancelled) {
				return;
			}
			answer.defaultIfEmpty(Flux.empty())
				.onErrorResume((failure) -> Mono.just(Flux.error(failure)))
				.subscribe((messages) -> messages.subscribe(this));
		}

		/** Ends it before its end: what it had waiting is dropped, its stream cancelled now or as it comes. */
		void end() {
			this.cancelled = true;
			dispose();
			GraphQlWsSession.this.outbox.drop(this);
		}

		@Override
		protected void hookOnSubscribe(Subscription subscription) {
			subscription.request(Long.MAX_VALUE);
		}

		/** It is a subscription. */
		void windowed() {
			this.windowed = true;
		}

		@Override
		protected void hookOnNext(String message) {
			GraphQlWsSession.this.outbox.send(message, this, false, this.windowed);
		}

		@Override
		protected void hookOnComplete() {
			GraphQlWsSession.this.outbox.send(GraphQlWsSession.this.protocol.complete(this.id), this, true, false);
		}

		@Override
		protected void hookOnError(Throwable failure) {
			GraphQlWsSession.this.outbox.send(GraphQlWsSession.this.protocol.error(this.id, failure), this, true, false);
		}

		@Override
		public void written() {
			if (!this.cancelled) {
				GraphQlWsSession.this.connection.written(this.id);
			}
		}

		@Override
		public void ending() {
			GraphQlWsSession.this.operations.remove(this.id, this);
		}

	}

}
