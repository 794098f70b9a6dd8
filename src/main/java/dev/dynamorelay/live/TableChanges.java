package dev.dynamorelay.live;

import java.math.BigDecimal;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Routes one table's records to the subscriptions they may concern: those whose partition the record's item is
 * in, before or after the write (indexed by partition value, for each attribute that partitions a read), and
 * those that read the whole table. A record is judged against no other subscription.
 */
final class TableChanges implements Consumer<ChangeRecord> {

	/** By the attribute that partitions a read (the table's or an index's key), then by its value. */
	private final Map<String, Map<String, Set<LiveSubscriber>>> byPartition = new ConcurrentHashMap<>();

	private final Set<LiveSubscriber> whole = ConcurrentHashMap.newKeySet();

	private final java.util.concurrent.atomic.AtomicInteger size = new java.util.concurrent.atomic.AtomicInteger();

	void add(LiveSubscriber subscriber) {
		var attribute = subscriber.query().partitionAttribute();
		if (attribute.isPresent()) {
			this.byPartition.computeIfAbsent(attribute.get(), (name) -> new ConcurrentHashMap<>())
				.computeIfAbsent(key(subscriber.query().query().partition().orElseThrow()),
						(value) -> ConcurrentHashMap.newKeySet())
				.add(subscriber);
		}
		else {
			this.whole.add(subscriber);
		}
		this.size.incrementAndGet();
	}

	void remove(LiveSubscriber subscriber) {
		var attribute = subscriber.query().partitionAttribute();
		boolean removed;
		if (attribute.isPresent()) {
			Map<String, Set<LiveSubscriber>> values = this.byPartition.get(attribute.get());
			String key = key(subscriber.query().query().partition().orElseThrow());
			Set<LiveSubscriber> subscribers = (values != null) ? values.get(key) : null;
			removed = subscribers != null && subscribers.remove(subscriber);
			if (subscribers != null && subscribers.isEmpty()) {
				values.remove(key, subscribers);
			}
		}
		else {
			removed = this.whole.remove(subscriber);
		}
		if (removed) {
			this.size.decrementAndGet();
		}
	}

	/** Runs {@code action} for each subscriber of this table. */
	void forEach(Consumer<LiveSubscriber> action) {
		this.byPartition.values().forEach((values) -> values.values().forEach((subscribers) -> subscribers.forEach(action)));
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
		this.byPartition.forEach((attribute, values) -> {
			record.oldImage().map((image) -> image.get(attribute)).map(TableChanges::key).map(values::get)
				.ifPresent(candidates::addAll);
			record.newImage().map((image) -> image.get(attribute)).map(TableChanges::key).map(values::get)
				.ifPresent(candidates::addAll);
		});
		for (LiveSubscriber subscriber : candidates) {
			subscriber.offer(record);
		}
	}

	/** A key value as an index key: numbers by value ({@code 10} and {@code 10.0} alike). */
	static String key(AttributeValue value) {
		if (value.s() != null) {
			return "S" + value.s();
		}
		if (value.n() != null) {
			return "N" + new BigDecimal(value.n()).stripTrailingZeros().toPlainString();
		}
		if (value.b() != null) {
			return "B" + Base64.getEncoder().encodeToString(value.b().asByteArrayUnsafe());
		}
		return "?" + value;
	}

}
