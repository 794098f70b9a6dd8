package dev.dynamorelay.engine.diff;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * DynamoDB's JSON wire protocol spoken by hand: a request body goes out as written, so that requests the SDKs
 * would refuse before sending (missing members, wrong types) reach the implementation too, and the answer comes
 * back as it was sent. Requests carry a SigV4-shaped Authorization header; neither side checks signatures.
 */
final class RawDynamoDb {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final URI endpoint;

	RawDynamoDb(URI endpoint) {
		this.endpoint = endpoint;
	}

	/** What came back: the HTTP status and the body, read as JSON (null when it is not JSON). */
	record Answer(int status, JsonNode body, String text) {

		/** The error's type, whole ({@code com.amazon.coral.validate#ValidationException}), or null on success. */
		String type() {
			return (this.body != null && this.body.has("__type")) ? this.body.get("__type").asString() : null;
		}

		String message() {
			if (this.body == null) {
				return null;
			}
			JsonNode message = this.body.has("message") ? this.body.get("message") : this.body.get("Message");
			return (message != null) ? message.asString() : null;
		}

	}

	Answer call(String target, String body) {
		HttpRequest request = HttpRequest.newBuilder(this.endpoint)
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/x-amz-json-1.0")
			.header("X-Amz-Target", target)
			.header("X-Amz-Date", "20260101T000000Z")
			.header("Authorization", "AWS4-HMAC-SHA256 Credential=differential/20260101/us-east-1/dynamodb/aws4_request, "
					+ "SignedHeaders=host;x-amz-date;x-amz-target, Signature=0")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
		try {
			HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
			JsonNode json;
			try {
				json = response.body().isEmpty() ? null : JSON.readTree(response.body());
			}
			catch (RuntimeException notJson) {
				json = null;
			}
			return new Answer(response.statusCode(), json, response.body());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(target + " to " + this.endpoint + " failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
