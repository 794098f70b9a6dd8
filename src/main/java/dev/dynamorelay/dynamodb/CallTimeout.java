package dev.dynamorelay.dynamodb;

import java.time.Duration;
import java.util.Optional;

/**
 * A DynamoDB call's timeout ({@code apiCallTimeout}) from what is left of its request's time.
 *
 * <p>The SDK counts a call timeout in whole milliseconds and takes zero as no timeout at all: a call sent with
 * less than a millisecond left would be bounded only by its attempts' timeouts, three attempts with back-off,
 * seconds past the request's deadline (a frozen DynamoDB answered a request only when the servlet's backstop
 * fired). Such a call is not sent: its caller answers {@code UNAVAILABLE} as for no time left.
 */
public final class CallTimeout {

	private CallTimeout() {
	}

	/** The timeout of a call sent now with {@code remaining} left, whole milliseconds; empty below one. */
	public static Optional<Duration> of(Duration remaining) {
		long millis = remaining.toMillis();
		return (millis > 0) ? Optional.of(Duration.ofMillis(millis)) : Optional.empty();
	}

}
