package dev.dynamorelay.live;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.error.BusyException;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyTemplate;
import dev.dynamorelay.model.SortOrder;
import dev.dynamorelay.model.Table;
import dev.dynamorelay.pagination.ConnectionQuery;
import dev.dynamorelay.pagination.CursorCodec;
import dev.dynamorelay.pagination.PageSizes;
import dev.dynamorelay.pagination.Paginator;
import dev.dynamorelay.pagination.ReadBudgets;
import dev.dynamorelay.schema.Location;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One subscriber of a live connection: the records of its partition become its changes, handed over as it asks
 * for them; one that asks for nothing while more changes come than its buffer holds is dropped with UNAVAILABLE.
 */
class LiveSubscriberTest {

	private static final Table TABLE = new Table("UserPurchases", "UserPurchases", KeyAttribute.string("userId"),
			Optional.of(KeyAttribute.number("purchasedAt")), Map.of(), Optional.empty(), new Location("test", 1));

	private static final Entity PURCHASE = new Entity("Purchase", TABLE, KeyTemplate.of("userId"),
			Optional.of(KeyTemplate.of("purchasedAt")), Optional.empty(), Map.of(), true, new Location("test", 1));

	private static final ConnectionDefinition<Item> PURCHASES = ConnectionDefinition.query("User.purchases",
			"UserPurchases", Optional.empty(), false, KeyAttribute.string("userId"),
			Optional.of(KeyAttribute.number("purchasedAt")),
			List.of(KeyAttribute.string("userId"), KeyAttribute.number("purchasedAt")), false,
			(item) -> new Item(PURCHASE, item));

	private final Paginator paginator = new Paginator(DynamoDbAsyncClient.builder().region(Region.US_EAST_1).build(),
			new CursorCodec("secret", List.of()), new PageSizes(20, 100),
			new ReadBudgets(1000, 10000, 12000, java.time.Duration.ofSeconds(5)));

	private final LiveQuery query = new LiveQuery("Subscription.purchaseChanges", PURCHASES,
			ConnectionQuery.partition(AttributeValue.fromS("user-1"), SortOrder.ASC));

	@Test
	void changesWaitUntilAskedForAndComeInOrder() {
		LiveSubscriber subscriber = subscriber(8, LiveMemory.unbounded());
		Recorder recorder = new Recorder(0);
		Flux.<Change>create(subscriber::attach).subscribe(recorder);
		subscriber.offer(inserted("user-1", 1, 1));
		subscriber.offer(inserted("user-1", 2, 2));
		subscriber.offer(inserted("user-2", 3, 3));
		assertThat(recorder.received).isEmpty();
		recorder.more(5);
		assertThat(recorder.received).extracting(Change::kind).containsExactly(Change.Kind.ADDED, Change.Kind.ADDED);
		assertThat(recorder.received).extracting((change) -> change.position().sequenceNumber().longValue())
			.containsExactly(1L, 2L);
	}

	@Test
	void aSubscriberThatFallsTooFarBehindIsDroppedWithUnavailable() {
		LiveSubscriber subscriber = subscriber(2, LiveMemory.unbounded());
		Recorder recorder = new Recorder(0);
		Flux.<Change>create(subscriber::attach).subscribe(recorder);
		for (int i = 1; i <= 3; i++) {
			subscriber.offer(inserted("user-1", i, i));
		}
		assertThat(recorder.failure.get()).isInstanceOfSatisfying(BusyException.class, (busy) -> assertThat(busy.code()).isEqualTo(ErrorCode.UNAVAILABLE))
			.hasMessageContaining("fell 2 changes behind")
			.hasMessageContaining("after");
		subscriber.offer(inserted("user-1", 9, 9));
		assertThat(recorder.received).isEmpty();
	}

