package dev.dynamorelay.write;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.DeclarationReader;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.error.AccessDeniedException;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.NodeIds;
import dev.dynamorelay.schema.SchemaFiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the write planner makes of an input, before anything is sent: which items a write puts, updates, deletes
 * or checks, their keys, and the update and condition expressions, on the store's single-table schema (customers,
 * their orders and the orders' lines in table {@code Store}, a sparse index {@code GSI1} of the orders with a
 * status, wish lists whose owner is outside their key). Expressions are shown with their names and values put
 * back in ({@code SET total = 7}).
 */
class WritePlannerTest {

	private static final Declarations STORE = DeclarationReader.read(SchemaFiles
		.resolve("classpath:store/", new PathMatchingResourcePatternResolver())
		.parse(), "");

	private static final Generation NOW = new Generation(1_767_225_600_000L, Optional.empty());

	private static final String PLACED_AT = "2026-01-01T00:00:00Z";

	/** What an update reads first, by attribute; a read that no test expects fails the plan. */
	private final Map<String, AttributeValue> stored = new HashMap<>();

	private final List<List<String>> reads = new ArrayList<>();

	private final WritePlanner planner = new WritePlanner(STORE, (table, key, attributes, stats) -> {
		this.reads.add(attributes);
		return CompletableFuture.completedFuture(this.stored);
	});

	@Test
	void aCreatePutsTheWholeItemWhereNoneIsAndChecksTheCustomerItNames() {
		Plan plan = plan("createOrder", new InputObject("input", Map.of("customerId", "alice", "orderId", "o1",
				"placedAt", PLACED_AT, "total", 5, "clientMutationId", "m1")), Ownership.Owners.ANYONE);
		assertThat(plan.writes()).hasSize(2);
		ItemWrite.PutItem put = (ItemWrite.PutItem) plan.main();
		assertThat(put.table()).isEqualTo("Store");
		assertThat(put.key()).isEqualTo(Map.of("PK", s("CUSTOMER#alice"), "SK", s("ORDER#o1")));
		assertThat(put.item()).containsEntry("kind", s("Order"))
			.containsEntry("version", n("1"))
			.containsEntry("total", n("5"))
			.containsEntry("placedAt", s("2026-01-01T00:00:00.000Z"))
			.as("no status: not in the sparse index").doesNotContainKeys("GSI1PK", "GSI1SK", "note");
		assertThat(condition(put)).isEqualTo("attribute_not_exists(PK)");
		ItemWrite.CheckItem customer = (ItemWrite.CheckItem) plan.writes().get(1);
		assertThat(customer.part()).isEqualTo("input.customerId");
		assertThat(customer.key()).isEqualTo(Map.of("PK", s("CUSTOMER#alice"), "SK", s("PROFILE")));
		assertThat(condition(customer)).isEqualTo("attribute_exists(PK)");
		assertThat(customer.refusal().code().name()).isEqualTo("NOT_FOUND");
		assertThat(plan.answer(Map.of()).clientMutationId()).contains("m1");
		assertThat(plan.answer(Map.of()).item().orElseThrow().attributes()).isEqualTo(put.item());
	}

	@Test
	void aCreateWithAStatusPutsTheOrderInTheSparseIndex() {
		ItemWrite.PutItem put = (ItemWrite.PutItem) plan("createOrder", new InputObject("input", Map.of("customerId",
				"alice", "orderId", "o1", "placedAt", PLACED_AT, "status", "open", "total", 5)), Ownership.Owners.ANYONE)
			.main();
		assertThat(put.item()).containsEntry("GSI1PK", s("STATUS#open"))
			.containsEntry("GSI1SK", s("2026-01-01T00:00:00.000Z"));
	}

	@Test
	void aCreateLeavingOutAGeneratedTimeFillsItInAndSaysTheKeyDoesNotHoldIt() {
		Plan plan = plan("createOrder", new InputObject("input", Map.of("customerId", "alice", "orderId", "o1", "total",
				5)), Ownership.Owners.ANYONE);
		assertThat(((ItemWrite.PutItem) plan.main()).item()).containsEntry("placedAt", s("2026-01-01T00:00:00.000Z"));
		assertThat(plan.generatedKey()).isFalse();
	}

