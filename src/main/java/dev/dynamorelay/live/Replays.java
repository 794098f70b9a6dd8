package dev.dynamorelay.live;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;

import dev.dynamorelay.budget.CallLimiter;
import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.error.InvalidCursorException;

/**
 * Reads a table's stream again for the subscribers that resume after an event they saw, each stretch of a shard
 * once for all of them: a subscriber resuming in a shard rides the shard's reading (its lap) if the lap has not
 * passed its event yet, and waits for the next lap otherwise; a lap starts at the earliest event of the
 * subscribers waiting for it, and hands each record it reads to every rider that needs it (routed by partition,
 * as live changes are), until each rider reaches where the live reader stood when it subscribed. A shard that
 * ends hands its riders on to its children, each read from its start. So N subscribers resuming in a shard cost
 * about one reading of it, not N; and, with the subscribers of each partition only judging a record, about the
 * changes they receive.
 *
 * <p>Riders pace their lap: while a rider's buffer is full the lap waits for it, for a moment; then a rider still
 * full leaves the lap for the next one, and the others go on (when none has room, the lap waits as long as it
 * takes). All reads go through one
 * {@link CallLimiter} for the process: at most so many at once ({@code dynamo-relay.live.max-replay-reads}), and
 * in the fair share of DynamoDB's calls together, as one request, so that other callers' pages go first; and the
 * changes they hand on take their pace from one {@link ReplayPace} for the process
 * ({@code dynamo-relay.live.replay-rate}), so that catching up takes a bounded share of the processors.
 *
 * <p>An event is checked before its subscriber rides anything: DynamoDB must know its shard and give an iterator
 * at its sequence number; an event it does not know ends only its own subscriber, with {@code INVALID_CURSOR}.
 */
final class Replays {

	/** How long a lap that waits for riders without room waits before it looks again. */
	private static final Duration PAUSE = Duration.ofMillis(20);

	/** How long a lap waits for riders without room before the others go on without them. */
	private static final Duration PATIENCE = Duration.ofMillis(500);

	/** How long the stream's list of shards serves resumes before it is listed again. */
	private static final Duration SHARDS_FOR = Duration.ofSeconds(1);

	/** Before a shard's first record. */
	private static final BigInteger START = BigInteger.ONE.negate();

	private final StreamReader reader;

	private final CallLimiter calls;

	private final ScheduledExecutorService timer;

	private final LiveMeters meters;

	/** The changes all resumes hand on per second. */
	private final ReplayPace pace;

	/** Each shard's reading, while it has riders or riders waiting. Guarded by this. */
	private final Map<String, Lap> laps = new HashMap<>();

	/** The stream's shards, as listed last. Guarded by this. */
	private CompletableFuture<List<Shard>> listed;

	private long listedAt;

	Replays(StreamReader reader, CallLimiter calls, ReplayPace pace,
			ScheduledExecutorService timer, LiveMeters meters) {
		this.pace = pace;
		this.reader = reader;
		this.calls = calls;
		this.timer = timer;
		this.meters = meters;
	}

	/**
	 * Sends {@code subscriber} the changes after {@code after}, up to {@code upTo} (where the live reader stood in
	 * each shard when it subscribed), then lets its live changes go ({@link LiveSubscriber#hold}).
	 */
	void resume(LiveSubscriber subscriber, StreamPosition after, Map<String, BigInteger> upTo) {
		Rider rider = new Rider(subscriber, upTo);
		shards().thenCompose((shards) -> {
			if (shards.stream().noneMatch((shard) -> shard.shardId().equals(after.shardId()))) {
				throw new CompletionException(expired());
			}
			rider.shards = shards;
			// DynamoDB knows the place, or refuses it: checked for this subscriber alone, before it rides a lap.
			return this.calls.call(() -> this.reader.stream()
				.iterator(after.shardId(), StreamShards.Start.after(after.sequenceNumber())));
		}).whenComplete((iterator, failure) -> {
			if (failure != null) {
				rider.fail(failure);
				return;
			}
			rider.pending.incrementAndGet();
			join(new Seat(rider, after.sequenceNumber()), after.shardId());
		});
	}

