package dev.dynamorelay.dynamodb;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;

/**
 * The DynamoDB calls of the server's start (listing, creating and checking the declared tables,
 * loading the sample data): not a client's requests, so not bound by the request timeout
 * ({@code dynamo-relay.dynamodb.timeout}), which a DynamoDB on a loaded machine (the embedded engine
 * beside the server's own start) can take longer than to create a table or write a batch.
 *
 * <p>Each call may take {@code dynamo-relay.dynamodb.startup.call-timeout}; one DynamoDB did not
 * answer (a timeout, a connection refused or reset, throttling past the SDK's retries, a 5xx) is made
 * again after a back-off that doubles from 250 ms up to 5 s, until the start has spent
 * {@code dynamo-relay.dynamodb.startup.timeout}, counted from the first start-up call. Then the start
 * fails with a {@link StartupException} naming the endpoint and the property to change. Every call
 * made here is one that may be repeated: reads, puts of whole items, a CreateTable whose repetition
 * finds the table in use.
 */
public final class StartupCalls {

	private static final Logger logger = LoggerFactory.getLogger(StartupCalls.class);

	private static final Duration FIRST_BACK_OFF = Duration.ofMillis(250);

	private static final Duration MAX_BACK_OFF = Duration.ofSeconds(5);

	private final String endpoint;

	private final DynamoDbProperties.StartupProperties properties;

	/** How often, at most, the log says again that DynamoDB is still not answering. */
	private static final Duration REMIND = Duration.ofSeconds(10);

	/** When the first call was made; 0 until then. */
	private volatile long started;

	/** Since when DynamoDB has not answered (0 while it answers), and when the log last said so. */
	private long silentSince;

	private long warned;

	/**
	 * @param endpoint where DynamoDB is, as the log and failures name it
	 * @param properties the start-up bound and each call's timeout
	 */
	public StartupCalls(String endpoint, DynamoDbProperties.StartupProperties properties) {
		this.endpoint = endpoint;
		this.properties = properties;
	}

	/** Where DynamoDB is, as the log names it. */
	public String endpoint() {
		return this.endpoint;
	}

