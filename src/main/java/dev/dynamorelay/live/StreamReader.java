package dev.dynamorelay.live;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

import dev.dynamorelay.dynamodb.DynamoDbFailures;

/**
 * Reads one table's DynamoDB Stream for the whole process, and hands each record, once and in order per
 * shard, to a listener.
 *
 * <p>From its start it reads every open shard from its newest record (LATEST); a shard that closes (a split,
 * or DynamoDB's rotation every few hours) is read to its end, and only then are its children read, from their
 * first record, so that an item's changes stay in order across a split. Records are told apart by sequence
 * number: a shard re-read after an error delivers nothing twice. One GetRecords per shard is in flight at a
 * time; a read that found records reads again at once, one that found none waits the poll interval. It reads
 * through the table's {@link StreamShards}, as the resumes' readings of the stream do ({@link Replays}).
 */
final class StreamReader {

	private static final Logger logger = LoggerFactory.getLogger(StreamReader.class);

	private static final Duration MAX_BACK_OFF = Duration.ofSeconds(5);

	private final DynamoDbStreamsAsyncClient streams;

	private final DynamoDbAsyncClient dynamoDb;

	private final String table;

	private final ScheduledExecutorService timer;

	private final Consumer<ChangeRecord> listener;

	private final LiveSettings properties;

	/** Whether the table has subscribers now: the poll interval is short then. */
	private final BooleanSupplier wanted;

	private final LiveMeters meters;

	private final Map<String, ShardReader> shards = new ConcurrentHashMap<>();

	private volatile StreamShards stream;

	private volatile boolean stopped;

	StreamReader(DynamoDbStreamsAsyncClient streams, DynamoDbAsyncClient dynamoDb, String table,
			ScheduledExecutorService timer, LiveSettings properties, BooleanSupplier wanted, LiveMeters meters,
			Consumer<ChangeRecord> listener) {
		this.streams = streams;
		this.dynamoDb = dynamoDb;
		this.table = table;
		this.timer = timer;
		this.properties = properties;
		this.wanted = wanted;
		this.meters = meters;
		this.listener = listener;
	}

	/** Finds the stream and starts reading its open shards from now; completes once every shard has its place. */
	CompletableFuture<Void> start() {
		return StreamShards.of(this.streams, this.dynamoDb, this.table).thenCompose((stream) -> {
			this.stream = stream;
			return stream.shards();
		}).thenCompose((all) -> {
			List<CompletableFuture<Void>> started = new ArrayList<>();
			for (Shard shard : all) {
				if (shard.sequenceNumberRange().endingSequenceNumber() == null) {
					ShardReader reader = new ShardReader(shard.shardId());
					this.shards.put(shard.shardId(), reader);
					started.add(reader.open(StreamShards.Start.NEWEST).thenRun(() -> reader.schedule(Duration.ZERO)));
				}
				else {
					// Closed before this reader started: its records are history, and its children are known.
					this.shards.put(shard.shardId(), ShardReader.drained(this, shard.shardId()));
				}
			}
			this.timer.scheduleWithFixedDelay(this::discover, 30, 30, TimeUnit.SECONDS);
			return CompletableFuture.allOf(started.toArray(CompletableFuture[]::new));
		});
	}

	void stop() {
		this.stopped = true;
	}

	/** The table this reader reads the stream of. */
	String table() {
		return this.table;
	}

	/** The last sequence number delivered from each shard, as of now; zero for a shard delivered nothing yet. */
	Map<String, BigInteger> positions() {
		Map<String, BigInteger> positions = new java.util.HashMap<>();
		this.shards.forEach((id, shard) -> positions.put(id, shard.last));
		return positions;
	}

	/**
	 * How far the reading is behind the stream's newest records: of the shards being read, the most by which
	 * the last record a read found was older than the read; zero for a shard whose last read found nothing (it
	 * is at the shard's tip).
	 */
	Duration lag() {
		return this.shards.values()
			.stream()
			.filter((shard) -> !shard.drained)
			.map((shard) -> shard.lag)
			.max(Duration::compareTo)
			.orElse(Duration.ZERO);
	}

	/** The stream, once {@link #start} found it: its resumes read it too. */
	StreamShards stream() {
		return this.stream;
	}