	/** The stream's shards: listed once for all resumes within {@link #SHARDS_FOR}. */
	private synchronized CompletableFuture<List<Shard>> shards() {
		long now = System.nanoTime();
		if (this.listed == null || now - this.listedAt > SHARDS_FOR.toNanos()
				|| this.listed.isCompletedExceptionally()) {
			this.listed = this.reader.stream().shards();
			this.listedAt = now;
		}
		return this.listed;
	}

	/** Seats {@code seat} in {@code shardId}'s lap, or has it wait for the next one. */
	private void join(Seat seat, String shardId) {
		synchronized (this) {
			Lap lap = this.laps.computeIfAbsent(shardId, Lap::new);
			if (lap.position != null && lap.position.compareTo(seat.from) <= 0) {
				lap.riding.add(seat);
				return;
			}
			lap.waiting.add(seat);
			if (!lap.lapping) {
				lap.start();
			}
		}
	}

	/** A subscriber that resumes: the shards it reads again, and how many of them are left. */
	private final class Rider {

		private final LiveSubscriber subscriber;

		private final Map<String, BigInteger> upTo;

		private final AtomicInteger pending = new AtomicInteger();

		private final AtomicBoolean failed = new AtomicBoolean();

		private volatile List<Shard> shards = List.of();

		Rider(LiveSubscriber subscriber, Map<String, BigInteger> upTo) {
			this.subscriber = subscriber;
			this.upTo = upTo;
		}

		/** One of its shards is read to where the live reader takes over, or to its end. */
		void done() {
			if (this.pending.decrementAndGet() == 0 && !this.failed.get()) {
				this.subscriber.hold(false);
			}
		}

		void fail(Throwable failure) {
			if (this.failed.compareAndSet(false, true)) {
				this.subscriber.fail(classify(failure));
			}
		}

		boolean gone() {
			return this.failed.get() || this.subscriber.closed();
		}

	}

	/**
	 * A lap's riders as to one record.
	 *
	 * @param needing those that need it
	 * @param finished those past which the live reader takes over
	 * @param full those of {@code needing} without room for it
	 */
	private record Seats(List<Seat> needing, List<Seat> finished, List<Seat> full) {
	}

	/** A rider in one shard: the last sequence number of the shard it has ({@link #START} for none). */
	private static final class Seat {

		private final Rider rider;

		private BigInteger from;

		Seat(Rider rider, BigInteger from) {
			this.rider = rider;
			this.from = from;
		}

	}

	/** One shard's reading for its riders, one lap after another while riders wait for one. */
	private final class Lap {

		private final String shardId;

		/** In this lap. Guarded by the replays' lock. */
		private final List<Seat> riding = new ArrayList<>();

		/** For the next lap. Guarded by the replays' lock. */
		private final List<Seat> waiting = new ArrayList<>();

		/** The last sequence number this lap handed out (its start before any); null before it has one. */
		private BigInteger position;

		private boolean lapping;

		/** When the lap began to wait for riders without room ({@link System#nanoTime()}); 0 while it does not. */
		private long waitingSince;

		Lap(String shardId) {
			this.shardId = shardId;
		}

