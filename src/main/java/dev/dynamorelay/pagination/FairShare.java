package dev.dynamorelay.pagination;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The DynamoDB calls of all requests together: at most so many in flight at once, and when one
 * finishes, its place goes to the waiting call of the request that has started the fewest calls so
 * far (the longest waiting among equals). A request that reads one page waits for one place to free,
 * however many calls a heavy request has queued.
 *
 * <p>While calls wait, a request past its first call reads in small steps ({@link #limit}): each of its
 * calls scans at most {@code quantum} items, so places free often. Uncontended, nothing changes: calls
 * start at once with the {@code Limit} they asked for.
 *
 * <p>Nothing blocks: a waiting call is a task, started by the completion of the call before it.
 */
public final class FairShare {

	private final int maxInFlight;

	private final int quantum;

	private final List<Waiting> waiting = new ArrayList<>();

	private int inFlight;

	private long arrivals;

	/**
	 * @param maxInFlight the most calls of all requests in flight at once, at least 1
	 * @param quantum the most items one call of a request past its first may scan while calls wait
	 */
	public FairShare(int maxInFlight, int quantum) {
		if (maxInFlight < 1 || quantum < 1) {
			throw new IllegalArgumentException("at least one call in flight and one item per call, got "
					+ maxInFlight + " and " + quantum);
		}
		this.maxInFlight = maxInFlight;
		this.quantum = quantum;
	}

	/** No limit and no ordering: every call starts at once with its own {@code Limit}. */
	public static FairShare unlimited() {
		return new FairShare(Integer.MAX_VALUE, Integer.MAX_VALUE);
	}

	/** A new request's share. */
	public Share share() {
		return new Share();
	}

	/** The {@code Limit} for a call of {@code share} that wants {@code wanted} items, now. */
	public int limit(Share share, int wanted) {
		synchronized (this) {
			return (share.started > 1 && !this.waiting.isEmpty()) ? Math.min(wanted, this.quantum) : wanted;
		}
	}

	/** Makes the call when it has its place; the supplier runs then, so what it computes is computed then. */
	<T> CompletableFuture<T> call(Share share, Supplier<CompletableFuture<T>> call) {
		CompletableFuture<T> result = new CompletableFuture<>();
		Runnable start = () -> start(call, result);
		boolean now;
		synchronized (this) {
			now = this.inFlight < this.maxInFlight;
			if (now) {
				this.inFlight++;
				share.started++;
			}
			else {
				this.waiting.add(new Waiting(share, this.arrivals++, start));
			}
		}
		if (now) {
			CallLimiter.run(start);
		}
		return result;
	}

	private <T> void start(Supplier<CompletableFuture<T>> call, CompletableFuture<T> result) {
		CompletableFuture<T> sent;
		try {
			sent = call.get();
		}
		catch (RuntimeException | Error ex) {
			release();
			result.completeExceptionally(ex);
			return;
		}
		sent.whenComplete((value, failure) -> {
			release();
			if (failure != null) {
				result.completeExceptionally(failure);
			}
			else {
				result.complete(value);
			}
		});
	}

	/** Gives a finished call's place to the waiting call of the request with the fewest calls started. */
	private void release() {
		Waiting next = null;
		synchronized (this) {
			for (Waiting each : this.waiting) {
				if (next == null || each.share.started < next.share.started
						|| (each.share.started == next.share.started && each.arrival < next.arrival)) {
					next = each;
				}
			}
			if (next == null) {
				this.inFlight--;
				return;
			}
			this.waiting.remove(next);
			next.share.started++;
		}
		CallLimiter.run(next.start);
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

		private long started;

	}

	private record Waiting(Share share, long arrival, Runnable start) {
	}

}
