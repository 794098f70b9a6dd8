package dev.dynamorelay.engine.streams;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import static dev.dynamorelay.engine.streams.StreamsFixture.item;
import static org.assertj.core.api.Assertions.assertThat;

/** A checkpoint (what the journal's snapshot keeps of the streams) restores them as they were, records and all. */
class StreamsCheckpointTest {

	@Test
	void restoresStreamsShardsAndRecordsAsTheyWereAtTheCheckpoint() throws Exception {
		StreamsOptions options = StreamsOptions.defaults().withShards(3, Duration.ofHours(4)).withBounds(8, Long.MAX_VALUE);
		StreamsFixture before = new StreamsFixture(options);
		String old = before.create("Orders", StreamViewType.KEYS_ONLY);
		before.put("Orders", item("gone"));
		before.changeStream("Orders", null);
		String arn = before.changeStream("Orders", StreamViewType.NEW_AND_OLD_IMAGES);
		for (int i = 0; i < 10; i++) {
			before.put("Orders", item("k" + (i % 4), "n", i));
		}
		Streams.Checkpoint checkpoint = before.streams.checkpoint();
		List<Record> atCheckpoint = before.readAll(arn);
		var shardsAtCheckpoint = before.shards(arn);
		var describedAtCheckpoint = before.describe(arn);
		var listedAtCheckpoint = before.list((request) -> request.tableName("Orders"));
		// What comes after the checkpoint is not in it.
		before.put("Orders", item("after"));

		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		Streams.write(checkpoint, new DataOutputStream(bytes));
		StreamsFixture after = new StreamsFixture(options);
		after.streams.restore(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));

		assertThat(atCheckpoint).hasSize(8);
		assertThat(after.readAll(arn)).isEqualTo(atCheckpoint);
		assertThat(after.describe(arn)).isEqualTo(describedAtCheckpoint);
		assertThat(after.shards(arn)).isEqualTo(shardsAtCheckpoint);
		assertThat(after.readAll(old)).isEqualTo(before.readAll(old));
		assertThat(after.list((request) -> request.tableName("Orders"))).isEqualTo(listedAtCheckpoint);

		// The restored streams go on as the original did: the same next record, the same numbers and ids.
		after.put("Orders", item("after"));
		assertThat(after.readAll(arn)).isEqualTo(before.readAll(arn));
	}

}
