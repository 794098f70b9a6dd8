package dev.dynamorelay.live;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import reactor.core.publisher.FluxSink;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.pagination.Paginator;

/**
 * One subscription's end of its table's changes: the records of its partition are judged against its query, and
 * its changes wait in a bounded buffer, their bytes counted in {@link LiveMemory}, until the subscriber asks for
 * them and its connection's send window has room. One that falls too far behind (in changes, or in bytes at any
 * of the memory's bounds) is ended with {@code UNAVAILABLE} and told where to resume ({@link FellBehindException}).
 */
final class LiveSubscriber {

	/** What a change costs beside its item: its cursor, event id and the objects that hold them. */
	static final long CHANGE_OVERHEAD = 256;

	private final LiveQuery query;

	private final Paginator paginator;

	private final LiveMeters meters;

	private final ChangeBuffer buffer;

	private final LiveMemory.Outlet outlet;

	/** Where the live reader stood in each shard before this subscriber was added: its changes come after. */
	private final Map<String, BigInteger> start;

	/** The event it resumed after, if it did. */
	private final Optional<StreamPosition> after;

	private final AtomicLong requested = new AtomicLong();

	private final AtomicInteger draining = new AtomicInteger();

	private volatile FluxSink<Change> sink;

	private volatile SubscriptionBytes account;

	private volatile boolean done;

	/** While a resuming subscriber catches up from the stream: live changes wait behind the replayed ones. */
	private volatile boolean holding;

	/**
	 * The changes read again for a resuming subscriber, sent before the live ones (sized for none: most subscribers
	 * never resume, and an idle one holds it for its life). Guarded by the buffer.
	 */
	private final ArrayDeque<ChangeBuffer.Waiting> replayed = new ArrayDeque<>(1);

	/**
	 * The first change handed to the transport, if any: while none is written, where it resumes is before it (a
	 * subscriber ended to make room may have handed on all it had meanwhile). Guarded by the buffer.
	 */
	private Change firstHandedOn;

	/** The last sequence number read again, by shard: a live change at or before it was sent already. */
	private final Map<String, BigInteger> replayedUpTo = new ConcurrentHashMap<>();

	LiveSubscriber(LiveQuery query, Paginator paginator, LiveMeters meters, int buffer, LiveMemory.Outlet outlet,
			Map<String, BigInteger> start, Optional<StreamPosition> after) {
		this.query = query;
		this.paginator = paginator;
		this.meters = meters;
		this.buffer = new ChangeBuffer(buffer);
		this.outlet = outlet;
		this.start = start;
		this.after = after;
	}

	LiveQuery query() {
		return this.query;
	}

	/** Takes its place on its connection (in the memory's accounts) and hands changes to {@code sink}. */
	void attach(FluxSink<Change> sink) {
		this.sink = sink;
		this.account = this.outlet.connection().account(this.outlet.id(), this::drain, this::endedAt);
		sink.onRequest((n) -> {
			this.requested.getAndUpdate((current) -> (current + n < 0) ? Long.MAX_VALUE : current + n);
			drain();
		});
	}

	/** Its stream ended: what it holds in the memory is freed (in flight once written). */
	void detach(boolean cancelled) {
		SubscriptionBytes account = this.account;
		if (account != null) {
			if (cancelled) {
				account.dropped();
			}
			else {
				account.finish();
			}
		}
	}

	/** Live changes wait (while replayed ones are read), or go again. */
	void hold(boolean holding) {
		this.holding = holding;
		drain();
	}

	/** What a record read again for a resuming subscriber did. */
	enum Replayed {

		/** A change of it, waiting to be sent. */
		TAKEN,

		/** No change of it (or it ended): passed. */
		PASSED,

		/** Nothing taken: as many replayed changes as the buffer holds, or as many bytes as allowed, wait. */
		FULL

	}

	/** A record read again for a resuming subscriber; {@link Replayed#FULL}: offer it again later. */
	Replayed replay(ChangeRecord record) {
		var change = this.query.change(record, this.paginator);
		Replayed replayed = Replayed.PASSED;
		if (change.isPresent()) {
			synchronized (this.buffer) {
				if (this.replayed.size() >= this.buffer.capacity()) {
					return Replayed.FULL;
				}
			}
			long bytes = bytes(record, change.get());
			LiveMemory.Take take = this.account.take(bytes, true);
			if (take == LiveMemory.Take.PAUSE) {
				return Replayed.FULL;
			}
			if (take == LiveMemory.Take.TAKEN) {
				synchronized (this.buffer) {
					this.replayed.add(new ChangeBuffer.Waiting(change.get(), bytes));
				}
				replayed = Replayed.TAKEN;
			}
		}
		this.replayedUpTo.merge(record.shardId(), record.sequenceNumber(), (a, b) -> (a.compareTo(b) >= 0) ? a : b);
		drain();
		return replayed;
	}

