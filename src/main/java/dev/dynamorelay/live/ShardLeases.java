package dev.dynamorelay.live;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import com.amazonaws.services.dynamodbv2.streamsadapter.AmazonDynamoDBStreamsAdapterClient;
import com.amazonaws.services.dynamodbv2.streamsadapter.StreamsSchedulerFactory;
import com.amazonaws.services.dynamodbv2.streamsadapter.polling.DynamoDBStreamsPollingConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatch.CloudWatchAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.kinesis.common.ConfigsBuilder;
import software.amazon.kinesis.common.InitialPositionInStream;
import software.amazon.kinesis.common.InitialPositionInStreamExtended;
import software.amazon.kinesis.common.StreamIdentifier;
import software.amazon.kinesis.coordinator.Scheduler;
import software.amazon.kinesis.coordinator.WorkerStateChangeListener;
import software.amazon.kinesis.leases.LeaseManagementConfig;
import software.amazon.kinesis.metrics.MetricsFactory;
import software.amazon.kinesis.metrics.MetricsLevel;
import software.amazon.kinesis.processor.FormerStreamsLeasesDeletionStrategy;
import software.amazon.kinesis.processor.ShardRecordProcessor;
import software.amazon.kinesis.processor.ShardRecordProcessorFactory;

/**
 * This instance's part in reading the tables' streams in a fleet: one Kinesis Client Library 3 application, shared
 * by every instance of the deployment through its lease table, reads each shard of each table's stream on one
 * instance at a time (KCL balances the leases among the instances and hands a stopped or dead instance's to the
 * others after the failover time). The instance that holds a shard's lease publishes each of its records to the
 * broker, in the shard's order, once ({@link RedisBroker#publish}), and checkpoints the shard at the last record the
 * broker took, never further ({@link ShardPublisher}): the next holder reads on from the checkpoint, and what was
 * published again is published once. An instance that cannot publish for longer than the failover time gives its
 * leases up to instances that can, and takes leases again once Redis answers it.
 *
 * <p>A lease that was never checkpointed is read from its shard's oldest record (a lease read from the newest would
 * lose what was written while it had no holder); the records written before the fleet began to read the table are
 * history and left, up to the first one written since ({@link RedisBroker#since}).
 */
