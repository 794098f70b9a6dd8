package dev.dynamorelay.engine.streams;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import dev.dynamorelay.engine.store.ItemChange;

/**
 * Drives {@link Streams} as the store would: tables described and changed, items written with their old and
 * new images (a small model of the table keeps them), at a clock the test moves.
 */
final class StreamsFixture {

	/** A clock that stands still until moved. */
	static final class MovableClock extends Clock {

		private volatile Instant now;

		MovableClock(Instant now) {
			this.now = now;
		}

		void advance(Duration by) {
			this.now = this.now.plus(by);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

	static final Instant START = Instant.parse("2025-03-01T10:15:30.123Z");

	final MovableClock clock = new MovableClock(START);

	final Streams streams;

	/** Each table's items by partition key value: what the store holds, for the old images. */
	private final Map<String, Map<String, Map<String, AttributeValue>>> tables = new HashMap<>();

	StreamsFixture() {
		this(StreamsOptions.defaults());
	}

	StreamsFixture(StreamsOptions options) {
		this.streams = new Streams(options.withClock(this.clock));
	}

	static TableDescription table(String name, StreamViewType viewType) {
		TableDescription.Builder table = TableDescription.builder()
			.tableName(name)
			.tableArn("arn:aws:dynamodb:eu-west-1:000000000000:table/" + name)
			.keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build());
		if (viewType != null) {
			table.streamSpecification(StreamSpecification.builder().streamEnabled(true).streamViewType(viewType).build());
		}
		return table.build();
	}

	/** Creates (or changes) a table as the store tells it, without naming the stream: the streams name it. */
	String create(String name, StreamViewType viewType) {
		this.tables.putIfAbsent(name, new LinkedHashMap<>());
		this.streams.tableChanged(this.clock.instant(), table(name, viewType), false);
		return (viewType != null) ? latestArn(name) : null;
	}

	/** Changes the table's stream specification (null: disabled). */
	String changeStream(String name, StreamViewType viewType) {
		TableDescription table = table(name, null);
		table = table.toBuilder()
			.streamSpecification((viewType != null)
					? StreamSpecification.builder().streamEnabled(true).streamViewType(viewType).build()
					: StreamSpecification.builder().streamEnabled(false).build())
			.build();
		this.streams.tableChanged(this.clock.instant(), table, false);
		return (viewType != null) ? latestArn(name) : null;
	}

	void delete(String name) {
		this.streams.tableChanged(this.clock.instant(), table(name, null), true);
		this.tables.remove(name);
	}

	ListStreamsResponse list(java.util.function.Consumer<ListStreamsRequest.Builder> request) {
		ListStreamsRequest.Builder builder = ListStreamsRequest.builder();
		request.accept(builder);
		return this.streams.listStreams(builder.build());
	}

	/** The newest stream of the table, as ListStreams lists it. */
	String latestArn(String table) {
		var listed = this.list((r) -> r.tableName(table)).streams();
		return listed.get(listed.size() - 1).streamArn();
	}

	static Map<String, AttributeValue> item(String pk, Object... attributes) {
		Map<String, AttributeValue> item = new LinkedHashMap<>();
		item.put("pk", AttributeValue.fromS(pk));
		for (int i = 0; i < attributes.length; i += 2) {
			Object value = attributes[i + 1];
			item.put((String) attributes[i], (value instanceof Number) ? AttributeValue.fromN(value.toString())
					: AttributeValue.fromS(value.toString()));
		}
		return item;
	}

	static Map<String, AttributeValue> key(String pk) {
		return Map.of("pk", AttributeValue.fromS(pk));
	}

	/** Puts an item, telling the streams of the change with the item it replaces. */
	void put(String table, Map<String, AttributeValue> item) {
		String pk = item.get("pk").s();
		Map<String, AttributeValue> old = this.tables.computeIfAbsent(table, (name) -> new LinkedHashMap<>()).put(pk, item);
		this.streams.committed(this.clock.instant(), List.of(new ItemChange(table, key(pk), old, item, false)));
	}

	void remove(String table, String pk) {
		remove(table, pk, false);
	}

	void remove(String table, String pk, boolean expired) {
		Map<String, AttributeValue> old = this.tables.get(table).remove(pk);
		if (old != null) {
			this.streams.committed(this.clock.instant(), List.of(new ItemChange(table, key(pk), old, null, expired)));
		}
	}

	StreamDescription describe(String arn) {
		return this.streams.describeStream(DescribeStreamRequest.builder().streamArn(arn).build()).streamDescription();
	}

	/** Every shard of the stream, page by page. */
	List<Shard> shards(String arn) {
		List<Shard> shards = new ArrayList<>();
		String after = null;
		do {
			String start = after;
			StreamDescription page = this.streams
				.describeStream(DescribeStreamRequest.builder().streamArn(arn).exclusiveStartShardId(start).limit(7).build())
				.streamDescription();
			shards.addAll(page.shards());
			after = page.lastEvaluatedShardId();
		}
		while (after != null);
		return shards;
	}

	String iterator(String arn, String shardId, ShardIteratorType type, String sequenceNumber) {
		return this.streams.getShardIterator(GetShardIteratorRequest.builder()
			.streamArn(arn)
			.shardId(shardId)
			.shardIteratorType(type)
			.sequenceNumber(sequenceNumber)
			.build()).shardIterator();
	}

	GetRecordsResponse records(String iterator) {
		return this.streams.getRecords(GetRecordsRequest.builder().shardIterator(iterator).build());
	}

	/** Reads a shard from an iterator to where it stands now (or to its end, closed). */
	List<Record> drain(String iterator) {
		List<Record> records = new ArrayList<>();
		String next = iterator;
		while (next != null) {
			GetRecordsResponse page = records(next);
			records.addAll(page.records());
			if (page.records().isEmpty()) {
				break;
			}
			next = page.nextShardIterator();
		}
		return records;
	}

	/**
	 * Reads the whole stream as a client following lineage does: a shard only once its parent was read to its end
	 * (or is no longer listed), each from TRIM_HORIZON to its end.
	 */
	List<Record> readAll(String arn) {
		List<Shard> shards = shards(arn);
		Map<String, Shard> byId = new LinkedHashMap<>();
		shards.forEach((shard) -> byId.put(shard.shardId(), shard));
		List<Record> records = new ArrayList<>();
		List<String> done = new ArrayList<>();
		boolean progress = true;
		while (progress) {
			progress = false;
			for (Shard shard : shards) {
				String parent = shard.parentShardId();
				boolean ready = parent == null || !byId.containsKey(parent) || done.contains(parent);
				if (done.contains(shard.shardId()) || !ready) {
					continue;
				}
				records.addAll(drain(iterator(arn, shard.shardId(), ShardIteratorType.TRIM_HORIZON, null)));
				done.add(shard.shardId());
				progress = true;
			}
		}
		return records;
	}

	static String pk(Record record) {
		return record.dynamodb().keys().get("pk").s();
	}

}
