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

/**
 * All requests' calls sharing DynamoDB: a bounded number in flight, the next place to the request with the fewest
 * started, unless a request has gone an aging period without a call starting: then its call goes first.
 *
 * <p>Time is the test's own clock ({@link #now}), which stands still unless a test moves it: the tests of the
 * order by calls started see no request age, however slowly they run.
 */
class FairShareTest {

	private static final Duration AGING = Duration.ofMillis(20);

	/** What a call takes in the tests that move the clock. */
	private static final Duration CALL = Duration.ofMillis(5);

	private final List<String> started = new ArrayList<>();

	private final List<CompletableFuture<String>> answers = new ArrayList<>();

	/** The clock FairShare reads, in nanoseconds. */
	private long now = 1_000_000_000L;

	@Test
	void aRequestOfOneCallGoesBeforeTheQueuedCallsOfAHeavyOne() {
		FairShare fair = fair(2, 100, Integer.MAX_VALUE, 2);
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
		FairShare fair = fair(1, 100, Integer.MAX_VALUE, 1);
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
		FairShare fair = fair(1, 100, Integer.MAX_VALUE, 1);
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
		assertThat(heavy.limit(101)).as("a page of 100 and the item that tells whether more follow: not split for "
				+ "one item").isEqualTo(101);
		assertThat(heavy.limit(102)).isEqualTo(100);
		this.answers.get(1).complete("done");
		assertThat(heavy.limit(1000)).isEqualTo(1000);
	}

	@Test
	void aRequestWhoseOwnCallsWaitReadsAsItAsked() {
		FairShare fair = fair(1, 100, Integer.MAX_VALUE, 1);
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
		FairShare fair = fair(4, 100, 2, 1);
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
		FairShare fair = fair(10, 100, 1, 1);
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
		FairShare fair = fair(1, 100, 2, 1);
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
		FairShare fair = fair(10, 100, Integer.MAX_VALUE, 10);
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
		FairShare fair = fair(1, 100, Integer.MAX_VALUE, 1);
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
		FairShare fair = fair(1, 100, 2, 1);
		CallLimiter holder = new CallLimiter(8, fair);
		holder.call(call("holder"));
		CallLimiter late = new RequestBudget(Duration.ofMillis(200), 1000, 2, fair).calls();
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

	/**
	 * A request of ten calls, one after another (each waits for the one before, as a page's reads do), beside a
	 * steady stream of one-call requests: three wait from the start, and another comes each time one is answered,
	 * as connections of one-page requests keep sending. Each has started fewer calls than it, but once it has gone
	 * the aging period (20 ms, four answers here) without a call starting, its next call goes first; so it starts
	 * a call at least every few answers, and finishes.
	 */
	@Test
	void aRequestOfSeveralCallsBesideASteadyStreamOfOneCallRequestsFinishesWithinABoundedNumberOfGrants() {
		FairShare fair = fair(2, 100, Integer.MAX_VALUE, 2);
		CallLimiter several = new CallLimiter(1, fair);
		List<CompletableFuture<String>> calls = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			calls.add(several.call(call("several-" + i)));
		}
		int grants = steadyStream(fair, 3, () -> calls.stream().allMatch(CompletableFuture::isDone), 1_000);
		assertThat(calls).as("all ten calls answered").allSatisfy((call) -> assertThat(call).isCompletedWithValue("done"));
		// A call an aging period: 20 ms, four answers here (it is answered two answers after it starts, and due
		// two answers later, before the one-call requests that came since its last call): 40 places for ten
		// calls (today's order gave it none past its first in 1,000). The bound leaves an answer a call more.
		assertThat(grants).as("places given until its last call was answered").isLessThanOrEqualTo(10 * 5);
	}

