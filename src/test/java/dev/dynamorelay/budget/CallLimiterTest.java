package dev.dynamorelay.budget;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.error.UnavailableException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CallLimiterTest {

	@Test
	void startsAtMostTheMaximumAndTheRestInOrderAsCallsFinish() {
		CallLimiter limiter = new CallLimiter(3);
		List<CompletableFuture<Integer>> sent = new ArrayList<>();
		List<Integer> started = new ArrayList<>();
		List<CompletableFuture<Integer>> results = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			int call = i;
			results.add(limiter.call(() -> {
				started.add(call);
				CompletableFuture<Integer> future = new CompletableFuture<>();
				sent.add(future);
				return future;
			}));
		}
		assertThat(started).containsExactly(0, 1, 2);
		assertThat(limiter.inFlight()).isEqualTo(3);
		sent.get(1).complete(1);
		assertThat(results.get(1)).isCompletedWithValue(1);
		assertThat(started).containsExactly(0, 1, 2, 3);
		sent.get(0).complete(0);
		sent.get(3).complete(3);
		assertThat(started).containsExactly(0, 1, 2, 3, 4, 5);
		for (int i = 2; i < 10; i++) {
			if (i != 3) {
				sent.get(i).complete(i);
			}
		}
		assertThat(started).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
		assertThat(results).allSatisfy((result) -> assertThat(result).isDone());
		assertThat(limiter.peak()).isEqualTo(3);
		assertThat(limiter.queued()).isEqualTo(7);
		assertThat(limiter.inFlight()).isZero();
	}

	@Test
	void aFailedOrThrowingCallGivesItsPlaceOn() {
		CallLimiter limiter = new CallLimiter(1);
		CompletableFuture<Object> failing = new CompletableFuture<>();
		CompletableFuture<Object> first = limiter.call(() -> failing);
		CompletableFuture<Object> throwing = limiter.call(() -> {
			throw new IllegalStateException("refused before sending");
		});
		CompletableFuture<String> last = limiter.call(() -> CompletableFuture.completedFuture("served"));
		assertThat(throwing).isNotDone();
		failing.completeExceptionally(new IllegalStateException("DynamoDB failed"));
		assertThatThrownBy(first::join).isInstanceOf(CompletionException.class).hasMessageContaining("DynamoDB failed");
		assertThatThrownBy(throwing::join).hasMessageContaining("refused before sending");
		assertThat(last).isCompletedWithValue("served");
		assertThat(limiter.inFlight()).isZero();
	}

	@Test
	void aContinuationThatCallsAgainQueuesBehindTheCallsAlreadyWaiting() {
		CallLimiter limiter = new CallLimiter(1);
		List<String> order = new ArrayList<>();
		CompletableFuture<String> blocker = new CompletableFuture<>();
		limiter.call(() -> blocker).thenCompose((first) -> limiter.call(() -> {
			order.add("a, second read");
			return CompletableFuture.completedFuture("a2");
		}));
		limiter.call(() -> {
			order.add("b, first read");
			return CompletableFuture.completedFuture("b1");
		});
		blocker.complete("a1");
		assertThat(order).containsExactly("b, first read", "a, second read");
	}

	@Test
	void thousandsOfWaitingCallsThatFinishAtOnceRunFlatNotNested() {
		CallLimiter limiter = new CallLimiter(1);
		CompletableFuture<Object> blocker = new CompletableFuture<>();
		limiter.call(() -> blocker);
		AtomicInteger served = new AtomicInteger();
		List<CompletableFuture<Object>> waiting = new ArrayList<>();
		for (int i = 0; i < 100_000; i++) {
			waiting.add(limiter.call(() -> {
				served.incrementAndGet();
				return CompletableFuture.completedFuture(null);
			}));
		}
		blocker.complete(null);
		assertThat(served).hasValue(100_000);
		assertThat(waiting.get(99_999)).isDone();
		assertThat(limiter.inFlight()).isZero();
	}

	@Test
	void neverMoreThanTheMaximumInFlightFromManyThreads() throws Exception {
		CallLimiter limiter = new CallLimiter(4);
		AtomicInteger inFlight = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			int calls = 20_000;
			CountDownLatch done = new CountDownLatch(calls);
			for (int i = 0; i < calls; i++) {
				threads.execute(() -> limiter.call(() -> {
					int now = inFlight.incrementAndGet();
					most.accumulateAndGet(now, Math::max);
					return CompletableFuture.supplyAsync(() -> {
						inFlight.decrementAndGet();
						return null;
					}, threads);
				}).whenComplete((value, failure) -> done.countDown()));
			}
			assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(most.get()).isBetween(1, 4);
		assertThat(limiter.peak()).isLessThanOrEqualTo(4);
		assertThat(limiter.inFlight()).isZero();
	}

	/**
	 * A call still waiting for its place when the request's time runs out fails then, UNAVAILABLE, though
	 * the call ahead of it never finishes; it is never started, and its place is not lost.
	 */
	@Test
	void aWaitingCallFailsAtTheRequestsDeadlineThoughTheQueueNeverMoves() throws Exception {
		CallLimiter limiter = new RequestBudget(Duration.ofMillis(200), 1000, 1).calls();
		CompletableFuture<Object> frozen = new CompletableFuture<>();
		limiter.call(() -> frozen);
		AtomicInteger sent = new AtomicInteger();
		long queued = System.nanoTime();
		List<CompletableFuture<Object>> waiting = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			waiting.add(limiter.call(() -> {
				sent.incrementAndGet();
				return CompletableFuture.completedFuture(null);
			}));
		}
		for (CompletableFuture<Object> call : waiting) {
			assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
				.cause()
				.isInstanceOf(UnavailableException.class);
		}
		assertThat(Duration.ofNanos(System.nanoTime() - queued)).as("failed at the deadline, not when a place freed")
			.isLessThan(Duration.ofSeconds(2));
		assertThat(limiter.inFlight()).as("only the frozen call holds a place").isEqualTo(1);
		frozen.complete(null);
		assertThat(sent).as("never sent").hasValue(0);
		assertThat(limiter.inFlight()).isZero();
		assertThatThrownBy(() -> limiter.call(() -> CompletableFuture.completedFuture(null)).get(1, TimeUnit.SECONDS))
			.as("a call made after the deadline fails at once, not sent")
			.cause()
			.isInstanceOf(UnavailableException.class);
		assertThat(sent).hasValue(0);
		assertThat(limiter.inFlight()).isZero();
	}

	@Test
	void refusesLessThanOneCallInFlight() {
		assertThatThrownBy(() -> new CallLimiter(0)).isInstanceOf(IllegalArgumentException.class);
	}

}
