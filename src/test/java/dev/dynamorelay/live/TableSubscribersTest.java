package dev.dynamorelay.live;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Filter;
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
 * The routing of a table's records to its subscribers: subscribers of equal queries share one judging of each
 * record and are handed the same change; subscribers whose queries differ, if only in their owner filters, are
 * judged each on their own.
 */
class TableSubscribersTest {

	private static final Table TABLE = new Table("Orders", "Orders", KeyAttribute.string("storeId"),
			Optional.of(KeyAttribute.number("placedAt")), Map.of(), Optional.empty(), new Location("test", 1));

	private static final Entity ORDER = new Entity("Order", TABLE, KeyTemplate.of("storeId"),
			Optional.of(KeyTemplate.of("placedAt")), Optional.empty(), Map.of(), true, new Location("test", 1));

	/** How many times an image was made into a node: once for each judging of an insert that is in the connection. */
	private final AtomicInteger mapped = new AtomicInteger();

	private final ConnectionDefinition<Item> orders = ConnectionDefinition.query("Store.orders", "Orders",
			Optional.empty(), false, KeyAttribute.string("storeId"), Optional.of(KeyAttribute.number("placedAt")),
			List.of(KeyAttribute.string("storeId"), KeyAttribute.number("placedAt")), false, (item) -> {
				this.mapped.incrementAndGet();
				return new Item(ORDER, item);
			});

	private final Paginator paginator = new Paginator(DynamoDbAsyncClient.builder().region(Region.US_EAST_1).build(),
			new CursorCodec("secret", List.of()), new PageSizes(20, 100),
			new ReadBudgets(1000, 10000, 12000, java.time.Duration.ofSeconds(5)));

	private final TableSubscribers subscribers = new TableSubscribers();

	@Test
	void equalQueriesAreJudgedOnceAndHandedTheSameChange() {
		List<List<Change>> received = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			received.add(subscribe(query(Optional.empty())));
		}
		this.subscribers.accept(inserted(1, "owner-a"));
		assertThat(this.mapped).as("one judging for 20 subscribers of one query").hasValue(1);
		for (List<Change> changes : received) {
			assertThat(changes).hasSize(1);
			assertThat(changes.get(0)).as("the very change the first was handed").isSameAs(received.get(0).get(0));
		}
		this.subscribers.accept(inserted(2, "owner-b"));
		assertThat(this.mapped).as("one more judging for the next record").hasValue(2);
		assertThat(received).allSatisfy((changes) -> assertThat(changes).hasSize(2));
	}

	@Test
	void subscribersOfTwoOwnersOnOneConnectionAreNotJudgedTogether() {
		List<Change> a = subscribe(query(Optional.of("owner-a")));
		List<Change> alsoA = subscribe(query(Optional.of("owner-a")));
		List<Change> b = subscribe(query(Optional.of("owner-b")));
		this.subscribers.accept(inserted(1, "owner-a"));
		assertThat(a).extracting(Change::kind).containsExactly(Change.Kind.ADDED);
		assertThat(alsoA).containsExactlyElementsOf(a);
		assertThat(b).as("owner-b's subscriber learns nothing of owner-a's order").isEmpty();
		// owner-a's query judged it once for both its subscribers; owner-b's, on its own, found it out of its filter.
		assertThat(this.mapped).hasValue(1);
		this.subscribers.accept(inserted(2, "owner-b"));
		assertThat(b).extracting(Change::kind).containsExactly(Change.Kind.ADDED);
		assertThat(a).hasSize(1);
	}

	/** The orders of store-1, of {@code owner} only when given (as the owner rule's filter joins the query's). */
	private LiveQuery query(Optional<String> owner) {
		List<Filter> filters = owner.map((id) -> List.of(new Filter("ownerId", Filter.Op.EQ, List.of(AttributeValue.fromS(id)))))
			.orElse(List.of());
		return new LiveQuery("Subscription.orderChanges", this.orders,
				ConnectionQuery.partition(AttributeValue.fromS("store-1"), SortOrder.ASC).withFilters(filters));
	}

	/** A subscriber of {@code query} that asks for every change; what it received. */
	private List<Change> subscribe(LiveQuery query) {
		LiveSubscriber subscriber = new LiveSubscriber(query, this.paginator, LiveMeters.NONE, 8,
				new LiveMemory.Outlet(LiveMemory.unbounded().connection(), "1"), Map.of("shard", BigInteger.ZERO),
				Optional.empty());
		List<Change> received = new ArrayList<>();
		Flux.<Change>create(subscriber::attach).subscribe(received::add);
		this.subscribers.add(subscriber);
		return received;
	}

	private static ChangeRecord inserted(long placedAt, String owner) {
		Map<String, AttributeValue> item = Map.of("storeId", AttributeValue.fromS("store-1"), "placedAt",
				AttributeValue.fromN(Long.toString(placedAt)), "ownerId", AttributeValue.fromS(owner));
		return new ChangeRecord("shard", BigInteger.valueOf(placedAt), Optional.empty(), Optional.of(item),
				Instant.now());
	}

}
