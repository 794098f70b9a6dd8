package dev.dynamorelay.docs;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.docs.ConfigurationMetadata.Property;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code dynamo-relay.*} property has a description in the configuration metadata, which IDEs show
 * beside its completion and {@code docs/configuration.md} lists: a property added without a {@code @param}
 * tag on its record (or an entry in {@code additional-spring-configuration-metadata.json}) fails here.
 */
class ConfigurationMetadataTest {

	@Test
	void everyPropertyHasADescription() {
		List<Property> properties = ConfigurationMetadata.properties();
		assertThat(properties).as("the dynamo-relay.* properties in %s on the class path (the configuration "
				+ "processor writes it at compile time)", ConfigurationMetadata.LOCATION)
			.extracting(Property::name)
			.contains("dynamo-relay.dynamodb.timeout", "dynamo-relay.dynamodb.startup.timeout",
					"dynamo-relay.dynamodb.fair-share.quantum", "dynamo-relay.page.max-size",
					"dynamo-relay.auth.require-expiry");
		assertThat(properties).as("properties without a description: give each a @param tag on its "
				+ "*Properties record (or an entry in additional-spring-configuration-metadata.json)")
			.filteredOn((property) -> property.description() == null || property.description().isBlank())
			.extracting(Property::name)
			.isEmpty();
	}

}