		/** Starts a lap at the earliest place its waiting riders need, decided when its first read has its place. */
		void start() {
			this.lapping = true;
			this.position = null;
			Replays.this.calls.call(() -> {
				BigInteger start;
				synchronized (Replays.this) {
					this.waiting.removeIf((seat) -> seat.rider.gone());
					this.riding.addAll(this.waiting);
					this.waiting.clear();
					start = this.riding.stream().map((seat) -> seat.from).min(BigInteger::compareTo).orElse(null);
					this.position = start;
				}
				if (start == null) {
					return CompletableFuture.completedFuture(null);
				}
				return Replays.this.reader.stream()
					.iterator(this.shardId, (start.signum() < 0) ? StreamShards.Start.OLDEST : StreamShards.Start.after(start));
			}).whenComplete((iterator, failure) -> {
				if (failure != null) {
					failed(failure);
				}
				else if (iterator == null) {
					ended(false);
				}
				else {
					page(iterator);
				}
			});
		}

		private void page(String iterator) {
			Replays.this.calls.call(() -> Replays.this.reader.stream().read(this.shardId, iterator))
				.whenComplete((page, failure) -> {
					if (failure != null) {
						failed(failure);
						return;
					}
					Replays.this.meters.replayed(page.records().size());
					hand(page, 0);
				});
		}

		/**
		 * Hands the records of a page from {@code from} on to the riders that need them. While a rider that needs the
		 * next record has no room for it, the lap waits for it, up to {@link #PATIENCE}; then the riders without room
		 * leave for the next lap, if any rider with room is left to go on with (a lap with no rider that has room
		 * waits as long as it takes).
		 */
		private void hand(StreamShards.Page page, int from) {
			var records = page.records();
			for (int i = from; i < records.size(); i++) {
				ChangeRecord record = records.get(i);
				Seats seats = seats(record);
				leave(seats.finished());
				if (!seats.full().isEmpty() && waits(seats)) {
					int next = i;
					Replays.this.timer.schedule(() -> hand(page, next), PAUSE.toMillis(), TimeUnit.MILLISECONDS);
					return;
				}
				this.waitingSince = 0;
				long wait = handOn(record, seats);
				if (wait > 0) {
					// Past the resumes' pace: the next record after what this one took is paid for.
					int next = i + 1;
					Replays.this.timer.schedule(() -> hand(page, next), wait, TimeUnit.NANOSECONDS);
					return;
				}
			}
			turn(page);
		}

