package dev.dynamorelay.live;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.dynamorelay.error.BusyException;
import dev.dynamorelay.error.QueryTooComplexException;

/**
 * Who is subscribed to what: each table's subscribers by the partition they read ({@link TableSubscribers}), and
 * how many subscriptions the process and each caller hold, within their limits. The streams' reading is apart
 * ({@link StreamReader}, {@link Replays}): it hands each table's records to its subscribers here.
 */
final class Subscriptions {

	private final int max;

	private final int maxPerCaller;

	/** By table, as DynamoDB knows it. */
	private final Map<String, TableSubscribers> tables = new ConcurrentHashMap<>();

	private final AtomicInteger held = new AtomicInteger();

	private final Map<SubscriberId, AtomicInteger> byCaller = new ConcurrentHashMap<>();

	/**
	 * @param tables the tables subscriptions may read
	 * @param max the most subscriptions at once
	 * @param maxPerCaller the most subscriptions of one caller at once
	 */
	Subscriptions(Collection<String> tables, int max, int maxPerCaller) {
		tables.forEach((table) -> this.tables.put(table, new TableSubscribers()));
		this.max = max;
		this.maxPerCaller = maxPerCaller;
	}

	/** The subscribers of {@code table}; null for a table no subscription reads. */
	TableSubscribers of(String table) {
		return this.tables.get(table);
	}

	/**
	 * Counts a subscription of {@code caller}.
	 * @throws BusyException when the process holds as many as it may
	 * @throws QueryTooComplexException when the caller holds as many as one caller may
	 */
	void reserve(SubscriberId caller) {
		if (this.held.incrementAndGet() > this.max) {
			this.held.decrementAndGet();
			throw new BusyException("The server holds %d live subscriptions, the most it serves ".formatted(this.max)
					+ "(dynamo-relay.live.max-subscriptions): subscribe again later.");
		}
		AtomicInteger own = this.byCaller.computeIfAbsent(caller, (key) -> new AtomicInteger());
		if (own.incrementAndGet() > this.maxPerCaller) {
			own.decrementAndGet();
			this.held.decrementAndGet();
			throw new QueryTooComplexException(("This caller holds %d live subscriptions, the most one caller may "
					+ "(dynamo-relay.live.max-subscriptions-per-caller): end one first.").formatted(this.maxPerCaller));
		}
	}

	/** A subscription of {@code caller} ended. */
	void release(SubscriberId caller) {
		this.held.decrementAndGet();
		AtomicInteger own = this.byCaller.get(caller);
		if (own != null && own.decrementAndGet() <= 0) {
			this.byCaller.remove(caller, own);
		}
	}

	/** The subscriptions held now. */
	int held() {
		return this.held.get();
	}

	/** Runs {@code action} for every subscriber of every table. */
	void forEach(Consumer<LiveSubscriber> action) {
		this.tables.values().forEach((table) -> table.forEach(action));
	}

}
