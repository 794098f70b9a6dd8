package dev.dynamorelay.engine.streams;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorResponse;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.SequenceNumberRange;
import software.amazon.awssdk.services.dynamodb.model.ShardFilter;
import software.amazon.awssdk.services.dynamodb.model.ShardFilterType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;

import dev.dynamorelay.engine.action.AwsError;

/**
 * The reading side of DynamoDB Streams: ListStreams, DescribeStream, GetShardIterator and GetRecords, with the
 * Streams API Reference's checks and messages, over the streams and shards {@link ShardLifecycle} keeps.
 */
final class StreamReads {

	private static final List<String> ITERATOR_TYPES = List.of("TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER",
			"AFTER_SEQUENCE_NUMBER");

	private static final String TABLE_NAME_PATTERN = "[a-zA-Z0-9_.-]+";

	/** GetRecords: "can retrieve a maximum of 1 MB of data or 1000 stream records, whichever comes first". */
	private static final long MAX_RECORDS_BYTES = 1 << 20;

	private final ShardLifecycle shards;

	private final StreamsOptions options;

	StreamReads(ShardLifecycle shards) {
		this.shards = shards;
		this.options = shards.options;
	}

	/** ListStreams: the streams of every table, or of one, in pages of {@code Limit} (100 by default). */
	ListStreamsResponse listStreams(ListStreamsRequest request) {
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
		this.shards.sweep(this.options.clock().millis());
		int limit = (request.limit() != null) ? request.limit() : 100;
		Map<String, Stream> candidates = (start != null) ? this.shards.streams.tailMap(start, false) : this.shards.streams;
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
	DescribeStreamResponse describeStream(DescribeStreamRequest request) {
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
		String parent = parentFilter(filter);
		long now = this.options.clock().millis();
		Stream stream = this.shards.stream(request.streamArn(), now);
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

	/** The shard whose children a {@code ShardFilter} asks for, or null for every shard. */
	private static String parentFilter(ShardFilter filter) {
		if (filter != null && filter.type() == ShardFilterType.CHILD_SHARDS) {
			if (filter.shardId() == null) {
				throw AwsError.validation("A ShardFilter of type CHILD_SHARDS needs a ShardId");
			}
			return filter.shardId();
		}
		return null;
	}

	/** GetShardIterator: a position in a shard, valid for the iterator lifetime. */
	GetShardIteratorResponse getShardIterator(GetShardIteratorRequest request) {
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
		Stream stream = this.shards.stream(request.streamArn(), now);
		long position;
		String shardId;
		synchronized (stream) {
			Shard shard = stream.shardsById.get(request.shardId());
			if (shard == null) {
				throw AwsError.resourceNotFound("Requested resource not found: Shard does not exist");
			}
			shardId = shard.id;
			long last = shard.isOpen() ? this.shards.counter.get() : shard.end;
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
		return GetShardIteratorResponse.builder().shardIterator(ShardIterators.iterator(stream.arn, shardId, position, now)).build();
	}

	/**
	 * GetRecords: the records from the iterator's position, at most {@code Limit} (1,000 by default) and 1 MB of
	 * them (one at least), and the iterator after them; none once a closed shard is read to its end.
	 */
	GetRecordsResponse getRecords(GetRecordsRequest request) {
		Constraints.check()
			.required("shardIterator", request.shardIterator())
			.length("shardIterator", request.shardIterator(), 1, 2048)
			.range("limit", request.limit(), 1, 1000)
			.done();
		ShardIterators.Position position = ShardIterators.Position.parse(request.shardIterator());
		long now = this.options.clock().millis();
		if (now - position.issuedMillis() >= this.options.iteratorLifetime().toMillis()) {
			throw AwsError.of("ExpiredIteratorException", "The provided iterator exceeds the maximum age allowed.");
		}
		Stream stream = this.shards.stream(position.streamArn(), now);
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
			records.add(StreamRecords.record(stream, record));
		}
		return GetRecordsResponse.builder()
			.records(records)
			.nextShardIterator(ended ? null : ShardIterators.iterator(stream.arn, position.shardId(), next, now))
			.build();
	}

	private static AwsError trimmed() {
		return AwsError.of("TrimmedDataAccessException", "The data you are trying to access has been trimmed");
	}

}
