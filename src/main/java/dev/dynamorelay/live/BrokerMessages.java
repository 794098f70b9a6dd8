package dev.dynamorelay.live;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import com.amazonaws.services.dynamodbv2.streamsadapter.serialization.RecordObjectMapper;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * A change as it travels through the fleet's broker: its table and shard on a line each, then the stream record as
 * the DynamoDB Streams Kinesis adapter writes it in JSON (DynamoDB's JSON of its images, every attribute type kept).
 */
final class BrokerMessages {

	/** Reads and writes the adapter's JSON of a stream record. */
	private static final RecordObjectMapper RECORDS = new RecordObjectMapper();

	private BrokerMessages() {
	}

	/** A change as it travels: its table, its shard, and the stream record as the adapter writes it in JSON. */
	record Message(String table, ChangeRecord record) {
	}

	static byte[] encode(String table, String shardId, Record record) {
		try {
			byte[] json = RECORDS.writeValueAsBytes(record);
			byte[] head = (table + "\n" + shardId + "\n").getBytes(StandardCharsets.UTF_8);
			byte[] message = new byte[head.length + json.length];
			System.arraycopy(head, 0, message, 0, head.length);
			System.arraycopy(json, 0, message, head.length, json.length);
			return message;
		}
		catch (IOException ex) {
			throw new IllegalStateException("a stream record could not be written as JSON", ex);
		}
	}

	static Message decode(byte[] message) throws IOException {
		int first = indexOf(message, 0);
		int second = indexOf(message, first + 1);
		if (first < 0 || second < 0) {
			throw new IOException("no table and shard before the record");
		}
		String table = new String(message, 0, first, StandardCharsets.UTF_8);
		String shardId = new String(message, first + 1, second - first - 1, StandardCharsets.UTF_8);
		Record record = RECORDS.readValue(message, second + 1, message.length - second - 1, Record.class);
		return new Message(table, ChangeRecord.of(shardId, record));
	}

	private static int indexOf(byte[] bytes, int from) {
		for (int i = from; i < bytes.length; i++) {
			if (bytes[i] == '\n') {
				return i;
			}
		}
		return -1;
	}

}
