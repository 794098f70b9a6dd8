package dev.dynamorelay.budget;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one request may still spend on DynamoDB: until when it may read, how many more items its reads may
 * scan, and how many of its calls may be in flight at once (their place among all requests' calls given by
 * {@link FairShare}).
 *
 * <p>Shared by every field of the request; fields read concurrently, so the item budget is thread-safe. The
 * deadline bounds the whole request, so that nested fields read one after another still fail within the
 * configured timeout of the request's start, not of their own.
 *
 * <p>The item budget is taken before each read, as much as its {@code Limit} (DynamoDB scans at most
 * {@code Limit} items), and what the read did not scan is given back when it answers: however the
 * request's fields interleave, their reads together never scan more than the budget.
 */
public final class RequestBudget {

	private final long startNanos = System.nanoTime();

	private final long budgetNanos;

	/** Items the request's reads may still be granted; reads in flight hold what they were granted. */
	private final AtomicLong itemsLeft;

	private final CallLimiter calls;

	/** No deadline, no item budget, no bound on calls in flight: for work outside any request. */
	public RequestBudget() {
		this.budgetNanos = Long.MAX_VALUE;
		this.itemsLeft = new AtomicLong(Long.MAX_VALUE);
		this.calls = CallLimiter.unlimited();
	}

	public RequestBudget(Duration budget, long items, int maxCallsInFlight) {
		this(budget, items, maxCallsInFlight, FairShare.unlimited());
	}

	public RequestBudget(Duration budget, long items, int maxCallsInFlight, FairShare fairShare) {
		if (items < 0) {
			throw new IllegalArgumentException("the item budget must not be negative, got " + items);
		}
		this.budgetNanos = budget.toNanos();
		this.itemsLeft = new AtomicLong(items);
		// Calls still waiting for a place when the request's time runs out fail then.
		this.calls = new CallLimiter(maxCallsInFlight, fairShare, this.startNanos + this.budgetNanos);
	}

	/** The time left before the request's deadline, at most {@code cap}. */
	public Duration remaining(Duration cap) {
		long left = this.budgetNanos - (System.nanoTime() - this.startNanos);
		return (left < cap.toNanos()) ? Duration.ofNanos(left) : cap;
	}

	/** Takes up to {@code wanted} items of the budget; what is left when fewer remain, 0 when none. */
	public int takeItems(int wanted) {
		if (wanted <= 0) {
			return 0;
		}
		while (true) {
			long left = this.itemsLeft.get();
			if (left <= 0) {
				return 0;
			}
			long granted = Math.min(left, wanted);
			if (this.itemsLeft.compareAndSet(left, left - granted)) {
				return (int) granted;
			}
		}
	}

	/** Gives back items a read was granted and did not scan. */
	public void returnItems(int unused) {
		if (unused > 0) {
			this.itemsLeft.addAndGet(unused);
		}
	}

	public boolean hasItemsLeft() {
		return this.itemsLeft.get() > 0;
	}

	/** The request's calls in flight: every DynamoDB call of the request takes a place here first. */
	public CallLimiter calls() {
		return this.calls;
	}

}
