package dev.dynamorelay.dynamodb;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.function.Supplier;

import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.type.AnnotatedTypeMetadata;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.auth.credentials.SystemPropertyCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.client.config.SdkAdvancedAsyncClientOption;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;
import software.amazon.awssdk.http.crt.AwsCrtAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClientBuilder;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClientBuilder;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

import dev.dynamorelay.budget.FairShare;

/**
 * The DynamoDB client and the embedded DynamoDB engine when no endpoint is configured: nothing that
 * depends on the declared schema, so that commands such as {@code generate-schema} can use it alone.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DynamoDbProperties.class)
public class DynamoDbConfiguration {

	private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);

	private static final Duration LOOPBACK_CONNECT_TIMEOUT = Duration.ofMillis(250);

	@Bean(destroyMethod = "close")
	@Conditional(Embedded.class)
	EmbeddedDynamoDb embeddedDynamoDb() {
		return EmbeddedDynamoDb.start();
	}

	/**
	 * All requests' DynamoDB calls: how many in flight at once, and whose goes next (the request with the
	 * fewest started; among heavy ones, the oldest; before them, a request that has gone the aging period
	 * without a call starting), so that a request of one page is not queued behind a heavy one's calls, and a
	 * request of many calls is not starved by a stream of one-page requests.
	 */
	@Bean
	FairShare fairShare(DynamoDbProperties properties, ObjectProvider<EmbeddedDynamoDb> embedded) {
		DynamoDbProperties.FairShareProperties fair = properties.fairShare();
		URI endpoint = properties.aws() ? null : properties.url().orElseGet(() -> embedded.getObject().endpoint());
		boolean local = endpoint != null && isLoopback(endpoint);
		int processors = Runtime.getRuntime().availableProcessors();
		int maxInFlight = Math.min(properties.maxConcurrency(), (fair.maxInFlight() != null) ? fair.maxInFlight()
				: local ? 4 * processors : properties.maxConcurrency());
		// On this machine, heavy requests' calls keep at most half of the cores busy in the DynamoDB beside the
		// server: the other half answers requests of a page or two at once.
		int maxHeavy = (fair.maxHeavyInFlight() != null) ? fair.maxHeavyInFlight()
				: local ? Math.max(1, processors / 2) : maxInFlight;
		return new FairShare(maxInFlight, fair.quantum(), fair.heavyAfter(), maxHeavy, fair.aging());
	}

	@Bean(destroyMethod = "close")
	DynamoDbTimer dynamoDbTimer() {
		return new DynamoDbTimer();
	}

	@Bean(destroyMethod = "close")
	NettyLoops nettyLoops() {
		return new NettyLoops();
	}

	/**
	 * The client. Calls made for a GraphQL request pass what is left of the request's time as their call
	 * timeout, so that its retries, back-off and attempts all end within it; the settings here bound
	 * each part so that one stuck part cannot take it all:
	 * <ul>
	 * <li>an attempt may take a third of the timeout (a frozen connection is given up and the next attempt
	 * opens another);</li>
	 * <li>waiting for a pooled connection is part of an attempt, so it is bounded alike: the pool
 * ({@code max-concurrency}, 256 by default) is shared by all requests, each of which has at most
 * {@code max-concurrency-per-request} calls in flight, so no request can take it whole; past it, calls
 * wait for a connection in the order they asked, and fail UNAVAILABLE rather than wait longer;</li>
	 * <li>connecting is bounded by a fifth of the timeout, at most 1 s, or 250 ms on loopback (a refused
	 * connection fails at once anyway; this bounds a connection nothing answers, such as a full listen
	 * queue);</li>
	 * <li>the standard retry mode makes 3 attempts with a jittered back-off of at most 100 ms, then 200 ms,
	 * and stops retrying early once its retry quota is spent: a refused connection is answered in a few
	 * hundred milliseconds.</li>
	 * </ul>
	 * The HTTP client is the AWS CRT's by default ({@code http-client}), Netty's on request: both take the
	 * same bounds.
	 */
	@Bean(destroyMethod = "close")
	DynamoDbAsyncClient dynamoDbAsyncClient(DynamoDbProperties properties,
			ObjectProvider<EmbeddedDynamoDb> embedded, DynamoDbTimer timer, NettyLoops loops,
			ObjectProvider<ExecutionInterceptor> interceptors) {
		Duration timeout = properties.timeout();
		Duration attempt = timeout.dividedBy(3);
		URI endpoint = properties.aws() ? null : properties.url().orElseGet(() -> embedded.getObject().endpoint());
		Duration connect = min(timeout.dividedBy(5),
				(endpoint != null && isLoopback(endpoint)) ? LOOPBACK_CONNECT_TIMEOUT : CONNECT_TIMEOUT);
		DynamoDbAsyncClientBuilder builder = DynamoDbAsyncClient.builder()
			.httpClientBuilder((properties.httpClient() == DynamoDbProperties.HttpClient.CRT
					&& crtUsable(() -> AwsCrtAsyncHttpClient.builder().build()))
					? AwsCrtAsyncHttpClient.builder()
						.connectionTimeout(connect)
						.connectionAcquisitionTimeout(attempt)
						.maxConcurrency(properties.maxConcurrency())
					: NettyNioAsyncHttpClient.builder()
						.eventLoopGroup(loops.sdk())
						.connectionTimeout(connect)
						.connectionAcquisitionTimeout(attempt)
						.maxConcurrency(properties.maxConcurrency()))
			// Continuations (graphql-java's) never block, so they may run on the event loop that completed
			// the response: one thread hop less per DynamoDB call.
			.asyncConfiguration((async) -> async.advancedOption(SdkAdvancedAsyncClientOption.FUTURE_COMPLETION_EXECUTOR,
					Runnable::run))
			.overrideConfiguration((client) -> client.retryStrategy(RetryMode.STANDARD)
				.scheduledExecutorService(timer.executor())
				.apiCallTimeout(timeout)
				.apiCallAttemptTimeout(attempt)
				// Such as the call latency meters (dev.dynamorelay.metrics), when the server has them.
				.executionInterceptors(interceptors.orderedStream().toList()));
		return at(builder, endpoint, properties).build();
	}

	/**
	 * Whether the AWS CRT's HTTP client can be made here: it loads a native library and reads the system's
	 * trusted CA certificates when it is made, and a host without them (a minimal container base, say) or
	 * without a native build of it gets Netty's client instead, with one WARN that says why and how to
	 * choose Netty outright.
	 */
	static boolean crtUsable(Supplier<SdkAsyncHttpClient> make) {
		try (SdkAsyncHttpClient probe = make.get()) {
			return probe != null;
		}
		catch (RuntimeException | LinkageError ex) {
			String message = String.valueOf(ex.getMessage());
			String remedy = message.contains("TRUST_STORE") ? "Install the system's CA certificates (the package "
					+ "ca-certificates, say) to use the CRT's"
					: (ex instanceof LinkageError) ? "The CRT's native library could not be loaded (no build for this "
							+ "platform, or java.io.tmpdir mounted noexec)"
							: "The CRT's client could not be made";
			LoggerFactory.getLogger(DynamoDbConfiguration.class).warn("The AWS CRT HTTP client cannot run here ({}: {}): "
					+ "DynamoDB calls go over Netty's. {}; or set dynamo-relay.dynamodb.http-client=netty to choose Netty "
					+ "and leave out this check.", ex.getClass().getSimpleName(), message, remedy);
			return false;
		}
	}

	/**
	 * The client of DynamoDB Streams, for live connections: the same endpoint (unless
	 * {@code streams-endpoint} names its own), region and credentials as the client's, and a reader's call may
	 * take the request timeout (an empty read answers at once).
	 */
	@Bean(destroyMethod = "close")
	DynamoDbStreamsAsyncClient dynamoDbStreamsAsyncClient(DynamoDbProperties properties,
			ObjectProvider<EmbeddedDynamoDb> embedded, DynamoDbTimer timer, NettyLoops loops) {
		URI endpoint = properties.streamsUrl()
			.orElseGet(() -> properties.aws() ? null
					: properties.url().orElseGet(() -> embedded.getObject().endpoint()));
		DynamoDbStreamsAsyncClientBuilder builder = DynamoDbStreamsAsyncClient.builder()
			.httpClientBuilder(NettyNioAsyncHttpClient.builder()
				.eventLoopGroup(loops.sdk())
				.connectionTimeout(CONNECT_TIMEOUT)
				.maxConcurrency(64))
			.overrideConfiguration((client) -> client.retryStrategy(RetryMode.STANDARD)
				.scheduledExecutorService(timer.executor())
				.apiCallTimeout(properties.timeout())
				.apiCallAttemptTimeout(properties.timeout().dividedBy(3)));
		return at(builder, endpoint, properties).build();
	}

	/**
	 * The clients of the Kinesis Client Library, for live connections across instances (made only there): its own
	 * DynamoDB client for the lease tables (KCL blocks on its futures, which the requests' client completes on its
	 * event loop; and its calls are no request's), and the synchronous client of DynamoDB Streams its DynamoDB
	 * Streams adapter reads through; aimed as the requests' clients are, over Netty and the JDK's HTTP connection.
	 */
	@Bean(destroyMethod = "close")
	@Lazy
	FleetClients fleetClients(DynamoDbProperties properties, ObjectProvider<EmbeddedDynamoDb> embedded, NettyLoops loops) {
		URI endpoint = properties.aws() ? null : properties.url().orElseGet(() -> embedded.getObject().endpoint());
		URI streamsEndpoint = properties.streamsUrl().orElse(endpoint);
		// KCL bounds its own calls (a minute by default); the attempts are bounded as the requests' are.
		Duration timeout = properties.timeout().multipliedBy(3);
		var dynamoDb = DynamoDbAsyncClient.builder()
			.httpClientBuilder(NettyNioAsyncHttpClient.builder()
				.eventLoopGroup(loops.sdk())
				.connectionTimeout(CONNECT_TIMEOUT)
				.maxConcurrency(64))
			.overrideConfiguration((client) -> client.retryStrategy(RetryMode.STANDARD)
				.apiCallTimeout(timeout)
				.apiCallAttemptTimeout(properties.timeout()));
		var streams = DynamoDbStreamsClient.builder()
			.httpClientBuilder(UrlConnectionHttpClient.builder()
				.connectionTimeout(CONNECT_TIMEOUT)
				.socketTimeout(properties.timeout()))
			.overrideConfiguration((client) -> client.retryStrategy(RetryMode.STANDARD)
				.apiCallTimeout(timeout)
				.apiCallAttemptTimeout(properties.timeout()));
		return new FleetClients(at(dynamoDb, endpoint, properties).build(),
				at(streams, streamsEndpoint, properties).build());
	}

	/**
	 * A client builder aimed at {@code endpoint} with the configured region: AWS's own endpoint, region and
	 * credentials chain when null; else that endpoint with local credentials ({@code us-east-1} unless a region
	 * is configured).
	 */
	private static <B extends AwsClientBuilder<B, ?>> B at(B builder, URI endpoint, DynamoDbProperties properties) {
		if (endpoint == null) {
			return builder.credentialsProvider(DefaultCredentialsProvider.builder().build())
				.region((properties.region() != null) ? Region.of(properties.region())
						: DefaultAwsRegionProviderChain.builder().build().getRegion());
		}
		return builder.endpointOverride(endpoint)
			.region(Region.of((properties.region() != null) ? properties.region() : "us-east-1"))
			.credentialsProvider(localCredentials());
	}

	/** The start's own calls (tables, sample data), with their own patience rather than a request's timeout. */
	@Bean
	StartupCalls startupCalls(DynamoDbProperties properties, ObjectProvider<EmbeddedDynamoDb> embedded) {
		String endpoint = properties.aws() ? "AWS"
				: properties.url().orElseGet(() -> embedded.getObject().endpoint()).toString();
		return new StartupCalls(endpoint, properties.startup());
	}

	@Bean
	ItemLoader itemLoader(DynamoDbAsyncClient dynamoDb, DynamoDbProperties properties) {
		return new ItemLoader(dynamoDb, properties.timeout());
	}

	/**
	 * Credentials from the environment when given, else a fixed pair (the embedded engine, like any DynamoDB
	 * beside the server, checks that a call is signed, not by whom).
	 */
	private static AwsCredentialsProvider localCredentials() {
		return AwsCredentialsProviderChain.builder()
			.reuseLastProviderEnabled(true)
			.credentialsProviders(EnvironmentVariableCredentialsProvider.create(),
					SystemPropertyCredentialsProvider.create(),
					StaticCredentialsProvider.create(AwsBasicCredentials.create("dynamorelay", "local")))
			.build();
	}

	/** Whether the endpoint's host is this machine, told without a DNS lookup. */
	static boolean isLoopback(URI endpoint) {
		String host = endpoint.getHost();
		if (host == null) {
			return false;
		}
		if (host.equalsIgnoreCase("localhost")) {
			return true;
		}
		boolean literal = host.startsWith("[") || host.chars().allMatch((c) -> c == '.' || Character.isDigit(c));
		try {
			return literal && InetAddress.getByName(host).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
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
