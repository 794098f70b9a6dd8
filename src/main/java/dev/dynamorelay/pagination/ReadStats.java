package dev.dynamorelay.pagination;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one GraphQL request cost in DynamoDB: requests, items scanned and returned, capacity units.
 *
 * <p>Shared by every field of the request; fields read concurrently, so the sums are thread-safe.
 */
public final class ReadStats {

	private final LongAdder requests = new LongAdder();

	private final LongAdder scannedCount = new LongAdder();

	private final LongAdder count = new LongAdder();

	private final DoubleAdder consumedCapacity = new DoubleAdder();

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
