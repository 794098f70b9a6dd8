package dev.dynamorelay.engine.streams;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorResponse;
import software.amazon.awssdk.services.dynamodb.model.Identity;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsResponse;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.SequenceNumberRange;
import software.amazon.awssdk.services.dynamodb.model.ShardFilter;
import software.amazon.awssdk.services.dynamodb.model.ShardFilterType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.store.CommitListener;
import dev.dynamorelay.engine.store.ItemChange;
import dev.dynamorelay.engine.value.ByteSink;
import dev.dynamorelay.engine.value.ByteSource;
import dev.dynamorelay.engine.value.ItemCodec;
import dev.dynamorelay.engine.value.ItemSize;
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
 */
public final class Streams implements CommitListener {

	private static final List<String> ITERATOR_TYPES = List.of("TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER",
			"AFTER_SEQUENCE_NUMBER");

	private static final String TABLE_NAME_PATTERN = "[a-zA-Z0-9_.-]+";

	/** GetRecords: "can retrieve a maximum of 1 MB of data or 1000 stream records, whichever comes first". */
	private static final long MAX_RECORDS_BYTES = 1 << 20;

	private static final Identity TIME_TO_LIVE = Identity.builder()
		.principalId("dynamodb.amazonaws.com")
		.type("Service")
		.build();

	private final StreamsOptions options;

	/** The last number handed out, to a record or to a shard's start. */
	private final AtomicLong counter = new AtomicLong();

	/** Every stream still listed, by ARN (ListStreams pages in this order). */
	private final ConcurrentSkipListMap<String, Stream> streams = new ConcurrentSkipListMap<>();

	/** The enabled stream of each table that has one. */
	private final Map<String, Stream> enabled = new ConcurrentHashMap<>();

