package dev.dynamorelay.dynamodb.tables;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.KeyAttribute;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A connection over a global index that projects only some attributes is read partially (its items are
 * completed from the table) and a filter on an attribute the index lacks cannot match; a table, a local
 * index and a fully projected global index hold everything.
 */
class DeclaredTablesTest {

	private static final Declarations NONE = new Declarations(Map.of(), Map.of(), List.of(), List.of(), Map.of(), List.of(),
			List.of());

	private static final DeclaredTables TABLES = new DeclaredTables(NONE,
			Map.of("Shop_Orders/ByStatus", Set.of("userId", "orderedAt", "status", "amount")));

	@Test
	void aGlobalIndexWithPartOfTheAttributesHoldsOnlyThose() {
		ConnectionDefinition<Map<String, AttributeValue>> byStatus = query("Shop_Orders", Optional.of("ByStatus"), true);
		assertThat(TABLES.partial(byStatus)).isTrue();
		assertThat(TABLES.holds(byStatus, "amount")).isTrue();
		assertThat(TABLES.holds(byStatus, "product")).isFalse();
	}

	@Test
	void theTableAnotherTableAndAFullyProjectedIndexHoldEverything() {
		for (ConnectionDefinition<Map<String, AttributeValue>> whole : List.of(query("Shop_Orders", Optional.empty(), false),
				query("Shop_Orders", Optional.of("ByCustomer"), true), query("Other_Orders", Optional.of("ByStatus"), true))) {
			assertThat(TABLES.partial(whole)).as(whole.table() + " " + whole.index()).isFalse();
			assertThat(TABLES.holds(whole, "product")).isTrue();
		}
	}

	private static ConnectionDefinition<Map<String, AttributeValue>> query(String table, Optional<String> index,
			boolean global) {
		KeyAttribute partition = KeyAttribute.string(index.isPresent() ? "status" : "userId");
		return ConnectionDefinition.query("Query.orders", table, index, global, partition,
				Optional.of(KeyAttribute.number("orderedAt")),
				index.isPresent() ? List.of(partition, KeyAttribute.number("orderedAt"), KeyAttribute.string("userId"))
						: List.of(partition, KeyAttribute.number("orderedAt")),
				false, (item) -> item);
	}

}
