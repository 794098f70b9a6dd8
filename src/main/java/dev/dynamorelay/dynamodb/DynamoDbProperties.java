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
 * @param timeout bound of one GraphQL request's DynamoDB calls, retries included: all its fields share
 * it, and an {@code UNAVAILABLE} answer arrives inside it
 */
@ConfigurationProperties("dynamo-relay.dynamodb")
public record DynamoDbProperties(String endpoint, String region, @DefaultValue("5s") Duration timeout) {

	/** The most of the timeout kept for answering once reading has given up. */
	private static final Duration ANSWER_RESERVE = Duration.ofMillis(500);

	public DynamoDbProperties {
		if (timeout == null || timeout.isNegative() || timeout.isZero()) {
			throw new IllegalStateException("dynamo-relay.dynamodb.timeout must be positive, got " + timeout);
		}
	}

	/**
	 * How long a request's DynamoDB calls may take: the timeout less a tenth of it (at most 500 ms),
	 * the time to answer {@code UNAVAILABLE} so that the answer arrives inside the timeout.
	 */
	public Duration readTimeout() {
		Duration reserve = this.timeout.dividedBy(10);
		return this.timeout.minus((reserve.compareTo(ANSWER_RESERVE) < 0) ? reserve : ANSWER_RESERVE);
	}

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
