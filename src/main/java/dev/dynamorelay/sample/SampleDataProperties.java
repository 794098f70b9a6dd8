package dev.dynamorelay.sample;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Whether to load the deterministic sample data into empty tables.
 *
 * @param enabled load the sample data into empty tables at start, while the sample schema is served; unset:
 * only when DynamoDB is embedded
 */
@ConfigurationProperties("dynamo-relay.sample-data")
public record SampleDataProperties(Boolean enabled) {

	/** Whether to load sample data, given whether DynamoDB is embedded. */
	public boolean enabled(boolean embedded) {
		return (this.enabled != null) ? this.enabled : embedded;
	}

}
