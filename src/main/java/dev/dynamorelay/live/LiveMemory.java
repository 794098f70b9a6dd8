package dev.dynamorelay.live;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The bytes the process holds for its live subscribers, and their bounds: per subscription, per connection (a
 * WebSocket, or one Server-Sent Events stream) and in all. A subscription's bytes are its changes waiting in its
 * buffer (each counted by its approximate size: its item's attributes, as DynamoDB sizes them, and its cursor)
 * and its messages handed to the transport until the transport has written them to the socket (each counted by
 * its serialized size once serialized).
 *
 * <p>A change that would pass a bound ends a subscription resumably (its subscriber is told where to resume):
 * the subscription itself when its own bound would pass; past its connection's or the process's bound, the
 * subscription of that scope with the most bytes waiting, until the change fits. Bytes in flight cannot be
 * taken back, so only waiting bytes count in that choice. A level that holds nothing takes any one change, so
 * that an item larger than a bound still passes alone.
 *
 * <p>A connection has at most {@link #SEND_WINDOW} bytes in flight (and always one message): its subscriptions'
 * changes wait in their buffers meanwhile, where an item's consecutive updates are merged and whence a
 * subscription can be ended and its bytes freed at once, rather than serialized into the transport's queues.
 * Written messages open the window again, and the subscriptions waiting for it are drained.
 *
 * <p>One lock guards all of it: every operation is a few additions.
 */
public final class LiveMemory {

	/**
	 * The attribute (of a request, or of a WebSocket session, whose requests carry its attributes) in which a
	 * transport leaves the {@link Connection} its subscriptions' messages go on.
	 */
	public static final String CONNECTION_ATTRIBUTE = Connection.class.getName();

	/** The id of the one subscription of a connection that carries one (a Server-Sent Events stream). */
	public static final String ONLY_SUBSCRIPTION = "stream";

	/** The most bytes of serialized messages handed to one connection's transport and not yet written. */
	public static final long SEND_WINDOW = 256 * 1024;

	final long maxPerSubscription;

	final long maxPerConnection;

	final long max;

	final Set<SubscriptionBytes> accounts = new LinkedHashSet<>();

	long held;

	private long peak;

	/**
	 * @param maxPerSubscription the most bytes one subscription holds
	 * @param maxPerConnection the most bytes the subscriptions of one connection hold together
	 * @param max the most bytes all subscriptions hold together
	 */
	public LiveMemory(long maxPerSubscription, long maxPerConnection, long max) {
		if (maxPerSubscription < 1 || maxPerConnection < 1 || max < 1) {
			throw new IllegalArgumentException("the bounds of live subscribers' bytes must be positive, got "
					+ maxPerSubscription + ", " + maxPerConnection + " and " + max);
		}
		this.maxPerSubscription = maxPerSubscription;
		this.maxPerConnection = maxPerConnection;
		this.max = max;
	}

	/** No bound that a test or a tool would reach. */
	public static LiveMemory unbounded() {
		return new LiveMemory(Long.MAX_VALUE / 4, Long.MAX_VALUE / 4, Long.MAX_VALUE / 4);
	}

	/** A new connection's account. */
	public Connection connection() {
		return new Connection(true);
	}

	/**
	 * A connection whose transport tells no writes (a subscription run by the server itself, not over a
	 * transport): a change handed to it counts as written at once, and it has no window.
	 */
	public Connection detached() {
		return new Connection(false);
	}

	/**
	 * Where one subscription's messages go: its connection, and the transport's id for the subscription there.
	 *
	 * @param connection the connection
	 * @param id the subscription's id on it (graphql-ws: the {@code subscribe} message's)
	 */
	public record Outlet(Connection connection, String id) {
	}

	/** The bytes held now, for all subscribers. */
	public synchronized long held() {
		return this.held;
	}

	/** The most bytes held at once since the start. */
	public synchronized long peak() {
		return this.peak;
	}

	public long maxPerSubscription() {
		return this.maxPerSubscription;
	}

	public long maxPerConnection() {
		return this.maxPerConnection;
	}

	public long max() {
		return this.max;
	}

	/** What taking a change's bytes did. */
	enum Take {

		/** Counted: the change may wait. */
		TAKEN,

		/** Not counted, and nobody ended: wait and offer again (a resume's catching up). */
		PAUSE,

		/** Not counted: the subscription is ended (too far behind, or at a bound nothing else can make room under). */
		ENDED

	}

	/** Which bound a subscription was ended at. */
	enum Bound {

		SUBSCRIPTION, CONNECTION, PROCESS

	}

	/** A subscription ended to make room, and the bound it was ended at. */
	record Victim(SubscriptionBytes account, Bound bound) {
	}

	/** Adds {@code bytes} to {@code account}, its connection and the process. Guarded by this. */
	void add(SubscriptionBytes account, long bytes) {
		account.connection.held += bytes;
		this.held += bytes;
		this.peak = Math.max(this.peak, this.held);
	}

	/** The subscription in {@code among} with the most bytes waiting (none: null). Guarded by this. */
	static SubscriptionBytes largest(Iterable<SubscriptionBytes> among) {
		SubscriptionBytes largest = null;
		for (SubscriptionBytes each : among) {
			if (!each.ended && each.buffered > 0 && (largest == null || each.buffered > largest.buffered)) {
				largest = each;
			}
		}
		return largest;
	}

	/** Ends {@code account}: its waiting bytes are freed now (its buffer is dropped). Guarded by this. */
	void end(SubscriptionBytes account) {
		account.ended = true;
		add(account, -account.buffered);
		account.buffered = 0;
	}

	/** Drops {@code account} and frees all it holds, in flight too. Guarded by this. */
	void remove(SubscriptionBytes account) {
		end(account);
		long inFlight = account.inFlightBytes();
		add(account, -inFlight);
		account.connection.inFlight -= inFlight;
		account.inFlight.clear();
		this.accounts.remove(account);
		account.connection.accounts.remove(account);
		account.connection.byId.remove(account.id, account);
	}

	/**
	 * One transport connection: a WebSocket session, or a Server-Sent Events stream (which carries one
	 * subscription). Its subscriptions are known by the transport's id for each (the graphql-ws message id).
	 */
	public final class Connection {

		// Sized for the common connection, of one or a few subscriptions (an idle one holds them for its life); they
		// grow as any collection does.
		final Set<SubscriptionBytes> accounts = new LinkedHashSet<>(2);

		private final Map<String, SubscriptionBytes> byId = new HashMap<>(2);

		/** Subscriptions waiting for the send window to open. */
		final ArrayDeque<SubscriptionBytes> waiting = new ArrayDeque<>(1);

		long held;

		long inFlight;

		private boolean closed;

		/** Whether its transport tells when a message was written ({@link #written}). */
		final boolean confirmsWrites;

		/** What its transport does when one of its subscriptions is live ({@link #subscribed}). */
		private volatile java.util.function.Consumer<String> onSubscribed = (id) -> {
		};

		private Connection(boolean confirmsWrites) {
			this.confirmsWrites = confirmsWrites;
		}

		/**
		 * Sets what the transport does when a subscription of this connection is live: a stream of Server-Sent Events
		 * commits its response, so that its client knows.
		 */
		public void onSubscribed(java.util.function.Consumer<String> listener) {
			this.onSubscribed = listener;
		}

		/** Subscription {@code id} of this connection is registered: every change from now on reaches it. */
		public void subscribed(String id) {
			this.onSubscribed.accept(id);
		}

		/**
		 * A message of subscription {@code id} was serialized: {@code bytes} replaces the estimate of its change,
		 * in flight until written.
		 */
		public void measured(String id, long bytes) {
			List<Victim> victims = new ArrayList<>();
			synchronized (LiveMemory.this) {
				SubscriptionBytes account = this.byId.get(id);
				if (account == null) {
					return;
				}
				for (SubscriptionBytes.InFlight each : account.inFlight) {
					if (!each.measured) {
						long delta = bytes - each.bytes;
						each.bytes = bytes;
						each.measured = true;
						this.inFlight += delta;
						add(account, delta);
						break;
					}
				}
				// A message larger than its change's estimate: what waits makes room, as for a change taken.
				makeRoom(this.accounts, this.held, LiveMemory.this.maxPerConnection, Bound.CONNECTION, victims);
				makeRoom(LiveMemory.this.accounts, LiveMemory.this.held, LiveMemory.this.max, Bound.PROCESS, victims);
			}
			for (Victim victim : victims) {
				victim.account().end.accept(victim.bound());
			}
		}

		/** Ends the subscriptions of {@code scope} with the most waiting until it is within {@code max}. Guarded. */
		private void makeRoom(Set<SubscriptionBytes> scope, long held, long max, Bound bound, List<Victim> victims) {
			while (held > max) {
				SubscriptionBytes largest = largest(scope);
				if (largest == null) {
					return;
				}
				held -= largest.buffered;
				end(largest);
				largest.endedAt = bound;
				victims.add(new Victim(largest, bound));
			}
		}

		/**
		 * The transport wrote a message of subscription {@code id} to the socket (its oldest in flight): its bytes
		 * are freed, and subscriptions waiting for the window go on.
		 */
		public void written(String id) {
			List<SubscriptionBytes> wake;
			synchronized (LiveMemory.this) {
				SubscriptionBytes account = this.byId.get(id);
				SubscriptionBytes.InFlight message = (account != null) ? account.inFlight.poll() : null;
				if (message == null) {
					return;
				}
				account.lastWritten = message.position;
				add(account, -message.bytes);
				this.inFlight -= message.bytes;
				if (account.finished && account.inFlight.isEmpty()) {
					remove(account);
				}
				wake = wake();
			}
			wake.forEach(SubscriptionBytes::wake);
		}

		/** The subscriptions that may go on now that the window opened; taken out of the waiting. */
		List<SubscriptionBytes> wake() {
			if (this.waiting.isEmpty() || this.inFlight >= SEND_WINDOW) {
				return List.of();
			}
			List<SubscriptionBytes> wake = new ArrayList<>(this.waiting);
			this.waiting.clear();
			return wake;
		}

		/** The connection closed: everything its subscriptions hold is freed, in flight too. */
		public void close() {
			synchronized (LiveMemory.this) {
				this.closed = true;
				for (SubscriptionBytes account : List.copyOf(this.accounts)) {
					remove(account);
				}
				this.waiting.clear();
			}
		}

		/** The bytes its subscriptions hold now. */
		public long held() {
			synchronized (LiveMemory.this) {
				return this.held;
			}
		}

		/** A subscription's account on this connection, known by the transport's {@code id} for it. */
		SubscriptionBytes account(String id, Runnable wake, java.util.function.Consumer<Bound> end) {
			synchronized (LiveMemory.this) {
				SubscriptionBytes account = new SubscriptionBytes(LiveMemory.this, this, id, wake, end);
				if (this.closed) {
					account.ended = true;
					account.finished = true;
					return account;
				}
				this.accounts.add(account);
				this.byId.put(id, account);
				LiveMemory.this.accounts.add(account);
				return account;
			}
		}

	}

}
