package dev.dynamorelay.budget;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.dynamorelay.error.UnavailableException;

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
 *
 * <p>A limiter with a deadline (the request's) fails, {@code UNAVAILABLE}, every call still waiting for a
 * place when it passes, here or in the shared queue ({@link FairShare}): they leave the queues then, at
 * the deadline ({@link DeadlineTimer}), however long the calls ahead of them take, and are never sent;
 * a call made after the deadline fails at once. The places such calls held are given on as a finished
 * call's are.
 */
public final class CallLimiter {

	/** Calls started by completions on this thread, run one after another instead of nested. */
	private static final ThreadLocal<ArrayDeque<Runnable>> TRAMPOLINE = new ThreadLocal<>();

	private final int maxInFlight;

	/** Where the calls go once they have their place here: the share of all requests' calls. */
	private final FairShare fairShare;

	private final FairShare.Share share;

	/** When ({@link System#nanoTime()}) the request's time runs out; see {@link #hasDeadline}. */
	private final long deadline;

	private final boolean hasDeadline;

	private final ArrayDeque<Waiting<?>> waiting = new ArrayDeque<>();

	private int inFlight;

	private int peak;

	private long queued;

	/** Whether the timer that fails the waiting calls at the deadline is set. */
	private boolean timerSet;

	/** Whether the deadline has passed and the waiting calls were failed. */
	private boolean expired;

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
		this(maxInFlight, fairShare, 0, false);
	}

	/**
	 * @param maxInFlight the most calls in flight at once, at least 1
	 * @param fairShare the share of all requests' calls, which these calls take their places in
	 * @param deadline when ({@link System#nanoTime()}) calls still waiting for a place fail
	 */
	CallLimiter(int maxInFlight, FairShare fairShare, long deadline) {
		this(maxInFlight, fairShare, deadline, true);
	}

	private CallLimiter(int maxInFlight, FairShare fairShare, long deadline, boolean hasDeadline) {
		if (maxInFlight < 1) {
			throw new IllegalArgumentException("at least one call must be allowed in flight, got " + maxInFlight);
		}
		this.maxInFlight = maxInFlight;
		this.fairShare = fairShare;
		this.deadline = deadline;
		this.hasDeadline = hasDeadline;
		this.share = fairShare.share(this::waitsInFairShare);
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
	 * completed future (nothing sent); its place is then given on at once. Past the deadline, or still
	 * waiting when it passes, the call fails {@code UNAVAILABLE} unsent.
	 */
	public <T> CompletableFuture<T> call(Supplier<CompletableFuture<T>> call) {
		CompletableFuture<T> result = new CompletableFuture<>();
		boolean now;
		boolean setTimer = false;
		synchronized (this) {
			if (this.expired || (this.hasDeadline && System.nanoTime() - this.deadline >= 0)) {
				return CompletableFuture.failedFuture(timedOut());
			}
			now = this.inFlight < this.maxInFlight;
			if (now) {
				this.inFlight++;
				this.peak = Math.max(this.peak, this.inFlight);
			}
			else {
				this.waiting.add(new Waiting<>(call, result));
				this.queued++;
				setTimer = setTimer();
			}
		}
		if (setTimer) {
			DeadlineTimer.at(this.deadline, this::expire);
		}
		if (now) {
			start(call, result);
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
		Waiting<?> next;
		synchronized (this) {
			next = this.waiting.poll();
			if (next == null) {
				this.inFlight--;
				return;
			}
		}
		// The place passes to the next call: inFlight stays as it is.
		run(() -> startWaiting(next));
	}

	/** Whether to set the deadline's timer now: the first time a call waits, if there is a deadline. */
	private boolean setTimer() {
		if (!this.hasDeadline || this.timerSet) {
			return false;
		}
		this.timerSet = true;
		return true;
	}

	/**
	 * A call of this request waits in the shared queue: the deadline's timer must fail it there too; if the
	 * deadline has passed already (the call took its place here just before), it leaves the queue now.
	 */
	private void waitsInFairShare() {
		boolean setTimer;
		boolean late;
		synchronized (this) {
			late = this.expired;
			setTimer = !late && setTimer();
		}
		if (setTimer) {
			DeadlineTimer.at(this.deadline, this::expire);
		}
		if (late) {
			this.fairShare.abandon(this.share, timedOut());
		}
	}

	/**
	 * At the deadline: fails the calls waiting here, which hold no place, and then those waiting in the
	 * shared queue, whose places here are given on (to nobody: none wait any more) as they fail.
	 */
	void expire() {
		List<Waiting<?>> abandoned;
		synchronized (this) {
			this.expired = true;
			abandoned = new ArrayList<>(this.waiting);
			this.waiting.clear();
		}
		UnavailableException failure = timedOut();
		for (Waiting<?> each : abandoned) {
			each.result.completeExceptionally(failure);
		}
		this.fairShare.abandon(this.share, failure);
	}

	private UnavailableException timedOut() {
		return new UnavailableException("The request's time ran out while its DynamoDB calls waited for a place ("
				+ inFlight() + " of its calls in flight)", null);
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

	/** A call waiting for its place here, and what it answers into. */
	private record Waiting<T>(Supplier<CompletableFuture<T>> call, CompletableFuture<T> result) {
	}

	/** Starts a waiting call in the place given to it. */
	private <T> void startWaiting(Waiting<T> waiting) {
		start(waiting.call(), waiting.result());
	}

}
