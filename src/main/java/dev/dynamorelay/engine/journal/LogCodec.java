package dev.dynamorelay.engine.journal;

import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.utils.builder.SdkBuilder;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.store.ItemChange;
import dev.dynamorelay.engine.value.ByteSink;
import dev.dynamorelay.engine.value.ByteSource;
import dev.dynamorelay.engine.value.ItemCodec;
import dev.dynamorelay.engine.wire.JsonCodec;

/**
 * The log's entries: a commit (its time and each item's table, key, old and new image in
 * {@link ItemCodec#writeAttributes}' form, and whether Time to Live made it) or a table's change (its time, its
 * description as DescribeTable's JSON, whether it was deleted, and its Time to Live as DescribeTimeToLive's JSON,
 * both written by the wire's {@link JsonCodec}). An entry carries whole images, never a difference: replaying one
 * sets a state, whatever the state before.
 */
final class LogCodec {

	static final byte COMMIT = 1;

	static final byte TABLE = 2;

	private static final int HAS_OLD = 1;

	private static final int HAS_NEW = 2;

	private static final int EXPIRED = 4;

	private static final JsonCodec JSON = new JsonCodec();

	private LogCodec() {
	}

	static byte[] commit(Instant time, List<ItemChange> changes) {
		ByteSink sink = new ByteSink(256);
		sink.write(COMMIT);
		writeTime(sink, time);
		sink.writeVarLong(changes.size());
		for (ItemChange change : changes) {
			sink.writeString(change.table());
			ItemCodec.writeAttributes(sink, change.key());
			int flags = ((change.oldImage() != null) ? HAS_OLD : 0) | ((change.newImage() != null) ? HAS_NEW : 0)
					| (change.expired() ? EXPIRED : 0);
			sink.write(flags);
			if (change.oldImage() != null) {
				ItemCodec.writeAttributes(sink, change.oldImage());
			}
			if (change.newImage() != null) {
				ItemCodec.writeAttributes(sink, change.newImage());
			}
		}
		return sink.toByteArray();
	}

	static byte[] table(Instant time, TableDescription description, boolean deleted, TimeToLiveDescription timeToLive) {
		ByteSink sink = new ByteSink(1024);
		sink.write(TABLE);
		writeTime(sink, time);
		sink.write(deleted ? 1 : 0);
		sink.writeByteArray(json(description));
		sink.write((timeToLive != null) ? 1 : 0);
		if (timeToLive != null) {
			sink.writeByteArray(json(timeToLive));
		}
		return sink.toByteArray();
	}

	/** What an entry says, handed to whoever replays it. */
	interface Replay {

		void committed(Instant time, List<ItemChange> changes);

		void tableChanged(Instant time, TableDescription description, boolean deleted, TimeToLiveDescription timeToLive);

	}

	static void replay(byte[] bytes, int offset, int length, Replay replay) {
		ByteSource source = new ByteSource(bytes, offset, length);
		int type = source.readByte();
		Instant time = readTime(source);
		if (type == COMMIT) {
			int count = source.readVarint();
			List<ItemChange> changes = new ArrayList<>(count);
			for (int i = 0; i < count; i++) {
				String table = source.readString();
				Map<String, AttributeValue> key = ItemCodec.readAttributes(source);
				int flags = source.readByte();
				Map<String, AttributeValue> oldImage = ((flags & HAS_OLD) != 0) ? ItemCodec.readAttributes(source) : null;
				Map<String, AttributeValue> newImage = ((flags & HAS_NEW) != 0) ? ItemCodec.readAttributes(source) : null;
				changes.add(new ItemChange(table, key, oldImage, newImage, (flags & EXPIRED) != 0));
			}
			replay.committed(time, changes);
		}
		else if (type == TABLE) {
			boolean deleted = source.readByte() != 0;
			TableDescription description = fromJson(source.readByteArray(), TableDescription::builder);
			TimeToLiveDescription timeToLive = (source.readByte() != 0)
					? fromJson(source.readByteArray(), TimeToLiveDescription::builder) : null;
			replay.tableChanged(time, description, deleted, timeToLive);
		}
		else {
			throw new IllegalArgumentException("unknown entry type " + type);
		}
		if (!source.atEnd()) {
			throw new IllegalArgumentException("entry has " + (offset + length - source.position()) + " bytes more than it says");
		}
	}

	/**
	 * An SDK model object (a table's description, its Time to Live) as DynamoDB's JSON, by the wire's codec: a form
	 * that does not change with the SDK's classes.
	 */
	static byte[] json(SdkPojo pojo) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
		JSON.write(pojo, bytes);
		return bytes.toByteArray();
	}

	/**
	 * Reads what {@link #json} wrote into a new builder and builds it.
	 * @throws IllegalArgumentException when the bytes are not such JSON
	 */
	static <T> T fromJson(byte[] bytes, Supplier<? extends SdkBuilder<?, T>> builder) {
		SdkBuilder<?, T> target = builder.get();
		try {
			JSON.read(bytes, 0, bytes.length, (SdkPojo) target);
		}
		catch (AwsError ex) {
			throw new IllegalArgumentException("not the JSON of a model object (" + ex.type() + ": " + ex.getMessage() + ")");
		}
		return target.build();
	}

	private static void writeTime(ByteSink sink, Instant time) {
		sink.writeLong(time.getEpochSecond());
		sink.writeVarLong(time.getNano());
	}

	private static Instant readTime(ByteSource source) {
		long seconds = source.readLong();
		return Instant.ofEpochSecond(seconds, source.readVarLong());
	}

}
