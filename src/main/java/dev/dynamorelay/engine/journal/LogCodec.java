package dev.dynamorelay.engine.journal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;

import dev.dynamorelay.engine.store.ItemChange;
import dev.dynamorelay.engine.streams.ImageCodec;

/**
 * The log's entries: a commit (its time and each item's table, key, old and new image, and whether Time to Live
 * made it) or a table's change (its time, its description as DescribeTable's JSON, whether it was deleted, and its
 * Time to Live as DescribeTimeToLive's JSON). An
 * entry carries whole images, never a difference: replaying one sets a state, whatever the state before.
 */
final class LogCodec {

	static final byte COMMIT = 1;

	static final byte TABLE = 2;

	private static final int HAS_OLD = 1;

	private static final int HAS_NEW = 2;

	private static final int EXPIRED = 4;

	private LogCodec() {
	}

	static byte[] commit(Instant time, List<ItemChange> changes) {
		ImageCodec.Sink sink = new ImageCodec.Sink(256);
		sink.writeByte(COMMIT);
		writeTime(sink, time);
		sink.writeVarLong(changes.size());
		for (ItemChange change : changes) {
			sink.writeString(change.table());
			ImageCodec.writeItem(sink, change.key());
			int flags = ((change.oldImage() != null) ? HAS_OLD : 0) | ((change.newImage() != null) ? HAS_NEW : 0)
					| (change.expired() ? EXPIRED : 0);
			sink.writeByte(flags);
			if (change.oldImage() != null) {
				ImageCodec.writeItem(sink, change.oldImage());
			}
			if (change.newImage() != null) {
				ImageCodec.writeItem(sink, change.newImage());
			}
		}
		return sink.toByteArray();
	}

	static byte[] table(Instant time, TableDescription description, boolean deleted, TimeToLiveDescription timeToLive) {
		ImageCodec.Sink sink = new ImageCodec.Sink(1024);
		sink.writeByte(TABLE);
		writeTime(sink, time);
		sink.writeByte(deleted ? 1 : 0);
		sink.writeByteArray(PojoJson.write(description));
		sink.writeByte((timeToLive != null) ? 1 : 0);
		if (timeToLive != null) {
			sink.writeByteArray(PojoJson.write(timeToLive));
		}
		return sink.toByteArray();
	}

	/** What an entry says, handed to whoever replays it. */
	interface Replay {

		void committed(Instant time, List<ItemChange> changes);

		void tableChanged(Instant time, TableDescription description, boolean deleted, TimeToLiveDescription timeToLive);

	}

	static void replay(byte[] bytes, int offset, int length, Replay replay) {
		ImageCodec.Source source = new ImageCodec.Source(bytes, offset, length);
		int type = source.readByte();
		Instant time = readTime(source);
		if (type == COMMIT) {
			int count = source.readLength();
			List<ItemChange> changes = new ArrayList<>(count);
			for (int i = 0; i < count; i++) {
				String table = source.readString();
				Map<String, AttributeValue> key = ImageCodec.readItem(source);
				int flags = source.readByte();
				Map<String, AttributeValue> oldImage = ((flags & HAS_OLD) != 0) ? ImageCodec.readItem(source) : null;
				Map<String, AttributeValue> newImage = ((flags & HAS_NEW) != 0) ? ImageCodec.readItem(source) : null;
				changes.add(new ItemChange(table, key, oldImage, newImage, (flags & EXPIRED) != 0));
			}
			replay.committed(time, changes);
		}
		else if (type == TABLE) {
			boolean deleted = source.readByte() != 0;
			TableDescription description = PojoJson.read(source.readByteArray(), TableDescription::builder);
			TimeToLiveDescription timeToLive = (source.readByte() != 0)
					? PojoJson.read(source.readByteArray(), TimeToLiveDescription::builder) : null;
			replay.tableChanged(time, description, deleted, timeToLive);
		}
		else {
			throw new IllegalArgumentException("unknown entry type " + type);
		}
		if (!source.atEnd()) {
			throw new IllegalArgumentException("entry has " + (offset + length - source.position()) + " bytes more than it says");
		}
	}

	private static void writeTime(ImageCodec.Sink sink, Instant time) {
		sink.writeLong(time.getEpochSecond());
		sink.writeVarLong(time.getNano());
	}

	private static Instant readTime(ImageCodec.Source source) {
		long seconds = source.readLong();
		return Instant.ofEpochSecond(seconds, source.readVarLong());
	}

}
