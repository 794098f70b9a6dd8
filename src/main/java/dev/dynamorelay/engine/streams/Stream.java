package dev.dynamorelay.engine.streams;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * One stream of a table: what it is (ARN, label, table, view type, key schema, when it was enabled), whether it
 * is enabled still, its shards oldest first (the last one open while the stream is enabled) and the records and
 * bytes it holds. Its monitor guards everything that changes.
 */
final class Stream {

	final String arn;

	final String label;

	final String table;

	final String region;

	final StreamViewType viewType;

	final List<KeySchemaElement> keySchema;

	final long createdMillis;

	/** 64 bits of the ARN: the first half of every record's eventID, which tells streams apart. */
	final long arnHash;

	boolean enabled = true;

	long disabledMillis = -1;

	/** Every shard still listed, in the order of their ids (which is the order they opened in). */
	final List<Shard> shards = new ArrayList<>();

	final Map<String, Shard> shardsById = new HashMap<>();

	long records;

	long bytes;

	/** The opening millisecond of the newest shard: a newer one opens at least a millisecond later. */
	long lastShardMillis = Long.MIN_VALUE;

	Stream(String arn, String label, String table, String region, StreamViewType viewType,
			List<KeySchemaElement> keySchema, long createdMillis) {
		this.arn = arn;
		this.label = label;
		this.table = table;
		this.region = region;
		this.viewType = viewType;
		this.keySchema = List.copyOf(keySchema);
		this.createdMillis = createdMillis;
		this.arnHash = hash(arn);
	}

	/** The open shard; null once the stream is disabled. */
	Shard openShard() {
		if (this.shards.isEmpty()) {
			return null;
		}
		Shard last = this.shards.get(this.shards.size() - 1);
		return last.isOpen() ? last : null;
	}

	void add(Shard shard) {
		this.shards.add(shard);
		this.shardsById.put(shard.id, shard);
	}

	/** FNV-1a over the ARN's UTF-8 bytes, then mixed: stable across runs and machines. */
	static long hash(String text) {
		long hash = 0xcbf29ce484222325L;
		for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
			hash ^= (b & 0xFF);
			hash *= 0x100000001b3L;
		}
		return mix(hash);
	}

	/** SplitMix64's finalizer: a bijection of 64 bits that scatters neighbouring inputs. */
	static long mix(long value) {
		long z = value;
		z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
		z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
		return z ^ (z >>> 31);
	}

}
