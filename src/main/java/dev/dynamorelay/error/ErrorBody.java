package dev.dynamorelay.error;

import java.util.List;
import java.util.Map;

/** The GraphQL response body of an answer that is no execution: one error with its code. */
public final class ErrorBody {

	private ErrorBody() {
	}

	public static Map<String, Object> of(ErrorCode code, String message) {
		Map<String, Object> error = Map.of("message", message, "extensions", Map.of("code", code.name()));
		return Map.of("errors", List.of(error));
	}

}
