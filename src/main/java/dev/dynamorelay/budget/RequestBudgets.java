package dev.dynamorelay.budget;

import java.time.Duration;
import java.util.Objects;

/**
 * The budget every request starts with, from the server's settings: the time it may take, the items its reads
 * may scan, and the calls it may have in flight, their place among all requests' calls given by {@code fairShare}.
 */
public record RequestBudgets(Duration timeout, long items, int maxCallsInFlight, FairShare fairShare) {

	public RequestBudgets {
		Objects.requireNonNull(timeout, "timeout");
		Objects.requireNonNull(fairShare, "fairShare");
	}

	/** A new request's budget, and its costs counted from nothing. */
	public ReadStats start() {
		return start(this.items);
	}

	/** A new request's budget of at most {@code items} items, and its costs counted from nothing. */
	public ReadStats start(long items) {
		return ReadStats.of(new RequestBudget(this.timeout, Math.min(this.items, items), this.maxCallsInFlight,
				this.fairShare));
	}

}
