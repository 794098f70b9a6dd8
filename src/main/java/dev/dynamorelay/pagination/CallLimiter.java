package dev.dynamorelay.pagination;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * At most so many DynamoDB calls of one GraphQL request in flight at once; further calls wait, in the
 * order they were made, until one finishes.
 *
 * <p>Nothing blocks: a waiting call is a task in a queue, started by the completion of the call before
 * it (on whatever thread completed that one). A call is started by its {@code Supplier} only once it
 * has its place, so whatever the supplier computes (the call's timeout, its {@code Limit}) is computed
 * when the call is sent, not when it was queued.
 *
 * <p>The returned future completes after the call's place is given to the next one, so a continuation
 * that makes another call (the next read of a page) queues behind the calls already waiting: fields
 * of one request take turns.
 */
public final class CallLimiter {

	/** Calls started by completions on this thread, run one after another instead of nested. */
	private static final ThreadLocal<ArrayDeque<Runnable>> TRAMPOLINE = new ThreadLocal<>();

	private final int maxInFlight;

	/** Where the calls go once they have their place here: the share of all requests' calls. */
	private final FairShare fairShare;

	private final FairShare.Share share;

	private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();

	private int inFlight;

	private int peak;

	private long queued;

	/**
	 * @param maxInFlight the most calls in flight at once, at least 1
	 */
	public CallLimiter(int maxInFlight) {
		this(maxInFlight, FairShare.unlimited());
	}

	/**
	 * @param maxInFlight the most calls in flight at once, at least 1
	 * @param fairShare the share of all requests' calls, which these calls take their places in
	 */
	public CallLimiter(int maxInFlight, FairShare fairShare) {
		if (maxInFlight < 1) {
			throw new IllegalArgumentException("at least one call must be allowed in flight, got " + maxInFlight);
		}
		this.maxInFlight = maxInFlight;
		this.fairShare = fairShare;
		this.share = fairShare.share();
	}

	/** A limiter that lets every call through at once. */
	public static CallLimiter unlimited() {
		return new CallLimiter(Integer.MAX_VALUE);
	}

	/** The {@code Limit} a call that wants {@code wanted} items gets now (smaller while other requests wait). */
	public int limit(int wanted) {
		return this.fairShare.limit(this.share, wanted);
	}

	/**
	 * Makes the call as soon as fewer than the maximum are in flight. The supplier may answer with a
	 * completed future (nothing sent); its place is then given on at once.
	 */
	public <T> CompletableFuture<T> call(Supplier<CompletableFuture<T>> call) {
		CompletableFuture<T> result = new CompletableFuture<>();
		Runnable start = () -> start(call, result);
		boolean now;
		synchronized (this) {
			now = this.inFlight < this.maxInFlight;
			if (now) {
				this.inFlight++;
				this.peak = Math.max(this.peak, this.inFlight);
			}
			else {
				this.waiting.add(start);
				this.queued++;
			}
		}
		if (now) {
			start.run();
		}
		return result;
	}

	private <T> void start(Supplier<CompletableFuture<T>> call, CompletableFuture<T> result) {
		CompletableFuture<T> sent;
		try {
			sent = this.fairShare.call(this.share, call);
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

	/** Gives a finished call's place to the longest waiting one, or frees it. */
	private void release() {
		Runnable next;
		synchronized (this) {
			next = this.waiting.poll();
			if (next == null) {
				this.inFlight--;
				return;
			}
		}
		// The place passes to the next call: inFlight stays as it is.
		run(next);
	}

	/**
	 * Runs {@code task} here, unless this thread is already running one for a limiter: then after it. A
	 * chain of calls that complete at once (refused before sending) stays flat instead of nesting.
	 */
	static void run(Runnable task) {
		ArrayDeque<Runnable> pending = TRAMPOLINE.get();
		if (pending != null) {
			pending.add(task);
			return;
		}
		pending = new ArrayDeque<>();
		TRAMPOLINE.set(pending);
		try {
			Runnable next = task;
			while (next != null) {
				next.run();
				next = pending.poll();
			}
		}
		finally {
			TRAMPOLINE.remove();
		}
	}

	/** The most calls that were in flight at once. */
	public synchronized int peak() {
		return this.peak;
	}

	/** How many calls had to wait for a place. */
	public synchronized long queued() {
		return this.queued;
	}

	/** Calls in flight now. */
	public synchronized int inFlight() {
		return this.inFlight;
	}

	public int maxInFlight() {
		return this.maxInFlight;
	}

}
