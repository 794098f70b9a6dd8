package dev.dynamorelay.engine.streams;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How the engine's streams keep records: how long (DynamoDB: 24 hours), how long an iterator lives (DynamoDB:
 * 15 minutes), when a shard closes and opens its child (DynamoDB rolls a shard about every four hours; a smaller
 * size or age tests readers across shard ends), and how much a stream holds at most (DynamoDB keeps 24 hours
 * whatever their size; the engine, in memory, also bounds a stream by records and bytes, trimming the oldest
 * first as the retention does).
 *
 * @param retention how long a record stays readable, and a disabled stream listed
 * @param iteratorLifetime how long a shard iterator may be used after it was handed out
 * @param shardRecords the records a shard takes before it closes and a child opens
 * @param shardAge the age at which a shard closes, at its next record, and a child opens
 * @param streamRecords the most records a stream keeps; the oldest are trimmed past it
 * @param streamBytes the most bytes of records (their {@code SizeBytes}) a stream keeps; the oldest are trimmed
 * past it
 * @param clock the time of the retention and of iterators (records carry the time of their commit)
 */
public record StreamsOptions(Duration retention, Duration iteratorLifetime, long shardRecords, Duration shardAge,
		long streamRecords, long streamBytes, Clock clock) {

	/** DynamoDB's retention: "The stream records within a shard are removed automatically after 24 hours." */
	public static final Duration RETENTION = Duration.ofHours(24);

	/** "A shard iterator expires 15 minutes after it is returned to the requester." */
	public static final Duration ITERATOR_LIFETIME = Duration.ofMinutes(15);

	public StreamsOptions {
		Objects.requireNonNull(retention, "retention");
		Objects.requireNonNull(iteratorLifetime, "iteratorLifetime");
		Objects.requireNonNull(shardAge, "shardAge");
		Objects.requireNonNull(clock, "clock");
		if (retention.isNegative() || retention.isZero() || iteratorLifetime.isNegative() || iteratorLifetime.isZero()
				|| shardAge.isNegative() || shardAge.isZero()) {
			throw new IllegalArgumentException("retention, iterator lifetime and shard age must be positive");
		}
		if (shardRecords < 1 || streamRecords < 1 || streamBytes < 1) {
			throw new IllegalArgumentException("shard records, stream records and stream bytes must be positive");
		}
	}

	/** DynamoDB's figures, with a shard closing at 100,000 records, a stream bounded at 1,000,000 records and 256 MiB. */
	public static StreamsOptions defaults() {
		return new StreamsOptions(RETENTION, ITERATOR_LIFETIME, 100_000, Duration.ofHours(4), 1_000_000, 256L << 20,
				Clock.systemUTC());
	}

	public StreamsOptions withRetention(Duration value) {
		return new StreamsOptions(value, this.iteratorLifetime, this.shardRecords, this.shardAge, this.streamRecords,
				this.streamBytes, this.clock);
	}

	public StreamsOptions withShards(long records, Duration age) {
		return new StreamsOptions(this.retention, this.iteratorLifetime, records, age, this.streamRecords,
				this.streamBytes, this.clock);
	}

	public StreamsOptions withBounds(long records, long bytes) {
		return new StreamsOptions(this.retention, this.iteratorLifetime, this.shardRecords, this.shardAge, records,
				bytes, this.clock);
	}

	public StreamsOptions withClock(Clock value) {
		return new StreamsOptions(this.retention, this.iteratorLifetime, this.shardRecords, this.shardAge,
				this.streamRecords, this.streamBytes, value);
	}

}
