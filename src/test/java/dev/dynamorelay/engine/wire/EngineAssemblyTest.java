package dev.dynamorelay.engine.wire;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.engine.action.Action;
import dev.dynamorelay.engine.DynamoDbEngine;
import dev.dynamorelay.engine.EngineOptions;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** The engine as DynamoDbEngine assembles it: its parts' operations served, a test's added or put instead. */
class EngineAssemblyTest {

	@Test
	void servesTheStreamsOperations() {
		try (DynamoDbEngine engine = DynamoDbEngine.start(EngineOptions.defaults());
				DynamoDbStreamsClient streams = Clients.streams(engine.endpoint())) {
			assertThat(streams.listStreams(ListStreamsRequest.builder().build()).streams()).isEmpty();
			String arn = "arn:aws:dynamodb:eu-west-1:000000000000:table/nothing/stream/2024-01-01T00:00:00.000";
			assertThat(catchThrowable(() -> streams.describeStream((request) -> request.streamArn(arn))))
				.isInstanceOfSatisfying(ResourceNotFoundException.class, (notFound) -> assertThat(
						notFound.awsErrorDetails().errorMessage()).isEqualTo(
								"Requested resource not found: Stream: " + arn + " not found"));
		}
	}

	@Test
	void anOperationOfTheOptionsReplacesTheEnginesOwn() {
		Action<ListStreamsRequest, ListStreamsResponse> replaced = new Action<>("DynamoDBStreams_20120810.ListStreams",
				ListStreamsRequest::builder, (request) -> ListStreamsResponse.builder().lastEvaluatedStreamArn("mine").build());
		try (DynamoDbEngine engine = DynamoDbEngine.start(EngineOptions.defaults().withActions(List.of(replaced)));
				DynamoDbStreamsClient streams = Clients.streams(engine.endpoint())) {
			assertThat(streams.listStreams(ListStreamsRequest.builder().build()).lastEvaluatedStreamArn()).isEqualTo("mine");
		}
		assertThatThrownBy(() -> DynamoDbEngine.start(EngineOptions.defaults().withActions(List.of(replaced, replaced))))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessage("Two operations answer DynamoDBStreams_20120810.ListStreams");
	}

}
