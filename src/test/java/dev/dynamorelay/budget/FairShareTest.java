package dev.dynamorelay.budget;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.error.UnavailableException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** All requests' calls sharing DynamoDB: a bounded number in flight, the next place to the request with the fewest started. */
class FairShareTest {

	private final List<String> started = new ArrayList<>();

	private final List<CompletableFuture<String>> answers = new ArrayList<>();

	@Test
	void aRequestOfOneCallGoesBeforeTheQueuedCallsOfAHeavyOne() {
		FairShare fair = new FairShare(2, 100);
		CallLimiter heavy = new CallLimiter(8, fair);
		CallLimiter light = new CallLimiter(8, fair);
		for (int i = 0; i < 6; i++) {
			heavy.call(call("heavy-" + i));
		}
		CompletableFuture<String> page = light.call(call("light"));
		assertThat(this.started).containsExactly("heavy-0", "heavy-1");
		assertThat(fair.inFlight()).isEqualTo(2);

		this.answers.get(0).complete("done");
		assertThat(this.started).as("the light request's only call takes the first free place")
			.containsExactly("heavy-0", "heavy-1", "light");
		this.answers.get(2).complete("page");
		assertThat(page).isCompletedWithValue("page");
		this.answers.get(1).complete("done");
		assertThat(this.started).containsExactly("heavy-0", "heavy-1", "light", "heavy-2", "heavy-3");
		assertThat(fair.inFlight()).isEqualTo(2);
	}

	@Test
	void equalRequestsTakeTurnsInTheOrderTheyAsked() {
		FairShare fair = new FairShare(1, 100);
		CallLimiter a = new CallLimiter(8, fair);
		CallLimiter b = new CallLimiter(8, fair);
		a.call(call("a-0"));
		a.call(call("a-1"));
		b.call(call("b-0"));
		b.call(call("b-1"));
		for (int i = 0; i < 3; i++) {
			this.answers.get(i).complete("done");
		}
		assertThat(this.started).containsExactly("a-0", "b-0", "a-1", "b-1");
		this.answers.get(3).complete("done");
		assertThat(fair.inFlight()).isZero();
	}

	@Test
	void whileCallsWaitARequestPastItsFirstCallReadsInSmallSteps() {
		FairShare fair = new FairShare(1, 100);
		CallLimiter heavy = new CallLimiter(8, fair);
		CallLimiter light = new CallLimiter(8, fair);
		assertThat(heavy.limit(1000)).as("uncontended").isEqualTo(1000);
		heavy.call(call("heavy-0"));
		this.answers.get(0).complete("done");
		heavy.call(call("heavy-1"));
		assertThat(heavy.limit(1000)).as("no call waits").isEqualTo(1000);
		light.call(call("light"));
		assertThat(heavy.limit(1000)).as("a call waits, and this request has started two").isEqualTo(100);
		assertThat(light.limit(1000)).as("a request's first call keeps its Limit").isEqualTo(1000);
		this.answers.get(1).complete("done");
		assertThat(heavy.limit(1000)).isEqualTo(1000);
	}

	@Test
	void aRequestWhoseOwnCallsWaitReadsAsItAsked() {
		FairShare fair = new FairShare(1, 100);
		CallLimiter wide = new CallLimiter(8, fair);
		wide.call(call("wide-0"));
		this.answers.get(0).complete("done");
		wide.call(call("wide-1"));
		wide.call(call("wide-2"));
		wide.call(call("wide-3"));
		assertThat(wide.limit(1000)).as("only its own calls wait").isEqualTo(1000);
		new CallLimiter(8, fair).call(call("other"));
		assertThat(wide.limit(1000)).as("another request's call waits").isEqualTo(100);
	}

	@Test
	void heavyRequestsTogetherHoldAtMostTheirPlacesAndLeaveTheRestToLightOnes() {
		FairShare fair = new FairShare(4, 100, 2, 1);
		CallLimiter heavy = new CallLimiter(8, fair);
		for (int i = 0; i < 5; i++) {
			heavy.call(call("heavy-" + i));
		}
		assertThat(this.started).as("two calls before it is heavy, then one heavy place")
			.containsExactly("heavy-0", "heavy-1", "heavy-2");
		new CallLimiter(8, fair).call(call("light"));
		assertThat(this.started).as("a free place is the light request's at once").endsWith("light");
		assertThat(fair.inFlight()).isEqualTo(4);

		this.answers.get(0).complete("done");
		assertThat(this.started).as("a light place freed: the heavy request still holds its one heavy place")
			.hasSize(4);
		assertThat(fair.inFlight()).isEqualTo(3);
		this.answers.get(2).complete("done");
		assertThat(this.started).as("its heavy place freed").endsWith("heavy-3");
		assertThat(fair.inFlight()).isEqualTo(3);
	}

