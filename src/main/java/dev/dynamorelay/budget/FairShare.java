package dev.dynamorelay.budget;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The DynamoDB calls of all requests together: at most so many in flight at once, and when one finishes,
 * its place goes to the waiting call of the request that has started the fewest calls so far (the longest
 * waiting among equals), a heavy request's (below) after every other's; but the call of a request that has
 * gone an aging period without a call starting goes before all of those. A request that reads one page
 * waits for one place to free, however many calls a heavy request has queued; and a request of many calls
 * starts one at least every aging period, however many one-page requests keep coming.
 *
 * <p><b>Aging.</b> Ordered by calls started alone, a request past its second call is overtaken by every new
 * one-page request; under a steady stream of them it never gets a place and runs out of its time. So the
 * waiting calls of a request whose last call started {@code aging} ago or longer (or that came that long ago
 * and has started none) are <em>due</em>, and a due call goes before the calls that are not; of due calls,
 * the older request's first: every request has the same timeout, so the older is the nearer its deadline,
 * and served, leaves the sooner (ordered by their waiting instead, due requests would take turns, and one of
 * many calls beside sixteen one-page requests would start one call in seventeen). When one starts, the
 * request's next period begins: waiting earns it one call ahead of the others per period, never the calls it
 * missed. So a request's claim grows with its waiting, every request progresses at one call per period at
 * least, and none takes more ahead of the others than that: beyond it, the order by calls started holds.
 * When more requests wait than the places serve within a period, the one-page requests' calls are due too,
 * and all go oldest first.
 *
 * <p>While other requests' calls wait, a request past its first call reads in small steps ({@link #limit}):
 * each of its calls scans at most {@code quantum} items (a page of that many, and the one item that tells
 * whether more follow, in one call), so places free often. Uncontended, calls start at
 * once with the {@code Limit} they asked for (a heavy request's past its heavy places excepted).
 *
 * <p>A request that has started {@code heavyAfter} calls is heavy: heavy requests together hold at most
 * {@code maxHeavyInFlight} places, so that the rest (and the cores of a DynamoDB that shares this
 * machine) stay free for requests of a page or two, which never wait behind them for more than one
 * place. Among heavy requests the oldest goes first, due or not: ordered by calls started, or by their
 * waiting, a heavy request would share the heavy places with every younger one and run out of its time,
 * while the oldest is the nearest to its deadline and, served, leaves soonest. Its call goes before light
 * requests' calls when it is due (and they are not, or are a younger request's), so heavy requests start a
 * call at least every aging period however many light ones wait. The price: a younger heavy request's
 * calls past its light ones wait behind all the older ones' calls, and it may run out of its time behind
 * them.
 *
 * <p>Nothing blocks: a waiting call is a task, started by the completion of the call before it. A
 * request whose time runs out takes its waiting calls out of the queue ({@link #abandon}); they held no
 * place here, so the calls behind them take the places as they free.
 */
public final class FairShare {

	private final int maxInFlight;

	private final int quantum;

	private final int heavyAfter;

	private final int maxHeavyInFlight;

	/** How long a request goes without a call starting before its waiting calls are due, in nanoseconds. */
	private final long agingNanos;

	/** {@link System#nanoTime()}, or a test's clock. */
	private final LongSupplier clock;

	private final List<Waiting> waiting = new ArrayList<>();

	private int inFlight;

	private int heavyInFlight;

	private long arrivals;

	private long shares;

	/**
	 * @param maxInFlight the most calls of all requests in flight at once, at least 1
	 * @param quantum the most items one call of a request past its first may scan while other requests' calls wait
	 * @param heavyAfter the calls a request has started from which on it is heavy
	 * @param maxHeavyInFlight the most places heavy requests hold together, at least 1
	 * @param aging how long a request goes without a call starting before its waiting calls go first, positive
	 */
	public FairShare(int maxInFlight, int quantum, int heavyAfter, int maxHeavyInFlight, Duration aging) {
		this(maxInFlight, quantum, heavyAfter, maxHeavyInFlight, aging, System::nanoTime);
	}

	/** As above, reading the time from {@code clock} (nanoseconds, as {@link System#nanoTime()}). */
	FairShare(int maxInFlight, int quantum, int heavyAfter, int maxHeavyInFlight, Duration aging, LongSupplier clock) {
		if (maxInFlight < 1 || quantum < 1 || heavyAfter < 1 || maxHeavyInFlight < 1) {
			throw new IllegalArgumentException("at least one call in flight, one item per call, one call before a "
					+ "request is heavy and one place for heavy requests, got " + maxInFlight + ", " + quantum + ", "
					+ heavyAfter + " and " + maxHeavyInFlight);
		}
		if (aging.isNegative() || aging.isZero()) {
			throw new IllegalArgumentException("the aging period must be positive, got " + aging);
		}
		this.maxInFlight = maxInFlight;
		this.quantum = quantum;
		this.heavyAfter = heavyAfter;
		this.maxHeavyInFlight = Math.min(maxHeavyInFlight, maxInFlight);
		this.agingNanos = aging.toNanos();
		this.clock = clock;
	}

	/** No limit and no ordering: every call starts at once with its own {@code Limit}. */
	public static FairShare unlimited() {
		return new FairShare(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE,
				Duration.ofSeconds(1));
	}

	/** A new request's share. */
	public Share share() {
		return share(() -> {
		});
	}

	/** A new request's share; {@code onWait} runs each time one of its calls has to wait for a place. */
	Share share(Runnable onWait) {
		synchronized (this) {
			return new Share(this.shares++, this.clock.getAsLong(), onWait);
		}
	}

	/**
	 * The {@code Limit} for a call of {@code share} that wants {@code wanted} items, now: at most the quantum
	 * while other requests' calls wait, unless it wants one more than that (a page of the quantum's size and
	 * the item that tells whether more follow), which a second call of one item would cost more than it saves.
	 */
	public int limit(Share share, int wanted) {
		synchronized (this) {
			// Only other requests' calls count: a request whose own calls wait for its places reads as it asked.
			boolean small = share.started <= 1 || this.waiting.size() <= share.waiting;
			return (small || wanted <= this.quantum + 1) ? wanted : this.quantum;
		}
	}

	/** Makes the call when it has its place; the supplier runs then, so what it computes is computed then. */
	<T> CompletableFuture<T> call(Share share, Supplier<CompletableFuture<T>> call) {
		CompletableFuture<T> result = new CompletableFuture<>();
		Boolean heavy = null;
		synchronized (this) {
			if (this.waiting.isEmpty() && canStart(share)) {
				heavy = take(share, this.clock.getAsLong());
			}
			else {
				this.waiting.add(new Waiting(share, this.arrivals++, (place) -> start(call, result, place),
						result::completeExceptionally));
				share.waiting++;
			}
		}
		if (heavy != null) {
			boolean place = heavy;
			CallLimiter.run(() -> start(call, result, place));
		}
		else {
			share.onWait.run();
			dispatch(); // it may take a free place that calls waiting ahead of it cannot
		}
		return result;
	}

	/**
	 * Takes the calls of {@code share} that still wait for a place out of the queue and fails them with
	 * {@code failure}: its request's time has run out. They held no place, so nothing is given on.
	 */
	void abandon(Share share, Throwable failure) {
		List<Waiting> abandoned = new ArrayList<>();
		synchronized (this) {
			this.waiting.removeIf((each) -> each.share == share && abandoned.add(each));
			share.waiting -= abandoned.size();
		}
		for (Waiting each : abandoned) {
			each.fail.accept(failure);
		}
	}

	private boolean canStart(Share share) {
		return this.inFlight < this.maxInFlight && (!isHeavy(share) || this.heavyInFlight < this.maxHeavyInFlight);
	}

	/** Takes a place for the next call of {@code share} at {@code now}; whether it is a heavy request's place. */
	private boolean take(Share share, long now) {
		boolean heavy = isHeavy(share);
		this.inFlight++;
		if (heavy) {
			this.heavyInFlight++;
		}
		share.started++;
		// Its next aging period starts now: waiting earns one call ahead of the others per period, not more.
		share.lastStart = now;
		return heavy;
	}

	private boolean isHeavy(Share share) {
		return share.started >= this.heavyAfter;
	}

	private <T> void start(Supplier<CompletableFuture<T>> call, CompletableFuture<T> result, boolean heavy) {
		CompletableFuture<T> sent;
		try {
			sent = call.get();
		}
		catch (RuntimeException | Error ex) {
			release(heavy);
			result.completeExceptionally(ex);
			return;
		}
		sent.whenComplete((value, failure) -> {
			release(heavy);
			if (failure != null) {
				result.completeExceptionally(failure);
			}
			else {
				result.complete(value);
			}
		});
	}

	private void release(boolean heavy) {
		synchronized (this) {
			this.inFlight--;
			if (heavy) {
				this.heavyInFlight--;
			}
		}
		dispatch();
	}

	/**
	 * Starts waiting calls while places are free: each time the one {@link #next} chooses.
	 */
	private void dispatch() {
		while (true) {
			Waiting next;
			boolean heavy;
			synchronized (this) {
				if (this.waiting.isEmpty() || this.inFlight >= this.maxInFlight) {
					return;
				}
				long now = this.clock.getAsLong();
				next = next(now);
				if (next == null) {
					return;
				}
				this.waiting.remove(next);
				next.share.waiting--;
				heavy = take(next.share, now);
			}
			Waiting chosen = next;
			boolean heavyPlace = heavy;
			CallLimiter.run(() -> chosen.start.run(heavyPlace));
		}
	}

	/**
	 * The waiting call that takes a free place at {@code now}, or null if none may (heavy requests' calls while
	 * their places are taken). Of light requests' calls, the first in the order of {@link #before}; of heavy
	 * requests', the oldest request's. The heavy one goes first if it is due and the light one is not, or is
	 * a younger request's.
	 */
	private Waiting next(long now) {
		Waiting light = null;
		Waiting heavy = null;
		for (Waiting each : this.waiting) {
			if (!isHeavy(each.share)) {
				if (light == null || before(each, light, now)) {
					light = each;
				}
			}
			else if (this.heavyInFlight < this.maxHeavyInFlight && (heavy == null || older(each, heavy))) {
				heavy = each;
			}
		}
		if (heavy == null || light == null) {
			return (heavy != null) ? heavy : light;
		}
		if (!isDue(heavy.share, now)) {
			return light;
		}
		return (!isDue(light.share, now) || older(heavy, light)) ? heavy : light;
	}

	/**
	 * Whether light {@code one} goes before light {@code other} at {@code now}: a due call before one that is
	 * not, and of due calls the older request's; of the others, the one whose request has started fewer calls;
	 * the longest waiting call among equals.
	 */
	private boolean before(Waiting one, Waiting other, long now) {
		boolean oneDue = isDue(one.share, now);
		if (oneDue != isDue(other.share, now)) {
			return oneDue;
		}
		if (oneDue) {
			return older(one, other);
		}
		if (one.share.started != other.share.started) {
			return one.share.started < other.share.started;
		}
		return one.arrival < other.arrival;
	}

	/**
	 * Whether {@code one} is an older request's call than {@code other}, or the longer waiting of one request's.
	 * Every request has the same timeout: the older is the nearer its deadline, and served, leaves the sooner.
	 */
	private static boolean older(Waiting one, Waiting other) {
		if (one.share.order != other.share.order) {
			return one.share.order < other.share.order;
		}
		return one.arrival < other.arrival;
	}

	/** Whether {@code share} has gone an aging period or longer without a call starting. */
	private boolean isDue(Share share, long now) {
		return now - share.lastStart >= this.agingNanos;
	}

	/** Calls waiting for a place now, of all requests. */
	public synchronized int waiting() {
		return this.waiting.size();
	}

	/** Calls in flight now, for all requests. */
	public synchronized int inFlight() {
		return this.inFlight;
	}

	public int maxInFlight() {
		return this.maxInFlight;
	}

	/**
	 * One request's part: how many of its calls have started, and when the last did. Guarded by its
	 * {@link FairShare}.
	 */
	public static final class Share {

		/** When the request came, among all requests of its {@link FairShare}. */
		private final long order;

		private long started;

		/** When ({@link FairShare#clock}) its last call started; when it came, before its first. */
		private long lastStart;

		/** Its calls waiting for a place. */
		private int waiting;

		/** Runs when one of its calls has to wait. */
		private final Runnable onWait;

		private Share(long order, long came, Runnable onWait) {
			this.order = order;
			this.lastStart = came;
			this.onWait = onWait;
		}

	}

	/** Starts a waiting call in the place it was given. */
	private interface Start {

		void run(boolean heavyPlace);

	}

	private record Waiting(Share share, long arrival, Start start, Consumer<Throwable> fail) {
	}

}
