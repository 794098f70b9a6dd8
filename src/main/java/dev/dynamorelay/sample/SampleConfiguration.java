package dev.dynamorelay.sample;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.dynamodb.StartupCalls;
import dev.dynamorelay.schema.SchemaProperties;

/**
 * The sample's own code beside its declarations ({@code schema/sample/}): its mutations and its data.
 * Active only while the sample schema is served.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "dynamo-relay.schema.locations", havingValue = SchemaProperties.SAMPLE,
		matchIfMissing = true)
@EnableConfigurationProperties(SampleDataProperties.class)
class SampleConfiguration {

	/** Loads the sample data into empty sample tables, from the moment the tables exist until before the server listens. */
	@Bean
	SampleDataLoad sampleData(DynamoDbAsyncClient dynamoDb, DynamoDbProperties dynamo, SampleDataProperties sampleData,
			StartupCalls startup) {
		return new SampleDataLoad(dynamoDb, startup, sampleData.enabled(dynamo.embedded()));
	}

}
