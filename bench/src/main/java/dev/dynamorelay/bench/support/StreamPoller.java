package dev.dynamorelay.bench.support;

import java.math.BigInteger;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * The live sections' floor: reads the purchases' stream in this JVM as the server's reader does (every open shard
 * from its newest record, one GetRecords at a time per shard, at once again after a read that found records, after
 * the server's default poll interval after one that found none) and hands each {@link Stamp} it sees to its
 * {@link Seen}.
 */
public final class StreamPoller {

	/** The server's default poll interval while a table has subscribers ({@code dynamo-relay.live.poll-interval}). */
	private static final Duration POLL = Duration.ofMillis(50);

	private final DynamoDbStreamsAsyncClient streams;

	private final DynamoDbAsyncClient dynamoDb;

	/** Where each stamped write seen is timed. */
	private final Seen seen;

	private volatile boolean stopped;

	/** Where the poller hands each stamped write it sees. */
	public interface Seen {

		/** The record of the write {@code stamp} read {@code at} ({@link System#nanoTime()}). */
		void seen(Stamp stamp, long at);

	}

	public StreamPoller(DynamoDbStreamsAsyncClient streams, DynamoDbAsyncClient dynamoDb, Seen seen) {
		this.streams = streams;
		this.dynamoDb = dynamoDb;
		this.seen = seen;
	}

	/** A DynamoDB Streams client of the benchmark's DynamoDB at {@code endpoint} (Netty's, as the server's reader had). */
	public static DynamoDbStreamsAsyncClient client(URI endpoint) {
		return DynamoDbStreamsAsyncClient.builder()
			.httpClientBuilder(NettyNioAsyncHttpClient.builder())
			.endpointOverride(endpoint)
			.region(Region.US_EAST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench")))
			.build();
	}

	/** Reads in a daemon thread of its own until {@link #stop()}; returns the thread. */
	public Thread start() {
		Thread poller = new Thread(this::run, "bench-stream-poller");
		poller.setDaemon(true);
		poller.start();
		return poller;
	}

	/** Stops the loop of {@link #run()} after its round. */
	public void stop() {
		this.stopped = true;
	}

	/** Reads until {@link #stop()}, from the newest record of every shard open now. */
	public void run() {
		String arn = this.dynamoDb.describeTable((describe) -> describe.tableName("UserPurchases")).join()
			.table()
			.latestStreamArn();
		Map<String, String> iterators = new HashMap<>();
		Map<String, BigInteger> last = new HashMap<>();
		for (Shard shard : shards(this.streams, arn)) {
			if (shard.sequenceNumberRange().endingSequenceNumber() == null) {
				iterators.put(shard.shardId(), iterator(this.streams, arn, shard.shardId(), ShardIteratorType.LATEST, null));
			}
			else {
				last.put(shard.shardId(), null);
			}
		}
		long nextDiscovery = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (!this.stopped) {
			boolean found = false;
			for (String shardId : List.copyOf(iterators.keySet())) {
				Boolean read = read(arn, shardId, iterators, last);
				found |= Boolean.TRUE.equals(read);
				if (read != null && !iterators.containsKey(shardId)) {
					nextDiscovery = 0;
				}
			}
			if (System.nanoTime() > nextDiscovery) {
				discover(arn, iterators, last);
				nextDiscovery = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			}
			if (!found) {
				try {
					Thread.sleep(POLL.toMillis());
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}
	}

	/**
	 * One GetRecords of a shard, timing the stamped writes it holds: whether it found records, or null when the read
	 * failed (its iterator is then taken again, after the last record read). A shard read to its end is removed.
	 */
	private Boolean read(String arn, String shardId, Map<String, String> iterators, Map<String, BigInteger> last) {
		GetRecordsResponse response;
		try {
			response = this.streams.getRecords((get) -> get.shardIterator(iterators.get(shardId)).limit(1000)).join();
		}
		catch (CompletionException ex) {
			BigInteger after = last.get(shardId);
			iterators.put(shardId, iterator(this.streams, arn, shardId,
					(after != null) ? ShardIteratorType.AFTER_SEQUENCE_NUMBER : ShardIteratorType.TRIM_HORIZON, after));
			return null;
		}
		long seen = System.nanoTime();
		for (Record record : response.records()) {
			last.put(shardId, new BigInteger(record.dynamodb().sequenceNumber()));
			if (record.dynamodb().hasNewImage()) {
				AttributeValue product = record.dynamodb().newImage().get("product");
				if (product != null && product.s() != null && product.s().startsWith(Stamp.PREFIX)) {
					this.seen.seen(Stamp.parse(product.s(), Stamp.PREFIX.length()), seen);
				}
			}
		}
		if (response.nextShardIterator() == null) {
			iterators.remove(shardId);
		}
		else {
			iterators.put(shardId, response.nextShardIterator());
		}
		return !response.records().isEmpty();
	}

	/** New shards, each read from its start once its parent is read to its end. */
	private void discover(String arn, Map<String, String> iterators, Map<String, BigInteger> last) {
		for (Shard shard : shards(this.streams, arn)) {
			String parent = shard.parentShardId();
			if (!iterators.containsKey(shard.shardId()) && !last.containsKey(shard.shardId())
					&& (parent == null || !iterators.containsKey(parent))) {
				iterators.put(shard.shardId(), iterator(this.streams, arn, shard.shardId(), ShardIteratorType.TRIM_HORIZON,
						null));
				last.put(shard.shardId(), null);
			}
		}
	}

	private static List<Shard> shards(DynamoDbStreamsAsyncClient streams, String arn) {
		List<Shard> all = new ArrayList<>();
		String after = null;
		do {
			String from = after;
			var description = streams.describeStream((describe) -> describe.streamArn(arn).exclusiveStartShardId(from))
				.join()
				.streamDescription();
			all.addAll(description.shards());
			after = description.lastEvaluatedShardId();
		}
		while (after != null);
		return all;
	}

	private static String iterator(DynamoDbStreamsAsyncClient streams, String arn, String shardId, ShardIteratorType type,
			BigInteger after) {
		return streams.getShardIterator((get) -> {
			get.streamArn(arn).shardId(shardId).shardIteratorType(type);
			if (after != null) {
				get.sequenceNumber(after.toString());
			}
		}).join().shardIterator();
	}

}
