package dev.dynamorelay.transport.request;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one line a request logs for its fields answered {@code UNAVAILABLE}: how many, where the first was, and
 * the causes told apart by class (the first message of each) with how many fields each failed, the first
 * three classes only.
 */
class UnavailableFieldsTest {

	@Test
	void oneFieldIsSaidInTheSingular() {
		UnavailableFields unavailable = new UnavailableFields();
		unavailable.add(List.of("user", "orders"), new TimeoutException("no answer in 2000 ms"));
		assertThat(unavailable.fields()).isEqualTo(1);
		assertThat(unavailable.summary()).isEqualTo(
				"1 field (the first at [user, orders]): java.util.concurrent.TimeoutException: no answer in 2000 ms (1 field)");
	}

	@Test
	void fieldsOfOneCauseAreCountedUnderItsFirstMessage() {
		UnavailableFields unavailable = new UnavailableFields();
		IntStream.range(0, 20).forEach((i) -> unavailable.add("/f" + i, new TimeoutException("timed out at field " + i)));
		unavailable.add("/g", new IllegalStateException("throttled"));
		assertThat(unavailable.fields()).isEqualTo(21);
		assertThat(unavailable.summary()).isEqualTo("21 fields (the first at /f0): java.util.concurrent.TimeoutException: "
				+ "timed out at field 0 (20 fields); java.lang.IllegalStateException: throttled (1 field)");
	}

	@Test
	void causesPastTheThirdClassAreCountedTogether() {
		UnavailableFields unavailable = new UnavailableFields();
		unavailable.add("/a", new TimeoutException("a"));
		unavailable.add("/b", new IOException("b"));
		unavailable.add("/c", new IllegalStateException("c"));
		unavailable.add("/d", new UncheckedIOException(new IOException("d")));
		unavailable.add("/e", new ArithmeticException("e"));
		unavailable.add("/f", new IOException("f"));
		assertThat(unavailable.summary()).isEqualTo("6 fields (the first at /a): java.util.concurrent.TimeoutException: a "
				+ "(1 field); java.io.IOException: b (2 fields); java.lang.IllegalStateException: c (1 field); "
				+ "other causes (2 fields)");
	}

	@Test
	void fieldsFailedOnManyThreadsAreAllCounted() {
		UnavailableFields unavailable = new UnavailableFields();
		IntStream.range(0, 10_000).parallel().forEach((i) -> unavailable.add("/f", new TimeoutException("t")));
		assertThat(unavailable.fields()).isEqualTo(10_000);
		assertThat(unavailable.summary()).endsWith("java.util.concurrent.TimeoutException: t (10000 fields)");
	}

}
