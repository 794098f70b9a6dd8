package dev.dynamorelay.engine;

import java.util.ArrayList;
import java.util.List;

import dev.dynamorelay.engine.action.Action;
import dev.dynamorelay.engine.store.Database;
import dev.dynamorelay.engine.store.StoreActions;
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

	/** The operations of the store and of the streams. */
	static List<Action<?, ?>> all(Database database, Streams streams) {
		List<Action<?, ?>> all = new ArrayList<>(StoreActions.all(database));
		all.add(new Action<>(STREAMS + "ListStreams", ListStreamsRequest::builder, streams::listStreams));
		all.add(new Action<>(STREAMS + "DescribeStream", DescribeStreamRequest::builder, streams::describeStream));
		all.add(new Action<>(STREAMS + "GetShardIterator", GetShardIteratorRequest::builder, streams::getShardIterator));
		all.add(new Action<>(STREAMS + "GetRecords", GetRecordsRequest::builder, streams::getRecords));
		return List.copyOf(all);
	}

}
