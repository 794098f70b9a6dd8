package dev.dynamorelay.live;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import dev.dynamorelay.live.LiveMemory.Bound;
import dev.dynamorelay.live.LiveMemory.Take;
import dev.dynamorelay.live.LiveMemory.Victim;

/**
 * One subscription's bytes in the {@link LiveMemory}: changes waiting in its buffer, and messages in flight. Its
 * fields are guarded by the memory's lock, as its connection's and the memory's are.
 */
final class SubscriptionBytes {

	private final LiveMemory memory;

	final LiveMemory.Connection connection;

	final String id;

	/** Hands on waiting changes: the window opened. */
	private final Runnable wake;

	/** Ends the subscription, to make room under a bound. */
	final Consumer<Bound> end;

	final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();

	long buffered;

	/** Ended: takes nothing more; what it had waiting is freed. */
	boolean ended;

	/** Its stream of changes ended: removed once nothing of it is in flight. */
	boolean finished;

	/** The place of the last change the transport wrote to the socket. */
	StreamPosition lastWritten;

	/** The bound it was ended at, if it was. */
	Bound endedAt;

	SubscriptionBytes(LiveMemory memory, LiveMemory.Connection connection, String id, Runnable wake, Consumer<Bound> end) {
		this.memory = memory;
		this.connection = connection;
		this.id = id;
		this.wake = wake;
		this.end = end;
	}

	long inFlightBytes() {
		long bytes = 0;
		for (InFlight each : this.inFlight) {
			bytes += each.bytes;
		}
		return bytes;
	}

	private long bytes() {
		return this.buffered + inFlightBytes();
	}

	void wake() {
		this.wake.run();
	}

	/**
	 * Counts a change of {@code bytes} waiting. A live change past a bound ends a subscription to make room
	 * (this one when its own bound would pass; else the one of the scope with the most waiting), and is taken
	 * if it then fits; a resume's change ({@code pause}) is not taken, and nobody is ended.
	 */
	Take take(long bytes, boolean pause) {
		List<Victim> victims = new ArrayList<>();
		Take take;
		synchronized (this.memory) {
			take = take(bytes, pause, victims);
			if (take == Take.TAKEN) {
				this.buffered += bytes;
				this.memory.add(this, bytes);
			}
		}
		for (Victim victim : victims) {
			victim.account().end.accept(victim.bound());
		}
		return take;
	}

	/** Guarded by the memory's lock. */
	private Take take(long bytes, boolean pause, List<Victim> victims) {
		if (this.ended) {
			return Take.ENDED;
		}
		if (bytes() > 0 && bytes() + bytes > this.memory.maxPerSubscription) {
			if (pause) {
				return Take.PAUSE;
			}
			this.memory.end(this);
			this.endedAt = Bound.SUBSCRIPTION;
			return Take.ENDED;
		}
		Take connection = makeRoom(bytes, pause, victims, Bound.CONNECTION, this.connection.accounts);
		if (connection != Take.TAKEN) {
			return connection;
		}
		return makeRoom(bytes, pause, victims, Bound.PROCESS, this.memory.accounts);
	}

	/** Ends the largest subscriptions of a scope until {@code bytes} fit under its bound. Guarded. */
	private Take makeRoom(long bytes, boolean pause, List<Victim> victims, Bound bound, Set<SubscriptionBytes> scope) {
		while (true) {
			long held = (bound == Bound.CONNECTION) ? this.connection.held : this.memory.held;
			long max = (bound == Bound.CONNECTION) ? this.memory.maxPerConnection : this.memory.max;
			if (held == 0 || held + bytes <= max) {
				return Take.TAKEN;
			}
			if (pause) {
				return Take.PAUSE;
			}
			SubscriptionBytes largest = LiveMemory.largest(scope);
			if (largest == null || largest == this) {
				this.memory.end(this);
				this.endedAt = bound;
				return Take.ENDED;
			}
			this.memory.end(largest);
			largest.endedAt = bound;
			victims.add(new Victim(largest, bound));
		}
	}

	/** Frees {@code bytes} of waiting changes: merged into a later one, or dropped. */
	void release(long bytes) {
		synchronized (this.memory) {
			if (!this.ended) {
				this.buffered -= bytes;
				this.memory.add(this, -bytes);
			}
		}
	}

	/**
	 * Whether a change may be handed to the transport now: its connection's window is open. If not, the
	 * subscription is woken when it opens.
	 */
	boolean open() {
		synchronized (this.memory) {
			if (!this.connection.confirmsWrites || this.connection.inFlight < LiveMemory.SEND_WINDOW
					|| this.connection.inFlight == 0) {
				return true;
			}
			if (!this.connection.waiting.contains(this)) {
				this.connection.waiting.add(this);
			}
			return false;
		}
	}

	/** A waiting change of {@code bytes} was handed to the transport: in flight until written. */
	void handedOn(long bytes, StreamPosition position) {
		synchronized (this.memory) {
			if (this.ended) {
				return;
			}
			this.buffered -= bytes;
			if (!this.connection.confirmsWrites) {
				this.memory.add(this, -bytes);
				this.lastWritten = position;
				return;
			}
			this.inFlight.add(new InFlight(bytes, position));
			this.connection.inFlight += bytes;
		}
	}

	/** Its changes ended (an error, or the client's end): what waits is freed, what is in flight once written. */
	void finish() {
		synchronized (this.memory) {
			this.memory.end(this);
			this.finished = true;
			this.connection.waiting.remove(this);
			if (this.inFlight.isEmpty()) {
				this.memory.remove(this);
			}
		}
	}

	/** The transport dropped what it had of this subscription unwritten (the client ended it): freed. */
	void dropped() {
		List<SubscriptionBytes> wake;
		synchronized (this.memory) {
			this.memory.remove(this);
			wake = this.connection.wake();
		}
		wake.forEach(SubscriptionBytes::wake);
	}

	/** The bound this subscription was ended at, if a take ended it. */
	Bound endedAt() {
		synchronized (this.memory) {
			return this.endedAt;
		}
	}

	/**
	 * The place of the last change the transport wrote to the socket, if any: the client has it, or will have it
	 * before anything sent later (changes handed on and not yet written may come after it too).
	 */
	StreamPosition lastWritten() {
		synchronized (this.memory) {
			return this.lastWritten;
		}
	}

	/** A message handed to the transport: its bytes (its change's estimate, then its serialized size), its place. */
	static final class InFlight {

		long bytes;

		boolean measured;

		final StreamPosition position;

		InFlight(long bytes, StreamPosition position) {
			this.bytes = bytes;
			this.position = position;
		}

	}

}