	/** Whether a replayed change would find room now: fewer than the buffer holds wait. */
	boolean hasRoom() {
		synchronized (this.buffer) {
			return this.replayed.size() < this.buffer.capacity();
		}
	}

	/** Whether the subscription ended: failed, or cancelled by its client. */
	boolean closed() {
		FluxSink<Change> sink = this.sink;
		return this.done || (sink != null && sink.isCancelled());
	}

	/** A record of the subscription's table (and, for a Query, of its partition before or after). */
	void offer(ChangeRecord record) {
		if (wants()) {
			offer(record, judge(record));
		}
	}

	/** Whether it takes live changes now: not ended, and attached to its connection. */
	boolean wants() {
		return !this.done && this.account != null;
	}

	/**
	 * The change {@code record} is for its query: the same for every subscriber of an equal query, which
	 * {@link TableSubscribers} judges once for all of them.
	 */
	Optional<Change> judge(ChangeRecord record) {
		return this.query.change(record, this.paginator);
	}

	/**
	 * A record of the subscription's table with the change it is for its query, judged already ({@link #judge}), by
	 * this subscriber or another of an equal query: the change may be the very object others are handed too.
	 */
	void offer(ChangeRecord record, Optional<Change> change) {
		SubscriptionBytes account = this.account;
		if (this.done || account == null) {
			return;
		}
		if (change.isEmpty()) {
			return;
		}
		long bytes = bytes(record, change.get());
		if (account.take(bytes, false) != LiveMemory.Take.TAKEN) {
			endedAt(account.endedAt(), change.get());
			return;
		}
		ChangeBuffer.Offer offered;
		int waiting;
		long replaced;
		synchronized (this.buffer) {
			offered = this.buffer.offer(change.get(), bytes);
			waiting = this.buffer.size();
			replaced = this.buffer.replaced();
		}
		switch (offered) {
			case MERGED -> {
				account.release(replaced);
				this.meters.dropped(this.query.field(), 1);
				drain();
			}
			case FULL -> {
				account.release(bytes);
				fail(behind(("The subscriber fell %d changes behind its connection's writes (dynamo-relay.live.buffer) "
						+ "and was dropped").formatted(waiting), change.get()));
			}
			default -> drain();
		}
	}

	/** Ended by the memory at {@code bound} to make room (its waiting bytes are freed already). */
	private void endedAt(LiveMemory.Bound bound) {
		endedAt(bound, null);
	}

	private void endedAt(LiveMemory.Bound bound, Change offered) {
		String why = switch ((bound != null) ? bound : LiveMemory.Bound.SUBSCRIPTION) {
			case SUBSCRIPTION -> "The subscriber fell behind its connection's writes by more than the bytes one "
					+ "subscription may have waiting (dynamo-relay.live.max-pending-bytes-per-subscription) and was dropped";
			case CONNECTION -> "The connection fell behind its subscriptions' writes by more than the bytes one "
					+ "connection may have waiting (dynamo-relay.live.max-pending-bytes-per-connection), and this "
					+ "subscription, the furthest behind, was dropped";
			case PROCESS -> "The server holds as many bytes of changes waiting for subscribers as it may "
					+ "(dynamo-relay.live.max-pending-bytes), and this subscription, the furthest behind, was dropped";
		};
		fail(behind(why, offered));
	}

	/**
	 * The failure of a subscriber dropped as too far behind: where it resumes is the last change its transport
	 * wrote to the socket (changes handed on and not yet written may still arrive before the failure: resuming
	 * sends them again, never skips one); before any, the event it resumed after, or where the live reader stood
	 * when it subscribed in the shard of the first change it was handed (none: of the first it missed).
	 */
	private FellBehindException behind(String why, Change offered) {
		StreamPosition resume = this.account.lastWritten();
		if (resume == null) {
			resume = this.after.orElse(null);
		}
		if (resume == null) {
			Change missed;
			synchronized (this.buffer) {
				ChangeBuffer.Waiting replay = this.replayed.peek();
				missed = (this.firstHandedOn != null) ? this.firstHandedOn
						: (replay != null) ? replay.change() : this.buffer.peek();
			}
			missed = (missed != null) ? missed : offered;
			if (missed != null) {
				BigInteger before = this.start.get(missed.position().shardId());
				if (before != null && before.signum() > 0) {
					resume = new StreamPosition(missed.position().shardId(), before);
				}
			}
		}
		return new FellBehindException(why, resume);
	}

