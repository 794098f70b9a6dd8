package dev.dynamorelay.it;

import java.util.List;
import java.util.Map;

import org.springframework.graphql.GraphQlResponse;
import org.springframework.graphql.ResponseError;

import static org.assertj.core.api.Assertions.assertThat;

/** Assertions on the errors of a response. */
public final class Errors {

	private Errors() {
	}

	/** The response has errors, all with {@code code}, and none leaks a class name or stack trace. */
	public static void assertCode(GraphQlResponse response, String code) {
		List<ResponseError> errors = response.getErrors();
		assertThat(errors).as("errors of %s", response.toMap()).isNotEmpty();
		for (ResponseError error : errors) {
			assertThat(error.getExtensions()).as(error.getMessage()).containsEntry("code", code);
			assertThat(error.getMessage()).doesNotContain("Exception", "\tat ", "dev.dynamorelay", "software.amazon");
		}
	}

	/** A request error: {@code INVALID_ARGUMENT} and no data. */
	public static void assertRequestError(GraphQlResponse response) {
		assertCode(response, "INVALID_ARGUMENT");
		assertThat(response.toMap()).doesNotContainKey("data");
	}

	@SuppressWarnings("unchecked")
	public static long requests(GraphQlResponse response) {
		Map<String, Object> dynamodb = (Map<String, Object>) response.getExtensions().get("dynamodb");
		return ((Number) dynamodb.get("requests")).longValue();
	}

}
