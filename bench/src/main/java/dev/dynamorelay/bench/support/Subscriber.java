package dev.dynamorelay.bench.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * One WebSocket connection of the live sections' subscribers, speaking {@code graphql-transport-ws} on
 * {@code java.net.http}: connection_init, a subscribe to {@link #PURCHASE_CHANGES} for each of its users (ids 1,
 * 2, ...) once acknowledged, pong to each ping; each change it receives, which must carry a {@link Stamp}, goes to
 * its {@link Changes}.
 */
public final class Subscriber implements WebSocket.Listener {

	/** The sample's subscription the live sections measure. */
	public static final String PURCHASE_CHANGES = """
			subscription($userId: String!, $minAmount: Float) { purchaseChanges(userId: $userId, minAmount: $minAmount) {
			  kind eventId edge { cursor node { id purchasedAt product amount } } } }""";

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	/** Where a subscriber hands each stamped change it receives. */
	public interface Changes {

		/**
		 * A {@code next} message received {@code at} ({@link System#nanoTime()}) by {@code subscriber}, its stamp's
		 * text just after {@code stampAt}.
		 */
		void next(Subscriber subscriber, String message, int stampAt, long at);

	}

	private final Changes changes;

	/** The user of each subscription. */
	private final List<String> userIds;

	/** Completes once the subscribe messages are sent (or the connection failed). */
	public final CompletableFuture<Void> subscribed = new CompletableFuture<>();

	public final LongAdder received = new LongAdder();

	/** Subscriptions refused UNAVAILABLE and sent again ({@link #resubscribing}). */
	public final LongAdder resubscribed = new LongAdder();

	/**
	 * Whether a subscription refused {@code UNAVAILABLE} is sent again a second later, as the error tells a client
	 * to (else it fails the connection's subscriber).
	 */
	private volatile boolean resubscribing;

	/** Why the connection failed (a message or an exception), null while it has not. */
	public volatile Object failure;

	private volatile WebSocket socket;

	private volatile boolean closing;

	private final StringBuilder partial = new StringBuilder();

	/** The last send: java.net.http takes one at a time. */
	private CompletableFuture<WebSocket> sending;

	public Subscriber(List<String> userIds, Changes changes) {
		this.userIds = userIds;
		this.changes = changes;
	}

	/** Opens its connection to the server's {@code /graphql} on {@code port}; {@link #subscribed} tells when it is done. */
	public void connect(HttpClient http, int port) {
		http.newWebSocketBuilder()
			.subprotocols("graphql-transport-ws")
			.connectTimeout(Duration.ofSeconds(10))
			.buildAsync(URI.create("ws://127.0.0.1:" + port + "/graphql"), this)
			.whenComplete((socket, failure) -> {
				if (failure != null) {
					failed(failure);
				}
			});
	}

	/** Sends a subscription refused {@code UNAVAILABLE} again a second later, counting it in {@link #resubscribed}. */
	public Subscriber resubscribing() {
		this.resubscribing = true;
		return this;
	}

	/** The users of its subscriptions, subscription id i + 1 the i-th. */
	public List<String> userIds() {
		return this.userIds;
	}

	@Override
	public void onOpen(WebSocket webSocket) {
		this.socket = webSocket;
		this.sending = CompletableFuture.completedFuture(webSocket);
		send("{\"type\":\"connection_init\",\"payload\":{}}");
		webSocket.request(1);
	}

	@Override
	public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
		long at = System.nanoTime();
		this.partial.append(data);
		if (last) {
			String message = this.partial.toString();
			this.partial.setLength(0);
			handle(message, at);
		}
		webSocket.request(1);
		return null;
	}

	private void handle(String message, long at) {
		if (message.contains("\"type\":\"next\"")) {
			this.received.increment();
			int stamp = message.indexOf(Stamp.IN_JSON);
			if (stamp < 0 || message.contains("\"errors\"")) {
				failed(message);
				return;
			}
			this.changes.next(this, message, stamp + Stamp.IN_JSON.length(), at);
		}
		else if (message.contains("\"type\":\"connection_ack\"")) {
			for (int i = 0; i < this.userIds.size(); i++) {
				subscribe(i + 1);
			}
			this.subscribed.complete(null);
		}
		else if (this.resubscribing && message.contains("\"type\":\"error\"") && message.contains("\"UNAVAILABLE\"")) {
			int id = message.indexOf("\"id\":\"") + "\"id\":\"".length();
			int subscription = Integer.parseInt(message, id, message.indexOf('"', id), 10);
			this.resubscribed.increment();
			CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS).execute(() -> {
				if (!this.closing) {
					subscribe(subscription);
				}
			});
		}
		else if (message.contains("\"type\":\"ping\"")) {
			send("{\"type\":\"pong\"}");
		}
		else if (!message.contains("\"type\":\"pong\"")) {
			failed(message);
		}
	}

	private void subscribe(int id) {
		Map<String, Object> subscribe = Map.of("id", Integer.toString(id), "type", "subscribe", "payload",
				Map.of("query", PURCHASE_CHANGES, "variables", Map.of("userId", this.userIds.get(id - 1), "minAmount", 10)));
		send(JSON.writeValueAsString(subscribe));
	}

	private synchronized void send(String text) {
		this.sending = this.sending.thenCompose((webSocket) -> webSocket.sendText(text, true));
	}

	@Override
	public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
		if (!this.closing) {
			failed("closed by the server: " + statusCode + " " + reason);
		}
		return null;
	}

	@Override
	public void onError(WebSocket webSocket, Throwable error) {
		failed(error);
	}

	public void failed(Object why) {
		if (this.failure == null) {
			this.failure = why;
		}
		this.subscribed.complete(null);
	}

	public void close() {
		this.closing = true;
		WebSocket webSocket = this.socket;
		if (webSocket != null) {
			synchronized (this) {
				this.sending = this.sending.thenCompose((open) -> open.sendClose(WebSocket.NORMAL_CLOSURE, ""));
			}
		}
	}

}
