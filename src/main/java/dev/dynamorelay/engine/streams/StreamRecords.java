package dev.dynamorelay.engine.streams;

import java.time.Instant;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Identity;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import dev.dynamorelay.engine.value.ByteSink;
import dev.dynamorelay.engine.value.ByteSource;
import dev.dynamorelay.engine.value.ItemCodec;
import dev.dynamorelay.engine.value.ItemSize;

/**
 * A stream record's two forms: stored, the keys and the images its stream's view type keeps in the engine's
 * binary form of items with the record's {@code SizeBytes}; and answered, the {@link Record} GetRecords returns
 * (its eventID, operation, images, and for a deletion by time to live DynamoDB's service identity).
 */
final class StreamRecords {

	private static final Identity TIME_TO_LIVE = Identity.builder()
		.principalId("dynamodb.amazonaws.com")
		.type("Service")
		.build();

	private StreamRecords() {
	}

	/** A record's stored form: the flags, keys and images in binary form, and its SizeBytes. */
	record Payload(byte[] bytes, int size) {
	}

	/** The keys and the images the view type keeps, in binary form, and the record's SizeBytes. */
	static Payload payload(StreamViewType viewType, Map<String, AttributeValue> keys,
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

	/** A stored record as GetRecords answers it. */
	static Record record(Stream stream, StoredRecord stored) {
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

}