	@Test
	void aCreatePutsItsChildrenUnderItInTheSameTransactionWithoutCheckingTheirParent() {
		InputObject line = new InputObject("input.lines[0]", Map.of("line", "1", "sku", "A", "quantity", 2));
		Plan plan = plan("createOrder", new InputObject("input", Map.of("customerId", "alice", "orderId", "o1",
				"placedAt", PLACED_AT, "total", 5), Map.of("lines", List.of(line))), owner("alice", "Order", "Customer"));
		assertThat(plan.writes()).extracting(ItemWrite::part)
			.containsExactly("input", "input.lines[0]", "input.customerId");
		ItemWrite.PutItem child = (ItemWrite.PutItem) plan.writes().get(1);
		assertThat(child.key()).isEqualTo(Map.of("PK", s("CUSTOMER#alice#ORDER#o1"), "SK", s("LINE#1")));
		assertThat(child.item()).containsEntry("kind", s("OrderLine")).containsEntry("quantity", n("2"));
		assertThat(condition(child)).isEqualTo("attribute_not_exists(PK)");
	}

	@Test
	void aCreateOfAnotherOwnersItemIsRefusedBeforeAnythingIsSent() {
		assertThatExceptionOfType(AccessDeniedException.class).isThrownBy(() -> plan("createOrder",
				new InputObject("input", Map.of("customerId", "bob", "orderId", "o1", "total", 5)), owner("alice", "Order")))
			.withMessageContaining("`input.customerId` gives Order `customerId` the owner `bob`, and the caller is `alice`");
	}

	@Test
	void anUpdateSetsTheFieldsGivenRemovesThoseGivenNullAndRaisesTheVersion() {
		Map<String, Object> values = new LinkedHashMap<>();
		values.put("id", orderId("alice", "o1"));
		values.put("total", 7);
		values.put("note", null);
		values.put("expectedVersion", 2);
		Plan plan = plan("updateOrder", new InputObject("input", values), Ownership.Owners.ANYONE);
		assertThat(plan.writes()).hasSize(1);
		ItemWrite.UpdateItem update = (ItemWrite.UpdateItem) plan.main();
		assertThat(update.key()).isEqualTo(Map.of("PK", s("CUSTOMER#alice"), "SK", s("ORDER#o1")));
		assertThat(update(update)).isEqualTo("SET total = 7, version = if_not_exists(version, 0) + 1 REMOVE note");
		assertThat(condition(update)).isEqualTo("attribute_exists(PK) AND version = 2");
		assertThat(plan.expectedVersion()).contains(2L);
		assertThat(this.reads).as("no index key to recompose: nothing read").isEmpty();
	}

	@Test
	void anUpdateOfAnIndexedFieldReadsWhatTheIndexKeyNeedsAndChecksItDidNotChange() {
		this.stored.put("placedAt", s("2026-01-01T00:00:00.000Z"));
		Plan plan = plan("updateOrder", new InputObject("input", Map.of("id", orderId("alice", "o1"), "status",
				"shipped")), Ownership.Owners.ANYONE);
		assertThat(this.reads).containsExactly(List.of("placedAt"));
		assertThat(update(plan.main())).isEqualTo("SET status = 'shipped', GSI1PK = 'STATUS#shipped', "
				+ "GSI1SK = '2026-01-01T00:00:00.000Z', version = if_not_exists(version, 0) + 1");
		assertThat(condition(plan.main())).isEqualTo("placedAt = '2026-01-01T00:00:00.000Z' AND attribute_exists(PK)");
		assertThat(plan.read()).isEqualTo(Map.of("placedAt", Optional.of(s("2026-01-01T00:00:00.000Z"))));
	}

	@Test
	void anUpdateClearingAnIndexedFieldTakesTheItemOutOfTheIndexWithoutReading() {
		Map<String, Object> values = new LinkedHashMap<>();
		values.put("id", orderId("alice", "o1"));
		values.put("status", null);
		Plan plan = plan("updateOrder", new InputObject("input", values), Ownership.Owners.ANYONE);
		assertThat(this.reads).isEmpty();
		assertThat(update(plan.main()))
			.isEqualTo("SET version = if_not_exists(version, 0) + 1 REMOVE status, GSI1PK, GSI1SK");
	}

