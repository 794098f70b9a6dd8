package dev.dynamorelay.dynamodb;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where DynamoDB is and how long a call may take.
 *
 * @param endpoint unset or blank: the project's own DynamoDB engine, embedded, on loopback; a URL: that endpoint;
 * {@code aws}: AWS's own endpoint from the default region and credentials chain
 * @param region the signing region; defaults to the default region chain for {@code aws} and to
 * {@code us-east-1} otherwise
 * @param timeout bound of one GraphQL request's DynamoDB calls, retries included: all its fields share
 * it, and an {@code UNAVAILABLE} answer arrives inside it; a call waiting for its place among the
 * request's calls in flight spends it too, but its own call timeout starts when it is sent, and one still
 * waiting when the request's time runs out fails then, unsent
 * @param maxConcurrency the client's connection pool: the most DynamoDB calls in flight at once, for all
 * requests together; more than one request's share, so that no request can take it all
 * @param maxConcurrencyPerRequest the most DynamoDB calls of one GraphQL request in flight at once;
 * further calls wait, in order, until one finishes
 * @param fairShare how all requests' calls share DynamoDB (see {@link FairShareProperties})
 * @param startup how long the start's own calls may take (see {@link StartupProperties})
 * @param streamsEndpoint where live connections read the tables' DynamoDB Streams: unset, where the
 * endpoint is (with {@code aws}, DynamoDB Streams' own regional endpoint); a URL: that endpoint (a VPC
 * endpoint of DynamoDB Streams, say)
 * @param httpClient the HTTP client of DynamoDB calls: {@code crt} (the AWS Common Runtime's, native code
 * for Linux, macOS and Windows on x86-64 and ARM64: a fifth to a third less server CPU a warm page than
 * Netty, bench/README.md) or {@code netty} (the SDK's Netty client, pure Java: where the CRT has no native
 * build)
 */
@ConfigurationProperties("dynamo-relay.dynamodb")
public record DynamoDbProperties(String endpoint, String region, @DefaultValue("5s") Duration timeout,
		@DefaultValue("8") int maxConcurrencyPerRequest, @DefaultValue("256") int maxConcurrency,
		@DefaultValue FairShareProperties fairShare, @DefaultValue StartupProperties startup, String streamsEndpoint,
		@DefaultValue("crt") HttpClient httpClient) {

	/** The HTTP client of DynamoDB calls. */
	public enum HttpClient {

		/** The SDK's Netty client ({@code netty-nio-client}). */
		NETTY,

		/** The AWS Common Runtime's client ({@code aws-crt-client}): native code, its own event loop. */
		CRT

	}

	/**
	 * The patience of the start's own DynamoDB calls (creating and checking the declared tables, loading
	 * the sample data), which no client waits for: see {@link StartupCalls}.
	 *
	 * @param timeout how long the start may spend on DynamoDB, from its first call, retries and waiting for
	 * tables and indexes to become active included; past it the start fails and says so
	 * @param callTimeout how long one start-up call may take before it is made again
	 */
	public record StartupProperties(@DefaultValue("5m") Duration timeout, @DefaultValue("30s") Duration callTimeout) {

		public StartupProperties {
			if (timeout == null || timeout.isNegative() || timeout.isZero() || callTimeout == null
					|| callTimeout.isNegative() || callTimeout.isZero()) {
				throw new IllegalStateException("dynamo-relay.dynamodb.startup.timeout and .call-timeout must be positive, "
						+ "got " + timeout + " and " + callTimeout);
			}
		}

	}

	/**
	 * How all requests' calls share DynamoDB: at most {@code maxInFlight} in flight at once, the next place
	 * going to the request with the fewest calls started (among heavy requests, the oldest), unless a request
	 * has gone {@code aging} without a call starting: then its call goes first, the oldest such request's. While other requests' calls
	 * wait, a request past its first call scans at most {@code quantum} items per call.
	 *
	 * @param maxInFlight the most DynamoDB calls of all requests in flight at once, at most
	 * {@code max-concurrency}; unset: four times the processors for a DynamoDB on this machine (the embedded
	 * one, or any on loopback), which shares its cores with the server; {@code max-concurrency} (the pool) for
	 * one elsewhere, which scales by itself
	 * @param quantum the most items a call of a request past its first scans while other requests' calls wait
	 * (one more for a page of that many: the item that tells whether more follow)
	 * @param heavyAfter the calls a request has started from which on it is heavy
	 * @param maxHeavyInFlight the most places heavy requests hold together; unset: half the processors (at
	 * least 1) for a DynamoDB on this machine, {@code max-in-flight} (no separate limit) elsewhere
	 * @param aging how long a request with calls waiting may go without one starting: then its next call goes
	 * first (before those of requests that have started fewer; of such calls, the oldest request's), so that
	 * every request starts a call at least once per this time, however many new requests keep coming; one
	 * call per period, never the calls it missed
	 */
	public record FairShareProperties(Integer maxInFlight, @DefaultValue("100") int quantum,
			@DefaultValue("32") int heavyAfter, Integer maxHeavyInFlight, @DefaultValue("10ms") Duration aging) {

		public FairShareProperties {
			if ((maxInFlight != null && maxInFlight < 1) || quantum < 1 || heavyAfter < 1
					|| (maxHeavyInFlight != null && maxHeavyInFlight < 1)) {
				throw new IllegalStateException("dynamo-relay.dynamodb.fair-share.max-in-flight, .quantum, .heavy-after "
						+ "and .max-heavy-in-flight must be at least 1, got " + maxInFlight + ", " + quantum + ", "
						+ heavyAfter + " and " + maxHeavyInFlight);
			}
			if (aging == null || aging.isNegative() || aging.isZero()) {
				throw new IllegalStateException("dynamo-relay.dynamodb.fair-share.aging must be positive, got " + aging);
			}
		}

	}

	/** The most of the timeout kept for answering once reading has given up. */
	private static final Duration ANSWER_RESERVE = Duration.ofMillis(500);

	public DynamoDbProperties {
		if (timeout == null || timeout.isNegative() || timeout.isZero()) {
			throw new IllegalStateException("dynamo-relay.dynamodb.timeout must be positive, got " + timeout);
		}
		if (maxConcurrencyPerRequest < 1 || maxConcurrencyPerRequest >= maxConcurrency) {
			throw new IllegalStateException(("dynamo-relay.dynamodb.max-concurrency-per-request must be at least 1 and "
					+ "less than dynamo-relay.dynamodb.max-concurrency (the connection pool, which no request may take "
					+ "whole), got %d and %d").formatted(maxConcurrencyPerRequest, maxConcurrency));
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

	/** Whether to start and use the embedded DynamoDB engine. */
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

	/** The explicit DynamoDB Streams endpoint URL, when one is configured. */
	public Optional<URI> streamsUrl() {
		if (this.streamsEndpoint == null || this.streamsEndpoint.isBlank()) {
			return Optional.empty();
		}
		URI uri = URI.create(this.streamsEndpoint.trim());
		if (uri.getScheme() == null || uri.getHost() == null) {
			throw new IllegalStateException(("dynamo-relay.dynamodb.streams-endpoint must be unset or a URL such as "
					+ "http://127.0.0.1:8000, got `%s`").formatted(this.streamsEndpoint));
		}
		return Optional.of(uri);
	}

	private String trimmed() {
		return (this.endpoint != null) ? this.endpoint.trim() : "";
	}

}
