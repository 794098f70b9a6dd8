package dev.dynamorelay.engine.streams;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.CRC32;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ByteSink;
import dev.dynamorelay.engine.value.ByteSource;

/**
 * Shard iterators, opaque to clients: {@code <stream ARN>|1|<base64url of the shard, the position, the time it was
 * handed out, a CRC>}, the CRC over the ARN too, so that an iterator altered or made up is refused as invalid.
 */
final class ShardIterators {

	private ShardIterators() {
	}

	static String iterator(String streamArn, String shardId, long number, long issuedMillis) {
		ByteSink sink = new ByteSink(96);
		sink.writeString(shardId);
		sink.writeVarLong(number);
		sink.writeVarLong(issuedMillis);
		CRC32 crc = new CRC32();
		crc.update(streamArn.getBytes(StandardCharsets.UTF_8));
		crc.update(sink.array(), 0, sink.length());
		int check = (int) crc.getValue();
		for (int shift = 24; shift >= 0; shift -= 8) {
			sink.write(check >>> shift);
		}
		return streamArn + "|1|" + Base64.getUrlEncoder().withoutPadding().encodeToString(sink.toByteArray());
	}

	/** Where an iterator points: its stream, shard, the first record number it reads, when it was handed out. */
	record Position(String streamArn, String shardId, long number, long issuedMillis) {

		static Position parse(String iterator) {
			int mark = iterator.indexOf("|1|");
			if (mark < 0 || StreamNames.parseStreamArn(iterator.substring(0, mark)) == null) {
				throw invalid();
			}
			String streamArn = iterator.substring(0, mark);
			try {
				byte[] bytes = Base64.getUrlDecoder().decode(iterator.substring(mark + 3));
				if (bytes.length < 4) {
					throw invalid();
				}
				CRC32 crc = new CRC32();
				crc.update(streamArn.getBytes(StandardCharsets.UTF_8));
				crc.update(bytes, 0, bytes.length - 4);
				int check = 0;
				for (int i = bytes.length - 4; i < bytes.length; i++) {
					check = (check << 8) | (bytes[i] & 0xFF);
				}
				if (check != (int) crc.getValue()) {
					throw invalid();
				}
				ByteSource source = new ByteSource(bytes, 0, bytes.length - 4);
				Position position = new Position(streamArn, source.readString(), source.readVarLong(), source.readVarLong());
				if (!source.atEnd()) {
					throw invalid();
				}
				return position;
			}
			catch (IllegalArgumentException ex) {
				throw invalid();
			}
		}

		private static AwsError invalid() {
			return AwsError.validation("Invalid ShardIterator");
		}

	}

}
