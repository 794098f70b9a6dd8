package dev.dynamorelay.bench.support;

import java.time.Duration;

/** The benchmark's lengths from the environment, such as {@code BENCH_SECONDS} and {@code BENCH_WARMUP_SECONDS}. */
public final class Settings {

	private Settings() {
	}

	/** {@code variable}'s seconds, or {@code defaultSeconds} when it is not set. */
	public static Duration seconds(String variable, long defaultSeconds) {
		String value = System.getenv(variable);
		return Duration.ofSeconds((value == null || value.isBlank()) ? defaultSeconds : Long.parseLong(value.trim()));
	}

}
