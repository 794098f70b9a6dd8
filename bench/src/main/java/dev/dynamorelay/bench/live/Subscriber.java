package dev.dynamorelay.bench.live;

import java.net.http.WebSocket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.LongAdder;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * One subscriber on a WebSocket connection of its own, speaking {@code graphql-transport-ws}: connection_init,
 * a subscribe (or several, each with its own id) once acknowledged, pong to each ping; each change it receives
 * is timed.
 */
final class Subscriber implements WebSocket.Listener {

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	/** Where each change it receives is timed. */
	private final Live live;

	/** The user of each subscription. */
	private final List<String> userIds;

	/** Completes once the subscribe messages are sent (or the connection failed). */
	final CompletableFuture<Void> subscribed = new CompletableFuture<>();

	final LongAdder received = new LongAdder();

	volatile Object failure;

	private volatile WebSocket socket;

	private volatile boolean closing;

	private final StringBuilder partial = new StringBuilder();

	/** The last send: java.net.http takes one at a time. */
	private CompletableFuture<WebSocket> sending;

	Subscriber(Live live, List<String> userIds) {
		this.live = live;
		this.userIds = userIds;
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
			int stamp = message.indexOf(Live.STAMPED);
			if (stamp < 0 || message.contains("\"errors\"")) {
				failed(message);
				return;
			}
			this.live.seen(message, stamp + Live.STAMPED.length(), at, true);
		}
		else if (message.contains("\"type\":\"connection_ack\"")) {
			for (int i = 0; i < this.userIds.size(); i++) {
				Map<String, Object> subscribe = Map.of("id", Integer.toString(i + 1), "type", "subscribe", "payload",
						Map.of("query", Live.CHANGES, "variables", Map.of("userId", this.userIds.get(i), "minAmount", 10)));
				send(JSON.writeValueAsString(subscribe));
			}
			this.subscribed.complete(null);
		}
		else if (message.contains("\"type\":\"ping\"")) {
			send("{\"type\":\"pong\"}");
		}
		else if (!message.contains("\"type\":\"pong\"")) {
			failed(message);
		}
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

	void failed(Object why) {
		if (this.failure == null) {
			this.failure = why;
		}
		this.subscribed.complete(null);
	}

	void close() {
		this.closing = true;
		WebSocket webSocket = this.socket;
		if (webSocket != null) {
			synchronized (this) {
				this.sending = this.sending.thenCompose((open) -> open.sendClose(WebSocket.NORMAL_CLOSURE, ""));
			}
		}
	}

}
