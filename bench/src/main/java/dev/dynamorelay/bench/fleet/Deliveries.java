package dev.dynamorelay.bench.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.IntPredicate;

import dev.dynamorelay.bench.support.Stamp;

/**
 * What the fleet section's writes, subscribers and raw reader saw: each write's user and stamp, each change that
 * reached a subscription (which one, when, its eventId), each write the raw reader saw; and, over a range of
 * writes, the deliveries expected and received, the latencies, the longest time without a delivery.
 *
 * <p>A subscription is known by its number {@code s} (0 to {@value Fleet#SUBSCRIPTIONS} - 1): its user is
 * {@code s % USERS}, its connection {@code s / PER_CONNECTION}.
 */
final class Deliveries {

	/** A write: its stamp and its user. */
	record Write(Stamp stamp, int user) {
	}

	/** A change at subscription {@code subscription}, of write {@code sequence}, {@code at} (nanoTime). */
	record Arrival(long sequence, int subscription, long at, long latency) {
	}

	private final Map<Long, Write> writes = new ConcurrentHashMap<>();

	/** Each write's subscriptions reached (once each). */
	private final Map<Long, Set<Integer>> reached = new ConcurrentHashMap<>();

	/** Subscription and eventId of each change received: a second one is a change twice. */
	private final Set<String> events = ConcurrentHashMap.newKeySet();

	/** The writes a change of which came twice to one subscription. */
	private final ConcurrentLinkedQueue<Long> twice = new ConcurrentLinkedQueue<>();

	private final ConcurrentLinkedQueue<Arrival> arrivals = new ConcurrentLinkedQueue<>();

	/** Each write the raw reader saw: its latency (ns). */
	private final Map<Long, Long> seen = new ConcurrentHashMap<>();

	/** Changes received by each subscription, whichever write. */
	private final AtomicIntegerArray received = new AtomicIntegerArray(Fleet.SUBSCRIPTIONS);

	void written(Stamp stamp, int user) {
		this.writes.put(stamp.sequence(), new Write(stamp, user));
	}

	/** A change of write {@code stamp} with {@code eventId} at subscription {@code subscription}. */
	void delivered(int subscription, String eventId, Stamp stamp, long at) {
		this.received.incrementAndGet(subscription);
		if (!this.events.add(subscription + "/" + eventId)) {
			this.twice.add(stamp.sequence());
			return;
		}
		this.reached.computeIfAbsent(stamp.sequence(), (sequence) -> ConcurrentHashMap.newKeySet()).add(subscription);
		this.arrivals.add(new Arrival(stamp.sequence(), subscription, at, at - stamp.sent()));
	}

	void seen(Stamp stamp, long at) {
		this.seen.put(stamp.sequence(), at - stamp.sent());
	}

	/** Whether subscription {@code s} has received a change. */
	boolean received(int s) {
		return this.received.get(s) > 0;
	}

	/**
	 * Writes {@code first} (inclusive) to {@code end} (exclusive), at the subscriptions {@code counted} accepts:
	 * their users' subscriptions expected to receive each write.
	 */
	Range range(long first, long end, IntPredicate counted) {
		List<Write> written = new ArrayList<>();
		long expected = 0;
		long received = 0;
		for (long sequence = first; sequence < end; sequence++) {
			Write write = this.writes.get(sequence);
			if (write == null) {
				continue;
			}
			written.add(write);
			Set<Integer> reachedBy = this.reached.getOrDefault(sequence, Set.of());
			for (int s = write.user(); s < Fleet.SUBSCRIPTIONS; s += Fleet.USERS) {
				if (counted.test(s)) {
					expected++;
					if (reachedBy.contains(s)) {
						received++;
					}
				}
			}
		}
		long wrongUser = 0;
		List<Arrival> in = new ArrayList<>();
		for (Arrival arrival : this.arrivals) {
			if (arrival.sequence() >= first && arrival.sequence() < end && counted.test(arrival.subscription())) {
				in.add(arrival);
				Write write = this.writes.get(arrival.sequence());
				if (write != null && write.user() != arrival.subscription() % Fleet.USERS) {
					wrongUser++;
				}
			}
		}
		long repeated = this.twice.stream().filter((sequence) -> sequence >= first && sequence < end).count();
		List<Long> floor = new ArrayList<>();
		for (Write write : written) {
			Long latency = this.seen.get(write.stamp().sequence());
			if (latency != null) {
				floor.add(latency);
			}
		}
		return new Range(written, in, floor, expected, received, repeated, wrongUser);
	}

	/**
	 * The deliveries of a range of writes.
	 *
	 * @param writes the writes made
	 * @param arrivals the changes that reached the counted subscriptions, each once
	 * @param floor the raw reader's latency of each write it saw (ns)
	 * @param expected the counted subscriptions of the writes' users, over the writes
	 * @param received of those, the ones reached
	 * @param twice changes that came a second time to a subscription (by eventId)
	 * @param wrongUser changes that reached a subscription of another user
	 */
	record Range(List<Write> writes, List<Arrival> arrivals, List<Long> floor, long expected, long received, long twice,
			long wrongUser) {

		double[] latenciesMs() {
			return this.arrivals.stream().mapToDouble((arrival) -> arrival.latency() / 1e6).toArray();
		}

		double[] floorMs() {
			return this.floor.stream().mapToDouble((nanos) -> nanos / 1e6).toArray();
		}

		/**
		 * The longest time without a change at the counted subscriptions between {@code from} and {@code to}
		 * (nanoTime), the edges counted as arrivals: {start, end}.
		 */
		long[] longestGap(long from, long to) {
			long[] times = this.arrivals.stream().mapToLong(Arrival::at).filter((at) -> at >= from && at <= to).sorted()
				.toArray();
			long[] gap = { from, from };
			long previous = from;
			for (long at : times) {
				if (at - previous > gap[1] - gap[0]) {
					gap = new long[] { previous, at };
				}
				previous = at;
			}
			if (to - previous > gap[1] - gap[0]) {
				gap = new long[] { previous, to };
			}
			return gap;
		}

	}

}
