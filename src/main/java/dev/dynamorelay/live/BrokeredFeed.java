package dev.dynamorelay.live;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.error.BusyException;
import dev.dynamorelay.error.InvalidCursorException;

/**
 * One table's changes in a fleet, as this process receives them from the broker: on the channels of the partitions
 * its subscribers read ({@link #watch}), each change once (a change on two channels, of an item that moved between
 * partitions, or published again, is told apart by its place in its shard), handed to the table's subscribers as a
 * stream reader's would be. A subscriber resumes from the broker's window of the table's recent changes, on any
 * instance.
 */
final class BrokeredFeed implements TableFeed {

	private static final Logger logger = LoggerFactory.getLogger(BrokeredFeed.class);

	/** How long a resume whose subscriber has no room waits before it offers the change again. */
	private static final Duration PAUSE = Duration.ofMillis(20);

	private final String table;

	private final RedisBroker broker;

	private final TableSubscribers subscribers;

	private final ScheduledExecutorService timer;

	private final ReplayPace pace;

	private final LiveMeters meters;

	/** The last sequence number received of each shard. */
	private final Map<String, BigInteger> received = new ConcurrentHashMap<>();

	private volatile Duration lag = Duration.ZERO;

	BrokeredFeed(String table, RedisBroker broker, TableSubscribers subscribers, ScheduledExecutorService timer,
			ReplayPace pace, LiveMeters meters) {
		this.table = table;
		this.broker = broker;
		this.subscribers = subscribers;
		this.timer = timer;
		this.pace = pace;
		this.meters = meters;
	}

	@Override
	public CompletableFuture<Void> start() {
		return CompletableFuture.completedFuture(null);
	}

	@Override
	public void stop() {
	}

	/**
	 * A change of the table arrived: handed to its subscribers unless it came before (the changes of a shard arrive
	 * in the shard's order, on one connection, whichever channel they come on).
	 */
	void receive(ChangeRecord record) {
		boolean[] fresh = { false };
		this.received.compute(record.shardId(), (shard, last) -> {
			if (last != null && record.sequenceNumber().compareTo(last) <= 0) {
				return last;
			}
			fresh[0] = true;
			return record.sequenceNumber();
		});
		if (!fresh[0]) {
			return;
		}
		Duration behind = Duration.between(record.written(), Instant.now());
		this.lag = behind.isNegative() ? Duration.ZERO : behind;
		this.meters.read(1);
		this.subscribers.accept(record);
	}

	@Override
	public Map<String, BigInteger> positions() {
		return Map.copyOf(this.received);
	}

	/** From the write to its arrival here, of the last change that arrived (DynamoDB tells a write's time). */
	@Override
	public Duration lag() {
		return this.lag;
	}

	@Override
	public CompletableFuture<Void> watch(LiveQuery query) {
		return this.broker.watch(this.broker.channel(this.table, query.partitionKey()));
	}

	@Override
	public void unwatch(LiveQuery query) {
		this.broker.unwatch(this.broker.channel(this.table, query.partitionKey()));
	}

	/**
	 * Reads the window from the event's entry on, up to its newest entry now (the subscriber is registered and its
	 * channel watched already: what comes after reaches it live), handing each change to the subscriber as it has
	 * room, at the resumes' pace; the changes both would send are sent once ({@link LiveSubscriber}).
	 */
	@Override
	public void resume(LiveSubscriber subscriber, StreamPosition after) {
		this.broker.entry(after).thenCompose((entry) -> {
			if (entry.isEmpty()) {
				return CompletableFuture.failedFuture(expired());
			}
			return this.broker.holds(this.table, entry.get()).thenCompose((held) -> held
					? this.broker.newest(this.table).thenAccept((upTo) -> page(subscriber, entry.get(), upTo))
					: CompletableFuture.failedFuture(expired()));
		}).whenComplete((started, failure) -> {
			if (failure != null) {
				subscriber.fail(classify(failure));
			}
		});
	}

	private void page(LiveSubscriber subscriber, String from, String upTo) {
		if (subscriber.closed()) {
			return;
		}
		// Trimming takes the oldest entries first: while the page's start is still held, nothing after it was trimmed
		// before the page was read, and the page has no gap.
		this.broker.window(this.table, from, upTo)
			.thenCombine(this.broker.holds(this.table, from), (entries, held) -> held ? entries : null)
			.whenComplete((entries, failure) -> {
				if (failure != null || entries == null) {
					subscriber.fail((failure != null) ? classify(failure) : expired());
					return;
				}
				this.meters.replayed(entries.size());
				hand(subscriber, entries, 0, upTo);
			});
	}

	/** Hands the entries from {@code index} on; then the next page, or the live changes once the window is read. */
	private void hand(LiveSubscriber subscriber, List<RedisBroker.Entry> entries, int index, String upTo) {
		for (int i = index; i < entries.size(); i++) {
			if (subscriber.closed()) {
				return;
			}
			LiveSubscriber.Replayed replayed = subscriber.replay(entries.get(i).record());
			int next = i;
			if (replayed == LiveSubscriber.Replayed.FULL) {
				this.timer.schedule(() -> hand(subscriber, entries, next, upTo), PAUSE.toMillis(), TimeUnit.MILLISECONDS);
				return;
			}
			long wait = (replayed == LiveSubscriber.Replayed.TAKEN) ? this.pace.take(1, System.nanoTime()) : 0;
			if (wait > 0) {
				this.timer.schedule(() -> hand(subscriber, entries, next + 1, upTo), wait, TimeUnit.NANOSECONDS);
				return;
			}
		}
		if (entries.size() < RedisBroker.WINDOW_PAGE || entries.get(entries.size() - 1).id().equals(upTo)) {
			subscriber.hold(false);
		}
		else {
			page(subscriber, entries.get(entries.size() - 1).id(), upTo);
		}
	}

	private Throwable classify(Throwable failure) {
		Throwable cause = DynamoDbFailures.unwrap(failure);
		if (cause instanceof InvalidCursorException) {
			return cause;
		}
		logger.debug("A resume from the window of {} failed: {}", this.table, cause.toString());
		return new BusyException("The change broker (Redis) did not answer the resume: subscribe again with the same "
				+ "`after` in a moment.");
	}

	static InvalidCursorException expired() {
		return new InvalidCursorException("The event `after` names is older than the changes kept for resumes "
				+ "(dynamo-relay.live.fleet.window-changes and window-age), or of another table or deployment: refetch "
				+ "the connection and subscribe again without `after`.");
	}

}
