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
 * its own: a message waits here while the one before it is written, and Tomcat's completion (on a thread of its
 * executor) sends the next. Each message of an operation is told to it once written ({@link Written}): a
 * subscription's frees its bytes in the connection's {@link LiveMemory.Connection} and opens the send window again,
 * so what subscriptions queue here is bounded by that window ({@link LiveMemory#SEND_WINDOW}). What else waits (the
 * protocol's own messages, queries' answers) is bounded too: a {@code pong} is not queued twice, and a client that
 * reads nothing while more than {@value #MAX_WAITING_CHARS} chars wait is dropped as one that reads nothing at all.
 *
 * <p>A send that fails (the client read nothing for the send timeout, or went away) closes the session with 1013
 * (Try Again Later), quietly: one DEBUG line. A close of the server's waits for the message being written, as
 * Tomcat writes the close frame only between messages, and waits for that 50 ms at most for a close code other
 * than 1000: a close right after a send (a refused message just after {@code connection_ack}) would otherwise
 * end the connection without its close frame (1006 at the client). Nothing is sent once the session is closed,
 * and what waited is dropped.
 */
final class Outbox implements SendHandler {

	/** The most chars that may wait behind the message being written: twice a connection's send window. */
	static final long MAX_WAITING_CHARS = 2 * LiveMemory.SEND_WINDOW;

	private static final Logger logger = LoggerFactory.getLogger(Outbox.class);

	private final WebSocketSession session;

	private final RemoteEndpoint.Async remote;

	/** The message being written, or null. Guarded by this. */
	private Pending current;

	/** The messages after it, made when a second waits. Guarded by this. */
	private ArrayDeque<Pending> waiting;

	/** The chars of the messages waiting. Guarded by this. */
	private long waitingChars;

	/** The message of {@link #sendOnce} waiting, if one does. Guarded by this. */
	private Pending once;

	/**
	 * The thread inside {@link RemoteEndpoint.Async#sendText}: a completion on that thread (Tomcat runs it there only
	 * when its executor refuses it, at shutdown) leaves the next message to that thread's loop rather than recursing.
	 * Guarded by this.
	 */
	private Thread writer;

	/** The writer's message completed while it was being sent, and another is due. Guarded by this. */
	private boolean again;

	private boolean closed;

	/** The close of the server's that waits for the message being written, or null. Guarded by this. */
	private CloseStatus closing;

	Outbox(WebSocketSession session, RemoteEndpoint.Async remote, long sendTimeout) {
		this.session = session;
		this.remote = remote;
		this.remote.setSendTimeout(sendTimeout);
	}

	/** What a message belongs to: an operation, told as its messages go. */
	interface Written {

		/** A message of it (not its last) was written to the socket. */
		void written();

		/**
		 * Its last message is being handed to the socket: from now on its client may hear of its end, and use its id
		 * again.
		 */
		void ending();

	}

	/**
	 * Sends {@code text}, after what is being sent: {@code whom} is the operation it belongs to (told as it goes), or
	 * null for a message of the protocol's own; {@code last}, whether it ends that operation; {@code windowed}, whether
	 * a subscription's send window bounds it already (else it counts against {@link #MAX_WAITING_CHARS}).
	 */
	void send(String text, Written whom, boolean last, boolean windowed) {
		boolean start = false;
		boolean overflow = false;
		synchronized (this) {
			if (this.closed) {
				return;
			}
			Pending message = new Pending(text, whom, last, windowed);
			if (this.current == null) {
				this.current = message;
				start = true;
			}
			else {
				if (this.waiting == null) {
					this.waiting = new ArrayDeque<>(4);
				}
				this.waiting.add(message);
				this.waitingChars += message.unbounded();
				overflow = this.waitingChars > MAX_WAITING_CHARS;
			}
		}
		if (overflow) {
			failed(new java.io.IOException("over " + MAX_WAITING_CHARS + " chars waited for a client that read nothing"));
		}
		else if (start) {
			write();
		}
	}

	/** Sends {@code text} only if nothing is being sent (a keep-alive ping: a busy connection needs none). */
	void sendIfIdle(String text) {
		synchronized (this) {
			if (this.closed || this.current != null) {
				return;
			}
			this.current = new Pending(text, null, false, false);
		}
		write();
	}

	/** Sends {@code text} (a pong) unless one such waits already: a client's pings never pile up pongs. */
	void sendOnce(String text) {
		synchronized (this) {
			if (this.closed || this.once != null) {
				return;
			}
			Pending message = new Pending(text, null, false, false);
			if (this.current != null) {
				if (this.waiting == null) {
					this.waiting = new ArrayDeque<>(4);
				}
				this.waiting.add(message);
				this.waitingChars += message.unbounded();
				this.once = message;
				return;
			}
			this.current = message;
		}
		write();
	}

	/** Drops what waits of {@code whom} (an operation the client ended): its messages are of no use to it now. */
	synchronized void drop(Written whom) {
		if (this.waiting != null && this.waiting.removeIf((message) -> {
			boolean mine = message.whom() == whom;
			if (mine) {
				this.waitingChars -= message.unbounded();
			}
			return mine;
		}) && this.waiting.isEmpty()) {
			this.waiting = null;
		}
	}

	/** Whether the session closed, or a send failed and is closing it. */
	synchronized boolean isClosed() {
		return this.closed;
	}

	/** Writes the current message, and the next ones its completions hand back to this thread. */
	private void write() {
		Pending next;
		synchronized (this) {
			next = this.current;
			this.writer = Thread.currentThread();
		}
		while (next != null) {
			if (next.last() && next.whom() != null) {
				next.whom().ending();
			}
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
				next = this.closed ? null : this.current;
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
			this.current = (this.waiting != null && !this.closed) ? this.waiting.poll() : null;
			if (this.current != null) {
				this.waitingChars -= this.current.unbounded();
			}
			if (this.current == this.once) {
				this.once = null;
			}
			more = this.current != null;
			inline = this.writer == Thread.currentThread();
			if (inline && more) {
				this.again = true;
			}
		}
		if (done != null && done.whom() != null && !done.last()) {
			done.whom().written();
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
			this.waitingChars = 0;
			this.once = null;
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
		this.waitingChars = 0;
		this.once = null;
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
			this.waitingChars = 0;
			this.once = null;
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

	/**
	 * A message to send, the operation it belongs to (or null), whether it ends that operation, and whether a send
	 * window bounds it.
	 */
	private record Pending(String text, Written whom, boolean last, boolean windowed) {

		/** Its chars that count against {@link #MAX_WAITING_CHARS}. */
		long unbounded() {
			return this.windowed ? 0 : this.text.length();
		}

	}

}
