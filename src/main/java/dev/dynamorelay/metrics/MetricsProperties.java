package dev.dynamorelay.metrics;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The server's own meters.
 *
 * @param enabled whether the server's own meters record at all ({@code false} turns each into a no-op: how
 * the benchmark measures what they cost)
 * @param maxOperationNames distinct GraphQL operation names that get a latency histogram of their own;
 * operations named after these are recorded as {@code other}, so that clients cannot grow the number of
 * series without bound
 * @param maxOperationNameLength the longest operation name kept as a label; a longer one is recorded as
 * {@code other} too, so that no client can make a scrape large (the names' number and length bound it)
 */
@ConfigurationProperties("dynamo-relay.metrics")
public record MetricsProperties(@DefaultValue("true") boolean enabled,
		@DefaultValue("100") int maxOperationNames, @DefaultValue("100") int maxOperationNameLength) {

	public MetricsProperties {
		if (maxOperationNameLength < 1) {
			throw new IllegalArgumentException(
					"dynamo-relay.metrics.max-operation-name-length must be at least 1, got " + maxOperationNameLength);
		}
		if (maxOperationNames < 0) {
			throw new IllegalArgumentException(
					"dynamo-relay.metrics.max-operation-names must not be negative, got " + maxOperationNames);
		}
	}

}
