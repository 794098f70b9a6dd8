package dev.dynamorelay.engine.streams;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import dev.dynamorelay.engine.value.ItemCodec;

/**
 * Checkpoints of the streams for the journal's snapshots: taken cheaply while the journal holds commits back (no
 * record is copied: a shard's array of records is only appended to, its head and tail are taken), written
 * afterwards while writers go on, and read back at start to put every stream, shard and record as it was.
 */
final class StreamCheckpoints {

	/** 2: records' keys and images in {@link ItemCodec}'s form (1 had a codec of the streams' own). */
	private static final int CHECKPOINT_VERSION = 2;

	private StreamCheckpoints() {
	}

	/** A stream's state at the checkpoint. */
	record StreamCopy(Stream stream, boolean enabled, long disabledMillis, long records, long bytes,
			long lastShardMillis, List<ShardCopy> shards) {
	}

	/** A shard's state at the checkpoint, its records those of {@code records} from {@code head} to {@code tail}. */
	record ShardCopy(Shard shard, long end, long closedMillis, long appended, long trimmedThrough,
			StoredRecord[] records, int head, int tail) {
	}

	/** The streams as they are now. Commits must be held back while it runs (the journal holds its lock). */
	static Streams.Checkpoint take(ShardLifecycle state) {
		List<StreamCopy> copies = new ArrayList<>();
		long counter = state.counter.get();
		for (Stream stream : state.streams.values()) {
			synchronized (stream) {
				List<ShardCopy> shards = new ArrayList<>(stream.shards.size());
				for (Shard shard : stream.shards) {
					shards.add(new ShardCopy(shard, shard.end, shard.closedMillis, shard.appended, shard.trimmedThrough,
							shard.records, shard.head, shard.tail));
				}
				copies.add(new StreamCopy(stream, stream.enabled, stream.disabledMillis, stream.records, stream.bytes,
						stream.lastShardMillis, shards));
			}
		}
		return new Streams.Checkpoint(counter, copies);
	}

	/** Writes a checkpoint; what {@link #restore} reads. */
	static void write(Streams.Checkpoint checkpoint, DataOutput out) throws IOException {
		out.writeInt(CHECKPOINT_VERSION);
		out.writeLong(checkpoint.counter);
		out.writeInt(checkpoint.streams.size());
		for (StreamCopy copy : checkpoint.streams) {
			Stream stream = copy.stream();
			out.writeUTF(stream.arn);
			out.writeUTF(stream.label);
			out.writeUTF(stream.table);
			out.writeUTF(stream.region);
			out.writeUTF(stream.viewType.toString());
			out.writeInt(stream.keySchema.size());
			for (KeySchemaElement key : stream.keySchema) {
				out.writeUTF(key.attributeName());
				out.writeUTF(key.keyTypeAsString());
			}
			out.writeLong(stream.createdMillis);
			out.writeBoolean(copy.enabled());
			out.writeLong(copy.disabledMillis());
			out.writeLong(copy.records());
			out.writeLong(copy.bytes());
			out.writeLong(copy.lastShardMillis());
			out.writeInt(copy.shards().size());
			for (ShardCopy shard : copy.shards()) {
				writeShard(shard, out);
			}
		}
	}

	private static void writeShard(ShardCopy shard, DataOutput out) throws IOException {
		out.writeUTF(shard.shard().id);
		out.writeBoolean(shard.shard().parentId != null);
		if (shard.shard().parentId != null) {
			out.writeUTF(shard.shard().parentId);
		}
		out.writeLong(shard.shard().start);
		out.writeLong(shard.shard().openedMillis);
		out.writeLong(shard.end());
		out.writeLong(shard.closedMillis());
		out.writeLong(shard.appended());
		out.writeLong(shard.trimmedThrough());
		out.writeInt(shard.tail() - shard.head());
		for (int i = shard.head(); i < shard.tail(); i++) {
			StoredRecord record = shard.records()[i];
			out.writeLong(record.number);
			out.writeLong(record.timeMillis);
			out.writeByte(record.kind);
			out.writeInt(record.size);
			out.writeInt(record.payload.length);
			out.write(record.payload);
		}
	}

	/** Replaces every stream with a checkpoint's, at start, before the engine serves. */
	static void restore(ShardLifecycle state, DataInput in) throws IOException {
		int version = in.readInt();
		if (version != CHECKPOINT_VERSION) {
			throw new IOException("streams checkpoint version " + version + " is not known (this engine writes "
					+ CHECKPOINT_VERSION + ")");
		}
		state.streams.clear();
		state.enabled.clear();
		state.counter.set(in.readLong());
		int streams = in.readInt();
		for (int s = 0; s < streams; s++) {
			Stream stream = readStream(in);
			state.streams.put(stream.arn, stream);
			if (stream.enabled) {
				state.enabled.put(stream.table, stream);
			}
		}
	}

	private static Stream readStream(DataInput in) throws IOException {
		String arn = in.readUTF();
		String label = in.readUTF();
		String table = in.readUTF();
		String region = in.readUTF();
		StreamViewType viewType = StreamViewType.fromValue(in.readUTF());
		int keys = in.readInt();
		List<KeySchemaElement> keySchema = new ArrayList<>(keys);
		for (int k = 0; k < keys; k++) {
			keySchema.add(KeySchemaElement.builder().attributeName(in.readUTF()).keyType(in.readUTF()).build());
		}
		Stream stream = new Stream(arn, label, table, region, viewType, keySchema, in.readLong());
		stream.enabled = in.readBoolean();
		stream.disabledMillis = in.readLong();
		stream.records = in.readLong();
		stream.bytes = in.readLong();
		stream.lastShardMillis = in.readLong();
		int shards = in.readInt();
		for (int h = 0; h < shards; h++) {
			stream.add(readShard(in));
		}
		return stream;
	}

	private static Shard readShard(DataInput in) throws IOException {
		String id = in.readUTF();
		String parent = in.readBoolean() ? in.readUTF() : null;
		Shard shard = new Shard(id, parent, in.readLong(), in.readLong());
		shard.end = in.readLong();
		shard.closedMillis = in.readLong();
		long appended = in.readLong();
		long trimmedThrough = in.readLong();
		int count = in.readInt();
		for (int r = 0; r < count; r++) {
			long number = in.readLong();
			long time = in.readLong();
			byte kind = in.readByte();
			int size = in.readInt();
			byte[] payload = new byte[in.readInt()];
			in.readFully(payload);
			shard.append(new StoredRecord(number, time, kind, size, payload));
		}
		shard.appended = appended;
		shard.trimmedThrough = trimmedThrough;
		return shard;
	}

}
