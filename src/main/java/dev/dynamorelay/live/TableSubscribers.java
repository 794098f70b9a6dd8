package dev.dynamorelay.live;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;


/**
 * The subscribers of one table, by the partition each reads ({@link PartitionKey}) or the whole table, and the
 * routing of the table's records to those they may concern: the subscribers of the partitions the record's item
 * is in, before or after the write, and those that read the whole table. A record is judged against no other
 * subscriber. Subscribers of equal {@link LiveQuery queries} share the judging: a record is judged once for them all.
 */
final class TableSubscribers implements Consumer<ChangeRecord> {

	private final Map<PartitionKey, Set<LiveSubscriber>> byPartition = new ConcurrentHashMap<>();

	/** The attributes that partition the reads of subscribers, ever: a record's images are looked up by each. */
	private final Set<String> partitioning = ConcurrentHashMap.newKeySet();

	private final Set<LiveSubscriber> whole = ConcurrentHashMap.newKeySet();

	private final AtomicInteger size = new AtomicInteger();

	void add(LiveSubscriber subscriber) {
		Optional<PartitionKey> partition = partition(subscriber);
		if (partition.isPresent()) {
			this.partitioning.add(partition.get().attribute());
			this.byPartition.computeIfAbsent(partition.get(), (key) -> ConcurrentHashMap.newKeySet()).add(subscriber);
		}
		else {
			this.whole.add(subscriber);
		}
		this.size.incrementAndGet();
	}

	void remove(LiveSubscriber subscriber) {
		Optional<PartitionKey> partition = partition(subscriber);
		boolean removed;
		if (partition.isPresent()) {
			Set<LiveSubscriber> subscribers = this.byPartition.get(partition.get());
			removed = subscribers != null && subscribers.remove(subscriber);
			if (subscribers != null && subscribers.isEmpty()) {
				this.byPartition.remove(partition.get(), subscribers);
			}
		}
		else {
			removed = this.whole.remove(subscriber);
		}
		if (removed) {
			this.size.decrementAndGet();
		}
	}

	/** The partition {@code subscriber} reads; empty when it reads the whole table. */
	private static Optional<PartitionKey> partition(LiveSubscriber subscriber) {
		return subscriber.query().partitionKey();
	}

	/** Runs {@code action} for each subscriber of this table. */
	void forEach(Consumer<LiveSubscriber> action) {
		this.byPartition.values().forEach((subscribers) -> subscribers.forEach(action));
		this.whole.forEach(action);
	}

	/** Whether any subscription reads this table. */
	boolean wanted() {
		return this.size.get() > 0;
	}

	@Override
	public void accept(ChangeRecord record) {
		if (!wanted()) {
			return;
		}
		Set<LiveSubscriber> candidates = new LinkedHashSet<>(this.whole);
		for (PartitionKey partition : PartitionKey.of(this.partitioning, record)) {
			Set<LiveSubscriber> subscribers = this.byPartition.get(partition);
			if (subscribers != null) {
				candidates.addAll(subscribers);
			}
		}
		// Subscribers of equal queries (the same connection, arguments and owner filters) get the same change:
		// it is judged once for them all, and each takes it into its own buffer and bytes.
		Map<LiveQuery, Optional<Change>> judged = new HashMap<>();
		for (LiveSubscriber subscriber : candidates) {
			if (!subscriber.wants()) {
				continue;
			}
			Optional<Change> change = judged.get(subscriber.query());
			if (change == null) {
				change = subscriber.judge(record);
				judged.put(subscriber.query(), change);
			}
			subscriber.offer(record, change);
		}
	}

}
