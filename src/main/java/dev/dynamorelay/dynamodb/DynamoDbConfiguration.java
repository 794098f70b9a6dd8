package dev.dynamorelay.dynamodb;

import java.net.URI;
import java.time.Duration;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.auth.credentials.SystemPropertyCredentialsProvider;
import software.amazon.awssdk.core.client.config.SdkAdvancedAsyncClientOption;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClientBuilder;

/**
 * The DynamoDB client and the embedded DynamoDB Local when no endpoint is configured: nothing that
 * depends on the declared schema, so that commands such as {@code generate-schema} can use it alone.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ DynamoDbProperties.class, TablesProperties.class })
public class DynamoDbConfiguration {

	@Bean(destroyMethod = "close")
	@Conditional(Embedded.class)
	EmbeddedDynamoDb embeddedDynamoDb() {
		return EmbeddedDynamoDb.start();
	}

	@Bean(destroyMethod = "close")
	DynamoDbTimer dynamoDbTimer() {
		return new DynamoDbTimer();
	}

	@Bean(destroyMethod = "close")
	DynamoDbAsyncClient dynamoDbAsyncClient(DynamoDbProperties properties,
			ObjectProvider<EmbeddedDynamoDb> embedded, DynamoDbTimer timer) {
		Duration timeout = properties.timeout();
		DynamoDbAsyncClientBuilder builder = DynamoDbAsyncClient.builder()
			.httpClientBuilder(NettyNioAsyncHttpClient.builder()
				.connectionTimeout(min(timeout, Duration.ofSeconds(2)))
				.connectionAcquisitionTimeout(timeout)
				.maxConcurrency(256))
			// Continuations (graphql-java's) never block, so they may run on the event loop that completed
			// the response: one thread hop less per DynamoDB call.
			.asyncConfiguration((async) -> async.advancedOption(SdkAdvancedAsyncClientOption.FUTURE_COMPLETION_EXECUTOR,
					Runnable::run))
			.overrideConfiguration((client) -> client.retryStrategy(RetryMode.STANDARD)
				.scheduledExecutorService(timer.executor())
				.apiCallTimeout(timeout)
				.apiCallAttemptTimeout(timeout.dividedBy(3)));
		if (properties.aws()) {
			builder.credentialsProvider(DefaultCredentialsProvider.builder().build())
				.region((properties.region() != null) ? Region.of(properties.region())
						: DefaultAwsRegionProviderChain.builder().build().getRegion());
		}
		else {
			URI endpoint = properties.url().orElseGet(() -> embedded.getObject().endpoint());
			builder.endpointOverride(endpoint)
				.region(Region.of((properties.region() != null) ? properties.region() : "us-east-1"))
				.credentialsProvider(localCredentials());
		}
		return builder.build();
	}

	@Bean
	ItemLoader itemLoader(DynamoDbAsyncClient dynamoDb, DynamoDbProperties properties) {
		return new ItemLoader(dynamoDb, properties.timeout());
	}

	/**
	 * Credentials from the environment when given, else a fixed pair (DynamoDB Local accepts any access key
	 * of letters and digits).
	 */
	private static AwsCredentialsProvider localCredentials() {
		return AwsCredentialsProviderChain.builder()
			.reuseLastProviderEnabled(true)
			.credentialsProviders(EnvironmentVariableCredentialsProvider.create(),
					SystemPropertyCredentialsProvider.create(),
					StaticCredentialsProvider.create(AwsBasicCredentials.create("dynamorelay", "local")))
			.build();
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	/** Matches when {@code dynamo-relay.dynamodb.endpoint} is unset or blank. */
	static final class Embedded implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			String endpoint = context.getEnvironment().getProperty("dynamo-relay.dynamodb.endpoint");
			return endpoint == null || endpoint.isBlank();
		}

	}

}