	/** Finds shards this reader does not know yet, and starts each whose parent is drained (or unknown). */
	private void discover() {
		if (this.stopped) {
			return;
		}
		this.stream.shards().whenComplete((all, failure) -> {
			if (failure != null) {
				logger.debug("Listing the shards of {} failed: {}", this.table, failure.toString());
				return;
			}
			for (Shard shard : all) {
				if (this.shards.containsKey(shard.shardId())) {
					continue;
				}
				ShardReader parent = (shard.parentShardId() != null) ? this.shards.get(shard.parentShardId()) : null;
				if (parent == null || parent.drained) {
					ShardReader child = new ShardReader(shard.shardId());
					if (this.shards.putIfAbsent(shard.shardId(), child) == null) {
						child.open(StreamShards.Start.OLDEST).thenRun(() -> child.schedule(Duration.ZERO));
					}
				}
			}
		});
	}

	/** One shard's reading: its iterator, the last sequence number delivered, whether it is drained. */
	private final class ShardReader {

		private final String shardId;

		private volatile String iterator;

		private volatile BigInteger last = BigInteger.ZERO;

		private volatile boolean drained;

		/** How old the last record of the last read was when read; zero when that read found nothing. */
		private volatile Duration lag = Duration.ZERO;

		private Duration backOff = Duration.ZERO;

		ShardReader(String shardId) {
			this.shardId = shardId;
		}

		static ShardReader drained(StreamReader outer, String shardId) {
			ShardReader shard = outer.new ShardReader(shardId);
			shard.drained = true;
			return shard;
		}

		CompletableFuture<Void> open(StreamShards.Start start) {
			return StreamReader.this.stream.iterator(this.shardId, start).thenAccept((iterator) -> this.iterator = iterator);
		}

		void schedule(Duration delay) {
			if (StreamReader.this.stopped || this.drained) {
				return;
			}
			StreamReader.this.timer.schedule((Runnable) this::read, delay.toNanos(), TimeUnit.NANOSECONDS);
		}

		private void read() {
			String current = this.iterator;
			if (current == null) {
				reopen();
				return;
			}
			StreamReader.this.stream.read(this.shardId, current).whenComplete((page, failure) -> {
				if (failure != null) {
					failed(DynamoDbFailures.unwrap(failure));
				}
				else {
					read(page);
				}
			});
		}

		private void read(StreamShards.Page page) {
			this.backOff = Duration.ZERO;
			for (ChangeRecord record : page.records()) {
				deliver(record);
			}
			this.lag = page.written().map((written) -> max(Duration.between(written, Instant.now()), Duration.ZERO))
				.orElse(Duration.ZERO);
			StreamReader.this.meters.read(page.records().size());
			this.iterator = page.next().orElse(null);
			if (this.iterator == null) {
				this.drained = true;
				StreamReader.this.discover();
				return;
			}
			schedule(page.records().isEmpty() ? interval() : Duration.ZERO);
		}

		private void deliver(ChangeRecord record) {
			if (record.sequenceNumber().compareTo(this.last) <= 0) {
				return;
			}
			this.last = record.sequenceNumber();
			try {
				StreamReader.this.listener.accept(record);
			}
			catch (RuntimeException ex) {
				logger.error("Routing a change of {} failed", StreamReader.this.table, ex);
			}
		}

		private void failed(Throwable failure) {
			if (failure instanceof ExpiredIteratorException || failure instanceof TrimmedDataAccessException) {
				reopen();
				return;
			}
			if (failure instanceof ResourceNotFoundException) {
				this.drained = true;
				StreamReader.this.discover();
				return;
			}
			this.backOff = this.backOff.isZero() ? Duration.ofMillis(250) : min(this.backOff.multipliedBy(2), MAX_BACK_OFF);
			logger.warn("Reading the stream of {} (shard {}) failed, again in {} ms: {}", StreamReader.this.table,
					this.shardId, this.backOff.toMillis(), failure.toString());
			StreamReader.this.meters.failed();
			schedule(this.backOff);
		}

		/** A new iterator right behind the last record delivered (or at the start, before any). */
		private void reopen() {
			open((this.last.signum() > 0) ? StreamShards.Start.after(this.last) : StreamShards.Start.OLDEST).whenComplete((opened, failure) -> {
				if (failure != null) {
					Throwable cause = DynamoDbFailures.unwrap(failure);
					if (cause instanceof ResourceNotFoundException || cause instanceof TrimmedDataAccessException) {
						this.drained = true;
						StreamReader.this.discover();
						return;
					}
					this.iterator = null;
					this.backOff = this.backOff.isZero() ? Duration.ofMillis(250) : min(this.backOff.multipliedBy(2), MAX_BACK_OFF);
					schedule(this.backOff);
					return;
				}
				schedule(Duration.ZERO);
			});
		}

		private Duration interval() {
			return StreamReader.this.wanted.getAsBoolean() ? StreamReader.this.properties.pollInterval()
					: StreamReader.this.properties.idlePollInterval();
		}

	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}


	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

}
