package dev.dynamorelay.sample;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.dynamodb.StartupCalls;
import dev.dynamorelay.schema.SchemaProperties;
import dev.dynamorelay.tables.DeclaredTables;

/**
 * The sample's own code beside its declarations ({@code schema/sample/}): its mutations and its data.
 * Active only while the sample schema is served.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "dynamo-relay.schema.locations", havingValue = SchemaProperties.SAMPLE,
		matchIfMissing = true)
@EnableConfigurationProperties(SampleDataProperties.class)
class SampleConfiguration {

	/** Loads the sample data into empty sample tables once the declared tables are ready. */
	@Bean
	InitializingBean sampleData(DynamoDbAsyncClient dynamoDb, DeclaredTables tables, DynamoDbProperties dynamo,
			SampleDataProperties sampleData, StartupCalls startup) {
		return () -> {
			if (sampleData.enabled(dynamo.embedded())) {
				Declarations declarations = tables.declarations();
				SampleData.loadIntoEmptyTables(dynamoDb, startup, declarations.entity("User").table().physicalName(),
						declarations.entity("Purchase").table().physicalName(),
						declarations.entity("Movie").table().physicalName());
			}
		};
	}

}
