package dev.dynamorelay.engine.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Get;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.Update;

import dev.dynamorelay.engine.action.AwsError;

import static dev.dynamorelay.engine.store.Fixtures.assertError;
import static dev.dynamorelay.engine.store.Fixtures.assertValidation;
import static dev.dynamorelay.engine.store.Fixtures.item;
import static dev.dynamorelay.engine.store.Fixtures.n;
import static dev.dynamorelay.engine.store.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** TransactWriteItems and TransactGetItems: all or nothing, reasons in order, limits, tokens. */
class TransactionsTest {

	private Database database;

	private final List<List<ItemChange>> commits = new ArrayList<>();


	@BeforeEach
	void tables() {
		this.database = Fixtures.database();
		Fixtures.hashTable(this.database, "accounts", "S");
		Fixtures.hashTable(this.database, "audit", "S");
		this.database.putItem(PutItemRequest.builder().tableName("accounts").item(item("pk", s("alice"), "balance", n(100))).build());
		this.database.putItem(PutItemRequest.builder().tableName("accounts").item(item("pk", s("bob"), "balance", n(0))).build());
		this.database.addCommitListener(new CommitListener() {

			@Override
			public CompletableFuture<Void> committed(Instant time, List<ItemChange> changes) {
				TransactionsTest.this.commits.add(changes);
				return DONE;
			}

			@Override
			public CompletableFuture<Void> tableChanged(Instant time, TableDescription description, boolean deleted) {
				return DONE;
			}

		});
	}

	@AfterEach
	void close() {
		this.database.close();
	}

	private static TransactWriteItem debit(String account, long amount) {
		return TransactWriteItem.builder().update(Update.builder().tableName("accounts").key(item("pk", s(account)))
			.updateExpression("SET balance = balance - :amount").conditionExpression("balance >= :amount")
			.expressionAttributeValues(Map.of(":amount", n(amount))).build()).build();
	}

	private static TransactWriteItem credit(String account, long amount) {
		return TransactWriteItem.builder().update(Update.builder().tableName("accounts").key(item("pk", s(account)))
			.updateExpression("SET balance = balance + :amount").expressionAttributeValues(Map.of(":amount", n(amount))).build()).build();
	}

	private static TransactWriteItem record(String id) {
		return TransactWriteItem.builder().put(Put.builder().tableName("audit").item(item("pk", s(id))).conditionExpression("attribute_not_exists(pk)")
			.build()).build();
	}

	private String balance(String account) {
		return this.database.getItem(GetItemRequest.builder().tableName("accounts").key(item("pk", s(account))).build()).item().get("balance").n();
	}

	@Test
	void commitsEveryActionAtOnceAcrossTables() {
		TransactWriteItemsResponse response = this.database.transactWriteItems(TransactWriteItemsRequest.builder()
			.transactItems(debit("alice", 30), credit("bob", 30), record("t1")).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build());

		assertThat(balance("alice")).isEqualTo("70");
		assertThat(balance("bob")).isEqualTo("30");
		// one commit of three changes, the listeners told once
		assertThat(this.commits).hasSize(1);
		assertThat(this.commits.get(0)).hasSize(3);
		// transactions cost twice: 2 units an item of at most 1 KB
		assertThat(response.consumedCapacity()).extracting((capacity) -> capacity.tableName() + "=" + capacity.capacityUnits())
			.containsExactlyInAnyOrder("accounts=4.0", "audit=2.0");
	}

	@Test
	void cancelsEverythingAndGivesEachActionItsReasonInOrder() {
		this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(record("t1")).build());
		this.commits.clear();
		TransactWriteItem withItem = TransactWriteItem.builder().conditionCheck(ConditionCheck.builder().tableName("accounts")
			.key(item("pk", s("carol"))).conditionExpression("attribute_not_exists(pk)").returnValuesOnConditionCheckFailure("ALL_OLD").build()).build();
		this.database.putItem(PutItemRequest.builder().tableName("accounts").item(item("pk", s("carol"), "balance", n(5))).build());
		this.commits.clear();

