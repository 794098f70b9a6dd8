package dev.dynamorelay.engine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.dynamorelay.engine.action.Action;
import dev.dynamorelay.engine.action.RequestContext;
import dev.dynamorelay.engine.streams.StreamsOptions;
import dev.dynamorelay.engine.wire.Fault;

/**
 * How to run the engine: where it listens, where it keeps its data, and what it injects for tests. Start from
 * {@link #defaults()} and change what differs ({@code EngineOptions.defaults().withPort(8000)}).
 *
 * @param host the address the engine listens on (loopback by default: it checks no signature)
 * @param port the port; 0 takes a free one ({@code DynamoDbEngine.endpoint()} tells which)
 * @param path the directory of the journal that keeps the data across restarts; null keeps it in memory only
 * @param region the region of a call whose credentials name none (ARNs carry the region the caller signed for)
 * @param workerThreads the threads that run operations (the I/O threads only move bytes)
 * @param tableActivationDelay how long a created table (or index) stays CREATING before it is ACTIVE
 * @param shardRolloverAge the age at which a stream's open shard closes and a child opens (DynamoDB: about 4 hours)
 * @param shardRolloverRecords the records after which a stream's open shard closes and a child opens
 * @param faults the faults injected from the start, by {@code X-Amz-Target} ({@code "*"} for every target); they
 * may be changed while running ({@code DynamoDbEngine.faults()})
 * @param actions operations served besides the engine's own, or instead of one of them (tests add operations of
 * their own)
 */
public record EngineOptions(String host, int port, Path path, String region, int workerThreads,
		Duration tableActivationDelay, Duration shardRolloverAge, long shardRolloverRecords, Map<String, Fault> faults,
		List<Action<?, ?>> actions) {

	public EngineOptions {
		Objects.requireNonNull(host, "host");
		Objects.requireNonNull(region, "region");
		if (port < 0 || port > 65535) {
			throw new IllegalArgumentException("No such port: " + port);
		}
		if (workerThreads < 1) {
			throw new IllegalArgumentException("At least one worker thread: " + workerThreads);
		}
		tableActivationDelay = nonNegative(tableActivationDelay, "tableActivationDelay");
		shardRolloverAge = nonNegative(shardRolloverAge, "shardRolloverAge");
		if (shardRolloverAge.isZero()) {
			throw new IllegalArgumentException("A shard's age before it closes must be positive");
		}
		if (shardRolloverRecords < 1) {
			throw new IllegalArgumentException("A shard's records before it closes must be positive: "
					+ shardRolloverRecords);
		}
		faults = Map.copyOf(faults);
		actions = List.copyOf(actions);
	}

	private static Duration nonNegative(Duration duration, String name) {
		Objects.requireNonNull(duration, name);
		if (duration.isNegative()) {
			throw new IllegalArgumentException("Negative " + name + ": " + duration);
		}
		return duration;
	}

	/**
	 * 127.0.0.1 on a free port, in memory, us-east-1, 16 worker threads, tables ACTIVE at once, shards rolled
	 * over every 4 hours or 100,000 records (the streams' defaults), no faults.
	 */
	public static EngineOptions defaults() {
		StreamsOptions streams = StreamsOptions.defaults();
		return new EngineOptions("127.0.0.1", 0, null, RequestContext.DEFAULT_REGION, 16, Duration.ZERO,
				streams.shardAge(), streams.shardRecords(), Map.of(), List.of());
	}

	public EngineOptions withHost(String host) {
		return new EngineOptions(host, this.port, this.path, this.region, this.workerThreads, this.tableActivationDelay,
				this.shardRolloverAge, this.shardRolloverRecords, this.faults, this.actions);
	}

	public EngineOptions withPort(int port) {
		return new EngineOptions(this.host, port, this.path, this.region, this.workerThreads, this.tableActivationDelay,
				this.shardRolloverAge, this.shardRolloverRecords, this.faults, this.actions);
	}

	public EngineOptions withPath(Path path) {
		return new EngineOptions(this.host, this.port, path, this.region, this.workerThreads, this.tableActivationDelay,
				this.shardRolloverAge, this.shardRolloverRecords, this.faults, this.actions);
	}

	public EngineOptions withRegion(String region) {
		return new EngineOptions(this.host, this.port, this.path, region, this.workerThreads, this.tableActivationDelay,
				this.shardRolloverAge, this.shardRolloverRecords, this.faults, this.actions);
	}

	public EngineOptions withWorkerThreads(int workerThreads) {
		return new EngineOptions(this.host, this.port, this.path, this.region, workerThreads, this.tableActivationDelay,
				this.shardRolloverAge, this.shardRolloverRecords, this.faults, this.actions);
	}

	public EngineOptions withTableActivationDelay(Duration delay) {
		return new EngineOptions(this.host, this.port, this.path, this.region, this.workerThreads, delay,
				this.shardRolloverAge, this.shardRolloverRecords, this.faults, this.actions);
	}

	public EngineOptions withShardRollover(Duration age, long records) {
		return new EngineOptions(this.host, this.port, this.path, this.region, this.workerThreads,
				this.tableActivationDelay, age, records, this.faults, this.actions);
	}

	public EngineOptions withFaults(Map<String, Fault> faults) {
		return new EngineOptions(this.host, this.port, this.path, this.region, this.workerThreads,
				this.tableActivationDelay, this.shardRolloverAge, this.shardRolloverRecords, faults, this.actions);
	}

	public EngineOptions withActions(List<Action<?, ?>> actions) {
		return new EngineOptions(this.host, this.port, this.path, this.region, this.workerThreads,
				this.tableActivationDelay, this.shardRolloverAge, this.shardRolloverRecords, this.faults, actions);
	}

}