	/**
	 * The same beside more one-call requests than the places serve within the aging period: ten wait, each for
	 * five answers (25 ms), so every one of them is due as well when its turn comes. Of due calls the older
	 * request's goes first, the nearer its deadline: the request of several calls still starts one every period,
	 * where taking turns with the ten would give it one call every eleven answers.
	 */
	@Test
	void itStillStartsACallEveryAgingPeriodWhenTheOneCallRequestsWaitLongerThanThatToo() {
		FairShare fair = fair(2, 100, Integer.MAX_VALUE, 2);
		CallLimiter several = new CallLimiter(1, fair);
		List<CompletableFuture<String>> calls = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			calls.add(several.call(call("several-" + i)));
		}
		int grants = steadyStream(fair, 10, () -> calls.stream().allMatch(CompletableFuture::isDone), 1_000);
		assertThat(calls).allSatisfy((call) -> assertThat(call).isCompletedWithValue("done"));
		assertThat(grants).as("places given until its last call was answered").isLessThanOrEqualTo(10 * 5);
	}

	/**
	 * A request past {@code heavy-after} calls beside a steady stream of one-call requests, six of them waiting
	 * from the start (more than the three places): light requests' calls go before a heavy request's, but not
	 * once it has gone the aging period without a call starting; it still holds at most its one heavy place.
	 */
	@Test
	void aHeavyRequestBesideASteadyStreamOfLightRequestsStillProgresses() {
		FairShare fair = fair(3, 100, 2, 1);
		CallLimiter heavy = new CallLimiter(8, fair);
		List<CompletableFuture<String>> calls = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			calls.add(heavy.call(call("heavy-" + i)));
		}
		int[] mostInFlight = new int[1];
		int grants = steadyStream(fair, 6, () -> {
			mostInFlight[0] = Math.max(mostInFlight[0], heavyInFlight(2));
			return calls.stream().allMatch(CompletableFuture::isDone);
		}, 1_000);
		assertThat(calls).allSatisfy((call) -> assertThat(call).isCompletedWithValue("done"));
		assertThat(mostInFlight[0]).as("its calls in flight past its first two: its one heavy place").isEqualTo(1);
		// Its two light calls and its first heavy one at once, then a heavy call an aging period (four answers):
		// 42 places in all. The bound leaves an answer a call more.
		assertThat(grants).as("places given until its last call was answered").isLessThanOrEqualTo(12 * 5);
	}

	/**
	 * A request that has gone long without a place is given one call ahead of the others, not all it missed:
	 * the next aging period starts with that call, and meanwhile the order by calls started holds again. What
	 * waiting earns is a floor, one call per period, never a share above the others'.
	 */
	@Test
	void aRequestThatWaitedLongGoesFirstWithOneCallAndThenWaitsItsTurnAgain() {
		FairShare fair = fair(1, 100, Integer.MAX_VALUE, 1);
		CallLimiter holder = new CallLimiter(8, fair);
		holder.call(call("holder"));
		CallLimiter wide = new CallLimiter(8, fair);
		wide.call(call("wide-0"));
		this.answers.get(0).complete("done");
		for (int i = 1; i < 6; i++) {
			wide.call(call("wide-" + i));
		}
		for (int i = 0; i < 3; i++) {
			new CallLimiter(8, fair).call(call("page-" + i));
		}
		this.now += AGING.multipliedBy(50).toNanos();
		for (int i = 3; i < 6; i++) {
			new CallLimiter(8, fair).call(call("page-" + i));
		}
		for (int i = 1; i < 6; i++) {
			this.answers.get(i).complete("done");
		}
		assertThat(this.started).as("after a second without a place, one wide call goes first; then the pages': the "
				+ "first three are due too, and the wide request's next period has begun")
			.containsExactly("holder", "wide-0", "wide-1", "page-0", "page-1", "page-2", "page-3");
	}

	/**
	 * Of requests that have both gone the aging period without a call starting, the older goes first, whatever
	 * calls each has started: it is the nearer its deadline.
	 */
	@Test
	void ofRequestsPastTheAgingPeriodTheOlderGoesFirstWhateverTheyStarted() {
		FairShare fair = fair(1, 100, Integer.MAX_VALUE, 1);
		CallLimiter older = new CallLimiter(8, fair);
		older.call(call("older-0"));
		this.answers.get(0).complete("done");
		older.call(call("older-1"));
		older.call(call("older-2"));
		this.now += CALL.toNanos();
		CallLimiter younger = new CallLimiter(8, fair);
		younger.call(call("younger-0"));
		this.now += AGING.toNanos();
		this.answers.get(1).complete("done");
		assertThat(this.started).as("both are due: the older request's call, though it has started two")
			.containsExactly("older-0", "older-1", "older-2");
		older.call(call("older-3"));
		this.answers.get(2).complete("done");
		assertThat(this.started).as("the older request's next period has begun: the younger one's call")
			.endsWith("younger-0");
	}

	@Test
	void theAgingPeriodMustBePositive() {
		assertThatThrownBy(() -> new FairShare(1, 100, 1, 1, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("aging");
	}

	/**
	 * Runs a steady stream of one-call requests beside what the test made, as connections of one-page requests
	 * send them: {@code waitingPages} one-call requests waiting from the start, each place answered in the order
	 * it was given, {@link #CALL} apart, and a new one-call request each time one is answered. Returns the places
	 * given (calls started) until {@code done} holds.
	 */
	private int steadyStream(FairShare fair, int waitingPages, java.util.function.BooleanSupplier done, int most) {
		int pages = 0;
		for (; pages < waitingPages; pages++) {
			new CallLimiter(8, fair).call(call("page-" + pages));
		}
		int answered = 0;
		while (!done.getAsBoolean()) {
			assertThat(this.started.size()).as("places given, and it has not finished: %s",
					this.started.stream().filter((name) -> !name.startsWith("page-")).toList())
				.isLessThan(most);
			this.now += CALL.toNanos();
			this.answers.get(answered).complete("done");
			if (this.started.get(answered++).startsWith("page-")) {
				new CallLimiter(8, fair).call(call("page-" + pages++));
			}
		}
		return this.started.size();
	}

	/** The calls of the request named {@code heavy} in flight past its first {@code light} started. */
	private int heavyInFlight(int light) {
		int inFlight = 0;
		int seen = 0;
		for (int i = 0; i < this.started.size(); i++) {
			if (this.started.get(i).startsWith("heavy-") && seen++ >= light && !this.answers.get(i).isDone()) {
				inFlight++;
			}
		}
		return inFlight;
	}

	private FairShare fair(int maxInFlight, int quantum, int heavyAfter, int maxHeavyInFlight) {
		return new FairShare(maxInFlight, quantum, heavyAfter, maxHeavyInFlight, AGING, () -> this.now);
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
