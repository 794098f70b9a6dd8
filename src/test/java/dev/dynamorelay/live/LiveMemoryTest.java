package dev.dynamorelay.live;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bytes held for live subscribers: a change past a subscription's own bound ends it; past its connection's or
 * the process's, the subscription of that scope with the most waiting is ended to make room; one change always
 * passes where nothing waits; a connection's messages in flight are bounded by its window, and freed as written.
 */
class LiveMemoryTest {

	private final List<String> ended = new ArrayList<>();

	private final List<String> woken = new ArrayList<>();

	@Test
	void aSubscriptionPastItsOwnBoundIsEndedAndOneChangePassesWhereNothingWaits() {
		LiveMemory memory = new LiveMemory(100, 1_000, 10_000);
		SubscriptionBytes account = account(memory.connection(), "a");
		assertThat(account.take(500, false)).as("alone, larger than the bound").isEqualTo(LiveMemory.Take.TAKEN);
		assertThat(account.take(1, false)).isEqualTo(LiveMemory.Take.ENDED);
		assertThat(account.endedAt()).isEqualTo(LiveMemory.Bound.SUBSCRIPTION);
		assertThat(memory.held()).as("its waiting bytes freed").isZero();
		assertThat(account.take(1, false)).as("ended for good").isEqualTo(LiveMemory.Take.ENDED);
	}

	@Test
	void pastItsConnectionsBoundTheConnectionsSubscriptionWithTheMostWaitingIsEnded() {
		LiveMemory memory = new LiveMemory(1_000, 1_000, 100_000);
		LiveMemory.Connection connection = memory.connection();
		SubscriptionBytes large = account(connection, "large");
		SubscriptionBytes small = account(connection, "small");
		SubscriptionBytes elsewhere = account(memory.connection(), "elsewhere");
		large.take(700, false);
		small.take(200, false);
		elsewhere.take(900, false);
		assertThat(small.take(200, false)).isEqualTo(LiveMemory.Take.TAKEN);
		assertThat(this.ended).containsExactly("large");
		assertThat(large.endedAt()).isEqualTo(LiveMemory.Bound.CONNECTION);
		assertThat(connection.held()).isEqualTo(400);
		assertThat(memory.held()).isEqualTo(1_300);
	}

	@Test
	void theSubscriptionThatHoldsTheMostOfTheConnectionEndsItselfRatherThanAnother() {
		LiveMemory memory = new LiveMemory(1_000, 1_000, 100_000);
		LiveMemory.Connection connection = memory.connection();
		SubscriptionBytes large = account(connection, "large");
		SubscriptionBytes small = account(connection, "small");
		large.take(800, false);
		small.take(100, false);
		assertThat(large.take(150, false)).isEqualTo(LiveMemory.Take.ENDED);
		assertThat(this.ended).as("told through its own take, not the callback").isEmpty();
		assertThat(small.take(100, false)).isEqualTo(LiveMemory.Take.TAKEN);
	}

	@Test
	void pastTheProcesssBoundTheProcesssSubscriptionWithTheMostWaitingIsEnded() {
		LiveMemory memory = new LiveMemory(1_000, 1_000, 1_500);
		SubscriptionBytes first = account(memory.connection(), "first");
		SubscriptionBytes second = account(memory.connection(), "second");
		SubscriptionBytes third = account(memory.connection(), "third");
		first.take(900, false);
		second.take(500, false);
		assertThat(third.take(300, false)).isEqualTo(LiveMemory.Take.TAKEN);
		assertThat(this.ended).containsExactly("first");
		assertThat(first.endedAt()).isEqualTo(LiveMemory.Bound.PROCESS);
		assertThat(memory.held()).isEqualTo(800);
		assertThat(memory.peak()).isEqualTo(1_400);
	}

	@Test
	void aResumesChangePausesInsteadOfEndingAnyone() {
		LiveMemory memory = new LiveMemory(1_000, 1_000, 1_000);
		SubscriptionBytes other = account(memory.connection(), "other");
		SubscriptionBytes resuming = account(memory.connection(), "resuming");
		other.take(900, false);
		assertThat(resuming.take(200, true)).isEqualTo(LiveMemory.Take.PAUSE);
		assertThat(this.ended).isEmpty();
		assertThat(resuming.take(100, true)).isEqualTo(LiveMemory.Take.TAKEN);
	}

	@Test
	void aConnectionHasAWindowOfBytesInFlightWhichWritesOpen() {
		LiveMemory memory = new LiveMemory(10 * LiveMemory.SEND_WINDOW, 10 * LiveMemory.SEND_WINDOW,
				10 * LiveMemory.SEND_WINDOW);
		LiveMemory.Connection connection = memory.connection();
		SubscriptionBytes one = account(connection, "one");
		SubscriptionBytes two = account(connection, "two");
		one.take(LiveMemory.SEND_WINDOW, false);
		two.take(10, false);
		assertThat(one.open()).as("nothing in flight").isTrue();
		one.handedOn(LiveMemory.SEND_WINDOW, position(1));
		assertThat(two.open()).as("the window is full").isFalse();
		assertThat(memory.held()).as("in flight, still held").isEqualTo(LiveMemory.SEND_WINDOW + 10);
		connection.written("one");
		assertThat(this.woken).containsExactly("two");
		assertThat(one.lastWritten()).isEqualTo(position(1));
		assertThat(memory.held()).isEqualTo(10);
		assertThat(two.open()).isTrue();
	}

	@Test
	void aMessageIsCountedBySizeOnceSerializedAndUntilWrittenOrDropped() {
		LiveMemory memory = LiveMemory.unbounded();
		LiveMemory.Connection connection = memory.connection();
		SubscriptionBytes account = account(connection, "a");
		account.take(100, false);
		account.take(100, false);
		account.handedOn(100, position(1));
		account.handedOn(100, position(2));
		connection.measured("a", 1_000);
		assertThat(memory.held()).as("the first serialized under many aliases").isEqualTo(1_100);
		account.finish();
		assertThat(memory.held()).as("in flight until written").isEqualTo(1_100);
		connection.written("a");
		assertThat(memory.held()).isEqualTo(100);
		account.dropped();
		assertThat(memory.held()).as("dropped by the transport").isZero();
		connection.written("a");
		assertThat(memory.held()).isZero();
	}

	@Test
	void aClosedConnectionFreesAllItsSubscriptionsHold() {
		LiveMemory memory = LiveMemory.unbounded();
		LiveMemory.Connection connection = memory.connection();
		SubscriptionBytes account = account(connection, "a");
		account.take(300, false);
		account.handedOn(100, position(1));
		connection.close();
		assertThat(memory.held()).isZero();
		assertThat(account(connection, "late").take(1, false)).isEqualTo(LiveMemory.Take.ENDED);
	}

	@Test
	void aDetachedConnectionCountsWhatIsHandedOnAsWritten() {
		LiveMemory memory = LiveMemory.unbounded();
		SubscriptionBytes account = account(memory.detached(), "a");
		account.take(100, false);
		account.handedOn(100, position(7));
		assertThat(memory.held()).isZero();
		assertThat(account.lastWritten()).isEqualTo(position(7));
		assertThat(account.open()).isTrue();
	}

	private SubscriptionBytes account(LiveMemory.Connection connection, String id) {
		return connection.account(id, () -> this.woken.add(id), (bound) -> this.ended.add(id));
	}

	private static StreamPosition position(long sequence) {
		return new StreamPosition("shard", BigInteger.valueOf(sequence));
	}

}
