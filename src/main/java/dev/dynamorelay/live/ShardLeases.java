package dev.dynamorelay.live;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import com.amazonaws.services.dynamodbv2.streamsadapter.AmazonDynamoDBStreamsAdapterClient;
import com.amazonaws.services.dynamodbv2.streamsadapter.StreamsSchedulerFactory;
import com.amazonaws.services.dynamodbv2.streamsadapter.adapter.DynamoDBStreamsClientRecord;
import com.amazonaws.services.dynamodbv2.streamsadapter.model.DynamoDBStreamsProcessRecordsInput;
import com.amazonaws.services.dynamodbv2.streamsadapter.polling.DynamoDBStreamsPollingConfig;
import com.amazonaws.services.dynamodbv2.streamsadapter.processor.DynamoDBStreamsShardRecordProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatch.CloudWatchAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.kinesis.common.ConfigsBuilder;
import software.amazon.kinesis.common.InitialPositionInStream;
import software.amazon.kinesis.common.InitialPositionInStreamExtended;
import software.amazon.kinesis.common.StreamIdentifier;
import software.amazon.kinesis.coordinator.Scheduler;
import software.amazon.kinesis.exceptions.KinesisClientLibException;
import software.amazon.kinesis.lifecycle.events.InitializationInput;
import software.amazon.kinesis.lifecycle.events.LeaseLostInput;
import software.amazon.kinesis.lifecycle.events.ShardEndedInput;
import software.amazon.kinesis.lifecycle.events.ShutdownRequestedInput;
import software.amazon.kinesis.metrics.MetricsFactory;
import software.amazon.kinesis.metrics.MetricsLevel;
import software.amazon.kinesis.processor.FormerStreamsLeasesDeletionStrategy;
import software.amazon.kinesis.processor.RecordProcessorCheckpointer;
import software.amazon.kinesis.processor.ShardRecordProcessor;
import software.amazon.kinesis.processor.ShardRecordProcessorFactory;

/**
 * This instance's part in reading the tables' streams in a fleet: one Kinesis Client Library 3 application, shared
 * by every instance of the deployment through its lease table, reads each shard of each table's stream on one
 * instance at a time (KCL balances the leases among the instances and hands a stopped or dead instance's to the
 * others after the failover time). The instance that holds a shard's lease publishes each of its records to the
 * broker, in the shard's order, once ({@link RedisBroker#publish}), and checkpoints the shard only after the broker
 * took all the records before: the next holder reads on from the checkpoint, and what was published again is
 * published once.
 *
 * <p>A lease that was never checkpointed is read from its shard's oldest record (a lease read from the newest would
 * lose what was written while it had no holder); the records written before the fleet began to read the table are
 * history and left ({@link RedisBroker#since}).
 */
