package dev.dynamorelay.bench.support;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;
import java.util.function.LongPredicate;
import java.util.function.ObjIntConsumer;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The live sections' writes: PutItems of new purchases (amount 50) straight to {@code UserPurchases}, not through
 * the server, each with a {@link Stamp} in its {@code product} and a {@code purchasedAt} of its own, at a steady
 * rate.
 */
public final class StampedWrites {

	private final DynamoDbAsyncClient dynamoDb;

	/** Every purchase written has its own {@code purchasedAt}. */
	private final AtomicLong clock = new AtomicLong(BenchData.T0 + 200L * 365 * 24 * 3_600_000L);

	private final AtomicLong sequence = new AtomicLong();

	public StampedWrites(DynamoDbAsyncClient dynamoDb) {
		this.dynamoDb = dynamoDb;
	}

	/** The sequence number the next write will have: a window's first. */
	public long next() {
		return this.sequence.get() + 1;
	}

	/** A PutItem of a new purchase of user {@code u} ({@link BenchData#userId}), stamped as it is sent; its stamp. */
	public Stamp put(int u) {
		Stamp stamp = Stamp.now(this.sequence.incrementAndGet());
		Map<String, AttributeValue> item = new HashMap<>();
		item.put("userId", AttributeValue.fromS(BenchData.userId(u)));
		item.put("purchasedAt", AttributeValue.fromN(Long.toString(this.clock.incrementAndGet())));
		item.put("category", AttributeValue.fromS(BenchData.category(u % BenchData.CATEGORIES)));
		item.put("amount", AttributeValue.fromN("50"));
		item.put("product", AttributeValue.fromS(stamp.product()));
		this.dynamoDb.putItem((put) -> put.tableName("UserPurchases").item(item)).join();
		return stamp;
	}

	/**
	 * Writes for {@code duration} at {@code rate} a second on average (uniform random gaps between 0.5 and 1.5 times
	 * the mean, so that the writes keep no phase with the poll interval), the n-th (from 0) to user {@code user(n)};
	 * each written is handed to {@code written} with its user. Returns how many it wrote.
	 */
	public long write(Duration duration, double rate, IntUnaryOperator user, ObjIntConsumer<Stamp> written)
			throws InterruptedException {
		long end = System.nanoTime() + duration.toNanos();
		return writeUntil((next) -> next >= end, rate, user, written);
	}

	/**
	 * The same until {@code done} says so of the next write's time ({@link System#nanoTime()}), asked before each.
	 */
	public long writeUntil(LongPredicate done, double rate, IntUnaryOperator user, ObjIntConsumer<Stamp> written)
			throws InterruptedException {
		long mean = (long) (1e9 / rate);
		long next = System.nanoTime();
		long writes = 0;
		while (!done.test(next)) {
			long wait = next - System.nanoTime();
			if (wait > 0) {
				TimeUnit.NANOSECONDS.sleep(wait);
			}
			int u = user.applyAsInt((int) writes);
			written.accept(put(u), u);
			writes++;
			next += (long) (mean * (0.5 + ThreadLocalRandom.current().nextDouble()));
		}
		return writes;
	}

}
