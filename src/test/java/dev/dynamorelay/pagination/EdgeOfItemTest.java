package dev.dynamorelay.pagination;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.model.AttributeValues;
import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyCondition;
import dev.dynamorelay.model.SortOrder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An item's edge in a connection, told in memory: present exactly when a read of the connection would
 * return the item, with the cursor a page gives it (so that reading on continues right behind it).
 */
class EdgeOfItemTest {

	private static final ConnectionDefinition<Map<String, AttributeValue>> PURCHASES = ConnectionDefinition.query(
			"User.purchases", "UserPurchases", Optional.empty(), false, KeyAttribute.string("userId"),
			Optional.of(KeyAttribute.number("purchasedAt")),
			List.of(KeyAttribute.string("userId"), KeyAttribute.number("purchasedAt")), false,
			(item) -> item.containsKey("product") ? item : null);

	private static final ConnectionDefinition<Map<String, AttributeValue>> BY_CATEGORY = ConnectionDefinition.query(
			"Query.purchasesByCategory", "UserPurchases", Optional.of("ByCategory"), true,
			KeyAttribute.string("category"), Optional.of(KeyAttribute.number("purchasedAt")),
			List.of(KeyAttribute.string("category"), KeyAttribute.number("purchasedAt"), KeyAttribute.string("userId")),
			false, (item) -> item);

	private static final Map<String, AttributeValue> ITEM = Map.of("userId", AttributeValue.fromS("user-07"),
			"purchasedAt", AttributeValue.fromN("1735722000000"), "product", AttributeValue.fromS("Book"), "amount",
			AttributeValue.fromN("12.50"), "category", AttributeValue.fromS("books"));

	private final CursorCodec cursors = new CursorCodec("secret", List.of());

	private final Paginator paginator = new Paginator(DynamoDbAsyncClient.builder().region(software.amazon.awssdk.regions.Region.US_EAST_1).build(),
			this.cursors, new PageSizes(20, 100), new ReadBudgets(1000, 10000, 12000, java.time.Duration.ofSeconds(5)));

	private static ConnectionQuery user(String userId) {
		return ConnectionQuery.partition(AttributeValue.fromS(userId), SortOrder.ASC);
	}

	@Test
	void anItemOfThePartitionIsAnEdgeWhoseCursorIsThePagesCursor() {
		Edge<Map<String, AttributeValue>> edge = this.paginator.edge(PURCHASES, user("user-07"), ITEM).orElseThrow();
		assertThat(edge.node()).isEqualTo(ITEM);
		CursorBinding binding = CursorBinding.of(PURCHASES, user("user-07"));
		assertThat(edge.cursor()).isEqualTo(this.cursors.encode(binding, ITEM));
		assertThat(this.cursors.decode(binding, edge.cursor()).key())
			.containsEntry("purchasedAt", AttributeValue.fromN("1735722000000"));
	}

	@Test
	void anItemOfAnotherPartitionIsNoEdge() {
		assertThat(this.paginator.edge(PURCHASES, user("user-08"), ITEM)).isEmpty();
	}

	@Test
	void filtersAndKeyConditionsDecideAsDynamoDbDoes() {
		ConnectionQuery query = user("user-07");
		assertThat(edge(query.withFilters(List.of(filter("amount", Filter.Op.GE, AttributeValue.fromN("12.5")))))).isTrue();
		assertThat(edge(query.withFilters(List.of(filter("amount", Filter.Op.GE, AttributeValue.fromN("12.51")))))).isFalse();
		assertThat(edge(query.withFilters(List.of(filter("amount", Filter.Op.GE, AttributeValue.fromS("12")))))).isFalse();
		assertThat(edge(query.withFilters(List.of(filter("rating", Filter.Op.LT, AttributeValue.fromN("3")))))).isFalse();
		assertThat(edge(query.withFilters(List.of(new Filter("rating", Filter.Op.NOT_EXISTS, List.of()))))).isTrue();
		assertThat(edge(query.withFilters(List.of(new Filter("category", Filter.Op.IN,
				List.of(AttributeValue.fromS("music"), AttributeValue.fromS("books"))))))).isTrue();
		assertThat(edge(query.withFilters(List.of(filter("product", Filter.Op.CONTAINS, AttributeValue.fromS("oo")))))).isTrue();
		assertThat(edge(query.withFilters(List.of(filter("product", Filter.Op.NE, AttributeValue.fromS("Book")))))).isFalse();
		assertThat(edge(query.withSortCondition(Optional.of(KeyCondition.between(AttributeValue.fromN("1735722000000"),
				AttributeValue.fromN("1735722000001")))))).isTrue();
		assertThat(edge(query.withSortCondition(Optional.of(KeyCondition.of(KeyCondition.Op.GT,
				AttributeValue.fromN("1735722000000")))))).isFalse();
	}

	@Test
	void anItemWithoutTheIndexKeysIsNotInTheSparseIndex() {
		Map<String, AttributeValue> uncategorized = new java.util.HashMap<>(ITEM);
		uncategorized.remove("category");
		ConnectionQuery books = ConnectionQuery.partition(AttributeValue.fromS("books"), SortOrder.ASC);
		assertThat(this.paginator.edge(BY_CATEGORY, books, ITEM)).isPresent();
		assertThat(this.paginator.edge(BY_CATEGORY, books, uncategorized)).isEmpty();
	}

	@Test
	void anItemTheConnectionDoesNotServeIsNoEdge() {
		Map<String, AttributeValue> other = new java.util.HashMap<>(ITEM);
		other.remove("product");
		assertThat(this.paginator.edge(PURCHASES, user("user-07"), other)).isEmpty();
	}

	@Test
	void valuesCompareAsDynamoDbComparesThem() {
		assertThat(AttributeValues.equal(AttributeValue.fromN("10"), AttributeValue.fromN("10.0"))).isTrue();
		assertThat(AttributeValues.equal(AttributeValue.fromN("10"), AttributeValue.fromS("10"))).isFalse();
		// UTF-8 byte order, not UTF-16: U+FFFD sorts before U+1F600 (a surrogate pair in Java).
		assertThat(AttributeValues.compare(AttributeValue.fromS("\uFFFD"), AttributeValue.fromS("\uD83D\uDE00")).get())
			.isNegative();
		assertThat(AttributeValues.compare(AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { (byte) 0x80 })),
				AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { 0x7f }))).get()).isPositive();
		assertThat(AttributeValues.equal(AttributeValue.fromSs(List.of("a", "b")), AttributeValue.fromSs(List.of("b", "a"))))
			.isTrue();
		assertThat(AttributeValues.contains(AttributeValue.fromNs(List.of("1", "2.0")), AttributeValue.fromN("2"))).isTrue();
		assertThat(AttributeValues.compare(AttributeValue.fromBool(true), AttributeValue.fromBool(true))).isEmpty();
	}

	private boolean edge(ConnectionQuery query) {
		return this.paginator.edge(PURCHASES, query, ITEM).isPresent();
	}

	private static Filter filter(String attribute, Filter.Op op, AttributeValue value) {
		return new Filter(attribute, op, List.of(value));
	}

}
