package dev.dynamorelay.live;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The resumes' pace: a tenth of a second's worth at once, then as many a second as configured, for all. */
class ReplayPaceTest {

	private static final long SECOND = 1_000_000_000L;

	@Test
	void aTenthOfASecondsWorthPassesAtOnceAndTheRestWaits() {
		ReplayPace pace = new ReplayPace(1_000);
		long now = 5 * SECOND;
		assertThat(pace.take(100, now)).as("the bucket's hundred").isZero();
		assertThat(pace.take(100, now)).as("then a tenth of a second for the next hundred").isEqualTo(SECOND / 10);
		assertThat(pace.take(1, now + SECOND / 10)).isEqualTo(SECOND / 1_000);
	}

	@Test
	void idleTimeFillsTheBucketAndNoMore() {
		ReplayPace pace = new ReplayPace(1_000);
		pace.take(1_000, 0);
		long later = 10 * SECOND;
		assertThat(pace.take(100, later)).as("full again").isZero();
		assertThat(pace.take(50, later)).as("but it holds a tenth of a second").isEqualTo(SECOND / 20);
	}

	@Test
	void allResumesShareOnePace() {
		ReplayPace pace = new ReplayPace(10);
		pace.take(1, 0);
		long first = pace.take(5, 0);
		long second = pace.take(5, 0);
		assertThat(second - first).isEqualTo(SECOND / 2);
	}

}
