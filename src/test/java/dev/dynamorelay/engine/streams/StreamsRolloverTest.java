package dev.dynamorelay.engine.streams;

import java.util.List;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import static dev.dynamorelay.engine.streams.StreamsFixture.item;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link Streams#rollover()}: every enabled stream's open shard closed at once, and a child opened for what follows. */
class StreamsRolloverTest {

	@Test
	void everyOpenShardClosesAndItsChildTakesTheNextRecords() {
		StreamsFixture fixture = new StreamsFixture();
		String orders = fixture.create("Orders", StreamViewType.KEYS_ONLY);
		String users = fixture.create("Users", StreamViewType.NEW_IMAGE);
		fixture.create("Plain", null);
		fixture.put("Orders", item("o1"));
		fixture.put("Users", item("u1"));
		String reader = fixture.iterator(orders, fixture.shards(orders).get(0).shardId(), ShardIteratorType.TRIM_HORIZON,
				null);

		assertThat(fixture.streams.rollover()).isEqualTo(2);
		fixture.put("Orders", item("o2"));
		fixture.put("Orders", item("o3"));

		List<Shard> shards = fixture.shards(orders);
		assertThat(shards).hasSize(2);
		assertThat(shards.get(1).parentShardId()).isEqualTo(shards.get(0).shardId());
		assertThat(shards.get(0).sequenceNumberRange().endingSequenceNumber()).as("the parent is closed").isNotNull();
		assertThat(shards.get(1).sequenceNumberRange().endingSequenceNumber()).as("the child is open").isNull();
		// A reader of the parent, whose iterator was taken while it was open, gets its record and the shard's end; the
		// child holds what followed.
		GetRecordsResponse parent = fixture.records(reader);
		assertThat(parent.records()).extracting(StreamsFixture::pk).containsExactly("o1");
		assertThat(parent.nextShardIterator()).as("the parent's end").isNull();
		assertThat(fixture.drain(fixture.iterator(orders, shards.get(1).shardId(), ShardIteratorType.TRIM_HORIZON, null)))
			.extracting(StreamsFixture::pk)
			.containsExactly("o2", "o3");
		assertThat(fixture.readAll(orders)).extracting(StreamsFixture::pk).containsExactly("o1", "o2", "o3");
		assertThat(fixture.shards(users)).hasSize(2);
	}

	@Test
	void anEmptyOpenShardClosesTooAndADisabledStreamIsLeftAlone() {
		StreamsFixture fixture = new StreamsFixture();
		String orders = fixture.create("Orders", StreamViewType.KEYS_ONLY);
		String old = fixture.create("Old", StreamViewType.KEYS_ONLY);
		fixture.put("Old", item("x"));
		fixture.changeStream("Old", null);

		assertThat(fixture.streams.rollover()).isEqualTo(1);

		List<Shard> shards = fixture.shards(orders);
		assertThat(shards).hasSize(2);
		assertThat(shards.get(0).sequenceNumberRange().endingSequenceNumber()).isNotNull();
		assertThat(fixture.shards(old)).as("closed when it was disabled, no child").hasSize(1);
		fixture.put("Orders", item("o1"));
		assertThat(fixture.readAll(orders)).extracting(StreamsFixture::pk).containsExactly("o1");
	}

}
