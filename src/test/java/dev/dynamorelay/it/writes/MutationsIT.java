package dev.dynamorelay.it.writes;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Documents;
import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Walker;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code createPurchase}, {@code updatePurchase} and {@code deletePurchase}, and their bad inputs. */
class MutationsIT extends IntegrationTest {

	private static final String CREATE = """
			mutation($input: CreatePurchaseInput!) {
			  createPurchase(input: $input) { id userId purchasedAt product category amount user { userId } }
			}""";

	private static final String DELETE = "mutation($id: ID!) { deletePurchase(id: $id) }";

	@Test
	void createsAPurchaseThatTheConnectionsServe() {
		String userId = this.fixtures.buyer("creator");
		GraphQlResponse created = execute(CREATE, Map.of("input", input(userId, "2025-03-04T05:06:07.089+01:00", 0.1)));
		assertThat(created.getErrors()).isEmpty();
		Map<String, Object> purchase = created.field("createPurchase").getValue();
		assertThat(purchase).containsEntry("userId", userId)
			.containsEntry("purchasedAt", "2025-03-04T04:06:07.089Z")
			.containsEntry("amount", 0.1)
			.containsEntry("category", "books");
		Map<String, AttributeValue> stored = this.dynamoDb.getItem((get) -> get.tableName(this.tables.purchases())
			.key(Map.of("userId", AttributeValue.fromS(userId), "purchasedAt",
					AttributeValue.fromN(Long.toString(Instant.parse("2025-03-04T04:06:07.089Z").toEpochMilli())))))
			.item();
		assertThat(stored.get("amount").n()).isEqualTo("0.1");
		Walker.Page page = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", userId, "minAmount", 0.1));
		assertThat(page.edges()).hasSize(1);
		assertThat(Walker.node(page.edges().get(0))).containsEntry("id", purchase.get("id"));
	}

	@Test
	void defaultsPurchasedAtToNowAndNeverOverwrites() {
		String userId = this.fixtures.buyer("now");
		Map<String, Object> input = input(userId, null, 3.0);
		long before = System.currentTimeMillis();
		GraphQlResponse first = execute(CREATE, Map.of("input", input));
		GraphQlResponse second = execute(CREATE, Map.of("input", input));
		assertThat(first.getErrors()).isEmpty();
		assertThat(second.getErrors()).isEmpty();
		String firstAt = first.field("createPurchase.purchasedAt").getValue();
		String secondAt = second.field("createPurchase.purchasedAt").getValue();
		assertThat(firstAt).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z").isNotEqualTo(secondAt);
		assertThat(Instant.parse(firstAt).toEpochMilli()).isGreaterThanOrEqualTo(before);

		GraphQlResponse duplicate = execute(CREATE, Map.of("input", input(userId, firstAt, 99.0)));
		// A duplicate purchasedAt is a write whose condition does not hold since writes are declared.
		Errors.assertCode(duplicate, "CONFLICT");
		assertThat(duplicate.getErrors().get(0).getMessage()).contains("exists already").contains("nothing was written");
		Walker.Page page = this.walker.page(Documents.USER_PURCHASES, "user.purchases", Map.of("userId", userId));
		assertThat(page.edges()).hasSize(2);
		assertThat(page.edges()).allSatisfy((edge) -> assertThat(Walker.node(edge)).containsEntry("amount", 3.0));
	}