	@Test
	void aSubscriberPastItsBytesIsEndedWithWhereToResume() {
		LiveMemory memory = new LiveMemory(1_000, 10_000, 100_000);
		LiveSubscriber subscriber = new LiveSubscriber(this.query, this.paginator, LiveMeters.NONE, 100,
				new LiveMemory.Outlet(memory.connection(), "1"), Map.of("shard", BigInteger.valueOf(41)), Optional.empty());
		Recorder recorder = new Recorder(0);
		Flux.<Change>create(subscriber::attach).subscribe(recorder);
		subscriber.offer(inserted("user-1", 1, 42, "x".repeat(600)));
		assertThat(memory.held()).as("its item and overhead").isGreaterThan(600);
		subscriber.offer(inserted("user-1", 2, 43, "x".repeat(600)));
		assertThat(recorder.failure.get()).isInstanceOfSatisfying(FellBehindException.class, (behind) -> {
			assertThat(behind.code()).isEqualTo(ErrorCode.UNAVAILABLE);
			// Nothing was written: it resumes where the live reader stood when it subscribed, before its first change.
			assertThat(behind.extensions()).containsEntry(FellBehindException.AFTER,
					new StreamPosition("shard", BigInteger.valueOf(41)).eventId());
		}).hasMessageContaining("max-pending-bytes-per-subscription");
		assertThat(memory.held()).as("its waiting bytes freed").isZero();
	}

	@Test
	void aWrittenChangeIsWhereAnEndedSubscriberResumes() {
		LiveMemory memory = new LiveMemory(1_000, 10_000, 100_000);
		LiveMemory.Connection connection = memory.connection();
		LiveSubscriber subscriber = new LiveSubscriber(this.query, this.paginator, LiveMeters.NONE, 100,
				new LiveMemory.Outlet(connection, "1"), Map.of("shard", BigInteger.valueOf(41)), Optional.empty());
		Recorder recorder = new Recorder(1);
		Flux.<Change>create(subscriber::attach).subscribe(recorder);
		subscriber.offer(inserted("user-1", 1, 42, "x".repeat(600)));
		assertThat(recorder.received).hasSize(1);
		connection.written("1");
		subscriber.offer(inserted("user-1", 2, 43, "x".repeat(600)));
		subscriber.offer(inserted("user-1", 3, 44, "x".repeat(600)));
		assertThat(recorder.failure.get()).isInstanceOfSatisfying(FellBehindException.class,
				(behind) -> assertThat(behind.extensions()).containsEntry(FellBehindException.AFTER,
						new StreamPosition("shard", BigInteger.valueOf(42)).eventId()));
	}

	private LiveSubscriber subscriber(int buffer, LiveMemory memory) {
		return new LiveSubscriber(this.query, this.paginator, LiveMeters.NONE, buffer,
				new LiveMemory.Outlet(memory.connection(), "1"), Map.of("shard", BigInteger.ZERO), Optional.empty());
	}

	private static ChangeRecord inserted(String userId, long purchasedAt, long sequence) {
		return inserted(userId, purchasedAt, sequence, "p");
	}

	private static ChangeRecord inserted(String userId, long purchasedAt, long sequence, String product) {
		Map<String, AttributeValue> item = Map.of("userId", AttributeValue.fromS(userId), "purchasedAt",
				AttributeValue.fromN(Long.toString(purchasedAt)), "product", AttributeValue.fromS(product));
		return new ChangeRecord("shard", BigInteger.valueOf(sequence), Optional.empty(), Optional.of(item), Instant.now());
	}

	/** A subscriber that asks for {@code initial} changes, then as many as a test says. */
	private static final class Recorder extends BaseSubscriber<Change> {

		private final long initial;

		private final List<Change> received = new ArrayList<>();

		private final AtomicReference<Throwable> failure = new AtomicReference<>();

		Recorder(long initial) {
			this.initial = initial;
		}

		@Override
		protected void hookOnSubscribe(Subscription subscription) {
			if (this.initial > 0) {
				request(this.initial);
			}
		}

		@Override
		protected void hookOnNext(Change change) {
			this.received.add(change);
		}

		@Override
		protected void hookOnError(Throwable throwable) {
			this.failure.set(throwable);
		}

		void more(long n) {
			request(n);
		}

	}

}