		/** The lap's riders as to {@code record}: those that need it (and of them, those without room), those done. */
		private Seats seats(ChangeRecord record) {
			List<Seat> riding;
			synchronized (Replays.this) {
				this.riding.removeIf((seat) -> seat.rider.gone());
				riding = List.copyOf(this.riding);
				// From here on a rider joins only if it has this record: those seated now are handed it.
				this.position = record.sequenceNumber();
			}
			Seats seats = new Seats(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
			for (Seat seat : riding) {
				if (record.sequenceNumber().compareTo(seat.from) <= 0) {
					continue;
				}
				BigInteger upTo = seat.rider.upTo.get(this.shardId);
				if (upTo != null && upTo.signum() > 0 && record.sequenceNumber().compareTo(upTo) > 0) {
					// Past where the live reader stood when it subscribed: the live reader took over from there.
					seats.finished().add(seat);
				}
				else {
					seats.needing().add(seat);
					if (!seat.rider.subscriber.hasRoom()) {
						seats.full().add(seat);
					}
				}
			}
			return seats;
		}

		/**
		 * Whether the lap waits for its riders without room: while they are all the riders that need the record, or
		 * for {@link #PATIENCE}; past it, they are left out of this record's handing (and leave for the next lap).
		 */
		private boolean waits(Seats seats) {
			long now = System.nanoTime();
			if (this.waitingSince == 0) {
				this.waitingSince = now;
			}
			if (seats.full().size() == seats.needing().size() || now - this.waitingSince < PATIENCE.toNanos()) {
				return true;
			}
			seats.needing().removeAll(seats.full());
			return false;
		}

		/**
		 * Hands {@code record} to the riders that need it; those without room for it leave for the next lap. Answers
		 * how many nanoseconds to wait, at the resumes' pace, before handing on the next.
		 */
		private long handOn(ChangeRecord record, Seats seats) {
			int handed = 0;
			for (Seat seat : seats.needing()) {
				LiveSubscriber.Replayed replayed = seat.rider.subscriber.replay(record);
				if (replayed == LiveSubscriber.Replayed.FULL) {
					seats.full().add(seat);
				}
				else {
					seat.from = record.sequenceNumber();
					handed += (replayed == LiveSubscriber.Replayed.TAKEN) ? 1 : 0;
				}
			}
			synchronized (Replays.this) {
				this.riding.removeAll(seats.full());
				this.waiting.addAll(seats.full());
			}
			return (handed > 0) ? Replays.this.pace.take(handed, System.nanoTime()) : 0;
		}

		/** A page handed on whole: the next, or the lap's end at the shard's end or tip, or with no rider left. */
		private void turn(StreamShards.Page page) {
			String next = page.next().orElse(null);
			boolean riders;
			synchronized (Replays.this) {
				riders = !this.riding.isEmpty();
			}
			if (next == null) {
				ended(true);
			}
			else if (page.records().isEmpty() || !riders) {
				// Caught up with an open shard (the live reader reads on from here), or nobody rides any more.
				ended(false);
			}
			else {
				page(next);
			}
		}

		/** {@code seats} are done with this shard: out of the lap, their riders on. */
		private void leave(List<Seat> seats) {
			if (seats.isEmpty()) {
				return;
			}
			synchronized (Replays.this) {
				this.riding.removeAll(seats);
			}
			seats.forEach((seat) -> seat.rider.done());
		}

		/**
		 * The lap is over: at the shard's end ({@code closed}), its riders go on with its children, each from its
		 * start; at the shard's tip, they are done with it. The next lap starts if riders wait for one.
		 */
		private void ended(boolean closed) {
			List<Seat> seats;
			synchronized (Replays.this) {
				seats = List.copyOf(this.riding);
				this.riding.clear();
			}
			for (Seat seat : seats) {
				if (closed) {
					for (Shard shard : seat.rider.shards) {
						if (this.shardId.equals(shard.parentShardId())) {
							seat.rider.pending.incrementAndGet();
							join(new Seat(seat.rider, START), shard.shardId());
						}
					}
				}
				seat.rider.done();
			}
			next();
		}

		/** The lap failed: its riders end (the event's records are gone, or DynamoDB is unavailable). */
		private void failed(Throwable failure) {
			List<Seat> seats;
			synchronized (Replays.this) {
				seats = List.copyOf(this.riding);
				this.riding.clear();
			}
			seats.forEach((seat) -> seat.rider.fail(failure));
			next();
		}

		private void next() {
			synchronized (Replays.this) {
				this.lapping = false;
				this.position = null;
				this.waiting.removeIf((seat) -> seat.rider.gone());
				if (!this.waiting.isEmpty()) {
					start();
				}
				else {
					Replays.this.laps.remove(this.shardId, this);
				}
			}
		}

	}

	/**
	 * What a failed read means for its subscribers: an event whose records are gone (trimmed, its stream
	 * replaced) or that DynamoDB refuses as a place in the stream (a forged sequence number) is
	 * {@code INVALID_CURSOR}; anything else stays what it is (UNAVAILABLE when DynamoDB could not be reached).
	 */
	static Throwable classify(Throwable failure) {
		Throwable cause = DynamoDbFailures.unwrap(failure);
		if (cause instanceof InvalidCursorException) {
			return cause;
		}
		if (cause instanceof TrimmedDataAccessException || cause instanceof ResourceNotFoundException
				|| (cause instanceof SdkServiceException service && service.statusCode() == 400
						&& !service.isThrottlingException())) {
			return expired();
		}
		return cause;
	}

	static InvalidCursorException expired() {
		return new InvalidCursorException("The event `after` names is older than the stream keeps (24 hours), or of "
				+ "another table or server: refetch the connection and subscribe again without `after`.");
	}

}
