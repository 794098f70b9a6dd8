package dev.dynamorelay.live;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One record of a table's stream: an item written (inserted, modified) or removed, with its images.
 *
 * @param shardId the shard it was read from
 * @param sequenceNumber its place in the shard (increasing)
 * @param oldImage the item before the write (empty for an insert)
 * @param newImage the item after it (empty for a removal)
 * @param written when DynamoDB wrote it, as the stream tells (to the second)
 */
public record ChangeRecord(String shardId, BigInteger sequenceNumber, Optional<Map<String, AttributeValue>> oldImage,
		Optional<Map<String, AttributeValue>> newImage, Instant written) {

	/**
	 * A record of shard {@code shardId} as the stream's reader read it, or as the fleet's broker carried it (whose
	 * JSON reads an absent image as an empty one: an item's image is never empty, it holds at least its key).
	 */
	static ChangeRecord of(String shardId, software.amazon.awssdk.services.dynamodb.model.Record record) {
		var change = record.dynamodb();
		return new ChangeRecord(shardId, new BigInteger(change.sequenceNumber()),
				(change.hasOldImage() && !change.oldImage().isEmpty()) ? Optional.of(change.oldImage()) : Optional.empty(),
				(change.hasNewImage() && !change.newImage().isEmpty()) ? Optional.of(change.newImage()) : Optional.empty(),
				(change.approximateCreationDateTime() != null) ? change.approximateCreationDateTime() : Instant.now());
	}

	/** The change's position in the stream, as a client resumes after it. */
	public StreamPosition position() {
		return new StreamPosition(this.shardId, this.sequenceNumber);
	}

}
