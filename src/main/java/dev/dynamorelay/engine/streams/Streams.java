package dev.dynamorelay.engine.streams;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorResponse;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsResponse;
import software.amazon.awssdk.services.dynamodb.model.ShardFilter;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import dev.dynamorelay.engine.store.CommitListener;
import dev.dynamorelay.engine.store.ItemChange;
import dev.dynamorelay.engine.value.Values;

/**
 * DynamoDB Streams in the engine: a stream for each table whose {@code StreamSpecification} enables it, fed by
 * the store's commits (this is a {@link CommitListener}), read by ListStreams, DescribeStream, GetShardIterator
 * and GetRecords as the DynamoDB Streams API Reference and the Developer Guide's "Change data capture for
 * DynamoDB Streams" describe them.
 *
 * <p>A stream has one open shard at a time; it closes at a configured size or age and a child opens, its
 * {@code ParentShardId} the closed one (the Developer Guide: "it is also possible for a parent shard to have
 * just one child shard"), so that a reader that reads a parent before its children reads every record once, in
 * order. Records are numbered from one counter, so that their sequence numbers grow across shards and streams.
 * Disabling a stream closes its shard; enabling it again makes a new stream, with a new label and ARN; the old
 * one stays readable for the retention. A write that changes nothing writes no record ("If you perform a PutItem
 * or UpdateItem operation that does not change any data in an item, then DynamoDB Streams will not write a
 * stream record for that operation").
 *
 * <p>Thread-safe: each stream is guarded by its own monitor, held briefly; records are decoded for GetRecords
 * outside it.
 *
 * <p>This class is the streams' face to the store, the journal and the API: the streams and shards themselves
 * are {@link ShardLifecycle}'s, the reading operations {@link StreamReads}', a record's forms
 * {@link StreamRecords}' and checkpoints {@link StreamCheckpoints}'.
 */
public final class Streams implements CommitListener {

	private final StreamsOptions options;

	private final ShardLifecycle shards;

	private final StreamReads reads;

	public Streams(StreamsOptions options) {
		this.options = options;
		this.shards = new ShardLifecycle(options);
		this.reads = new StreamReads(this.shards);
	}

	public StreamsOptions options() {
		return this.options;
	}

	// ---------------------------------------------------------------------------------------------------------
	// What the store tells

	@Override
	public CompletableFuture<Void> committed(Instant time, List<ItemChange> changes) {
		long millis = time.toEpochMilli();
		for (ItemChange change : changes) {
			Stream stream = this.shards.enabled.get(change.table());
			if (stream == null) {
				continue;
			}
			Map<String, AttributeValue> oldImage = change.oldImage();
			Map<String, AttributeValue> newImage = change.newImage();
			if (oldImage == null && newImage == null) {
				continue;
			}
			if (oldImage != null && newImage != null && Values.equalMaps(oldImage, newImage)) {
				continue;
			}
			byte kind = (oldImage == null) ? StoredRecord.INSERT : (newImage == null) ? StoredRecord.REMOVE : StoredRecord.MODIFY;
			if (change.expired() && kind == StoredRecord.REMOVE) {
				kind |= StoredRecord.EXPIRED;
			}
			StreamRecords.Payload payload = StreamRecords.payload(stream.viewType, change.key(), oldImage, newImage);
			synchronized (stream) {
				if (stream.enabled) {
					this.shards.append(stream, millis, kind, payload);
				}
			}
		}
		return DONE;
	}

	@Override
	public CompletableFuture<Void> tableChanged(Instant time, TableDescription description, boolean deleted) {
		this.shards.tableChanged(time, description, deleted);
		return DONE;
	}

	/**
	 * Closes the open shard of every enabled stream and opens its child at once, as DynamoDB does when it rotates a
	 * stream's shards (every few hours) or splits one: for tests of readers across a shard's end, which otherwise
	 * wait for the configured size or age. A closed shard keeps its records; the next record of its stream goes to
	 * the child. Not kept by the journal: a restart continues in the shards as they were before it.
	 * @return how many shards were closed
	 */
	public int rollover() {
		return this.shards.rollover();
	}

	// ---------------------------------------------------------------------------------------------------------
	// The API

	/** ListStreams: the streams of every table, or of one, in pages of {@code Limit} (100 by default). */
	public ListStreamsResponse listStreams(ListStreamsRequest request) {
		return this.reads.listStreams(request);
	}

	/**
	 * DescribeStream: the stream and its shards in the order they opened, {@code Limit} (100 by default) from
	 * after {@code ExclusiveStartShardId}, or only the children of one shard ({@code ShardFilter} CHILD_SHARDS).
	 */
	public DescribeStreamResponse describeStream(DescribeStreamRequest request) {
		return this.reads.describeStream(request);
	}

	/** GetShardIterator: a position in a shard, valid for the iterator lifetime. */
	public GetShardIteratorResponse getShardIterator(GetShardIteratorRequest request) {
		return this.reads.getShardIterator(request);
	}

	/**
	 * GetRecords: the records from the iterator's position, at most {@code Limit} (1,000 by default) and 1 MB of
	 * them (one at least), and the iterator after them; none once a closed shard is read to its end.
	 */
	public GetRecordsResponse getRecords(GetRecordsRequest request) {
		return this.reads.getRecords(request);
	}

	// ---------------------------------------------------------------------------------------------------------
	// Checkpoints, for the journal's snapshots


	/**
	 * The streams as they were at one moment: taken cheaply while the journal holds commits back (it copies no
	 * record), written afterwards while writers go on.
	 */
	public static final class Checkpoint {

		final long counter;

		final List<StreamCheckpoints.StreamCopy> streams;

		Checkpoint(long counter, List<StreamCheckpoints.StreamCopy> streams) {
			this.counter = counter;
			this.streams = streams;
		}

	}

	/** The streams as they are now. Commits must be held back while it runs (the journal holds its lock). */
	public Checkpoint checkpoint() {
		return StreamCheckpoints.take(this.shards);
	}

	/** Writes a checkpoint; what {@link #restore} reads. */
	public static void write(Checkpoint checkpoint, DataOutput out) throws IOException {
		StreamCheckpoints.write(checkpoint, out);
	}

	/** Replaces every stream with a checkpoint's, at start, before the engine serves. */
	public void restore(DataInput in) throws IOException {
		StreamCheckpoints.restore(this.shards, in);
	}

}
