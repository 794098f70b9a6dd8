package dev.dynamorelay.dynamodb;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where DynamoDB is and how long a call may take.
 *
 * @param endpoint unset or blank: an embedded DynamoDB Local on loopback; a URL: that endpoint;
 * {@code aws}: AWS's own endpoint from the default region and credentials chain
 * @param region the signing region; defaults to the default region chain for {@code aws} and to
 * {@code us-east-1} otherwise
 * @param timeout bound of one DynamoDB call, retries included; a connection field's reads share it
 */
@ConfigurationProperties("dynamo-relay.dynamodb")
public record DynamoDbProperties(String endpoint, String region, @DefaultValue("10s") Duration timeout) {

	/** Whether to start and use an embedded DynamoDB Local. */
	public boolean embedded() {
		return this.endpoint == null || this.endpoint.isBlank();
	}

	/** Whether to use AWS's own endpoint. */
	public boolean aws() {
		return "aws".equalsIgnoreCase(trimmed());
	}

	/** The explicit endpoint URL, when one is configured. */
	public Optional<URI> url() {
		if (embedded() || aws()) {
			return Optional.empty();
		}
		URI uri = URI.create(trimmed());
		if (uri.getScheme() == null || uri.getHost() == null) {
			throw new IllegalStateException(("dynamo-relay.dynamodb.endpoint must be unset, `aws` or a URL such as "
					+ "http://127.0.0.1:8000, got `%s`").formatted(this.endpoint));
		}
		return Optional.of(uri);
	}

	private String trimmed() {
		return (this.endpoint != null) ? this.endpoint.trim() : "";
	}

}
