package dev.dynamorelay.dynamodb;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call timeout is whole milliseconds, and under one millisecond left there is none to give: the SDK would
 * take a timeout of zero milliseconds as no timeout at all.
 */
class CallTimeoutTest {

	@Test
	void underAMillisecondLeftIsNoTimeToSendACall() {
		assertThat(CallTimeout.of(Duration.ofNanos(999_999))).isEmpty();
		assertThat(CallTimeout.of(Duration.ofNanos(1))).isEmpty();
		assertThat(CallTimeout.of(Duration.ZERO)).isEmpty();
		assertThat(CallTimeout.of(Duration.ofMillis(-3))).isEmpty();
		assertThat(CallTimeout.of(Duration.ofNanos(-1))).isEmpty();
	}

	@Test
	void theTimeLeftIsTheCallTimeoutInWholeMillisecondsRoundedDown() {
		assertThat(CallTimeout.of(Duration.ofMillis(1))).contains(Duration.ofMillis(1));
		assertThat(CallTimeout.of(Duration.ofNanos(1_999_999))).contains(Duration.ofMillis(1));
		assertThat(CallTimeout.of(Duration.ofMillis(4500))).contains(Duration.ofMillis(4500));
	}

}