	@Test
	void anUpdateThatGivesNoFieldIsRefusedBeforeTheVersionIsRaised() {
		assertThatExceptionOfType(InvalidArgumentException.class)
			.isThrownBy(() -> plan("updateOrder", new InputObject("input", Map.of("id", orderId("alice", "o1"))),
					Ownership.Owners.ANYONE))
			.withMessage("`input` gives no field to update.");
		assertThatExceptionOfType(InvalidArgumentException.class)
			.isThrownBy(() -> plan("updateOrder", new InputObject("input", Map.of("id", orderId("alice", "o1"),
					"expectedVersion", 1)), Ownership.Owners.ANYONE))
			.as("an expected version alone changes nothing")
			.withMessage("`input` gives no field to update.");
	}

	@Test
	void aDeclaredConditionAndTheClientsConditionValueAreCheckedOnTheStoredItem() {
		this.stored.put("placedAt", s(PLACED_AT));
		Plan plan = plan("cancelOrder", new InputObject("input", Map.of("id", orderId("alice", "o1"), "status",
				"cancelled", "totalAtMost", 10)), Ownership.Owners.ANYONE);
		assertThat(condition(plan.main()))
			.isEqualTo("placedAt = '2026-01-01T00:00:00Z' AND attribute_exists(PK) AND total <= 10 AND status = 'open'");
	}

	@Test
	void anUpdateOfAnotherOwnersItemWhoseKeyTellsTheOwnerIsRefusedBeforeAnythingIsSent() {
		assertThatExceptionOfType(AccessDeniedException.class)
			.isThrownBy(() -> plan("updateOrder", new InputObject("input", Map.of("id", orderId("bob", "o1"), "total",
					1)), owner("alice", "Order")))
			.withMessageContaining("names the Order of `customerId` `bob`, and the caller is `alice`");
	}

	@Test
	void aReplaceSetsEveryFieldAndRemovesTheInputsFieldsLeftOutAndTheIndexKeysItNoLongerFills() {
		Plan plan = plan("replaceOrder", new InputObject("input", Map.of("customerId", "alice", "orderId", "o1",
				"placedAt", PLACED_AT, "total", 3)), Ownership.Owners.ANYONE);
		ItemWrite.UpdateItem update = (ItemWrite.UpdateItem) plan.main();
		assertThat(update.key()).isEqualTo(Map.of("PK", s("CUSTOMER#alice"), "SK", s("ORDER#o1")));
		assertThat(update(update)).isEqualTo("SET customerId = 'alice', orderId = 'o1', placedAt = "
				+ "'2026-01-01T00:00:00.000Z', total = 3, kind = 'Order', version = if_not_exists(version, 0) + 1 "
				+ "REMOVE status, note, GSI1PK, GSI1SK");
		assertThat(condition(update)).as("over the stored item or none").isEmpty();
	}

	@Test
	void aDeleteOfAnOwnedItemWhoseKeyTellsTheOwnerHasNoOwnerCondition() {
		Plan plan = plan("deleteOrder", new InputObject("", Map.of("id", orderId("alice", "o1"), "expectedVersion", 3)),
				owner("alice", "Order"));
		ItemWrite.DeleteItem delete = (ItemWrite.DeleteItem) plan.main();
		assertThat(delete.key()).isEqualTo(Map.of("PK", s("CUSTOMER#alice"), "SK", s("ORDER#o1")));
		assertThat(condition(delete)).isEqualTo("version = 3");
		assertThat(plan.owned()).isEmpty();
	}

	@Test
	void aWriteUnderAParentWhoseOwnerIsOutsideItsKeyChecksTheParentFirstInTheSameTransaction() {
		Entity wish = STORE.entities().get("Wish");
		String id = NodeIds.encode(wish, Map.of("PK", s("LIST#l1"), "SK", s("WISH#A")));
		Plan plan = plan("deleteWish", new InputObject("", Map.of("id", id)), owner("alice", "WishList"));
		assertThat(plan.writes()).hasSize(2);
		ItemWrite.CheckItem list = (ItemWrite.CheckItem) plan.writes().get(1);
		assertThat(list.key()).isEqualTo(Map.of("PK", s("LIST#l1"), "SK", s("LIST")));
		assertThat(condition(list)).isEqualTo("attribute_exists(PK) AND customerId = 'alice'");
		assertThat(list.first()).isTrue();
		assertThat(list.refusal().code().name()).isEqualTo("FORBIDDEN");
	}