final class ShardLeases implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(ShardLeases.class);

	private static final Duration MAX_BACK_OFF = Duration.ofSeconds(5);

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
			Set<Optional<PartitionKey>> partitions = new LinkedHashSet<>();
			for (String attribute : this.attributes) {
				for (Optional<Map<String, AttributeValue>> image : List.of(record.oldImage(), record.newImage())) {
					image.map((item) -> item.get(attribute))
						.flatMap((value) -> PartitionKey.of(attribute, value))
						.ifPresent((partition) -> partitions.add(Optional.of(partition)));
				}
			}
			if (this.whole) {
				partitions.add(Optional.empty());
			}
			return List.copyOf(partitions);
		}

	}

	private final RedisBroker broker;

	private final Map<String, Routing> routing;

	private final Scheduler scheduler;

	private final Map<String, Instant> since = new ConcurrentHashMap<>();

	/** How far behind its stream's newest record each shard read here is, by shard. */
	private final Map<String, Long> behind = new ConcurrentHashMap<>();

	private volatile boolean closing;

	/**
	 * @param streamArns the tables' streams, by table
	 * @param routing how each table's records are published
	 * @param pollInterval how long a shard's reader waits after a read that found nothing (twice this)
	 */
	ShardLeases(FleetProperties fleet, String workerId, Map<String, String> streamArns, Map<String, Routing> routing,
			RedisBroker broker, DynamoDbAsyncClient dynamoDb, DynamoDbStreamsClient streams, Region region,
			Duration pollInterval, MetricsFactory metrics) {
		this.broker = broker;
		this.routing = routing;
		streamArns.keySet().forEach((table) -> this.since.put(table, broker.since(table)));
		AmazonDynamoDBStreamsAdapterClient adapter = new AmazonDynamoDBStreamsAdapterClient(streams, region);
		var tracker = StreamsSchedulerFactory.createMultiStreamTracker(new ArrayList<>(streamArns.values()),
				InitialPositionInStreamExtended.newInitialPosition(InitialPositionInStream.TRIM_HORIZON),
				new FormerStreamsLeasesDeletionStrategy.NoLeaseDeletionStrategy());
		ConfigsBuilder configs = new ConfigsBuilder(tracker, fleet.leaseTable(), adapter, dynamoDb, NO_CLOUDWATCH,
				workerId, new Processors());
		// What the adapter would set itself, warning that it does, set before it makes its lease management (which
		// takes the shard sync's pause when made: 60 s after the first sync, where the adapter means none).
		var leases = configs.leaseManagementConfig()
			.failoverTimeMillis(fleet.failoverTime().toMillis())
			// The leader (the worker that assigns leases) holds its lock as long as a worker its lease: a dead
			// leader's shards move on as fast as another dead worker's (KCL's own default is 2 minutes).
			.dynamoDbLockBasedLeaderLeaseDurationInMillis(fleet.failoverTime().toMillis())
			.dynamoDbLockBasedLeaderHeartbeatPeriodInMillis(Math.max(200, fleet.failoverTime().toMillis() / 3))
			.shardSyncIntervalMillis(0)
			.leasesRecoveryAuditorInconsistencyConfidenceThreshold(0);
		var coordinator = configs.coordinatorConfig()
			.skipShardSyncAtWorkerInitializationIfLeasesExist(true)
			.parentShardPollIntervalMillis(Math.max(200, pollInterval.toMillis() * 4))
			.shardConsumerDispatchPollIntervalMillis(Math.max(100, pollInterval.toMillis() * 2));
		var retrieval = configs.retrievalConfig()
			.retrievalSpecificConfig(new DynamoDBStreamsPollingConfig(adapter)
				.idleTimeBetweenReadsInMillis(Math.max(1, pollInterval.toMillis())));
		var metricsConfig = configs.metricsConfig().metricsFactory(metrics).metricsLevel(MetricsLevel.SUMMARY);
		this.scheduler = StreamsSchedulerFactory.createScheduler(configs.checkpointConfig(), coordinator, leases,
				configs.lifecycleConfig(), metricsConfig, configs.processorConfig(), retrieval, adapter);
	}

	/** Starts taking and reading leases, on a thread of its own. */
	void start() {
		Thread thread = new Thread(this.scheduler, "kcl-scheduler");
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

	/** The channels {@code record} of {@code table} is published on: of the partitions it concerns. */
	List<String> channels(String table, ChangeRecord record) {
		Routing routes = this.routing.get(table);
		if (routes == null) {
			return List.of();
		}
		return routes.partitions(record).stream().map((partition) -> this.broker.channel(table, partition)).toList();
	}

	/** Gives up the leases: each shard's reader checkpoints what it published, and the others take them over. */
	@Override
	public void close() {
		this.closing = true;
		try {
			this.scheduler.startGracefulShutdown().get(10, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			logger.debug("The lease holder's graceful shutdown: {}", ex.toString());
			this.scheduler.shutdown();
		}
	}

	/** A reader for each shard KCL hands this instance. */
	private final class Processors implements ShardRecordProcessorFactory {

		@Override
		public ShardRecordProcessor shardRecordProcessor() {
			return new Publisher(null);
		}

		@Override
		public ShardRecordProcessor shardRecordProcessor(StreamIdentifier stream) {
			// The adapter names a table's stream region$account$table$label.
			String[] parts = stream.streamName().split("\\$");
			return new Publisher((parts.length >= 3) ? parts[2] : null);
		}

	}

	/** One shard's records, published in order, the shard checkpointed behind them. */
	private final class Publisher implements DynamoDBStreamsShardRecordProcessor {

		private final String table;

		private String shardId;

		Publisher(String table) {
			this.table = table;
		}

		@Override
		public void initialize(InitializationInput input) {
			this.shardId = input.shardId();
			ShardLeases.this.behind.put(this.shardId, 0L);
			logger.debug("Reading shard {} of {} from {}", this.shardId, this.table, input.extendedSequenceNumber());
		}

		@Override
		public void processRecords(DynamoDBStreamsProcessRecordsInput input) {
			ShardLeases.this.behind.put(this.shardId, Math.max(0, (input.millisBehindLatest() != null)
					? input.millisBehindLatest() : 0));
			for (DynamoDBStreamsClientRecord each : input.records()) {
				if (!publish(each.getRecord())) {
					return;
				}
			}
			if (!input.records().isEmpty()) {
				checkpoint(input.checkpointer());
			}
		}

		/** Publishes a record until the broker takes it; false when the instance stops first (not checkpointed). */
		private boolean publish(software.amazon.awssdk.services.dynamodb.model.Record original) {
			ChangeRecord record = ChangeRecord.of(this.shardId, original);
			Instant since = ShardLeases.this.since.get(this.table);
			if (since != null && record.written().isBefore(since.minusSeconds(1))) {
				return true;
			}
			List<String> channels = channels(this.table, record);
			if (channels.isEmpty()) {
				return true;
			}
			Duration backOff = Duration.ofMillis(250);
			while (!ShardLeases.this.closing) {
				try {
					ShardLeases.this.broker.publish(this.table, record, original, channels).get(10, TimeUnit.SECONDS);
					return true;
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return false;
				}
				catch (Exception ex) {
					logger.warn("Publishing a change of {} (shard {}) to Redis failed, again in {} ms: {}", this.table,
							this.shardId, backOff.toMillis(), ex.toString());
					try {
						Thread.sleep(backOff.toMillis());
					}
					catch (InterruptedException interrupted) {
						Thread.currentThread().interrupt();
						return false;
					}
					backOff = (backOff.compareTo(MAX_BACK_OFF) < 0) ? backOff.multipliedBy(2) : MAX_BACK_OFF;
				}
			}
			return false;
		}

		@Override
		public void leaseLost(LeaseLostInput input) {
			ShardLeases.this.behind.remove(this.shardId);
		}

		@Override
		public void shardEnded(ShardEndedInput input) {
			ShardLeases.this.behind.remove(this.shardId);
			checkpoint(input.checkpointer());
		}

		@Override
		public void shutdownRequested(ShutdownRequestedInput input) {
			ShardLeases.this.behind.remove(this.shardId);
			checkpoint(input.checkpointer());
		}

		private void checkpoint(RecordProcessorCheckpointer checkpointer) {
			try {
				checkpointer.checkpoint();
			}
			catch (KinesisClientLibException | RuntimeException ex) {
				// The lease went to another instance: it reads on from the last checkpoint, and publishes again once.
				logger.debug("Checkpointing shard {} of {}: {}", this.shardId, this.table, ex.toString());
			}
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
