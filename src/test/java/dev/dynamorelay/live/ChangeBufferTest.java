package dev.dynamorelay.live;

import java.math.BigInteger;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A subscriber's waiting changes: bounded, in order, an item's consecutive updates merged at their first place. */
class ChangeBufferTest {

	@Test
	void consecutiveUpdatesOfAnItemAreMergedIntoTheLatestAtTheFirstPlace() {
		ChangeBuffer buffer = new ChangeBuffer(10);
		assertThat(buffer.offer(change(Change.Kind.UPDATED, "x", 1), 1)).isEqualTo(ChangeBuffer.Offer.QUEUED);
		assertThat(buffer.offer(change(Change.Kind.ADDED, "y", 2), 1)).isEqualTo(ChangeBuffer.Offer.QUEUED);
		assertThat(buffer.offer(change(Change.Kind.UPDATED, "x", 3), 1)).isEqualTo(ChangeBuffer.Offer.MERGED);
		Change first = buffer.poll().change();
		assertThat(first.itemKey()).isEqualTo("x");
		// The latest state, at the place (and resume position) of the first: nothing queued behind it is skipped.
		assertThat(first.deletedId()).contains("state 3");
		assertThat(first.position().sequenceNumber()).isEqualTo(BigInteger.ONE);
		assertThat(buffer.poll().change().itemKey()).isEqualTo("y");
		assertThat(buffer.poll()).isNull();
	}

	@Test
	void anAdditionOrRemovalIsNeverMerged() {
		ChangeBuffer buffer = new ChangeBuffer(10);
		buffer.offer(change(Change.Kind.UPDATED, "x", 1), 1);
		buffer.offer(change(Change.Kind.REMOVED, "x", 2), 1);
		assertThat(buffer.offer(change(Change.Kind.ADDED, "x", 3), 1)).isEqualTo(ChangeBuffer.Offer.QUEUED);
		assertThat(buffer.offer(change(Change.Kind.UPDATED, "x", 4), 1)).isEqualTo(ChangeBuffer.Offer.QUEUED);
		assertThat(buffer.size()).isEqualTo(4);
	}

	@Test
	void aFullBufferRefusesWhatItCannotMerge() {
		ChangeBuffer buffer = new ChangeBuffer(2);
		buffer.offer(change(Change.Kind.UPDATED, "a", 1), 1);
		buffer.offer(change(Change.Kind.ADDED, "b", 2), 1);
		assertThat(buffer.offer(change(Change.Kind.ADDED, "c", 3), 1)).isEqualTo(ChangeBuffer.Offer.FULL);
		assertThat(buffer.offer(change(Change.Kind.UPDATED, "b", 4), 1)).isEqualTo(ChangeBuffer.Offer.FULL);
		assertThat(buffer.offer(change(Change.Kind.UPDATED, "a", 5), 1)).as("merged, even when full")
			.isEqualTo(ChangeBuffer.Offer.MERGED);
		assertThat(buffer.size()).isEqualTo(2);
	}

	@Test
	void eventIdsNameTheirPositionAndNothingElse() {
		StreamPosition position = new StreamPosition("shardId-00000001764161414560-7a19c3d2", new BigInteger("100000000000000000123"));
		assertThat(StreamPosition.of(position.eventId())).contains(position);
		assertThat(position.eventId()).matches("[A-Za-z0-9_-]+");
		assertThat(StreamPosition.of("not-an-event")).isEmpty();
		assertThat(StreamPosition.of("ZTF8YXxiYWQ")).isEmpty();
		// No record has sequence number 0.
		assertThat(StreamPosition.of(new StreamPosition("shard", BigInteger.ZERO).eventId())).isEmpty();
		assertThat(StreamPosition.sequence(new BigInteger("6060"))).isEqualTo("000000000000000006060");
	}

	private static Change change(Change.Kind kind, String item, long sequence) {
		return new Change(kind, Optional.empty(), Optional.of("state " + sequence), item,
				new StreamPosition("shard", BigInteger.valueOf(sequence)));
	}

}
