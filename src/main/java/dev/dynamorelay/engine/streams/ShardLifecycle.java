package dev.dynamorelay.engine.streams;

import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import dev.dynamorelay.engine.action.AwsError;

/**
 * The streams' state and the life of their shards: a table's stream enabled and disabled with it, a shard opened,
 * closed for a child when it is full or old (or at a rollover), records appended to the open shard and trimmed by
 * the retention and the stream's bounds, and emptied shards and old streams dropped.
 *
 * <p>Each stream is guarded by its own monitor; the methods that take a {@link Stream} expect it held (or the
 * stream not yet published), as each says.
 */
final class ShardLifecycle {

	final StreamsOptions options;

	/** The last number handed out, to a record or to a shard's start. */
	final AtomicLong counter = new AtomicLong();

	/** Every stream still listed, by ARN (ListStreams pages in this order). */
	final ConcurrentSkipListMap<String, Stream> streams = new ConcurrentSkipListMap<>();

	/** The enabled stream of each table that has one. */
	final Map<String, Stream> enabled = new ConcurrentHashMap<>();

	ShardLifecycle(StreamsOptions options) {
		this.options = options;
	}

	/** Enables, disables or re-enables the stream of a table as its description says. */
	void tableChanged(Instant time, TableDescription description, boolean deleted) {
		String table = description.tableName();
		StreamSpecification specification = description.streamSpecification();
		boolean wanted = !deleted && specification != null && Boolean.TRUE.equals(specification.streamEnabled());
		long millis = time.toEpochMilli();
		synchronized (this.enabled) {
			Stream current = this.enabled.get(table);
			String arn = description.latestStreamArn();
			if (current != null && (!wanted || (arn != null && !arn.equals(current.arn)))) {
				synchronized (current) {
					current.enabled = false;
					current.disabledMillis = millis;
					Shard open = current.openShard();
					if (open != null) {
						open.close(millis);
					}
				}
				this.enabled.remove(table);
				current = null;
			}
			if (wanted && current == null) {
				Stream again = (arn != null) ? this.streams.get(arn) : null;
				if (again != null) {
					// Enabled again under the name it had (the store names streams by the millisecond): the stream
					// goes on in a new shard rather than losing its records to a namesake.
					synchronized (again) {
						again.enabled = true;
						again.disabledMillis = -1;
						Shard last = again.shards.isEmpty() ? null : again.shards.get(again.shards.size() - 1);
						openShard(again, (last != null) ? last.id : null, millis);
					}
					this.enabled.put(table, again);
				}
				else {
					Stream created = create(description, specification, millis);
					this.streams.put(created.arn, created);
					this.enabled.put(table, created);
				}
			}
		}
	}

	private Stream create(TableDescription description, StreamSpecification specification, long millis) {
		String table = description.tableName();
		String tableArn = (description.tableArn() != null) ? description.tableArn()
				: "arn:aws:dynamodb:us-east-1:000000000000:table/" + table;
		String label = description.latestStreamLabel();
		String arn = description.latestStreamArn();
		if (arn == null) {
			// The store names the stream in the table's description; should it not, the label is the time of the
			// enabling, a millisecond later than any stream of the table still listed has.
			long labelMillis = millis;
			label = StreamNames.label(Instant.ofEpochMilli(labelMillis));
			while (this.streams.containsKey(StreamNames.streamArn(tableArn, label))) {
				label = StreamNames.label(Instant.ofEpochMilli(++labelMillis));
			}
			arn = StreamNames.streamArn(tableArn, label);
		}
		else if (label == null) {
			label = arn.substring(arn.lastIndexOf('/') + 1);
		}
		StreamNames.StreamArn parsed = StreamNames.parseStreamArn(arn);
		String region = (parsed != null) ? parsed.region() : "us-east-1";
		StreamViewType viewType = (specification.streamViewType() != null) ? specification.streamViewType()
				: StreamViewType.KEYS_ONLY;
		List<KeySchemaElement> keySchema = description.hasKeySchema() ? description.keySchema() : List.of();
		Stream stream = new Stream(arn, label, table, region, viewType, keySchema, millis);
		openShard(stream, null, millis);
		return stream;
	}

	/** Opens a shard of {@code stream}: guarded by its monitor (or not yet published). */
	private void openShard(Stream stream, String parentId, long millis) {
		long start = this.counter.incrementAndGet();
		long opened = Math.max(millis, (stream.lastShardMillis == Long.MIN_VALUE) ? millis : stream.lastShardMillis + 1);
		stream.lastShardMillis = opened;
		String id = StreamNames.shardId(opened, (int) Stream.mix(stream.arnHash ^ start));
		stream.add(new Shard(id, parentId, start, opened));
	}

