package dev.dynamorelay.error;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** An answer that is no execution is a GraphQL body of one error with its message and the contract's code. */
class ErrorBodyTest {

	@Test
	void theBodyIsOneErrorWithItsCode() {
		Map<String, Object> body = ErrorBody.of(ErrorCode.UNAUTHENTICATED, "Send a valid token.");
		assertThat(body).isEqualTo(Map.of("errors",
				List.of(Map.of("message", "Send a valid token.", "extensions", Map.of("code", "UNAUTHENTICATED")))));
		assertThat(JsonMapper.builder().build().writeValueAsString(ErrorBody.of(ErrorCode.INVALID_ARGUMENT, "Bad.")))
			.isIn("{\"errors\":[{\"message\":\"Bad.\",\"extensions\":{\"code\":\"INVALID_ARGUMENT\"}}]}",
					"{\"errors\":[{\"extensions\":{\"code\":\"INVALID_ARGUMENT\"},\"message\":\"Bad.\"}]}");
	}

}
