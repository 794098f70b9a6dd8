package dev.dynamorelay.engine;

import java.util.List;

import dev.dynamorelay.engine.streams.Streams;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;

/**
 * The registry of the engine's operations: one line per operation, its {@code X-Amz-Target}, its request's
 * builder and what runs it. Each part of the engine (the store's tables and items, the streams) adds its
 * operations here; the wire serves exactly these, and answers any other target {@code UnknownOperationException}.
 */
final class EngineActions {

	private static final String STREAMS = "DynamoDBStreams_20120810.";

	private EngineActions() {
	}

	/** The operations of the engine's parts (the store adds its own here as it lands). */
	static List<Action<?, ?>> all(Streams streams) {
		return List.of(
				new Action<>(STREAMS + "ListStreams", ListStreamsRequest::builder, streams::listStreams),
				new Action<>(STREAMS + "DescribeStream", DescribeStreamRequest::builder, streams::describeStream),
				new Action<>(STREAMS + "GetShardIterator", GetShardIteratorRequest::builder, streams::getShardIterator),
				new Action<>(STREAMS + "GetRecords", GetRecordsRequest::builder, streams::getRecords));
	}

}
