package dev.dynamorelay.schema;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which schema files declare the served tables.
 *
 * @param locations schema files or folders, comma-separated (Spring resource locations or plain
 * paths); the sample when left out
 */
@ConfigurationProperties("dynamo-relay.schema")
public record SchemaProperties(@DefaultValue(SchemaProperties.SAMPLE) String locations) {

	/** Where the sample schema is on the classpath (built from {@code schema/sample/}). */
	public static final String SAMPLE = "classpath:sample-schema/";

	/** Whether the sample schema is served. */
	public boolean sample() {
		return this.locations.isBlank() || this.locations.trim().equals(SAMPLE);
	}

}