	@Test
	void aTransactionChecksAnItemOnceAndRefusesTwoWritesOfOneItem() {
		Plan first = plan("createOrder", new InputObject("input[0]", Map.of("customerId", "alice", "orderId", "o1",
				"placedAt", PLACED_AT, "total", 1)), Ownership.Owners.ANYONE);
		Plan second = plan("createOrder", new InputObject("input[1]", Map.of("customerId", "alice", "orderId", "o2",
				"placedAt", PLACED_AT, "total", 2)), Ownership.Owners.ANYONE);
		assertThat(WritePlanner.parts(List.of(first, second))).extracting(ItemWrite::part)
			.as("the customer both name is checked once")
			.containsExactly("input[0]", "input[0].customerId", "input[1]");
		Plan again = plan("createOrder", new InputObject("input[2]", Map.of("customerId", "alice", "orderId", "o1",
				"placedAt", PLACED_AT, "total", 3)), Ownership.Owners.ANYONE);
		assertThatExceptionOfType(InvalidArgumentException.class)
			.isThrownBy(() -> WritePlanner.parts(List.of(first, again)))
			.withMessage("`input[0]` and `input[2]` write the same item: one transaction writes an item once.");
	}

	private Plan plan(String field, InputObject input, Ownership.Owners owners) {
		DeclaredMutation mutation = STORE.mutations()
			.stream()
			.filter((each) -> each.name().equals("Mutation." + field))
			.findFirst()
			.orElseThrow();
		try {
			return this.planner.plan(mutation, input, owners, NOW, null).join();
		}
		catch (CompletionException ex) {
			throw (RuntimeException) ex.getCause();
		}
	}

	/** The caller {@code identity} owns the items of {@code types}, by their owner field {@code customerId}. */
	private static Ownership.Owners owner(String identity, String... types) {
		Set<String> owned = Set.of(types);
		return new Ownership.Owners() {

			@Override
			public Optional<Ownership> of(Entity entity) {
				return owned.contains(entity.name())
						? Optional.of(new Ownership(entity.fields().get("customerId"), identity)) : Optional.empty();
			}

			@Override
			public Optional<Ownership> under(Entity parent) {
				return of(parent);
			}

		};
	}

	private static String orderId(String customer, String order) {
		return NodeIds.encode(STORE.entities().get("Order"), Map.of("PK", s("CUSTOMER#" + customer), "SK",
				s("ORDER#" + order)));
	}

	private static String update(ItemWrite write) {
		return readable(write.expressions().update().orElseThrow(), write.expressions());
	}

	private static String condition(ItemWrite write) {
		return write.expressions().condition().map((condition) -> readable(condition, write.expressions())).orElse("");
	}

	/** An expression with its placeholders' names and values in their place (the longest placeholder first). */
	private static String readable(String expression, Expressions expressions) {
		Map<String, String> placeholders = new HashMap<>();
		Optional.ofNullable(expressions.names()).ifPresent(placeholders::putAll);
		Optional.ofNullable(expressions.values())
			.ifPresent((values) -> values.forEach((placeholder, value) -> placeholders.put(placeholder,
					(value.s() != null) ? "'" + value.s() + "'" : value.n())));
		String readable = expression;
		List<String> longestFirst = new ArrayList<>(placeholders.keySet());
		longestFirst.sort(Comparator.comparingInt(String::length).reversed());
		for (String placeholder : longestFirst) {
			readable = readable.replace(placeholder, placeholders.get(placeholder));
		}
		return readable;
	}

	private static AttributeValue s(String value) {
		return AttributeValue.fromS(value);
	}

	private static AttributeValue n(String value) {
		return AttributeValue.fromN(value);
	}

}
