package dev.dynamorelay.live;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import reactor.core.publisher.FluxSink;

import dev.dynamorelay.error.BusyException;
import dev.dynamorelay.pagination.Paginator;

/**
 * One subscription's end of its table's changes: the records of its partition are judged against its query,
 * and its changes wait in a bounded buffer until the subscriber asks for them; one that falls too far behind
 * is dropped with {@code UNAVAILABLE}, and may resume after the last change it received.
 */
final class LiveSubscriber {

	private final LiveQuery query;

	private final Paginator paginator;

	private final LiveMeters meters;

	private final ChangeBuffer buffer;

	private final AtomicLong requested = new AtomicLong();

	private final AtomicInteger draining = new AtomicInteger();

	private volatile FluxSink<Change> sink;

	private volatile boolean done;

	/** While a resuming subscriber catches up from the stream: live changes wait behind the replayed ones. */
	private volatile boolean holding;

	/** The changes read again for a resuming subscriber, sent before the live ones. */
	private final java.util.ArrayDeque<Change> replayed = new java.util.ArrayDeque<>();

	/** The last sequence number read again, by shard: a live change at or before it was sent already. */
	private final java.util.Map<String, java.math.BigInteger> replayedUpTo = new java.util.concurrent.ConcurrentHashMap<>();

	LiveSubscriber(LiveQuery query, Paginator paginator, LiveMeters meters, int buffer) {
		this.query = query;
		this.paginator = paginator;
		this.meters = meters;
		this.buffer = new ChangeBuffer(buffer);
	}

	LiveQuery query() {
		return this.query;
	}

	void attach(FluxSink<Change> sink) {
		this.sink = sink;
		sink.onRequest((n) -> {
			this.requested.getAndUpdate((current) -> (current + n < 0) ? Long.MAX_VALUE : current + n);
			drain();
		});
	}

	/** Live changes wait (while replayed ones are read), or go again. */
	void hold(boolean holding) {
		this.holding = holding;
		drain();
	}

	/**
	 * A record read again for a resuming subscriber; false, and nothing taken, while as many replayed changes
	 * as the buffer holds wait to be sent (offer it again later).
	 */
	boolean replay(ChangeRecord record) {
		var change = this.query.change(record, this.paginator);
		if (change.isPresent()) {
			synchronized (this.buffer) {
				if (this.replayed.size() >= this.buffer.capacity()) {
					return false;
				}
				this.replayed.add(change.get());
			}
		}
		this.replayedUpTo.merge(record.shardId(), record.sequenceNumber(), (a, b) -> (a.compareTo(b) >= 0) ? a : b);
		drain();
		return true;
	}

	/** Whether the subscription ended: failed, or cancelled by its client. */
	boolean closed() {
		FluxSink<Change> sink = this.sink;
		return this.done || (sink != null && sink.isCancelled());
	}

	/** A record of the subscription's table (and, for a Query, of its partition before or after). */
	void offer(ChangeRecord record) {
		if (this.done) {
			return;
		}
		var change = this.query.change(record, this.paginator);
		if (change.isEmpty()) {
			return;
		}
		ChangeBuffer.Offer offered;
		int waiting;
		synchronized (this.buffer) {
			offered = this.buffer.offer(change.get());
			waiting = this.buffer.size();
		}
		switch (offered) {
			case MERGED -> this.meters.dropped(this.query.field(), 1);
			case FULL -> fail(new BusyException(("The subscriber fell %d changes behind its connection's writes "
					+ "and was dropped: subscribe again with `after` set to the last eventId received.").formatted(waiting)));
			default -> drain();
		}
	}

	/** Ends the subscription with {@code failure} (too slow, the token expired, the server stops). */
	void fail(Throwable failure) {
		if (this.done) {
			return;
		}
		this.done = true;
		int lost;
		synchronized (this.buffer) {
			lost = this.buffer.size();
		}
		this.meters.dropped(this.query.field(), lost);
		FluxSink<Change> sink = this.sink;
		if (sink != null) {
			sink.error(failure);
		}
	}

	/** Whether a live change was read again for a resuming subscriber, and sent. */
	private boolean sentAlready(Change change) {
		java.math.BigInteger upTo = this.replayedUpTo.get(change.position().shardId());
		return upTo != null && change.position().sequenceNumber().compareTo(upTo) <= 0;
	}

	/** Hands the waiting changes to the subscriber while it asks for more, one thread at a time. */
	private void drain() {
		if (this.draining.getAndIncrement() != 0) {
			return;
		}
		do {
			while (!this.done && this.requested.get() > 0) {
				Change next;
				synchronized (this.buffer) {
					next = this.replayed.poll();
					if (next == null && !this.holding) {
						next = this.buffer.poll();
						if (next != null && sentAlready(next)) {
							continue;
						}
					}
				}
				if (next == null) {
					break;
				}
				this.requested.decrementAndGet();
				this.meters.delivered(this.query.field());
				this.sink.next(next);
			}
		}
		while (this.draining.decrementAndGet() != 0);
	}

}
