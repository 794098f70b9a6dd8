package dev.dynamorelay.budget;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one GraphQL request cost in DynamoDB (requests, items scanned and returned, capacity units),
 * until when it may still read, how many more items its connections may scan, and how many of its
 * calls may be in flight at once.
 *
 * <p>Shared by every field of the request; fields read concurrently, so the sums and the item budget
 * are thread-safe. The deadline bounds the whole request, so that nested fields read one after
 * another still fail within the configured timeout of the request's start, not of their own.
 *
 * <p>The item budget is taken before each read, as much as its {@code Limit} (DynamoDB scans at most
 * {@code Limit} items), and what the read did not scan is given back when it answers: however the
 * request's fields interleave, their reads together never scan more than the budget.
 */
public final class ReadStats {

	private final long startNanos = System.nanoTime();

	private final long budgetNanos;

	/** Items the request's reads may still be granted; reads in flight hold what they were granted. */
	private final AtomicLong itemsLeft;

	private final CallLimiter calls;

	private final LongAdder requests = new LongAdder();

	private final LongAdder scannedCount = new LongAdder();

	private final LongAdder count = new LongAdder();

	private final DoubleAdder consumedCapacity = new DoubleAdder();

	/** Statistics of a request with no deadline, item budget or limit on its calls of its own. */
	public ReadStats() {
		this.budgetNanos = Long.MAX_VALUE;
		this.itemsLeft = new AtomicLong(Long.MAX_VALUE);
		this.calls = CallLimiter.unlimited();
	}

	/**
	 * Statistics of a request that may read for {@code budget} from now, scan {@code items} items with
	 * its connections' reads and counts, and have {@code maxCallsInFlight} DynamoDB calls in flight at once.
	 */
	public ReadStats(Duration budget, long items, int maxCallsInFlight) {
		this(budget, items, maxCallsInFlight, FairShare.unlimited());
	}

	/**
	 * Statistics of a request as above, whose calls take their places among all requests' calls in
	 * {@code fairShare}.
	 */
	public ReadStats(Duration budget, long items, int maxCallsInFlight, FairShare fairShare) {
		if (items < 0) {
			throw new IllegalArgumentException("the item budget must not be negative, got " + items);
		}
		this.budgetNanos = budget.toNanos();
		this.itemsLeft = new AtomicLong(items);
		// Calls still waiting for a place when the request's time runs out fail then.
		this.calls = new CallLimiter(maxCallsInFlight, fairShare, this.startNanos + this.budgetNanos);
	}

	/**
	 * What is left of the request's time, at most {@code cap}; zero or negative once it is spent.
	 */
	public Duration remaining(Duration cap) {
		long left = this.budgetNanos - (System.nanoTime() - this.startNanos);
		return (left < cap.toNanos()) ? Duration.ofNanos(left) : cap;
	}

	/**
	 * Takes up to {@code wanted} items of the request's item budget for one read: what it gets (0 once
	 * the budget is spent or held by reads in flight) is the most the read may scan.
	 */
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

	/** Gives back items taken with {@link #takeItems} that a read did not scan. */
	public void returnItems(int unused) {
		if (unused > 0) {
			this.itemsLeft.addAndGet(unused);
		}
	}

	/** Whether any of the item budget is left to take now. */
	public boolean hasItemsLeft() {
		return this.itemsLeft.get() > 0;
	}

	/** The request's DynamoDB calls: each goes through here, so that only so many are in flight at once. */
	public CallLimiter calls() {
		return this.calls;
	}

	/**
	 * Counts {@code call}, a DynamoDB request sent, as a request if it fails or times out (nothing read,
	 * its capacity unknown): what a request sent shows in {@code extensions.dynamodb} whatever it got back.
	 * An answered call is recorded by its caller, with what it read ({@link #record}).
	 */
	public <R> CompletableFuture<R> sent(CompletableFuture<R> call) {
		return call.whenComplete((response, failure) -> {
			if (failure != null) {
				this.requests.increment();
			}
		});
	}

	/** Records one DynamoDB request. */
	public void record(long scanned, long returned, Double capacityUnits) {
		this.requests.increment();
		this.scannedCount.add(scanned);
		this.count.add(returned);
		if (capacityUnits != null) {
			this.consumedCapacity.add(capacityUnits);
		}
	}

	public long requests() {
		return this.requests.sum();
	}

	public long scannedCount() {
		return this.scannedCount.sum();
	}

	public long count() {
		return this.count.sum();
	}

	public double consumedCapacity() {
		return this.consumedCapacity.sum();
	}

	/** The sums as the {@code extensions.dynamodb} object of the contract. */
	public Map<String, Object> toMap() {
		Map<String, Object> map = new LinkedHashMap<>();
		map.put("requests", requests());
		map.put("scannedCount", scannedCount());
		map.put("count", count());
		map.put("consumedCapacity", consumedCapacity());
		return map;
	}

}
