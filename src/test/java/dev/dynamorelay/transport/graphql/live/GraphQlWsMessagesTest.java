package dev.dynamorelay.transport.graphql.live;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** What a client's graphql-transport-ws message must be for Spring GraphQL's handler to take it. */
class GraphQlWsMessagesTest {

	private final JsonMapper json = JsonMapper.builder().build();

	@Test
	void theProtocolsMessagesPass() {
		assertThat(invalid("{\"type\":\"connection_init\"}")).isNull();
		assertThat(invalid("{\"type\":\"connection_init\",\"payload\":{\"Authorization\":\"Bearer x\"}}")).isNull();
		assertThat(invalid("{\"type\":\"ping\",\"payload\":null}")).isNull();
		assertThat(invalid("{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":{\"query\":\"{ a }\",\"variables\":{\"x\":[1]},"
				+ "\"operationName\":null,\"extensions\":{}}}")).isNull();
		assertThat(invalid("{\"id\":\"1\",\"type\":\"complete\"}")).isNull();
	}

	@Test
	void anythingElseIsToldWhatIsWrong() {
		assertThat(invalid("nope")).isEqualTo("not JSON");
		assertThat(invalid("[]")).isEqualTo("not a JSON object");
		assertThat(invalid("{\"type\":\"start\"}")).isEqualTo("unknown `type`");
		assertThat(invalid("{\"type\":1}")).isEqualTo("`type` must be a string");
		assertThat(invalid("{\"type\":\"subscribe\",\"id\":1}")).isEqualTo("`id` must be a string");
		assertThat(invalid("{\"type\":\"subscribe\",\"id\":\"1\",\"payload\":\"x\"}")).isEqualTo("`payload` must be an object");
		assertThat(invalid("{\"type\":\"subscribe\",\"id\":\"1\",\"payload\":{\"variables\":\"x\"}}"))
			.isEqualTo("`payload.variables` must be an object");
		assertThat(invalid("{\"type\":\"subscribe\",\"id\":\"1\",\"payload\":{\"query\":[]}}"))
			.isEqualTo("`payload.query` must be a string");
		assertThat(invalid("[".repeat(100_000) + "]".repeat(100_000))).startsWith("JSON past the reader's limits");
	}

	@Test
	void aReasonFitsACloseFrame() {
		assertThat(GraphQlWsMessages.reason("x".repeat(500))).hasSize(123);
	}

	private String invalid(String text) {
		return GraphQlWsMessages.invalid(this.json, text);
	}

}