	@Test
	void theOlderOfTwoHeavyRequestsTakesTheHeavyPlaceFirstThoughItStartedMoreCalls() {
		FairShare fair = new FairShare(10, 100, 1, 1);
		CallLimiter older = new CallLimiter(8, fair);
		older.call(call("older-0"));
		older.call(call("older-1"));
		older.call(call("older-2"));
		CallLimiter younger = new CallLimiter(8, fair);
		younger.call(call("younger-0"));
		younger.call(call("younger-1"));
		assertThat(this.started).as("each request's first call is light; the older one holds the heavy place")
			.containsExactly("older-0", "older-1", "younger-0");

		this.answers.get(1).complete("done");
		assertThat(this.started).as("the heavy place goes to the older request, with 2 calls started against 1")
			.endsWith("older-2");
		this.answers.get(3).complete("done");
		assertThat(this.started).endsWith("younger-1");
		assertThat(fair.inFlight()).isEqualTo(3);
	}

	@Test
	void lightRequestsGoBeforeAHeavyOne() {
		FairShare fair = new FairShare(1, 100, 2, 1);
		CallLimiter heavy = new CallLimiter(8, fair);
		for (int i = 0; i < 4; i++) {
			heavy.call(call("heavy-" + i));
		}
		this.answers.get(0).complete("done");
		assertThat(this.started).as("the heavy request's second call").containsExactly("heavy-0", "heavy-1");
		new CallLimiter(8, fair).call(call("light-a"));
		CallLimiter light = new CallLimiter(8, fair);
		light.call(call("light-b0"));
		light.call(call("light-b1"));

		this.answers.get(1).complete("done");
		this.answers.get(2).complete("done");
		this.answers.get(3).complete("done");
		assertThat(this.started).as("every call of a request that is not heavy yet goes first")
			.containsExactly("heavy-0", "heavy-1", "light-a", "light-b0", "light-b1");
		this.answers.get(4).complete("done");
		assertThat(this.started).endsWith("heavy-2");
	}

	@Test
	void theRequestsOwnCapStillHolds() {
		FairShare fair = new FairShare(10, 100);
		CallLimiter capped = new CallLimiter(2, fair);
		for (int i = 0; i < 5; i++) {
			capped.call(call("c-" + i));
		}
		assertThat(this.started).hasSize(2);
		assertThat(fair.inFlight()).isEqualTo(2);
		this.answers.get(0).complete("done");
		assertThat(this.started).hasSize(3);
	}

	@Test
	void aCallThatFailsBeforeItIsSentGivesItsPlaceOn() {
		FairShare fair = new FairShare(1, 100);
		CallLimiter limiter = new CallLimiter(8, fair);
		CompletableFuture<String> failed = limiter.call(() -> {
			throw new IllegalStateException("not sent");
		});
		assertThat(failed).isCompletedExceptionally();
		limiter.call(call("next"));
		assertThat(this.started).containsExactly("next");
	}

	/**
	 * A request whose calls wait in the shared queue past its deadline: they leave the queue and fail then,
	 * UNAVAILABLE, though no place ever frees; the places they held in their own request's cap are free again,
	 * and the calls of another request queued behind them take the next places.
	 */
	@Test
	void callsWaitingPastTheirRequestsDeadlineLeaveTheQueueAndTheCallsBehindThemGetTheirPlaces() throws Exception {
		FairShare fair = new FairShare(1, 100, 2, 1);
		CallLimiter holder = new CallLimiter(8, fair);
		holder.call(call("holder"));
		CallLimiter late = new ReadStats(Duration.ofMillis(200), 1000, 2, fair).calls();
		List<CompletableFuture<String>> abandoned = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			abandoned.add(late.call(call("late-" + i)));
		}
		CallLimiter next = new CallLimiter(8, fair);
		CompletableFuture<String> behind = next.call(call("behind"));
		long queued = System.nanoTime();
		for (CompletableFuture<String> call : abandoned) {
			assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
				.cause()
				.isInstanceOf(UnavailableException.class);
		}
		assertThat(Duration.ofNanos(System.nanoTime() - queued)).as("failed at the deadline, though no place freed")
			.isLessThan(Duration.ofSeconds(2));
		assertThat(late.inFlight()).as("the request's own places are free again").isZero();
		assertThat(fair.inFlight()).isEqualTo(1);

		this.answers.get(0).complete("done");
		assertThat(this.started).as("never sent; the next request's call takes the freed place")
			.containsExactly("holder", "behind");
		this.answers.get(1).complete("page");
		assertThat(behind).isCompletedWithValue("page");
		assertThat(fair.inFlight()).isZero();
		assertThat(late.inFlight()).isZero();
		// Every place is free: as many calls as there are places start at once.
		CallLimiter after = new CallLimiter(8, fair);
		after.call(call("after"));
		assertThat(this.started).endsWith("after");
	}

	private java.util.function.Supplier<CompletableFuture<String>> call(String name) {
		return () -> {
			this.started.add(name);
			CompletableFuture<String> answer = new CompletableFuture<>();
			this.answers.add(answer);
			return answer;
		};
	}

}