	/**
	 * Closes the open shard of every enabled stream and opens its child at once, as DynamoDB does when it rotates a
	 * stream's shards (every few hours) or splits one: for tests of readers across a shard's end, which otherwise
	 * wait for the configured size or age. A closed shard keeps its records; the next record of its stream goes to
	 * the child. Not kept by the journal: a restart continues in the shards as they were before it.
	 * @return how many shards were closed
	 */
	int rollover() {
		long millis = this.options.clock().millis();
		int closed = 0;
		for (Stream stream : this.enabled.values()) {
			synchronized (stream) {
				Shard open = stream.enabled ? stream.openShard() : null;
				if (open != null) {
					open.close(millis);
					openShard(stream, open.id, millis);
					closed++;
				}
			}
		}
		return closed;
	}

	/** Appends a record to the stream's open shard, closing it for a child first when it is full or old. */
	void append(Stream stream, long millis, byte kind, StreamRecords.Payload payload) {
		long now = this.options.clock().millis();
		expire(stream, now);
		Shard open = stream.openShard();
		if (open.appended >= this.options.shardRecords() || millis - open.openedMillis >= this.options.shardAge().toMillis()) {
			open.close(millis);
			openShard(stream, open.id, millis);
			open = stream.openShard();
		}
		StoredRecord record = new StoredRecord(this.counter.incrementAndGet(), millis, kind, payload.size(), payload.bytes());
		open.append(record);
		stream.records++;
		stream.bytes += record.size;
		while (stream.records > this.options.streamRecords() || stream.bytes > this.options.streamBytes()) {
			trimOldest(stream, now);
		}
	}

	// ---------------------------------------------------------------------------------------------------------
	// Trimming: the retention, and the bounds by records and bytes

	/**
	 * Trims the records as old as the retention or older (a record lives from its commit for the retention), and
	 * drops the shards left with nothing.
	 */
	private void expire(Stream stream, long now) {
		long cutoff = now - this.options.retention().toMillis();
		for (Shard shard : stream.shards) {
			while (shard.count() > 0 && shard.oldest().timeMillis <= cutoff) {
				StoredRecord trimmed = shard.trimOldest();
				stream.records--;
				stream.bytes -= trimmed.size;
			}
			if (shard.count() > 0) {
				break;
			}
		}
		dropEmptyShards(stream, cutoff);
	}

	private void trimOldest(Stream stream, long now) {
		for (Shard shard : stream.shards) {
			if (shard.count() > 0) {
				StoredRecord trimmed = shard.trimOldest();
				stream.records--;
				stream.bytes -= trimmed.size;
				break;
			}
		}
		dropEmptyShards(stream, now - this.options.retention().toMillis());
	}

	/**
	 * Drops the closed shards that hold nothing any more: those whose records were all trimmed, and those closed
	 * empty longer ago than the retention. DynamoDB lists a shard's children with their parent's id after the
	 * parent is gone; readers treat an unknown parent as read.
	 */
	private static void dropEmptyShards(Stream stream, long cutoff) {
		Iterator<Shard> shards = stream.shards.iterator();
		while (shards.hasNext()) {
			Shard shard = shards.next();
			if (shard.isOpen() || shard.count() > 0) {
				continue;
			}
			boolean trimmedAway = shard.appended > 0 && shard.trimmedThrough >= shard.end;
			if (trimmedAway || shard.closedMillis <= cutoff) {
				shards.remove();
				stream.shardsById.remove(shard.id);
			}
		}
	}

	/** Drops the disabled streams older than the retention; trims the others as of now. */
	void sweep(long now) {
		long cutoff = now - this.options.retention().toMillis();
		for (Stream stream : this.streams.values()) {
			synchronized (stream) {
				expire(stream, now);
				if (!stream.enabled && stream.disabledMillis <= cutoff) {
					this.streams.remove(stream.arn, stream);
				}
			}
		}
	}

	/** The stream of {@code arn} as of now, or a ResourceNotFoundException. */
	Stream stream(String arn, long now) {
		Stream stream = this.streams.get(arn);
		if (stream != null) {
			synchronized (stream) {
				expire(stream, now);
				if (stream.enabled || stream.disabledMillis > now - this.options.retention().toMillis()) {
					return stream;
				}
				this.streams.remove(arn, stream);
			}
		}
		throw AwsError.resourceNotFound("Requested resource not found: Stream: " + arn + " not found");
	}

}
