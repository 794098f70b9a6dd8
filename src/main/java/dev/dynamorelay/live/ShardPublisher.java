package dev.dynamorelay.live;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.amazonaws.services.dynamodbv2.streamsadapter.adapter.DynamoDBStreamsClientRecord;
import com.amazonaws.services.dynamodbv2.streamsadapter.model.DynamoDBStreamsProcessRecordsInput;
import com.amazonaws.services.dynamodbv2.streamsadapter.processor.DynamoDBStreamsShardRecordProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.kinesis.exceptions.KinesisClientLibException;
import software.amazon.kinesis.lifecycle.events.InitializationInput;
import software.amazon.kinesis.lifecycle.events.LeaseLostInput;
import software.amazon.kinesis.lifecycle.events.ShardEndedInput;
import software.amazon.kinesis.lifecycle.events.ShutdownRequestedInput;
import software.amazon.kinesis.processor.RecordProcessorCheckpointer;
import software.amazon.kinesis.retrieval.kpl.ExtendedSequenceNumber;

/**
 * One shard's reader in a fleet, while this instance holds its lease: each record published to the broker in the
 * shard's order, and the shard checkpointed at the last record published, never further. A record that cannot be
 * published stops the batch where it is (the lease's next holder, or this one, reads on from the checkpoint); the
 * shard's end is checkpointed only once every record of the shard was published.
 */
final class ShardPublisher implements DynamoDBStreamsShardRecordProcessor {

	private static final Logger logger = LoggerFactory.getLogger(ShardPublisher.class);

	private static final Duration MAX_BACK_OFF = Duration.ofSeconds(5);

	private final ShardLeases leases;

	private final String table;

	private String shardId;

	/**
	 * While a lease that was never checkpointed is read from its shard's oldest record: the records written before
	 * the fleet began to read the table are history, left until the first one written since.
	 */
	private boolean history;

	/** The last record published (or left as history), where the shard may be checkpointed. */
	private String last;

	/** Where the shard was checkpointed last by this reader. */
	private String checkpointed;

	/** Whether every record handed to this reader so far was published or left. */
	private boolean complete = true;

	ShardPublisher(ShardLeases leases, String table) {
		this.leases = leases;
		this.table = table;
	}

	@Override
	public void initialize(InitializationInput input) {
		this.shardId = input.shardId();
		this.history = ExtendedSequenceNumber.TRIM_HORIZON.equals(input.extendedSequenceNumber());
		this.leases.reading(this.shardId, 0);
		logger.debug("Reading shard {} of {} from {}", this.shardId, this.table, input.extendedSequenceNumber());
	}

	@Override
	public void processRecords(DynamoDBStreamsProcessRecordsInput input) {
		this.leases.reading(this.shardId, (input.millisBehindLatest() != null) ? input.millisBehindLatest() : 0);
		for (DynamoDBStreamsClientRecord each : input.records()) {
			if (!publish(each.getRecord())) {
				this.complete = false;
				break;
			}
			this.last = each.sequenceNumber();
		}
		checkpoint(input.checkpointer());
	}

	/**
	 * Publishes a record until the broker takes it, at least once; false when this instance stops, or gives up its
	 * leases, first (the record and those after it are not checkpointed).
	 */
	private boolean publish(software.amazon.awssdk.services.dynamodb.model.Record original) {
		ChangeRecord record = ChangeRecord.of(this.shardId, original);
		if (this.history) {
			Instant since = this.leases.since(this.table);
			if (since != null && record.written().isBefore(since.minusSeconds(1))) {
				return true;
			}
			this.history = false;
		}
		List<String> channels = this.leases.channels(this.table, record);
		if (channels.isEmpty()) {
			return true;
		}
		Duration backOff = Duration.ofMillis(250);
		do {
			try {
				this.leases.broker().publish(this.table, record, original, channels).get(10, TimeUnit.SECONDS);
				this.leases.published();
				return true;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
			catch (Exception ex) {
				this.leases.publishFailed();
				if (this.leases.stopping()) {
					return false;
				}
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
		while (!this.leases.stopping());
		return false;
	}

	@Override
	public void leaseLost(LeaseLostInput input) {
		this.leases.notReading(this.shardId);
	}

	/**
	 * The shard ended: checkpointed at its end, so that its children are read, only once every record was published;
	 * otherwise KCL keeps the shard, and it is read again from the last checkpoint.
	 */
	@Override
	public void shardEnded(ShardEndedInput input) {
		this.leases.notReading(this.shardId);
		if (!this.complete) {
			logger.warn("Shard {} of {} ended with changes not published: it is read again from its last checkpoint",
					this.shardId, this.table);
			return;
		}
		try {
			input.checkpointer().checkpoint();
		}
		catch (KinesisClientLibException | RuntimeException ex) {
			logger.debug("Checkpointing the end of shard {} of {}: {}", this.shardId, this.table, ex.toString());
		}
	}

	/** This instance stops (or gives its leases up): the shard is checkpointed at the last record published. */
	@Override
	public void shutdownRequested(ShutdownRequestedInput input) {
		this.leases.notReading(this.shardId);
		checkpoint(input.checkpointer());
	}

	private void checkpoint(RecordProcessorCheckpointer checkpointer) {
		String at = this.last;
		if (at == null || at.equals(this.checkpointed)) {
			return;
		}
		try {
			checkpointer.checkpoint(at, 0);
			this.checkpointed = at;
		}
		catch (KinesisClientLibException | RuntimeException ex) {
			// The lease went to another instance: it reads on from the last checkpoint, and publishes again once.
			logger.debug("Checkpointing shard {} of {}: {}", this.shardId, this.table, ex.toString());
		}
	}

}
