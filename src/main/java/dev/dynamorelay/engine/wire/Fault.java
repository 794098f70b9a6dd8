package dev.dynamorelay.engine.wire;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * A fault the engine injects into the calls of one target (or of every target), for tests of a client's
 * retries, deadlines and unavailability: a share of calls answered with DynamoDB's throttling error, a share
 * answered with a server error, latency added to every call, or a stall (the call is taken and not answered
 * until the stall is lifted). Several may be combined: latency first, then the stall, then one draw for the
 * throttling and server-error shares.
 *
 * @param throttleShare the share of calls, 0 to 1, answered with {@code throttleType}
 * @param throttleType {@code ProvisionedThroughputExceededException}, {@code ThrottlingException} or
 * {@code RequestLimitExceeded}, each as DynamoDB sends it
 * @param errorShare the share of calls, 0 to 1, answered with a server error
 * @param errorStatus the server error's status: 500 ({@code InternalServerError}) or 503
 * ({@code ServiceUnavailable})
 * @param latency added before every call is served (zero for none)
 * @param stall whether calls are held unanswered until the stall is lifted
 */
public record Fault(double throttleShare, String throttleType, double errorShare, int errorStatus, Duration latency,
		boolean stall) {

	/** The throttling errors DynamoDB answers, each with its HTTP status 400. */
	public static final Set<String> THROTTLE_TYPES = Set.of("ProvisionedThroughputExceededException",
			"ThrottlingException", "RequestLimitExceeded");

	/** No fault. */
	public static final Fault NONE = new Fault(0, "ProvisionedThroughputExceededException", 0, 500, Duration.ZERO,
			false);

	public Fault {
		if (!(throttleShare >= 0 && throttleShare <= 1) || !(errorShare >= 0 && errorShare <= 1)
				|| throttleShare + errorShare > 1) {
			throw new IllegalArgumentException(
					"Shares must be between 0 and 1 and add up to at most 1: throttling " + throttleShare
							+ ", server errors " + errorShare);
		}
		Objects.requireNonNull(throttleType, "throttleType");
		if (!THROTTLE_TYPES.contains(throttleType)) {
			throw new IllegalArgumentException(
					"Unknown throttling error " + throttleType + "; one of " + THROTTLE_TYPES);
		}
		if (errorStatus != 500 && errorStatus != 503) {
			throw new IllegalArgumentException("The server error's status is 500 or 503, not " + errorStatus);
		}
		latency = (latency != null) ? latency : Duration.ZERO;
		if (latency.isNegative()) {
			throw new IllegalArgumentException("Negative latency " + latency);
		}
	}

	/** This share of calls answered with {@code ProvisionedThroughputExceededException}. */
	public static Fault throttling(double share) {
		return NONE.withThrottling(share, "ProvisionedThroughputExceededException");
	}

	/** This share of calls answered with {@code InternalServerError} (500). */
	public static Fault serverErrors(double share) {
		return NONE.withServerErrors(share, 500);
	}

	/** Every call served after this delay. */
	public static Fault latency(Duration latency) {
		return NONE.withLatency(latency);
	}

	/** Every call held unanswered until the stall is lifted. */
	public static Fault stalled() {
		return NONE.withStall(true);
	}

	public Fault withThrottling(double share, String type) {
		return new Fault(share, type, this.errorShare, this.errorStatus, this.latency, this.stall);
	}

	public Fault withServerErrors(double share, int status) {
		return new Fault(this.throttleShare, this.throttleType, share, status, this.latency, this.stall);
	}

	public Fault withLatency(Duration latency) {
		return new Fault(this.throttleShare, this.throttleType, this.errorShare, this.errorStatus, latency, this.stall);
	}

	public Fault withStall(boolean stall) {
		return new Fault(this.throttleShare, this.throttleType, this.errorShare, this.errorStatus, this.latency, stall);
	}

	/** Whether this fault does nothing. */
	public boolean isNone() {
		return this.throttleShare == 0 && this.errorShare == 0 && this.latency.isZero() && !this.stall;
	}

}