		AwsError error = catchThrowableOfType(() -> this.database.transactWriteItems(TransactWriteItemsRequest.builder()
			.transactItems(debit("alice", 500), credit("bob", 500), record("t1"), withItem).build()), AwsError.class);

		assertThat(error.type()).isEqualTo("TransactionCanceledException");
		assertThat(error.getMessage()).isEqualTo("Transaction cancelled, please refer cancellation reasons for specific reasons "
				+ "[ConditionalCheckFailed, None, ConditionalCheckFailed, ConditionalCheckFailed]");
		List<CancellationReason> reasons = error.cancellationReasons();
		assertThat(reasons.get(0).message()).isEqualTo("The conditional request failed");
		assertThat(reasons.get(0).hasItem()).isFalse();
		assertThat(reasons.get(1)).isEqualTo(CancellationReason.builder().code("None").build());
		assertThat(reasons.get(3).item()).isEqualTo(item("pk", s("carol"), "balance", n(5)));
		assertThat(balance("alice")).isEqualTo("100");
		assertThat(balance("bob")).isEqualTo("0");
		assertThat(this.commits).isEmpty();
	}

	@Test
	void givesAnUpdateThatCannotApplyAValidationErrorReason() {
		TransactWriteItem broken = TransactWriteItem.builder().update(Update.builder().tableName("accounts").key(item("pk", s("bob")))
			.updateExpression("SET broken = nothere + :amount").expressionAttributeValues(Map.of(":amount", n(1))).build()).build();
		AwsError error = catchThrowableOfType(() -> this.database.transactWriteItems(TransactWriteItemsRequest.builder()
			.transactItems(credit("alice", 1), broken).build()), AwsError.class);
		assertThat(error.getMessage()).endsWith("[None, ValidationError]");
		assertThat(error.cancellationReasons().get(1).message()).isEqualTo("The provided expression refers to an attribute that does not exist in the item");
		assertThat(balance("alice")).isEqualTo("100");
	}

	@Test
	void refusesTwoActionsOnOneItemAndMoreThan100Actions() {
		assertValidation(() -> this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(credit("bob", 1), debit("bob", 1))
			.build()), "Transaction request cannot include multiple operations on one item");
		List<TransactWriteItem> many = new ArrayList<>();
		for (int i = 0; i < 101; i++) {
			many.add(record("r" + i));
		}
		assertThat(catchThrowableOfType(() -> this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(many).build()),
				AwsError.class).getMessage()).matches("1 validation error detected: Value '\\[.+\\]' at 'transactItems' failed to satisfy constraint: "
						+ "Member must have length less than or equal to 100");
		assertValidation(() -> this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(List.of()).build()),
				"1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1");
		this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(many.subList(0, 100)).build());
		assertError(() -> this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(TransactWriteItem.builder()
			.delete(Delete.builder().tableName("nothere").key(item("pk", s("a"))).build()).build()).build()), "ResourceNotFoundException",
				"Requested resource not found");
		assertValidation(() -> this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(TransactWriteItem.builder()
			.delete(Delete.builder().tableName("accounts").key(item("pk", s("a"))).build())
			.put(Put.builder().tableName("accounts").item(item("pk", s("b"))).build()).build()).build()),
				"TransactItems can only contain one of Check, Put, Update or Delete");
	}

	@Test
	void refusesAnActionWhoseKeyDoesNotFitItsTableAsItsCancellationReason() {
		AwsError error = catchThrowableOfType(() -> this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(
				credit("alice", 1),
				TransactWriteItem.builder().put(Put.builder().tableName("accounts").item(item("id", s("x"))).build()).build(),
				TransactWriteItem.builder().delete(Delete.builder().tableName("accounts").key(item("pk", n(1))).build()).build()).build()), AwsError.class);
		assertThat(error.type()).isEqualTo("TransactionCanceledException");
		assertThat(error.cancellationReasons()).extracting(CancellationReason::code).containsExactly("None", "ValidationError", "ValidationError");
		assertThat(error.cancellationReasons().get(1).message()).isEqualTo("One or more parameter values were invalid: Missing the key pk in the item");
		assertThat(error.cancellationReasons().get(2).message()).isEqualTo("The provided key element does not match the schema");
		assertThat(balance("alice")).isEqualTo("100");
		// an empty key is the request's error, not a reason
		assertValidation(() -> this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(
				TransactWriteItem.builder().delete(Delete.builder().tableName("accounts").key(item("pk", s(""))).build()).build()).build()),
				"One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain an empty string value. Key: pk");
		AwsError read = catchThrowableOfType(() -> this.database.transactGetItems(TransactGetItemsRequest.builder().transactItems(
				TransactGetItem.builder().get(Get.builder().tableName("accounts").key(item("pk", s("alice"))).build()).build(),
				TransactGetItem.builder().get(Get.builder().tableName("accounts").key(Map.of()).build()).build()).build()), AwsError.class);
		assertThat(read.getMessage()).isEqualTo("Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError]");
		assertValidation(() -> this.database.transactGetItems(TransactGetItemsRequest.builder().transactItems(
				TransactGetItem.builder().get(Get.builder().tableName("accounts").key(item("pk", s("alice"))).build()).build(),
				TransactGetItem.builder().get(Get.builder().tableName("accounts").key(item("pk", s("alice"))).build()).build()).build()),
				"Transaction request cannot include multiple operations on one item");
	}

	@Test
	void refusesATransactionOver4Megabytes() {
		List<TransactWriteItem> heavy = new ArrayList<>();
		for (int i = 0; i < 11; i++) {
			heavy.add(TransactWriteItem.builder().put(Put.builder().tableName("audit").item(item("pk", s("h" + i), "d", s("x".repeat(390_000)))).build())
				.build());
		}
		assertValidation(() -> this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(heavy).build()),
				"Collection size of items exceeded, which can also be caused by the aggregate size of the items in the transaction exceeding the 4MB limit");
		this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(heavy.subList(0, 10)).build());
	}

	@Test
	void runsARequestOnceForItsTokenAndRefusesAnotherRequestWithIt() {
		TransactWriteItemsRequest transfer = TransactWriteItemsRequest.builder().transactItems(debit("alice", 10), credit("bob", 10))
			.clientRequestToken("token-1").build();
		this.database.transactWriteItems(transfer);
		this.database.transactWriteItems(transfer);
		assertThat(balance("alice")).isEqualTo("90");
		assertThat(this.commits).hasSize(1);
		assertError(() -> this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(debit("alice", 20), credit("bob", 20))
			.clientRequestToken("token-1").build()), "IdempotentParameterMismatchException",
				"The request uses the same client token as a previous, but non-identical request. Do not reuse a client token with different requests, "
						+ "unless the requests are identical.");
		// a cancelled transaction does not use its token up
		TransactWriteItemsRequest tooMuch = TransactWriteItemsRequest.builder().transactItems(debit("bob", 50), credit("alice", 50))
			.clientRequestToken("token-2").build();
		catchThrowableOfType(() -> this.database.transactWriteItems(tooMuch), AwsError.class);
		this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(credit("bob", 100)).build());
		this.database.transactWriteItems(tooMuch);
		assertThat(balance("alice")).isEqualTo("140");
	}

	@Test
	void readsItemsTogether() {
		List<ItemResponse> responses = this.database.transactGetItems(TransactGetItemsRequest.builder().transactItems(
				TransactGetItem.builder().get(Get.builder().tableName("accounts").key(item("pk", s("alice"))).build()).build(),
				TransactGetItem.builder().get(Get.builder().tableName("accounts").key(item("pk", s("nobody"))).build()).build(),
				TransactGetItem.builder().get(Get.builder().tableName("accounts").key(item("pk", s("bob"))).build()).build())
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()).responses();
		assertThat(responses).hasSize(3);
		assertThat(responses.get(0).item()).containsEntry("balance", n(100));
		assertThat(responses.get(1).hasItem()).isFalse();
		assertThat(responses.get(2).item()).containsEntry("balance", n(0));
	}

}
