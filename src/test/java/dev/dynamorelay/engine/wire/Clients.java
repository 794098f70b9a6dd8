package dev.dynamorelay.engine.wire;

import java.net.URI;
import java.time.Duration;
import java.util.function.Consumer;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.crt.AwsCrtAsyncHttpClient;
import software.amazon.awssdk.http.crt.AwsCrtHttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** The AWS SDK v2's clients, as an application builds them, pointed at an engine. */
final class Clients {

	static final StaticCredentialsProvider CREDENTIALS = StaticCredentialsProvider
		.create(AwsBasicCredentials.create("anyKey", "anySecret"));

	private Clients() {
	}

	static ClientOverrideConfiguration.Builder timeouts(ClientOverrideConfiguration.Builder builder) {
		return builder.apiCallTimeout(Duration.ofSeconds(20)).apiCallAttemptTimeout(Duration.ofSeconds(10));
	}

	static DynamoDbClient crt(URI endpoint, Consumer<ClientOverrideConfiguration.Builder> override) {
		return DynamoDbClient.builder()
			.endpointOverride(endpoint)
			.region(Region.EU_WEST_1)
			.credentialsProvider(CREDENTIALS)
			.httpClientBuilder(AwsCrtHttpClient.builder().connectionTimeout(Duration.ofSeconds(5)))
			.overrideConfiguration((builder) -> override.accept(timeouts(builder)))
			.build();
	}

	static DynamoDbAsyncClient netty(URI endpoint, Consumer<ClientOverrideConfiguration.Builder> override) {
		return DynamoDbAsyncClient.builder()
			.endpointOverride(endpoint)
			.region(Region.EU_WEST_1)
			.credentialsProvider(CREDENTIALS)
			.httpClientBuilder(NettyNioAsyncHttpClient.builder().connectionTimeout(Duration.ofSeconds(5)))
			.overrideConfiguration((builder) -> override.accept(timeouts(builder)))
			.build();
	}

	static DynamoDbAsyncClient crtAsync(URI endpoint, Consumer<ClientOverrideConfiguration.Builder> override) {
		return DynamoDbAsyncClient.builder()
			.endpointOverride(endpoint)
			.region(Region.EU_WEST_1)
			.credentialsProvider(CREDENTIALS)
			.httpClientBuilder(AwsCrtAsyncHttpClient.builder().connectionTimeout(Duration.ofSeconds(5)))
			.overrideConfiguration((builder) -> override.accept(timeouts(builder)))
			.build();
	}

	static DynamoDbStreamsClient streams(URI endpoint) {
		return DynamoDbStreamsClient.builder()
			.endpointOverride(endpoint)
			.region(Region.EU_WEST_1)
			.credentialsProvider(CREDENTIALS)
			.httpClientBuilder(AwsCrtHttpClient.builder().connectionTimeout(Duration.ofSeconds(5)))
			.overrideConfiguration((builder) -> timeouts(builder))
			.build();
	}

}
