package dev.dynamorelay.write;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyTemplate;
import dev.dynamorelay.model.Table;
import dev.dynamorelay.model.ValueType;
import dev.dynamorelay.schema.Location;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * How a write composes the key attributes of a sparse index whose {@code @indexKey} has a {@code when}: an order
 * is in {@code OpenOrders} ({@code OPEN#{customerId}} / {@code {placedAt}}) only while its status is open or
 * pending. A create stores the keys only for an item that belongs; an update SETs them when the item enters or
 * stays (its key changing), REMOVEs them when it leaves, and leaves them alone when it touches none of the
 * index's fields; without {@code when}, every item whose templates fill is in the index.
 */
class SparseIndexCompositionTest {

	private static final Location AT = new Location("test", 1);

	private static final Table.Index OPEN_ORDERS = new Table.Index("OpenOrders", true, KeyAttribute.string("GSI1PK"),
			Optional.of(KeyAttribute.string("GSI1SK")), AT);

	private static final Table TABLE = new Table("Sales", "Sales", KeyAttribute.string("PK"),
			Optional.of(KeyAttribute.string("SK")), Map.of("OpenOrders", OPEN_ORDERS), Optional.empty(), AT);

	private static final Entity.Membership OPEN = new Entity.Membership("status",
			Optional.of(List.of(AttributeValue.fromS("open"), AttributeValue.fromS("pending"))), Optional.empty(),
			Optional.empty());

	private static final Entity ORDER = order(List.of(OPEN));

	private static final Entity ORDER_WITHOUT_WHEN = order(List.of());

	private static Entity order(List<Entity.Membership> when) {
		Map<String, AttributeField> fields = new HashMap<>();
		for (String name : List.of("customerId", "orderId", "placedAt", "status", "note")) {
			fields.put(name, new AttributeField(name, name, new ValueType.Text()));
		}
		return new Entity("Order", TABLE, KeyTemplate.parse("CUSTOMER#{customerId}"),
				Optional.of(KeyTemplate.parse("ORDER#{orderId}")), Optional.empty(), fields, true, AT, Optional.empty(),
				Map.of("OpenOrders", new Entity.IndexKey(OPEN_ORDERS, Optional.of(KeyTemplate.parse("OPEN#{customerId}")),
						Optional.of(KeyTemplate.parse("{placedAt}")), when)));
	}

	private static Map<String, AttributeValue> values(String status) {
		Map<String, AttributeValue> values = new HashMap<>(Map.of("customerId", AttributeValue.fromS("c1"), "orderId",
				AttributeValue.fromS("o1"), "placedAt", AttributeValue.fromS("2025-01-01T09:00:00.000Z")));
		if (status != null) {
			values.put("status", AttributeValue.fromS(status));
		}
		return values;
	}

	@Test
	void aCreateOfAnItemThatBelongsStoresTheIndexKeys() {
		Map<String, AttributeValue> item = ItemComposer.item(ORDER, values("pending"), "input");
		assertThat(item).containsEntry("GSI1PK", AttributeValue.fromS("OPEN#c1"))
			.containsEntry("GSI1SK", AttributeValue.fromS("2025-01-01T09:00:00.000Z"));
	}

	@Test
	void aCreateOfAnItemThatDoesNotBelongStoresNoIndexKey() {
		assertThat(ItemComposer.item(ORDER, values("shipped"), "input")).doesNotContainKeys("GSI1PK", "GSI1SK")
			.containsEntry("status", AttributeValue.fromS("shipped"));
		assertThat(ItemComposer.item(ORDER, values(null), "input")).doesNotContainKeys("GSI1PK", "GSI1SK");
	}

	@Test
	void withoutWhenEveryItemWhoseTemplatesFillIsInTheIndex() {
		assertThat(ItemComposer.item(ORDER_WITHOUT_WHEN, values("shipped"), "input")).containsEntry("GSI1PK",
				AttributeValue.fromS("OPEN#c1"));
		Map<String, AttributeValue> noPlacedAt = values("open");
		noPlacedAt.remove("placedAt");
		assertThat(ItemComposer.item(ORDER_WITHOUT_WHEN, noPlacedAt, "input")).doesNotContainKeys("GSI1PK", "GSI1SK");
	}

	@Test
	void anUpdateThatTakesTheItemOutOfTheIndexRemovesItsKeysWithoutReadingAnything() {
		Map<String, AttributeValue> known = keyAnd("status", "shipped");
		assertThat(ItemComposer.unknownPlaceholders(ORDER, Set.of("status"), Set.of(), known)).isEmpty();
		Expressions expressions = recompose(Set.of("status"), Set.of(), known);
		assertThat(expressions.update()).hasValue("REMOVE #a0, #a1");
		assertThat(expressions.names()).containsValues("GSI1PK", "GSI1SK");
	}

	@Test
	void anUpdateThatClearsTheWhenFieldRemovesTheKeys() {
		Map<String, AttributeValue> known = keyAnd(null, null);
		assertThat(ItemComposer.unknownPlaceholders(ORDER, Set.of(), Set.of("status"), known)).isEmpty();
		assertThat(recompose(Set.of(), Set.of("status"), known).update()).hasValue("REMOVE #a0, #a1");
	}

	@Test
	void anUpdateThatPutsTheItemInTheIndexReadsWhatTheKeyNeedsAndSetsTheKeys() {
		Map<String, AttributeValue> known = keyAnd("status", "open");
		assertThat(ItemComposer.unknownPlaceholders(ORDER, Set.of("status"), Set.of(), known)).containsExactly("placedAt");
		Map<String, AttributeValue> after = new HashMap<>(known);
		after.put("placedAt", AttributeValue.fromS("2025-01-01T09:00:00.000Z"));
		Expressions expressions = recompose(Set.of("status"), Set.of(), after);
		assertThat(expressions.update()).hasValue("SET #a0 = :v0, #a1 = :v1");
		assertThat(expressions.madeBy(Map.of("GSI1PK", AttributeValue.fromS("OPEN#c1"), "GSI1SK",
				AttributeValue.fromS("2025-01-01T09:00:00.000Z")))).isTrue();
	}

	@Test
	void anUpdateOfAKeyPartReadsTheWhenFieldAndKeepsAnItemOutOfTheIndexOut() {
		Map<String, AttributeValue> known = keyAnd("placedAt", "2026-01-01T09:00:00.000Z");
		assertThat(ItemComposer.unknownPlaceholders(ORDER, Set.of("placedAt"), Set.of(), known)).containsExactly("status");
		Map<String, AttributeValue> shipped = new HashMap<>(known);
		shipped.put("status", AttributeValue.fromS("shipped"));
		assertThat(recompose(Set.of("placedAt"), Set.of(), shipped).update()).hasValue("REMOVE #a0, #a1");
		Map<String, AttributeValue> open = new HashMap<>(known);
		open.put("status", AttributeValue.fromS("open"));
		assertThat(recompose(Set.of("placedAt"), Set.of(), open).update()).hasValue("SET #a0 = :v0, #a1 = :v1");
	}

	@Test
	void anUpdateThatTouchesNoneOfTheIndexsFieldsLeavesItsKeysAlone() {
		Map<String, AttributeValue> known = keyAnd("note", "hi");
		assertThat(ItemComposer.unknownPlaceholders(ORDER, Set.of("note"), Set.of(), known)).isEmpty();
		assertThat(recompose(Set.of("note"), Set.of(), known).update()).isEmpty();
	}

	@Test
	void aConditionComparesNumbersByValueAndTellsNotInAndExists() {
		Entity.Membership level = new Entity.Membership("level", Optional.of(List.of(AttributeValue.fromN("3"))),
				Optional.empty(), Optional.empty());
		assertThat(level.holds(AttributeValue.fromN("3.0"))).isTrue();
		assertThat(level.holds(AttributeValue.fromN("4"))).isFalse();
		assertThat(level.holds(null)).isFalse();
		Entity.Membership notDone = new Entity.Membership("status", Optional.empty(),
				Optional.of(List.of(AttributeValue.fromS("done"))), Optional.empty());
		assertThat(notDone.holds(AttributeValue.fromS("open"))).isTrue();
		assertThat(notDone.holds(AttributeValue.fromS("done"))).isFalse();
		assertThat(notDone.holds(null)).isTrue();
		Entity.Membership flagged = new Entity.Membership("flag", Optional.empty(), Optional.empty(), Optional.of(true));
		assertThat(flagged.holds(AttributeValue.fromBool(false))).isTrue();
		assertThat(flagged.holds(null)).isFalse();
	}

	@Test
	void aSeparatorIsEachWholeRunOfConstantTextOfAComposedTemplate() {
		assertThat(KeyTemplate.parse("CUSTOMER#{customerId}#ORDER#{orderId}").separators())
			.containsExactly("CUSTOMER#", "#ORDER#");
		assertThat(KeyTemplate.parse("{placedAt}").separators()).isEmpty();
		Map<String, AttributeValue> hashed = Map.of("customerId", AttributeValue.fromS("a#b"), "orderId",
				AttributeValue.fromS("o1"));
		assertThat(ItemComposer.compose(ORDER, KeyTemplate.parse("CUSTOMER#{customerId}"), KeyAttribute.string("PK"),
				hashed, "input", 2048)).hasValue(AttributeValue.fromS("CUSTOMER#a#b"));
		assertThatExceptionOfType(InvalidArgumentException.class)
			.isThrownBy(() -> ItemComposer.compose(ORDER, KeyTemplate.parse("{customerId}#{orderId}"),
					KeyAttribute.string("PK"), hashed, "input", 2048))
			.withMessage("`input.customerId` must not contain `#`: the key `{customerId}#{orderId}` separates its parts with it.");
		assertThatIllegalArgumentException().isThrownBy(() -> KeyTemplate.parse("{customerId}{orderId}"));
	}

	/** customerId `a#ORDER` and orderId `#x` would make a key that reads back as customerId `a`. */
	@Test
	void aValueEndingWithTheBeginningOfTheNextSeparatorIsRefused() {
		Map<String, AttributeValue> overlapping = Map.of("customerId", AttributeValue.fromS("a#ORDER"), "orderId",
				AttributeValue.fromS("#x"));
		assertThatExceptionOfType(InvalidArgumentException.class)
			.isThrownBy(() -> ItemComposer.compose(ORDER, KeyTemplate.parse("CUSTOMER#{customerId}#ORDER#{orderId}"),
					KeyAttribute.string("PK"), overlapping, "input", 2048))
			.withMessageStartingWith("`input.customerId` must not end with `#ORDER`");
	}

	private static Map<String, AttributeValue> keyAnd(String field, String value) {
		Map<String, AttributeValue> known = new HashMap<>(Map.of("customerId", AttributeValue.fromS("c1"), "orderId",
				AttributeValue.fromS("o1")));
		if (field != null) {
			known.put(field, AttributeValue.fromS(value));
		}
		return known;
	}

	private static Expressions recompose(Set<String> changed, Set<String> cleared, Map<String, AttributeValue> values) {
		Expressions expressions = new Expressions();
		ItemComposer.recompose(ORDER, changed, cleared, values, expressions, new InputObject("", Map.of()));
		return expressions;
	}

}