	/** The time since the first start-up call. */
	public Duration elapsed() {
		long started = this.started;
		return (started == 0) ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - started);
	}

	/**
	 * Makes {@code call} (given the override its request must carry, with the call's timeout) and makes it
	 * again while DynamoDB does not answer, within the start-up bound.
	 * @param what the call, for the log and the failure (such as "CreateTable Users")
	 * @return the call's result; a failure DynamoDB answered (a refused request) as it came, and
	 * DynamoDB's not answering past the bound as a {@link StartupException}
	 */
	public <T> CompletableFuture<T> call(String what, Function<AwsRequestOverrideConfiguration, CompletableFuture<T>> call) {
		synchronized (this) {
			if (this.started == 0) {
				this.started = System.nanoTime();
			}
		}
		return attempt(what, call, 0);
	}

	private <T> CompletableFuture<T> attempt(String what,
			Function<AwsRequestOverrideConfiguration, CompletableFuture<T>> call, int attempt) {
		Optional<Duration> left = CallTimeout.of(left());
		if (left.isEmpty()) {
			return CompletableFuture.failedFuture(notAnswered(what, null));
		}
		Duration timeout = min(this.properties.callTimeout(), left.get());
		AwsRequestOverrideConfiguration override = AwsRequestOverrideConfiguration.builder()
			.apiCallTimeout(timeout)
			.apiCallAttemptTimeout(timeout)
			.build();
		CompletableFuture<T> made;
		try {
			made = call.apply(override);
		}
		catch (RuntimeException ex) {
			made = CompletableFuture.failedFuture(ex);
		}
		return made.handle((result, failure) -> {
			if (failure == null) {
				answered();
				return CompletableFuture.completedFuture(result);
			}
			Throwable cause = DynamoDbFailures.unwrap(failure);
			if (!DynamoDbFailures.isUnavailable(cause)) {
				return CompletableFuture.<T>failedFuture(cause);
			}
			Duration backOff = backOff(attempt);
			if (left().compareTo(backOff) <= 0) {
				return CompletableFuture.<T>failedFuture(notAnswered(what, cause));
			}
			notAnswering(what, cause);
			return CompletableFuture.supplyAsync(() -> null,
					CompletableFuture.delayedExecutor(backOff.toMillis(), TimeUnit.MILLISECONDS))
				.thenCompose((ignored) -> attempt(what, call, attempt + 1));
		}).thenCompose((next) -> next);
	}

	/**
	 * Says that DynamoDB does not answer: once when it stops, then at most every {@link #REMIND} while it
	 * does not, however many calls are waiting.
	 */
	private synchronized void notAnswering(String what, Throwable cause) {
		long now = System.nanoTime();
		if (this.silentSince == 0) {
			this.silentSince = now;
		}
		else if (now - this.warned < REMIND.toNanos()) {
			return;
		}
		this.warned = now;
		logger.warn("DynamoDB at {} is not answering the start's calls ({}: {}) for {} s; making them again for at most "
				+ "{} more (dynamo-relay.dynamodb.startup.timeout)", this.endpoint, what, describe(cause),
				TimeUnit.NANOSECONDS.toSeconds(now - this.silentSince), round(left()));
	}

	/** Says that DynamoDB answers again, once after it did not. */
	private synchronized void answered() {
		if (this.silentSince != 0) {
			logger.info("DynamoDB at {} answers the start's calls again after {} s", this.endpoint,
					TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - this.silentSince));
			this.silentSince = 0;
		}
	}

	/** The failure of a start that DynamoDB did not serve within its bound. */
	private StartupException notAnswered(String what, Throwable last) {
		String message = ("DynamoDB at %s did not answer %s within the start's %s (dynamo-relay.dynamodb.startup.timeout)%s. "
				+ "Check that DynamoDB runs there and is not overloaded (dynamo-relay.dynamodb.endpoint), or give the "
				+ "start more time with dynamo-relay.dynamodb.startup.timeout (each call may take "
				+ "dynamo-relay.dynamodb.startup.call-timeout, now %s).").formatted(this.endpoint, what,
						this.properties.timeout(), (last != null) ? "; last: " + describe(last) : "",
						this.properties.callTimeout());
		return new StartupException(message, last);
	}

	/** A failure in one line: its class and the start of its message. */
	static String describe(Throwable failure) {
		String message = (failure.getMessage() != null) ? failure.getMessage().lines().findFirst().orElse("") : "";
		if (message.length() > 200) {
			message = message.substring(0, 200) + "...";
		}
		return failure.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
	}

	/**
	 * The failure of a table or index that did not become active within the start-up bound (DynamoDB
	 * answered, but an index is still being built).
	 */
	public StartupException notActive(String what) {
		return new StartupException(("%s at %s did not become active within the start's %s "
				+ "(dynamo-relay.dynamodb.startup.timeout): a new global index on a large table may take longer; "
				+ "start again once it is active, or give the start more time with dynamo-relay.dynamodb.startup.timeout.")
			.formatted(what, this.endpoint, this.properties.timeout()), null);
	}

	/** What is left of the start-up bound (all of it before the first call). */
	public Duration left() {
		return this.properties.timeout().minus(elapsed());
	}

	/** 250 ms doubling up to 5 s, each with up to a fifth of jitter, so that instances do not retry in step. */
	private static Duration backOff(int attempt) {
		long millis = Math.min(MAX_BACK_OFF.toMillis(), FIRST_BACK_OFF.toMillis() << Math.min(attempt, 10));
		return Duration.ofMillis(millis - ThreadLocalRandom.current().nextLong(millis / 5 + 1));
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	private static String round(Duration duration) {
		return Duration.ofSeconds(Math.max(0, duration.toSeconds())).toString().substring(2).toLowerCase();
	}

	/** The start failed because DynamoDB did not answer its calls in time; the message says what to change. */
	public static final class StartupException extends RuntimeException {

		StartupException(String message, Throwable cause) {
			super(message, cause);
		}

	}

}