	/**
	 * Ends the subscription because the server stops: {@code UNAVAILABLE}, and where to resume, at another instance
	 * or at this one once it is back. Its transport writes that end and closes the stream, so that the web server's
	 * graceful shutdown finds no stream open that nothing would ever end.
	 */
	void serverStopping() {
		fail(behind("The server is stopping", null));
	}

	/**
	 * Ends the subscription because the fleet's broker (Redis) is unreachable: {@code UNAVAILABLE}, and where to
	 * resume, at any instance once it is back.
	 */
	void brokerLost() {
		fail(behind("The change broker (Redis) is unreachable", null));
	}

	/** Ends the subscription with {@code failure} (too slow, the token expired, the server stops). */
	void fail(Throwable failure) {
		if (this.done) {
			return;
		}
		this.done = true;
		int lost;
		synchronized (this.buffer) {
			lost = this.buffer.clear() + this.replayed.size();
			this.replayed.clear();
		}
		this.meters.dropped(this.query.field(), lost);
		FluxSink<Change> sink = this.sink;
		// A cancelled sink would hand the failure to Reactor's onErrorDropped, which logs it as an ERROR.
		if (sink != null && !sink.isCancelled()) {
			sink.error(failure);
		}
	}

	/** Whether a live change was read again for a resuming subscriber, and sent. */
	private boolean sentAlready(Change change) {
		BigInteger upTo = this.replayedUpTo.get(change.position().shardId());
		return upTo != null && change.position().sequenceNumber().compareTo(upTo) <= 0;
	}

	/** Whether a change waits that may be handed on now. Guarded by the buffer. */
	private boolean ready() {
		return !this.replayed.isEmpty() || (!this.holding && this.buffer.size() > 0);
	}

	/**
	 * Hands the waiting changes to the subscriber while it asks for more and its connection's window has room, one
	 * thread at a time; the memory wakes it when the window opens again.
	 */
	private void drain() {
		if (this.draining.getAndIncrement() != 0) {
			return;
		}
		SubscriptionBytes account = this.account;
		do {
			while (account != null && !this.done && this.requested.get() > 0) {
				synchronized (this.buffer) {
					if (!ready()) {
						break;
					}
				}
				if (!account.open()) {
					break;
				}
				ChangeBuffer.Waiting next = next(account);
				if (next == null) {
					break;
				}
				account.handedOn(next.bytes(), next.change().position());
				this.requested.decrementAndGet();
				this.meters.delivered(this.query.field());
				this.sink.next(next.change());
			}
		}
		while (this.draining.decrementAndGet() != 0);
	}

	/** The next change to hand on: a replayed one first; live ones sent by the replay already are dropped. */
	private ChangeBuffer.Waiting next(SubscriptionBytes account) {
		long skipped = 0;
		try {
			synchronized (this.buffer) {
				ChangeBuffer.Waiting next = this.replayed.poll();
				while (next == null && !this.holding) {
					next = this.buffer.poll();
					if (next == null) {
						return null;
					}
					if (sentAlready(next.change())) {
						skipped += next.bytes();
						next = null;
					}
				}
				if (next != null && this.firstHandedOn == null) {
					this.firstHandedOn = next.change();
				}
				return next;
			}
		}
		finally {
			if (skipped > 0) {
				account.release(skipped);
			}
		}
	}

	/**
	 * A change's approximate size: its item as DynamoDB sizes one (names and values; the new image, or the old one
	 * for a removal, of which only the id is sent) and its cursor and event id.
	 */
	static long bytes(ChangeRecord record, Change change) {
		if (change.edge().isPresent()) {
			return CHANGE_OVERHEAD + record.newImage().map(LiveSubscriber::itemBytes).orElse(0L);
		}
		return CHANGE_OVERHEAD + change.deletedId().map(String::length).orElse(0);
	}

	static long itemBytes(Map<String, AttributeValue> item) {
		long bytes = 0;
		for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
			bytes += attribute.getKey().length() + valueBytes(attribute.getValue());
		}
		return bytes;
	}

	private static long valueBytes(AttributeValue value) {
		if (value.s() != null) {
			return value.s().length();
		}
		if (value.n() != null) {
			return value.n().length();
		}
		if (value.b() != null) {
			return value.b().asByteArrayUnsafe().length;
		}
		long bytes = 1;
		if (value.hasSs()) {
			for (String each : value.ss()) {
				bytes += each.length();
			}
		}
		if (value.hasNs()) {
			for (String each : value.ns()) {
				bytes += each.length();
			}
		}
		if (value.hasBs()) {
			for (var each : value.bs()) {
				bytes += each.asByteArrayUnsafe().length;
			}
		}
		if (value.hasL()) {
			for (AttributeValue each : value.l()) {
				bytes += 1 + valueBytes(each);
			}
		}
		if (value.hasM()) {
			bytes += itemBytes(value.m());
		}
		return bytes;
	}

}
