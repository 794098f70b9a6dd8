package dev.dynamorelay.transport.graphql.live;

import java.io.IOException;
import java.util.ArrayDeque;

import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.SendHandler;
import jakarta.websocket.SendResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;
import reactor.core.scheduler.Schedulers;

import dev.dynamorelay.live.LiveMemory;
import dev.dynamorelay.transport.web.ErrorResponses;

/**
 * What one WebSocket session sends, one message at a time through Tomcat's asynchronous send, with no thread of
 * its own: a message waits here while the one before it is written, and Tomcat's completion sends the next. Each
 * message of a subscription written to the socket is told to the connection's {@link LiveMemory.Connection},
 * which frees its bytes and opens the send window again; so what waits here is bounded by that window
 * ({@link LiveMemory#SEND_WINDOW}) and by the few messages of the protocol's own.
 *
 * <p>A send that fails (the client read nothing for the send timeout, or went away) closes the session with 1013
 * (Try Again Later), quietly: one DEBUG line. A close of the server's waits for the message being written, as
 * Tomcat writes the close frame only between messages, and waits for that 50 ms at most for a close code other
 * than 1000: a close right after a send (a refused message just after {@code connection_ack}) would otherwise
 * end the connection without its close frame (1006 at the client). Nothing is sent once the session is closed,
 * and what waited is dropped.
 */
final class Outbox implements SendHandler {

	private static final Logger logger = LoggerFactory.getLogger(Outbox.class);

	private final WebSocketSession session;

	private final RemoteEndpoint.Async remote;

	private final LiveMemory.Connection connection;

	/** The message being written, or null. Guarded by this. */
	private Pending current;

	/** The messages after it, made when a second waits. Guarded by this. */
	private ArrayDeque<Pending> waiting;

	/**
	 * The thread inside {@link RemoteEndpoint.Async#sendText}: a completion on that thread (Tomcat completes a write
	 * that went at once before it returns) leaves the next message to that thread's loop rather than recursing.
	 * Guarded by this.
	 */
	private Thread writer;

	/** The writer's message completed while it was being sent, and another is due. Guarded by this. */
	private boolean again;

	private boolean closed;

	/** The close of the server's that waits for the message being written, or null. Guarded by this. */
	private CloseStatus closing;

	Outbox(WebSocketSession session, RemoteEndpoint.Async remote, LiveMemory.Connection connection, long sendTimeout) {
		this.session = session;
		this.remote = remote;
		this.connection = connection;
		this.remote.setSendTimeout(sendTimeout);
	}

	/**
	 * Sends {@code text}, after what is being sent: {@code id} is the subscription it belongs to (told to the
	 * connection once written), or null for a message of the protocol's own.
	 */
	void send(String text, String id) {
		synchronized (this) {
			if (this.closed) {
				return;
			}
			Pending message = new Pending(text, id);
			if (this.current != null) {
				if (this.waiting == null) {
					this.waiting = new ArrayDeque<>(4);
				}
				this.waiting.add(message);
				return;
			}
			this.current = message;
		}
		write();
	}

	/** Sends {@code text} only if nothing is being sent (a keep-alive ping: a busy connection needs none). */
	void sendIfIdle(String text) {
		synchronized (this) {
			if (this.closed || this.current != null) {
				return;
			}
			this.current = new Pending(text, null);
		}
		write();
	}

	/** Writes the current message, and the next ones its completions hand back to this thread. */
	private void write() {
		Pending next;
		synchronized (this) {
			next = this.current;
			this.writer = Thread.currentThread();
		}
		while (next != null) {
			try {
				this.remote.sendText(next.text(), this);
			}
			catch (RuntimeException ex) {
				// Closed under it, or in a state Tomcat refuses: the session is done.
				failed(ex);
				return;
			}
			synchronized (this) {
				if (!this.again) {
					if (this.writer == Thread.currentThread()) {
						this.writer = null;
					}
					return;
				}
				this.again = false;
				next = this.current;
			}
		}
	}

	/** Tomcat wrote the current message, or could not. */
	@Override
	public void onResult(SendResult result) {
		if (!result.isOK()) {
			failed(result.getException());
			return;
		}
		Pending done;
		boolean inline;
		boolean more;
		synchronized (this) {
			done = this.current;
			this.current = (this.waiting != null) ? this.waiting.poll() : null;
			more = this.current != null && !this.closed;
			inline = this.writer == Thread.currentThread();
			if (inline && more) {
				this.again = true;
			}
		}
		if (done != null && done.id() != null) {
			this.connection.written(done.id());
		}
		if (more && !inline) {
			write();
		}
		else if (!more) {
			closeIfAsked();
		}
	}

	/**
	 * Closes the session with {@code status} once the message being written is (at once when none is); what waits
	 * is dropped.
	 */
	void close(CloseStatus status) {
		synchronized (this) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			this.waiting = null;
			if (this.current != null) {
				this.closing = status;
				return;
			}
		}
		closeNow(status);
	}

	/** The close asked for while a message was written, once it is. */
	private void closeIfAsked() {
		CloseStatus status;
		synchronized (this) {
			status = this.closing;
			this.closing = null;
		}
		if (status != null) {
			closeNow(status);
		}
	}

	/** The session closed: nothing more is sent, and what waited is dropped. */
	synchronized void closed() {
		this.closed = true;
		this.waiting = null;
		this.closing = null;
	}

	private void failed(Throwable failure) {
		CloseStatus asked;
		synchronized (this) {
			asked = this.closing;
			this.closing = null;
			if (this.closed && asked == null) {
				return;
			}
			this.closed = true;
			this.waiting = null;
		}
		if (asked != null) {
			// Closed by the server meanwhile: its close, as it asked.
			closeNow(asked);
			return;
		}
		ErrorResponses.refusal("websocket-send-failed");
		logger.debug("WebSocket session {}: a send failed, the session is closed (the client read nothing within "
				+ "dynamo-relay.live.send-timeout, or went away): {}", this.session.getId(), String.valueOf(failure));
		// Not on Tomcat's thread that told the failure: a close writes its frame, and may wait for a stuck socket.
		Schedulers.boundedElastic().schedule(() -> closeNow(LiveWebSocketHandler.NOT_READING));
	}

	private void closeNow(CloseStatus status) {
		try {
			if (this.session.isOpen()) {
				this.session.close(status);
			}
		}
		catch (IOException | IllegalStateException ex) {
			logger.debug("Closing WebSocket session {} failed: {}", this.session.getId(), ex.toString());
		}
	}

	/** A message to send, and the subscription it belongs to (or null). */
	private record Pending(String text, String id) {
	}

}