final class ShardLeases implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(ShardLeases.class);

	/**
	 * What a table's records are published on: the channels of the partitions of the attributes its live
	 * connections read by, and the table's own channel when a live connection reads the whole table.
	 *
	 * @param attributes the attributes that partition its live connections' reads
	 * @param whole whether one of them reads the whole table
	 */
	record Routing(Set<String> attributes, boolean whole) {

		/**
		 * The partitions a record concerns, each once: of each attribute, the item's partition before and after the
		 * write (an item that moved between partitions is in two); and the whole table (empty) when a live connection
		 * reads it.
		 */
		List<Optional<PartitionKey>> partitions(ChangeRecord record) {
			List<Optional<PartitionKey>> partitions = new ArrayList<>();
			PartitionKey.of(this.attributes, record).forEach((partition) -> partitions.add(Optional.of(partition)));
			if (this.whole) {
				partitions.add(Optional.empty());
			}
			return List.copyOf(partitions);
		}

	}

	private final RedisBroker broker;

	private final Map<String, Routing> routing;

	private final Map<String, Instant> since = new ConcurrentHashMap<>();

	/** How far behind its stream's newest record each shard read here is, by shard. */
	private final Map<String, Long> behind = new ConcurrentHashMap<>();

	private final FleetProperties fleet;

	private final String workerId;

	private final Map<String, String> streamArns;

	private final DynamoDbAsyncClient dynamoDb;

	private final DynamoDbStreamsClient streams;

	private final Region region;

	private final Duration pollInterval;

	private final MetricsFactory metrics;

	private volatile Scheduler scheduler;

	private volatile boolean closing;

	/** Since when publishing has failed without a success ({@link System#nanoTime()}); 0 while it succeeds. */
	private volatile long failingSince;

	/** Set while the leases are given up to instances that can publish, until Redis answers again. */
	private final AtomicBoolean givenUp = new AtomicBoolean();

	/** Set when KCL could not start at all: this instance reads no shard. */
	private volatile boolean failed;

	/**
	 * @param streamArns the tables' streams, by table
	 * @param routing how each table's records are published
	 * @param pollInterval how long a shard's reader waits after a read that found nothing (twice this)
	 */
	ShardLeases(FleetProperties fleet, String workerId, Map<String, String> streamArns, Map<String, Routing> routing,
			RedisBroker broker, DynamoDbAsyncClient dynamoDb, DynamoDbStreamsClient streams, Region region,
			Duration pollInterval, MetricsFactory metrics) {
		this.fleet = fleet;
		this.workerId = workerId;
		this.streamArns = Map.copyOf(streamArns);
		this.broker = broker;
		this.routing = routing;
		this.dynamoDb = dynamoDb;
		this.streams = streams;
		this.region = region;
		this.pollInterval = pollInterval;
		this.metrics = metrics;
		streamArns.keySet().forEach((table) -> this.since.put(table, broker.since(table)));
		this.scheduler = newScheduler();
	}

	/** A KCL scheduler of the fleet's application, for this instance (one per run: a stopped one does not start again). */
	private Scheduler newScheduler() {
		AmazonDynamoDBStreamsAdapterClient adapter = new AmazonDynamoDBStreamsAdapterClient(this.streams, this.region);
		var tracker = StreamsSchedulerFactory.createMultiStreamTracker(new ArrayList<>(this.streamArns.values()),
				InitialPositionInStreamExtended.newInitialPosition(InitialPositionInStream.TRIM_HORIZON),
				new FormerStreamsLeasesDeletionStrategy.NoLeaseDeletionStrategy());
		ConfigsBuilder configs = new ConfigsBuilder(tracker, this.fleet.leaseTable(), adapter, this.dynamoDb,
				NO_CLOUDWATCH, this.workerId, new Processors());
		long failover = this.fleet.failoverTime().toMillis();
		// What the adapter would set itself, warning that it does, set before it makes its lease management (which
		// takes the shard sync's pause when made: 60 s after the first sync, where the adapter means none).
		var leases = configs.leaseManagementConfig()
			.failoverTimeMillis(failover)
			// The leader (the worker that assigns leases) holds its lock as long as a worker its lease: a dead
			// leader's shards move on as fast as another dead worker's (KCL's own default is 2 minutes).
			.dynamoDbLockBasedLeaderLeaseDurationInMillis(failover)
			.dynamoDbLockBasedLeaderHeartbeatPeriodInMillis(Math.max(200, failover / 3))
			// The leader's round of assignments every half failover time, not KCL's two: an expired lease waits for
			// the next round, and the round reads the lease and worker tables, a few calls.
			.leaseAssignmentIntervalMillis(Math.max(500, failover / 2))
			// A lease handed over (its holder stops, or the leader rebalances) waits for its holder's checkpoint at
			// most the failover time, not KCL's 30 s: a holder that stopped meanwhile left the shard unread that long.
			.gracefulLeaseHandoffConfig(LeaseManagementConfig.GracefulLeaseHandoffConfig.builder()
				.gracefulLeaseHandoffTimeoutMillis(failover)
				.build())
			.shardSyncIntervalMillis(0)
			.leasesRecoveryAuditorInconsistencyConfidenceThreshold(0);
		// The leader assigns an expired lease to any worker that reported its metrics within two reporting periods,
		// a stopped or dead one included (KCL's default period is 30 s: such a worker stays assignable up to a minute,
		// and the lease goes to it, expires again after the failover time, and so on; awslabs/amazon-kinesis-client
		// issue 1452). Every half failover time, a worker that stopped is out of the assignments within the failover
		// time, as its leases are: one small write per worker each time, fewer than its lease renewals. At least a
		// second: KCL stamps a report in whole seconds and refuses one older than two periods.
		leases.workerUtilizationAwareAssignmentConfig()
			.workerMetricsReporterFreqInMillis(Math.max(1000, failover / 2));
		var coordinator = configs.coordinatorConfig()
			.skipShardSyncAtWorkerInitializationIfLeasesExist(true)
			.parentShardPollIntervalMillis(Math.max(200, this.pollInterval.toMillis() * 4))
			.shardConsumerDispatchPollIntervalMillis(Math.max(100, this.pollInterval.toMillis() * 2))
			.workerStateChangeListener(new WorkerStateChangeListener() {

				@Override
				public void onWorkerStateChange(WorkerState state) {
				}

				@Override
				public void onAllInitializationAttemptsFailed(Throwable failure) {
					ShardLeases.this.failed = true;
					logger.error("The Kinesis Client Library could not start ({}): this instance reads none of the "
							+ "streams' shards, and its live readiness is DOWN", failure.toString());
				}

			});
		var retrieval = configs.retrievalConfig()
			.retrievalSpecificConfig(new DynamoDBStreamsPollingConfig(adapter)
				.idleTimeBetweenReadsInMillis(Math.max(1, this.pollInterval.toMillis())));
		var metricsConfig = configs.metricsConfig().metricsFactory(this.metrics).metricsLevel(MetricsLevel.SUMMARY);
		return StreamsSchedulerFactory.createScheduler(configs.checkpointConfig(), coordinator, leases,
				configs.lifecycleConfig(), metricsConfig, configs.processorConfig(), retrieval, adapter);
	}

	/** Starts taking and reading leases, on a thread of its own. */
	void start() {
		run(this.scheduler);
	}

	private static void run(Scheduler scheduler) {
		Thread thread = new Thread(scheduler, "kcl-scheduler");
		thread.setDaemon(true);
		thread.start();
	}

	/** The shards this instance reads now. */
	int leasesHeld() {
		return this.behind.size();
	}

	/** How far the shards read here are behind their streams' newest records: the most of any. */
	Duration lag() {
		return Duration.ofMillis(this.behind.values().stream().mapToLong(Long::longValue).max().orElse(0));
	}

	/**
	 * Whether this instance does its part: KCL started, and it publishes what it reads (or has failed to for less
	 * than the failover time).
	 */
	boolean working() {
		long failing = this.failingSince;
		return !this.failed && !this.givenUp.get()
				&& (failing == 0 || System.nanoTime() - failing < this.fleet.failoverTime().toNanos());
	}

	/** The channels {@code record} of {@code table} is published on: of the partitions it concerns. */
	List<String> channels(String table, ChangeRecord record) {
		Routing routes = this.routing.get(table);
		if (routes == null) {
			return List.of();
		}
		return routes.partitions(record).stream().map((partition) -> this.broker.channel(table, partition)).toList();
	}

	RedisBroker broker() {
		return this.broker;
	}

	/** When the fleet began to read {@code table}'s stream ({@link RedisBroker#since}). */
	Instant since(String table) {
		return this.since.get(table);
	}

	/** A shard is read here, {@code behindMillis} behind its stream's newest record. */
	void reading(String shardId, long behindMillis) {
		this.behind.put(shardId, Math.max(0, behindMillis));
	}

	/** A shard is no longer read here. */
	void notReading(String shardId) {
		this.behind.remove(shardId);
	}

	/** Whether the readers stop: the instance stops, or gives its leases up. */
	boolean stopping() {
		return this.closing || this.givenUp.get();
	}

	void published() {
		this.failingSince = 0;
	}

	/**
	 * A publish failed. Past the failover time without a success the instance gives its leases up, so that an
	 * instance that can reach Redis reads its shards (a network that parts this instance from Redis alone would
	 * otherwise stall them for the whole fleet), and takes leases again once Redis answers it.
	 */
	void publishFailed() {
		long now = System.nanoTime();
		if (this.failingSince == 0) {
			this.failingSince = now;
			return;
		}
		if (now - this.failingSince < this.fleet.failoverTime().toNanos() || this.closing
				|| !this.givenUp.compareAndSet(false, true)) {
			return;
		}
		logger.warn("Redis has taken no change from this instance for {} s: its shards' leases go to instances that "
				+ "reach it, and are taken again once it answers here", this.fleet.failoverTime().toSeconds());
		Thread again = new Thread(this::takeAgain, "kcl-given-up");
		again.setDaemon(true);
		again.start();
	}

	/** Gives the leases up, then waits for Redis to answer and joins the fleet's reading again. */
	private void takeAgain() {
		stop(this.scheduler);
		while (!this.closing) {
			try {
				Thread.sleep(1000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			if (this.broker.answers()) {
				Scheduler next = newScheduler();
				this.scheduler = next;
				this.failingSince = 0;
				this.givenUp.set(false);
				run(next);
				logger.info("Redis answers this instance again: it takes shard leases again");
				return;
			}
		}
	}

	/** Gives up the leases: each shard's reader checkpoints what it published, and the others take them over. */
	@Override
	public void close() {
		this.closing = true;
		stop(this.scheduler);
	}

	private static void stop(Scheduler scheduler) {
		try {
			scheduler.startGracefulShutdown().get(10, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			logger.debug("The lease holder's graceful shutdown: {}", ex.toString());
			scheduler.shutdown();
		}
	}

	/** A reader for each shard KCL hands this instance. */
	private final class Processors implements ShardRecordProcessorFactory {

		@Override
		public ShardRecordProcessor shardRecordProcessor() {
			return new ShardPublisher(ShardLeases.this, null);
		}

		@Override
		public ShardRecordProcessor shardRecordProcessor(StreamIdentifier stream) {
			// The adapter names a table's stream region$account$table$label.
			String[] parts = stream.streamName().split("\\$");
			return new ShardPublisher(ShardLeases.this, (parts.length >= 3) ? parts[2] : null);
		}

	}

	/** KCL takes a CloudWatch client; its metrics go to {@link KclMeters} instead, so none is ever called. */
	private static final CloudWatchAsyncClient NO_CLOUDWATCH = new CloudWatchAsyncClient() {

		@Override
		public String serviceName() {
			return "monitoring";
		}

		@Override
		public void close() {
		}

	};

}
