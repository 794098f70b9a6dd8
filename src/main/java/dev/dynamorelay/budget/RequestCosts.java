package dev.dynamorelay.budget;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one request cost in DynamoDB: its calls, the items they scanned and returned, and the capacity units
 * they consumed, as {@code extensions.dynamodb} reports them. Thread-safe sums, added to by every field of the
 * request.
 */
public final class RequestCosts {

	private final LongAdder requests = new LongAdder();

	private final LongAdder scannedCount = new LongAdder();

	private final LongAdder count = new LongAdder();

	private final DoubleAdder consumedCapacity = new DoubleAdder();

	/** Counts {@code call} as one request if it fails (a call that answers is counted by {@link #record}). */
	public <R> CompletableFuture<R> sent(CompletableFuture<R> call) {
		return call.whenComplete((response, failure) -> {
			if (failure != null) {
				this.requests.increment();
			}
		});
	}

	/** One call's answer: the items it scanned and returned, and its capacity units when DynamoDB told them. */
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

}
