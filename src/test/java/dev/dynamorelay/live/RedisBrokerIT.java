package dev.dynamorelay.live;

import java.math.BigInteger;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;

import dev.dynamorelay.fixtures.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet's broker against a real Redis: a record is published once however often its lease's holders publish it,
 * the window holds what a resume reads and tells when it no longer does, a watched channel receives what is
 * published on it, and a Redis that lost its scripts (a restart) is published to all the same.
 */
class RedisBrokerIT {

	private static RedisServer redis;

	private static RedisBroker broker;

	private static final BlockingQueue<ChangeRecord> received = new LinkedBlockingQueue<>();

	@BeforeAll
	static void start() {
		redis = RedisServer.start();
		// A window of 10 changes, trimmed approximately: Redis drops a whole node of 100 entries at a time.
		broker = new RedisBroker(new FleetProperties(URI.create(redis.url()), "broker-it", Duration.ofSeconds(10), 10,
				Duration.ofHours(1), null, Duration.ofSeconds(2)), (table, record) -> received.add(record));
	}

	@AfterAll
	static void stop() {
		broker.close();
		redis.close();
	}

	@Test
	void aRecordPublishedTwiceIsPublishedOnceAndReachesItsChannel() throws Exception {
		String channel = broker.channel("Once", PartitionKey.of("userId", AttributeValue.fromS("u1")));
		broker.watch(channel).get(5, TimeUnit.SECONDS);
		Record record = record(1, "u1");
		ChangeRecord change = ChangeRecord.of("shardId-1-a", record);
		assertThat(broker.publish("Once", change, record, List.of(channel)).get(5, TimeUnit.SECONDS)).isTrue();
		assertThat(broker.publish("Once", change, record, List.of(channel)).get(5, TimeUnit.SECONDS))
			.as("the next holder of the lease publishes it again, from the checkpoint").isFalse();
		ChangeRecord arrived = received.poll(5, TimeUnit.SECONDS);
		assertThat(arrived).isNotNull();
		assertThat(arrived.position()).isEqualTo(change.position());
		assertThat(arrived.newImage()).isEqualTo(change.newImage());
		assertThat(received.poll(300, TimeUnit.MILLISECONDS)).as("once").isNull();
		broker.unwatch(channel);
		assertThat(broker.watching()).isZero();
	}

	@Test
	void theWindowHoldsWhatAResumeReadsAndTellsWhenItNoLongerDoes() throws Exception {
		for (int i = 1; i <= 5; i++) {
			Record record = record(i, "u2");
			broker.publish("Window", ChangeRecord.of("shardId-2-b", record), record, List.of("unwatched")).get(5,
					TimeUnit.SECONDS);
		}
		StreamPosition second = ChangeRecord.of("shardId-2-b", record(2, "u2")).position();
		String entry = broker.entry(second).get(5, TimeUnit.SECONDS).orElseThrow();
		String newest = broker.newest("Window").get(5, TimeUnit.SECONDS);
		List<RedisBroker.Entry> after = broker.window("Window", entry, newest).get(5, TimeUnit.SECONDS);
		assertThat(after).extracting((each) -> each.record().sequenceNumber())
			.containsExactly(BigInteger.valueOf(3), BigInteger.valueOf(4), BigInteger.valueOf(5));
		assertThat(broker.holds("Window", entry).get(5, TimeUnit.SECONDS)).isTrue();
		assertThat(broker.entry(ChangeRecord.of("shardId-2-b", record(99, "u2")).position()).get(5, TimeUnit.SECONDS))
			.as("an event never published").isEmpty();
		// 250 more: the window keeps about 10, and the first ones are trimmed.
		for (int i = 6; i <= 255; i++) {
			Record record = record(i, "u2");
			broker.publish("Window", ChangeRecord.of("shardId-2-b", record), record, List.of("unwatched")).get(5,
					TimeUnit.SECONDS);
		}
		assertThat(broker.holds("Window", entry).get(5, TimeUnit.SECONDS)).as("trimmed by count").isFalse();
		assertThat(Long.parseLong(redis.command("XLEN", RedisBroker.prefix("broker-it") + "window:Window")))
			.isLessThan(255);
	}

	@Test
	void aRedisThatLostItsScriptsIsPublishedToAllTheSame() throws Exception {
		redis.command("SCRIPT", "FLUSH");
		Record record = record(1, "u3");
		assertThat(broker.publish("Scripts", ChangeRecord.of("shardId-3-c", record), record, List.of("unwatched"))
			.get(5, TimeUnit.SECONDS)).isTrue();
	}

	private static Record record(long sequence, String user) {
		return Record.builder()
			.eventName(OperationType.INSERT)
			.dynamodb(StreamRecord.builder()
				.sequenceNumber(Long.toString(sequence))
				.approximateCreationDateTime(Instant.now())
				.newImage(Map.of("userId", AttributeValue.fromS(user), "n", AttributeValue.fromN(Long.toString(sequence))))
				.build())
			.build();
	}

}