	@Test
	void refusesBadInputs() {
		String userId = this.fixtures.buyer("refused");
		Errors.assertCode(execute(CREATE, Map.of("input", input("nobody-" + userId, null, 1.0))), "NOT_FOUND");
		for (String at : List.of("yesterday", "2025-01-01", "2025-01-01T10:00:00", "2025-01-01T10:00:00.0001Z", "")) {
			Errors.assertCode(execute(CREATE, Map.of("input", input(userId, at, 1.0))), "INVALID_ARGUMENT");
		}
		Map<String, Object> emptyProduct = input(userId, null, 1.0);
		emptyProduct.put("product", " ");
		Errors.assertCode(execute(CREATE, Map.of("input", emptyProduct)), "INVALID_ARGUMENT");
		Map<String, Object> emptyCategory = input(userId, null, 1.0);
		emptyCategory.put("category", "");
		Errors.assertCode(execute(CREATE, Map.of("input", emptyCategory)), "INVALID_ARGUMENT");
		Errors.assertCode(execute(CREATE, Map.of("input", input(userId, null, 1e300))), "INVALID_ARGUMENT");
		Map<String, Object> hugeProduct = input(userId, null, 1.0);
		hugeProduct.put("product", "p".repeat(350_001));
		Errors.assertCode(execute(CREATE, Map.of("input", hugeProduct)), "INVALID_ARGUMENT");
		Map<String, Object> missing = input(userId, null, 1.0);
		missing.remove("amount");
		Errors.assertRequestError(execute(CREATE, Map.of("input", missing)));
		Walker.Page page = this.walker.page(Documents.USER_PURCHASES, "user.purchases", Map.of("userId", userId));
		assertThat(page.edges()).as("nothing was written").isEmpty();
	}

	@Test
	void deletesAPurchaseOnceAndRefusesOtherIds() {
		String userId = this.fixtures.buyer("deleter");
		this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, 1_700_000_000_000L, "books", "1")));
		String id = this.ids.purchase(userId, 1_700_000_000_000L);
		GraphQlResponse deleted = execute(DELETE, Map.of("id", id));
		assertThat(deleted.getErrors()).isEmpty();
		assertThat((String) deleted.field("deletePurchase").getValue()).isEqualTo(id);
		GraphQlResponse again = execute(DELETE, Map.of("id", id));
		assertThat(again.getErrors()).isEmpty();
		assertThat((Object) again.field("deletePurchase").getValue()).isNull();
		Errors.assertCode(execute(DELETE, Map.of("id", this.ids.user(userId))), "INVALID_ARGUMENT");
		Errors.assertCode(execute(DELETE, Map.of("id", "not an id")), "INVALID_ARGUMENT");
	}

	@Test
	void anUpdateThatGivesNoFieldIsRefusedAndKeepsTheVersion() {
		String userId = this.fixtures.buyer("idle");
		GraphQlResponse created = execute(CREATE, Map.of("input", input(userId, "2025-05-06T07:08:09.010Z", 2.0)));
		assertThat(created.getErrors()).isEmpty();
		String id = created.field("createPurchase.id").getValue();
		String update = "mutation($input: UpdatePurchaseInput!) { updatePurchase(input: $input) { version } }";
		GraphQlResponse idle = execute(update, Map.of("input", Map.of("id", id)));
		Errors.assertCode(idle, "INVALID_ARGUMENT");
		assertThat(idle.getErrors().get(0).getMessage()).isEqualTo("`input` gives no field to update.");
		Errors.assertCode(execute(update, Map.of("input", Map.of("id", id, "expectedVersion", 1))), "INVALID_ARGUMENT");
		Map<String, AttributeValue> stored = this.dynamoDb.getItem((get) -> get.tableName(this.tables.purchases())
			.key(Map.of("userId", AttributeValue.fromS(userId), "purchasedAt",
					AttributeValue.fromN(Long.toString(Instant.parse("2025-05-06T07:08:09.010Z").toEpochMilli())))))
			.item();
		assertThat(stored.get("version").n()).as("nothing was written").isEqualTo("1");
		GraphQlResponse changed = execute(update, Map.of("input", Map.of("id", id, "amount", 3.0)));
		assertThat(changed.getErrors()).isEmpty();
		assertThat((Integer) changed.field("updatePurchase.version").getValue()).isEqualTo(2);
	}

	private static Map<String, Object> input(String userId, String purchasedAt, double amount) {
		Map<String, Object> input = new HashMap<>();
		input.put("userId", userId);
		input.put("purchasedAt", purchasedAt);
		input.put("product", "Widget");
		input.put("category", "books");
		input.put("amount", amount);
		return input;
	}

}
