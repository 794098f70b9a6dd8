package dev.dynamorelay.pagination;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one GraphQL request cost in DynamoDB (requests, items scanned and returned, capacity units),
 * and until when it may still read.
 *
 * <p>Shared by every field of the request; fields read concurrently, so the sums are thread-safe.
 * The deadline bounds the whole request, so that nested fields read one after another still fail
 * within the configured timeout of the request's start, not of their own.
 */
public final class ReadStats {

	private final long startNanos = System.nanoTime();

	private final long budgetNanos;

	private final LongAdder requests = new LongAdder();

	private final LongAdder scannedCount = new LongAdder();

	private final LongAdder count = new LongAdder();

	private final DoubleAdder consumedCapacity = new DoubleAdder();

	/** Statistics of a request with no deadline of its own. */
	public ReadStats() {
		this.budgetNanos = Long.MAX_VALUE;
	}

	/** Statistics of a request that may read for {@code budget} from now. */
	public ReadStats(Duration budget) {
		this.budgetNanos = budget.toNanos();
	}

	/**
	 * What is left of the request's time, at most {@code cap}; zero or negative once it is spent.
	 */
	public Duration remaining(Duration cap) {
		long left = this.budgetNanos - (System.nanoTime() - this.startNanos);
		return (left < cap.toNanos()) ? Duration.ofNanos(left) : cap;
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
