package dev.dynamorelay.engine.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import static dev.dynamorelay.engine.store.Fixtures.assertError;
import static dev.dynamorelay.engine.store.Fixtures.assertValidation;
import static dev.dynamorelay.engine.store.Fixtures.item;
import static dev.dynamorelay.engine.store.Fixtures.n;
import static dev.dynamorelay.engine.store.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

/** BatchGetItem and BatchWriteItem: their bounds and messages, UnprocessedKeys past 16 MB. */
class BatchTest {

	private Database database;

	@BeforeEach
	void tables() {
		this.database = Fixtures.database();
		Fixtures.hashTable(this.database, "one", "S");
		Fixtures.hashTable(this.database, "two", "N");
	}

	@AfterEach
	void close() {
		this.database.close();
	}

	private static WriteRequest put(Map<String, AttributeValue> item) {
		return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
	}

	private static WriteRequest delete(Map<String, AttributeValue> key) {
		return WriteRequest.builder().deleteRequest(DeleteRequest.builder().key(key).build()).build();
	}

	@Test
	void writesAndReadsAcrossTables() {
		BatchWriteItemResponse written = this.database.batchWriteItem(BatchWriteItemRequest.builder().requestItems(Map.of(
				"one", List.of(put(item("pk", s("a"), "v", n(1))), put(item("pk", s("b")))),
				"two", List.of(put(item("pk", n(7))))))
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build());
		assertThat(written.unprocessedItems()).isEmpty();
		assertThat(written.hasUnprocessedItems()).isTrue();
		assertThat(written.consumedCapacity()).extracting((capacity) -> capacity.tableName() + "=" + capacity.capacityUnits())
			.containsExactlyInAnyOrder("one=2.0", "two=1.0");

		BatchGetItemResponse read = this.database.batchGetItem(BatchGetItemRequest.builder().requestItems(Map.of(
				"one", KeysAndAttributes.builder().keys(item("pk", s("a")), item("pk", s("missing"))).build(),
				"two", KeysAndAttributes.builder().keys(item("pk", n("7.0"))).consistentRead(true).build()))
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build());
		assertThat(read.responses().get("one")).containsExactly(item("pk", s("a"), "v", n(1)));
		assertThat(read.responses().get("two")).containsExactly(item("pk", n(7)));
		assertThat(read.unprocessedKeys()).isEmpty();
		assertThat(read.consumedCapacity()).extracting((capacity) -> capacity.tableName() + "=" + capacity.capacityUnits())
			.containsExactlyInAnyOrder("one=1.0", "two=1.0");

		this.database.batchWriteItem(BatchWriteItemRequest.builder().requestItems(Map.of("one", List.of(delete(item("pk", s("a"))))))
			.build());
		assertThat(this.database.batchGetItem(BatchGetItemRequest.builder().requestItems(Map.of("one",
				KeysAndAttributes.builder().keys(item("pk", s("a"))).build())).build()).responses().get("one")).isEmpty();
	}

	@Test
	void refusesMoreThan100KeysAndDuplicates() {
		List<Map<String, AttributeValue>> keys = new ArrayList<>();
		for (int i = 0; i < 60; i++) {
			keys.add(item("pk", s("k" + i)));
		}
		List<Map<String, AttributeValue>> numbers = new ArrayList<>();
		for (int i = 0; i < 41; i++) {
			numbers.add(item("pk", n(i)));
		}
		assertValidation(() -> this.database.batchGetItem(BatchGetItemRequest.builder().requestItems(Map.of(
				"one", KeysAndAttributes.builder().keys(keys).build(), "two", KeysAndAttributes.builder().keys(numbers).build())).build()),
				"Too many items requested for the BatchGetItem call");
		assertValidation(() -> this.database.batchGetItem(BatchGetItemRequest.builder().requestItems(Map.of(
				"two", KeysAndAttributes.builder().keys(item("pk", n("1")), item("pk", n("1.0"))).build())).build()),
				"Provided list of item keys contains duplicates");
		assertValidation(() -> this.database.batchGetItem(BatchGetItemRequest.builder().requestItems(Map.of()).build()),
				"1 validation error detected: Value '{}' at 'requestItems' failed to satisfy constraint: Member must have length greater than or equal to 1");
		assertError(() -> this.database.batchGetItem(BatchGetItemRequest.builder().requestItems(Map.of(
				"nothere", KeysAndAttributes.builder().keys(item("pk", s("a"))).build())).build()), "ResourceNotFoundException", "Requested resource not found");
		assertValidation(() -> this.database.batchGetItem(BatchGetItemRequest.builder().requestItems(Map.of(
				"one", KeysAndAttributes.builder().keys(item("pk", n(1))).build())).build()), "The provided key element does not match the schema");
	}