	public Streams(StreamsOptions options) {
		this.options = options;
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
			Stream stream = this.enabled.get(change.table());
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
			Payload payload = payload(stream.viewType, change.key(), oldImage, newImage);
			synchronized (stream) {
				if (stream.enabled) {
					append(stream, millis, kind, payload);
				}
			}
		}
		return DONE;
	}

	@Override
	public CompletableFuture<Void> tableChanged(Instant time, TableDescription description, boolean deleted) {
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
		return DONE;
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
	public int rollover() {
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
	private void append(Stream stream, long millis, byte kind, Payload payload) {
		long now = this.options.clock().millis();
		expire(stream, now);
		Shard open = stream.openShard();
		if (open.appended >= this.options.shardRecords() || millis - open.openedMillis >= this.options.shardAge().toMillis()) {
			open.close(millis);
			openShard(stream, open.id, millis);
			open = stream.openShard();
		}
		StoredRecord record = new StoredRecord(this.counter.incrementAndGet(), millis, kind, payload.size, payload.bytes);
		open.append(record);
		stream.records++;
		stream.bytes += record.size;
		while (stream.records > this.options.streamRecords() || stream.bytes > this.options.streamBytes()) {
			trimOldest(stream, now);
		}
	}

	private record Payload(byte[] bytes, int size) {
	}

	/** The keys and the images the view type keeps, in binary form, and the record's SizeBytes. */
	private static Payload payload(StreamViewType viewType, Map<String, AttributeValue> keys,
			Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage) {
		boolean keepNew = newImage != null
				&& (viewType == StreamViewType.NEW_IMAGE || viewType == StreamViewType.NEW_AND_OLD_IMAGES);
		boolean keepOld = oldImage != null
				&& (viewType == StreamViewType.OLD_IMAGE || viewType == StreamViewType.NEW_AND_OLD_IMAGES);
		ByteSink sink = new ByteSink(128);
		sink.write((keepNew ? StoredRecord.HAS_NEW : 0) | (keepOld ? StoredRecord.HAS_OLD : 0));
		ItemCodec.writeAttributes(sink, keys);
		// SizeBytes: the API Reference's GetRecords example gives 41 for the keys ForumName "DynamoDB" and
		// Subject "DynamoDB Thread 3" of a KEYS_ONLY record, 9 + 8 + 7 + 17, their size by the item size rules
		long size = ItemSize.of(keys);
		if (keepNew) {
			ItemCodec.writeAttributes(sink, newImage);
			size += ItemSize.of(newImage);
		}
		if (keepOld) {
			ItemCodec.writeAttributes(sink, oldImage);
			size += ItemSize.of(oldImage);
		}
		return new Payload(sink.toByteArray(), (int) Math.min(Integer.MAX_VALUE, Math.max(1, size)));
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
	private void sweep(long now) {
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
	private Stream stream(String arn, long now) {
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

	// ---------------------------------------------------------------------------------------------------------
	// The API

	/** ListStreams: the streams of every table, or of one, in pages of {@code Limit} (100 by default). */
	public ListStreamsResponse listStreams(ListStreamsRequest request) {
		Constraints.check()
			.length("tableName", request.tableName(), 3, 255)
			.pattern("tableName", request.tableName(), TABLE_NAME_PATTERN)
			.range("limit", request.limit(), 1, 100)
			.length("exclusiveStartStreamArn", request.exclusiveStartStreamArn(), 37, 1024)
			.done();
		String start = request.exclusiveStartStreamArn();
		if (start != null && StreamNames.parseStreamArn(start) == null) {
			throw AwsError.validation("Invalid ExclusiveStartStreamArn");
		}
		sweep(this.options.clock().millis());
		int limit = (request.limit() != null) ? request.limit() : 100;
		Map<String, Stream> candidates = (start != null) ? this.streams.tailMap(start, false) : this.streams;
		List<software.amazon.awssdk.services.dynamodb.model.Stream> page = new ArrayList<>();
		String last = null;
		for (Stream stream : candidates.values()) {
			if (request.tableName() != null && !request.tableName().equals(stream.table)) {
				continue;
			}
			if (page.size() == limit) {
				last = page.get(page.size() - 1).streamArn();
				break;
			}
			page.add(software.amazon.awssdk.services.dynamodb.model.Stream.builder()
				.streamArn(stream.arn)
				.tableName(stream.table)
				.streamLabel(stream.label)
				.build());
		}
		return ListStreamsResponse.builder().streams(page).lastEvaluatedStreamArn(last).build();
	}

	/**
	 * DescribeStream: the stream and its shards in the order they opened, {@code Limit} (100 by default) from
	 * after {@code ExclusiveStartShardId}, or only the children of one shard ({@code ShardFilter} CHILD_SHARDS).
	 */
	public DescribeStreamResponse describeStream(DescribeStreamRequest request) {
		ShardFilter filter = request.shardFilter();
		Constraints.check()
			.required("streamArn", request.streamArn())
			.length("streamArn", request.streamArn(), 37, 1024)
			.range("limit", request.limit(), 1, 100)
			.length("exclusiveStartShardId", request.exclusiveStartShardId(), 28, 65)
			.length("shardFilter.shardId", (filter != null) ? filter.shardId() : null, 28, 65)
			.oneOf("shardFilter.type", (filter != null) ? filter.typeAsString() : null, List.of("CHILD_SHARDS"))
			.done();
		if (StreamNames.parseStreamArn(request.streamArn()) == null) {
			throw AwsError.validation("Invalid StreamArn");
		}
		String parent = null;
		if (filter != null && filter.type() == ShardFilterType.CHILD_SHARDS) {
			if (filter.shardId() == null) {
				throw AwsError.validation("A ShardFilter of type CHILD_SHARDS needs a ShardId");
			}
			parent = filter.shardId();
		}
		long now = this.options.clock().millis();
		Stream stream = stream(request.streamArn(), now);
		int limit = (request.limit() != null) ? request.limit() : 100;
		String after = request.exclusiveStartShardId();
		List<software.amazon.awssdk.services.dynamodb.model.Shard> shards = new ArrayList<>();
		String last = null;
		StreamStatus status;
		synchronized (stream) {
			status = stream.enabled ? StreamStatus.ENABLED : StreamStatus.DISABLED;
			for (Shard shard : stream.shards) {
				if ((after != null && shard.id.compareTo(after) <= 0) || (parent != null && !parent.equals(shard.parentId))) {
					continue;
				}
				if (shards.size() == limit) {
					last = shards.get(shards.size() - 1).shardId();
					break;
				}
				shards.add(software.amazon.awssdk.services.dynamodb.model.Shard.builder()
					.shardId(shard.id)
					.parentShardId(shard.parentId)
					.sequenceNumberRange(SequenceNumberRange.builder()
						.startingSequenceNumber(StreamNames.sequenceNumber(shard.start))
						.endingSequenceNumber(shard.isOpen() ? null : StreamNames.sequenceNumber(shard.end))
						.build())
					.build());
			}
		}
		return DescribeStreamResponse.builder()
			.streamDescription(StreamDescription.builder()
				.streamArn(stream.arn)
				.streamLabel(stream.label)
				.streamStatus(status)
				.streamViewType(stream.viewType)
				.creationRequestDateTime(Instant.ofEpochMilli(stream.createdMillis))
				.tableName(stream.table)
				.keySchema(stream.keySchema)
				.shards(shards)
				.lastEvaluatedShardId(last)
				.build())
			.build();
	}

	/** GetShardIterator: a position in a shard, valid for the iterator lifetime. */
	public GetShardIteratorResponse getShardIterator(GetShardIteratorRequest request) {
		Constraints.check()
			.required("streamArn", request.streamArn())
			.length("streamArn", request.streamArn(), 37, 1024)
			.required("shardId", request.shardId())
			.length("shardId", request.shardId(), 28, 65)
			.required("shardIteratorType", request.shardIteratorTypeAsString())
			.oneOf("shardIteratorType", request.shardIteratorTypeAsString(), ITERATOR_TYPES)
			.length("sequenceNumber", request.sequenceNumber(), 21, 40)
			.done();
		if (StreamNames.parseStreamArn(request.streamArn()) == null) {
			throw AwsError.validation("Invalid StreamArn");
		}
		ShardIteratorType type = request.shardIteratorType();
		boolean atSequence = type == ShardIteratorType.AT_SEQUENCE_NUMBER || type == ShardIteratorType.AFTER_SEQUENCE_NUMBER;
		if (atSequence && request.sequenceNumber() == null) {
			throw AwsError.validation("Must specify a SequenceNumber for ShardIteratorType " + type);
		}
		if (!atSequence && request.sequenceNumber() != null) {
			throw AwsError.validation("SequenceNumber may be given only for ShardIteratorType AT_SEQUENCE_NUMBER or AFTER_SEQUENCE_NUMBER");
		}
		Long number = atSequence ? StreamNames.recordNumber(request.sequenceNumber()) : null;
		if (atSequence && number == null) {
			throw AwsError.validation("Invalid SequenceNumber: " + request.sequenceNumber());
		}
		long now = this.options.clock().millis();
		Stream stream = stream(request.streamArn(), now);
		long position;
		String shardId;
		synchronized (stream) {
			Shard shard = stream.shardsById.get(request.shardId());
			if (shard == null) {
				throw AwsError.resourceNotFound("Requested resource not found: Shard does not exist");
			}
			shardId = shard.id;
			long last = shard.isOpen() ? this.counter.get() : shard.end;
			switch (type) {
				case TRIM_HORIZON -> position = Math.max(shard.start, shard.trimmedThrough + 1);
				case LATEST -> position = last + 1;
				default -> {
					if (number < shard.start || number > last) {
						throw AwsError.validation("Sequence number " + request.sequenceNumber() + " is not in shard " + shard.id
								+ " (" + StreamNames.sequenceNumber(shard.start) + " to "
								+ StreamNames.sequenceNumber(last) + ")");
					}
					position = (type == ShardIteratorType.AT_SEQUENCE_NUMBER) ? number : number + 1;
					if (position <= shard.trimmedThrough) {
						throw trimmed();
					}
				}
			}
		}
		return GetShardIteratorResponse.builder().shardIterator(iterator(stream.arn, shardId, position, now)).build();
	}

	/**
	 * GetRecords: the records from the iterator's position, at most {@code Limit} (1,000 by default) and 1 MB of
	 * them (one at least), and the iterator after them; none once a closed shard is read to its end.
	 */
	public GetRecordsResponse getRecords(GetRecordsRequest request) {
		Constraints.check()
			.required("shardIterator", request.shardIterator())
			.length("shardIterator", request.shardIterator(), 1, 2048)
			.range("limit", request.limit(), 1, 1000)
			.done();
		Position position = Position.parse(request.shardIterator());
		long now = this.options.clock().millis();
		if (now - position.issuedMillis() >= this.options.iteratorLifetime().toMillis()) {
			throw AwsError.of("ExpiredIteratorException", "The provided iterator exceeds the maximum age allowed.");
		}
		Stream stream = stream(position.streamArn(), now);
		int limit = (request.limit() != null) ? request.limit() : 1000;
		List<StoredRecord> found = new ArrayList<>(Math.min(limit, 64));
		long next;
		boolean ended;
		synchronized (stream) {
			Shard shard = stream.shardsById.get(position.shardId());
			if (shard == null || position.number() <= shard.trimmedThrough) {
				// Shards go only when their records were trimmed (or aged out empty).
				throw trimmed();
			}
			long bytes = 0;
			for (int i = shard.indexOf(position.number()); i < shard.tail && found.size() < limit; i++) {
				StoredRecord record = shard.at(i);
				if (!found.isEmpty() && bytes + record.size > MAX_RECORDS_BYTES) {
					break;
				}
				bytes += record.size;
				found.add(record);
			}
			next = found.isEmpty() ? position.number() : found.get(found.size() - 1).number + 1;
			ended = !shard.isOpen() && next > shard.end;
		}
		List<Record> records = new ArrayList<>(found.size());
		for (StoredRecord record : found) {
			records.add(record(stream, record));
		}
		return GetRecordsResponse.builder()
			.records(records)
			.nextShardIterator(ended ? null : iterator(stream.arn, position.shardId(), next, now))
			.build();
	}

	private static AwsError trimmed() {
		return AwsError.of("TrimmedDataAccessException", "The data you are trying to access has been trimmed");
	}

	/** A stored record as GetRecords answers it. */
	private static Record record(Stream stream, StoredRecord stored) {
		ByteSource source = new ByteSource(stored.payload);
		int flags = source.readByte();
		Map<String, AttributeValue> keys = ItemCodec.readAttributes(source);
		Map<String, AttributeValue> newImage = ((flags & StoredRecord.HAS_NEW) != 0) ? ItemCodec.readAttributes(source) : null;
		Map<String, AttributeValue> oldImage = ((flags & StoredRecord.HAS_OLD) != 0) ? ItemCodec.readAttributes(source) : null;
		OperationType operation = switch (stored.kind & 0x0F) {
			case StoredRecord.INSERT -> OperationType.INSERT;
			case StoredRecord.MODIFY -> OperationType.MODIFY;
			default -> OperationType.REMOVE;
		};
		StreamRecord.Builder change = StreamRecord.builder()
			.approximateCreationDateTime(Instant.ofEpochSecond(Math.floorDiv(stored.timeMillis, 1000)))
			.keys(keys)
			.sequenceNumber(StreamNames.sequenceNumber(stored.number))
			.sizeBytes((long) stored.size)
			.streamViewType(stream.viewType);
		if (newImage != null) {
			change.newImage(newImage);
		}
		if (oldImage != null) {
			change.oldImage(oldImage);
		}
		Record.Builder record = Record.builder()
			.eventID(eventId(stream, stored.number))
			.eventName(operation)
			.eventVersion("1.1")
			.eventSource("aws:dynamodb")
			.awsRegion(stream.region)
			.dynamodb(change.build());
		if ((stored.kind & StoredRecord.EXPIRED) != 0) {
			record.userIdentity(TIME_TO_LIVE);
		}
		return record.build();
	}

	/**
	 * A record's eventID: 32 hexadecimal digits, the first 16 of its stream, the next 16 a bijection of its number
	 * (so globally unique, and the same after a restart, as the journal replays records).
	 */
	static String eventId(Stream stream, long number) {
		char[] digits = new char[32];
		hex(stream.arnHash, digits, 0);
		hex(Stream.mix(stream.arnHash ^ number), digits, 16);
		return new String(digits);
	}

	private static void hex(long value, char[] into, int offset) {
		for (int i = 15; i >= 0; i--) {
			into[offset + i] = Character.forDigit((int) (value & 0xF), 16);
			value >>>= 4;
		}
	}

	// ---------------------------------------------------------------------------------------------------------
	// Iterators: opaque to clients, "<stream ARN>|1|<base64url of the shard, the position, the time, a CRC>"

	private static String iterator(String streamArn, String shardId, long number, long issuedMillis) {
		ByteSink sink = new ByteSink(96);
		sink.writeString(shardId);
		sink.writeVarLong(number);
		sink.writeVarLong(issuedMillis);
		CRC32 crc = new CRC32();
		crc.update(streamArn.getBytes(StandardCharsets.UTF_8));
		crc.update(sink.array(), 0, sink.length());
		int check = (int) crc.getValue();
		for (int shift = 24; shift >= 0; shift -= 8) {
			sink.write(check >>> shift);
		}
		return streamArn + "|1|" + Base64.getUrlEncoder().withoutPadding().encodeToString(sink.toByteArray());
	}

	/** Where an iterator points: its stream, shard, the first record number it reads, when it was handed out. */
	private record Position(String streamArn, String shardId, long number, long issuedMillis) {

		static Position parse(String iterator) {
			int mark = iterator.indexOf("|1|");
			if (mark < 0 || StreamNames.parseStreamArn(iterator.substring(0, mark)) == null) {
				throw invalid();
			}
			String streamArn = iterator.substring(0, mark);
			try {
				byte[] bytes = Base64.getUrlDecoder().decode(iterator.substring(mark + 3));
				if (bytes.length < 4) {
					throw invalid();
				}
				CRC32 crc = new CRC32();
				crc.update(streamArn.getBytes(StandardCharsets.UTF_8));
				crc.update(bytes, 0, bytes.length - 4);
				int check = 0;
				for (int i = bytes.length - 4; i < bytes.length; i++) {
					check = (check << 8) | (bytes[i] & 0xFF);
				}
				if (check != (int) crc.getValue()) {
					throw invalid();
				}
				ByteSource source = new ByteSource(bytes, 0, bytes.length - 4);
				Position position = new Position(streamArn, source.readString(), source.readVarLong(), source.readVarLong());
				if (!source.atEnd()) {
					throw invalid();
				}
				return position;
			}
			catch (IllegalArgumentException ex) {
				throw invalid();
			}
		}

		private static AwsError invalid() {
			return AwsError.validation("Invalid ShardIterator");
		}

	}

	// ---------------------------------------------------------------------------------------------------------
	// Checkpoints, for the journal's snapshots

	/**
	 * The streams as they were at one moment: taken cheaply while the journal holds commits back (it copies no
	 * record), written afterwards while writers go on.
	 */
	public static final class Checkpoint {

		private final long counter;

		private final List<StreamCopy> streams;

		private Checkpoint(long counter, List<StreamCopy> streams) {
			this.counter = counter;
			this.streams = streams;
		}

	}

	private record StreamCopy(Stream stream, boolean enabled, long disabledMillis, long records, long bytes,
			long lastShardMillis, List<ShardCopy> shards) {
	}

	private record ShardCopy(Shard shard, long end, long closedMillis, long appended, long trimmedThrough,
			StoredRecord[] records, int head, int tail) {
	}

	/** The streams as they are now. Commits must be held back while it runs (the journal holds its lock). */
	public Checkpoint checkpoint() {
		List<StreamCopy> copies = new ArrayList<>();
		long counter = this.counter.get();
		for (Stream stream : this.streams.values()) {
			synchronized (stream) {
				List<ShardCopy> shards = new ArrayList<>(stream.shards.size());
				for (Shard shard : stream.shards) {
					shards.add(new ShardCopy(shard, shard.end, shard.closedMillis, shard.appended, shard.trimmedThrough,
							shard.records, shard.head, shard.tail));
				}
				copies.add(new StreamCopy(stream, stream.enabled, stream.disabledMillis, stream.records, stream.bytes,
						stream.lastShardMillis, shards));
			}
		}
		return new Checkpoint(counter, copies);
	}

	/** 2: records' keys and images in {@link ItemCodec}'s form (1 had a codec of the streams' own). */
	private static final int CHECKPOINT_VERSION = 2;

	/** Writes a checkpoint; what {@link #restore} reads. */
	public static void write(Checkpoint checkpoint, DataOutput out) throws IOException {
		out.writeInt(CHECKPOINT_VERSION);
		out.writeLong(checkpoint.counter);
		out.writeInt(checkpoint.streams.size());
		for (StreamCopy copy : checkpoint.streams) {
			Stream stream = copy.stream();
			out.writeUTF(stream.arn);
			out.writeUTF(stream.label);
			out.writeUTF(stream.table);
			out.writeUTF(stream.region);
			out.writeUTF(stream.viewType.toString());
			out.writeInt(stream.keySchema.size());
			for (KeySchemaElement key : stream.keySchema) {
				out.writeUTF(key.attributeName());
				out.writeUTF(key.keyTypeAsString());
			}
			out.writeLong(stream.createdMillis);
			out.writeBoolean(copy.enabled());
			out.writeLong(copy.disabledMillis());
			out.writeLong(copy.records());
			out.writeLong(copy.bytes());
			out.writeLong(copy.lastShardMillis());
			out.writeInt(copy.shards().size());
			for (ShardCopy shard : copy.shards()) {
				out.writeUTF(shard.shard().id);
				out.writeBoolean(shard.shard().parentId != null);
				if (shard.shard().parentId != null) {
					out.writeUTF(shard.shard().parentId);
				}
				out.writeLong(shard.shard().start);
				out.writeLong(shard.shard().openedMillis);
				out.writeLong(shard.end());
				out.writeLong(shard.closedMillis());
				out.writeLong(shard.appended());
				out.writeLong(shard.trimmedThrough());
				out.writeInt(shard.tail() - shard.head());
				for (int i = shard.head(); i < shard.tail(); i++) {
					StoredRecord record = shard.records()[i];
					out.writeLong(record.number);
					out.writeLong(record.timeMillis);
					out.writeByte(record.kind);
					out.writeInt(record.size);
					out.writeInt(record.payload.length);
					out.write(record.payload);
				}
			}
		}
	}

	/** Replaces every stream with a checkpoint's, at start, before the engine serves. */
	public void restore(DataInput in) throws IOException {
		int version = in.readInt();
		if (version != CHECKPOINT_VERSION) {
			throw new IOException("streams checkpoint version " + version + " is not known (this engine writes "
					+ CHECKPOINT_VERSION + ")");
		}
		this.streams.clear();
		this.enabled.clear();
		this.counter.set(in.readLong());
		int streams = in.readInt();
		for (int s = 0; s < streams; s++) {
			String arn = in.readUTF();
			String label = in.readUTF();
			String table = in.readUTF();
			String region = in.readUTF();
			StreamViewType viewType = StreamViewType.fromValue(in.readUTF());
			int keys = in.readInt();
			List<KeySchemaElement> keySchema = new ArrayList<>(keys);
			for (int k = 0; k < keys; k++) {
				keySchema.add(KeySchemaElement.builder().attributeName(in.readUTF()).keyType(in.readUTF()).build());
			}
			Stream stream = new Stream(arn, label, table, region, viewType, keySchema, in.readLong());
			stream.enabled = in.readBoolean();
			stream.disabledMillis = in.readLong();
			stream.records = in.readLong();
			stream.bytes = in.readLong();
			stream.lastShardMillis = in.readLong();
			int shards = in.readInt();
			for (int h = 0; h < shards; h++) {
				String id = in.readUTF();
				String parent = in.readBoolean() ? in.readUTF() : null;
				Shard shard = new Shard(id, parent, in.readLong(), in.readLong());
				shard.end = in.readLong();
				shard.closedMillis = in.readLong();
				long appended = in.readLong();
				long trimmedThrough = in.readLong();
				int count = in.readInt();
				for (int r = 0; r < count; r++) {
					long number = in.readLong();
					long time = in.readLong();
					byte kind = in.readByte();
					int size = in.readInt();
					byte[] payload = new byte[in.readInt()];
					in.readFully(payload);
					shard.append(new StoredRecord(number, time, kind, size, payload));
				}
				shard.appended = appended;
				shard.trimmedThrough = trimmedThrough;
				stream.add(shard);
			}
			this.streams.put(arn, stream);
			if (stream.enabled) {
				this.enabled.put(table, stream);
			}
		}
	}

}
