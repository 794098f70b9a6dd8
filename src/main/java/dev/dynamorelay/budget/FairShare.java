package dev.dynamorelay.budget;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The DynamoDB calls of all requests together: at most so many in flight at once, and when one
 * finishes, its place goes to the waiting call of the request that has started the fewest calls so
 * far (the longest waiting among equals), a heavy request's (below) after every other's. A request that
 * reads one page waits for one place to free, however many calls a heavy request has queued.
 *
 * <p>While other requests' calls wait, a request past its first call reads in small steps ({@link #limit}):
 * each of its calls scans at most {@code quantum} items, so places free often. Uncontended, calls start at
 * once with the {@code Limit} they asked for (a heavy request's past its heavy places excepted).
 *
 * <p>A request that has started {@code heavyAfter} calls is heavy: heavy requests together hold at most
 * {@code maxHeavyInFlight} places, so that the rest (and the cores of a DynamoDB that shares this
 * machine) stay free for requests of a page or two, which never wait behind them for more than one
 * place. Among heavy requests the oldest goes first: ordered by calls started, a heavy request would be
 * overtaken by every younger one and run out of its time waiting, while the oldest is the nearest to its
 * deadline (all requests have the same timeout) and, served, leaves soonest. The price: a younger heavy
 * request's calls past its light ones wait behind all the older ones' calls, and it may run out of its
 * time behind them.
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

	private final List<Waiting> waiting = new ArrayList<>();

	private int inFlight;

	private int heavyInFlight;

	private long arrivals;

	private long shares;

	/**
	 * @param maxInFlight the most calls of all requests in flight at once, at least 1
	 * @param quantum the most items one call of a request past its first may scan while other requests' calls wait
	 */
	public FairShare(int maxInFlight, int quantum) {
		this(maxInFlight, quantum, Integer.MAX_VALUE, maxInFlight);
	}

	/**
	 * @param maxInFlight the most calls of all requests in flight at once, at least 1
	 * @param quantum the most items one call of a request past its first may scan while other requests' calls wait
	 * @param heavyAfter the calls a request has started from which on it is heavy
	 * @param maxHeavyInFlight the most places heavy requests hold together, at least 1
	 */
	public FairShare(int maxInFlight, int quantum, int heavyAfter, int maxHeavyInFlight) {
		if (maxInFlight < 1 || quantum < 1 || heavyAfter < 1 || maxHeavyInFlight < 1) {
			throw new IllegalArgumentException("at least one call in flight, one item per call, one call before a "
					+ "request is heavy and one place for heavy requests, got " + maxInFlight + ", " + quantum + ", "
					+ heavyAfter + " and " + maxHeavyInFlight);
		}
		this.maxInFlight = maxInFlight;
		this.quantum = quantum;
		this.heavyAfter = heavyAfter;
		this.maxHeavyInFlight = Math.min(maxHeavyInFlight, maxInFlight);
	}

	/** No limit and no ordering: every call starts at once with its own {@code Limit}. */
	public static FairShare unlimited() {
		return new FairShare(Integer.MAX_VALUE, Integer.MAX_VALUE);
	}

	/** A new request's share. */
	public Share share() {
		return share(() -> {
		});
	}

	/** A new request's share; {@code onWait} runs each time one of its calls has to wait for a place. */
	Share share(Runnable onWait) {
		synchronized (this) {
			return new Share(this.shares++, onWait);
		}
	}

	/** The {@code Limit} for a call of {@code share} that wants {@code wanted} items, now. */
	public int limit(Share share, int wanted) {
		synchronized (this) {
			// Only other requests' calls count: a request whose own calls wait for its places reads as it asked.
			return (share.started > 1 && this.waiting.size() > share.waiting) ? Math.min(wanted, this.quantum) : wanted;
		}
	}

	/** Makes the call when it has its place; the supplier runs then, so what it computes is computed then. */
	<T> CompletableFuture<T> call(Share share, Supplier<CompletableFuture<T>> call) {
		CompletableFuture<T> result = new CompletableFuture<>();
		Boolean heavy = null;
		synchronized (this) {
			if (this.waiting.isEmpty() && canStart(share)) {
				heavy = take(share);
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

	/** Takes a place for the next call of {@code share}; whether it is a heavy request's place. */
	private boolean take(Share share) {
		boolean heavy = isHeavy(share);
		this.inFlight++;
		if (heavy) {
			this.heavyInFlight++;
		}
		share.started++;
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
	 * Starts waiting calls while places are free: each time the first, in the order of {@link #before}, of
	 * the calls that may take a place now.
	 */
	private void dispatch() {
		while (true) {
			Waiting next = null;
			boolean heavy;
			synchronized (this) {
				for (Waiting each : this.waiting) {
					if (canStart(each.share) && (next == null || before(each, next))) {
						next = each;
					}
				}
				if (next == null) {
					return;
				}
				this.waiting.remove(next);
				next.share.waiting--;
				heavy = take(next.share);
			}
			Waiting chosen = next;
			boolean heavyPlace = heavy;
			CallLimiter.run(() -> chosen.start.run(heavyPlace));
		}
	}

	/**
	 * Whether {@code one} goes before {@code other}: a light request's call before a heavy one's; among
	 * light requests, the one with fewer calls started; among heavy requests, the older request, so that
	 * the one nearest its deadline finishes instead of being overtaken by every younger heavy request;
	 * the longest waiting call among equals.
	 */
	private boolean before(Waiting one, Waiting other) {
		boolean oneHeavy = isHeavy(one.share);
		if (oneHeavy != isHeavy(other.share)) {
			return !oneHeavy;
		}
		if (oneHeavy) {
			if (one.share.order != other.share.order) {
				return one.share.order < other.share.order;
			}
		}
		else if (one.share.started != other.share.started) {
			return one.share.started < other.share.started;
		}
		return one.arrival < other.arrival;
	}

	/** Calls in flight now, for all requests. */
	public synchronized int inFlight() {
		return this.inFlight;
	}

	public int maxInFlight() {
		return this.maxInFlight;
	}

	/** One request's part: how many of its calls have started. Guarded by its {@link FairShare}. */
	public static final class Share {

		/** When the request came, among all requests of its {@link FairShare}. */
		private final long order;

		private long started;

		/** Its calls waiting for a place. */
		private int waiting;

		/** Runs when one of its calls has to wait. */
		private final Runnable onWait;

		private Share(long order, Runnable onWait) {
			this.order = order;
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