	@Test
	void answersKeysPast16MegabytesAsUnprocessed() {
		String data = "x".repeat(400 * 1024 - 20);
		List<Map<String, AttributeValue>> keys = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			Map<String, AttributeValue> key = item("pk", s(String.format("k%02d", i)));
			keys.add(key);
			this.database.putItem(PutItemRequest.builder().tableName("one").item(item("pk", key.get("pk"), "d", s(data))).build());
		}
		BatchGetItemResponse first = this.database.batchGetItem(BatchGetItemRequest.builder().requestItems(Map.of(
				"one", KeysAndAttributes.builder().keys(keys).consistentRead(true).build())).build());
		// 16 MB hold 40 items of just under 400 KB
		assertThat(first.responses().get("one")).hasSize(40);
		assertThat(first.unprocessedKeys().get("one").keys()).hasSize(10);
		assertThat(first.unprocessedKeys().get("one").consistentRead()).isTrue();
		BatchGetItemResponse second = this.database.batchGetItem(BatchGetItemRequest.builder().requestItems(first.unprocessedKeys()).build());
		assertThat(second.responses().get("one")).hasSize(10);
		assertThat(second.unprocessedKeys()).isEmpty();
	}

	@Test
	void refusesMoreThan25WritesDuplicatesAndItemsOutOfShape() {
		List<WriteRequest> many = new ArrayList<>();
		for (int i = 0; i < 26; i++) {
			many.add(put(item("pk", s("k" + i))));
		}
		assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> this.database.batchWriteItem(BatchWriteItemRequest.builder()
			.requestItems(Map.of("one", many)).build()))).hasMessageEndingWith("failed to satisfy constraint: Map value must satisfy constraint: "
					+ "[Member must have length less than or equal to 25, Member must have length greater than or equal to 1]");
		List<WriteRequest> half = many.subList(0, 13);
		List<WriteRequest> other = new ArrayList<>();
		for (int i = 0; i < 13; i++) {
			other.add(put(item("pk", n(i))));
		}
		assertValidation(() -> this.database.batchWriteItem(BatchWriteItemRequest.builder().requestItems(Map.of("one", half, "two", other)).build()),
				"Too many items requested for the BatchWriteItem call");
		assertValidation(() -> this.database.batchWriteItem(BatchWriteItemRequest.builder().requestItems(Map.of("one",
				List.of(put(item("pk", s("a"))), delete(item("pk", s("a")))))).build()), "Provided list of item keys contains duplicates");
		assertValidation(() -> this.database.batchWriteItem(BatchWriteItemRequest.builder().requestItems(Map.of("one",
				List.of(put(item("other", s("a")))))).build()), "The provided key element does not match the schema");
		assertValidation(() -> this.database.batchWriteItem(BatchWriteItemRequest.builder().requestItems(Map.of("one",
				List.of(WriteRequest.builder().build()))).build()),
				"Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes");
		assertValidation(() -> this.database.batchWriteItem(BatchWriteItemRequest.builder().requestItems(Map.of("one",
				List.of(put(item("pk", s("a"), "d", s("x".repeat(400 * 1024))))))).build()), "Item size has exceeded the maximum allowed size");
	}

}
