package dev.dynamorelay.live;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * One table's DynamoDB Stream as both of its readings read it, the live one ({@link StreamReader}) and the resumes'
 * ({@link Replays}): its shards, an iterator at a place in a shard, and a page of a shard's records, each record
 * made a {@link ChangeRecord} here and nowhere else.
 */
final class StreamShards {

	/** Records a GetRecords asks for: DynamoDB answers at most 1 MB of them. */
	static final int PAGE = 1000;

	private final DynamoDbStreamsAsyncClient streams;

	private final String streamArn;

	private StreamShards(DynamoDbStreamsAsyncClient streams, String streamArn) {
		this.streams = streams;
		this.streamArn = streamArn;
	}

	/** The stream of {@code table}, as DynamoDB names it now. */
	static CompletableFuture<StreamShards> of(DynamoDbStreamsAsyncClient streams, DynamoDbAsyncClient dynamoDb,
			String table) {
		return dynamoDb.describeTable((describe) -> describe.tableName(table)).thenApply((described) -> {
			String arn = described.table().latestStreamArn();
			if (arn == null) {
				throw new IllegalStateException("table " + table + " has no stream");
			}
			return new StreamShards(streams, arn);
		});
	}

	/**
	 * Where a reading of a shard starts: at its newest record ({@code LATEST}), at its oldest
	 * ({@code TRIM_HORIZON}), or right behind a sequence number.
	 *
	 * @param type the iterator's type
	 * @param after the sequence number it starts behind, for {@code AFTER_SEQUENCE_NUMBER}
	 */
	record Start(ShardIteratorType type, Optional<BigInteger> after) {

		static final Start NEWEST = new Start(ShardIteratorType.LATEST, Optional.empty());

		static final Start OLDEST = new Start(ShardIteratorType.TRIM_HORIZON, Optional.empty());

		static Start after(BigInteger sequenceNumber) {
			return new Start(ShardIteratorType.AFTER_SEQUENCE_NUMBER, Optional.of(sequenceNumber));
		}

	}

	/**
	 * A page of a shard's records.
	 *
	 * @param records its records, in the shard's order
	 * @param next the iterator of the next page; empty at the end of a closed shard
	 * @param written when DynamoDB wrote the last of its records, if it has one and the stream tells
	 */
	record Page(List<ChangeRecord> records, Optional<String> next, Optional<Instant> written) {
	}

	/** Every shard of the stream, page by page. */
	CompletableFuture<List<Shard>> shards() {
		return shards(new ArrayList<>(), null);
	}

	private CompletableFuture<List<Shard>> shards(List<Shard> all, String after) {
		return this.streams.describeStream((describe) -> describe.streamArn(this.streamArn).exclusiveStartShardId(after))
			.thenCompose((response) -> {
				all.addAll(response.streamDescription().shards());
				String last = response.streamDescription().lastEvaluatedShardId();
				return (last != null) ? shards(all, last) : CompletableFuture.completedFuture(all);
			});
	}

	/** An iterator of shard {@code shardId} from {@code start}; null when DynamoDB gives none. */
	CompletableFuture<String> iterator(String shardId, Start start) {
		return this.streams.getShardIterator((get) -> {
			get.streamArn(this.streamArn).shardId(shardId).shardIteratorType(start.type());
			start.after().ifPresent((after) -> get.sequenceNumber(StreamPosition.sequence(after)));
		}).thenApply((response) -> response.shardIterator());
	}

	/** The page of shard {@code shardId} at {@code iterator}. */
	CompletableFuture<Page> read(String shardId, String iterator) {
		return this.streams.getRecords((get) -> get.shardIterator(iterator).limit(PAGE))
			.thenApply((response) -> page(shardId, response));
	}

	private static Page page(String shardId, GetRecordsResponse response) {
		List<Record> records = response.records();
		List<ChangeRecord> changes = new ArrayList<>(records.size());
		for (Record record : records) {
			changes.add(ChangeRecord.of(shardId, record));
		}
		Optional<Instant> written = records.isEmpty() ? Optional.empty()
				: Optional.ofNullable(records.get(records.size() - 1).dynamodb().approximateCreationDateTime());
		return new Page(List.copyOf(changes), Optional.ofNullable(response.nextShardIterator()), written);
	}

}
