package dev.dynamorelay.engine.store;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;

import dev.dynamorelay.engine.action.AwsError;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the store's tests share: databases, tables, values, and DynamoDB's errors asserted exactly. */
final class Fixtures {

	private Fixtures() {
	}

	/** A database whose Time to Live sweeps only when told to. */
	static Database database() {
		return new Database(DatabaseOptions.defaults().withTimeToLiveSweep(Duration.ZERO));
	}

	static AttributeValue s(String value) {
		return AttributeValue.fromS(value);
	}

	static AttributeValue n(String value) {
		return AttributeValue.fromN(value);
	}

	static AttributeValue n(long value) {
		return AttributeValue.fromN(Long.toString(value));
	}

	static AttributeValue b(byte... value) {
		return AttributeValue.fromB(SdkBytes.fromByteArray(value));
	}

	/** An item from names and values, in order. */
	static Map<String, AttributeValue> item(Object... namesAndValues) {
		Map<String, AttributeValue> item = new LinkedHashMap<>();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			item.put((String) namesAndValues[i], (AttributeValue) namesAndValues[i + 1]);
		}
		return item;
	}

	static AttributeDefinition definition(String name, String type) {
		return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
	}

	static KeySchemaElement hash(String name) {
		return KeySchemaElement.builder().attributeName(name).keyType(KeyType.HASH).build();
	}

	static KeySchemaElement range(String name) {
		return KeySchemaElement.builder().attributeName(name).keyType(KeyType.RANGE).build();
	}

	static ProvisionedThroughput throughput(long read, long write) {
		return ProvisionedThroughput.builder().readCapacityUnits(read).writeCapacityUnits(write).build();
	}

	/** A pay-per-request table keyed by {@code pk} of {@code type}. */
	static void hashTable(Database database, String name, String type) {
		database.createTable(CreateTableRequest.builder()
			.tableName(name)
			.attributeDefinitions(definition("pk", type))
			.keySchema(hash("pk"))
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.build());
	}

	/** A pay-per-request table keyed by {@code pk} and {@code sk}. */
	static void rangeTable(Database database, String name, String hashType, String rangeType) {
		database.createTable(CreateTableRequest.builder()
			.tableName(name)
			.attributeDefinitions(definition("pk", hashType), definition("sk", rangeType))
			.keySchema(hash("pk"), range("sk"))
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.build());
	}

	/** Asserts a {@code ValidationException} with exactly {@code message}. */
	static void assertValidation(ThrowingCallable call, String message) {
		assertError(call, "ValidationException", message);
	}

	/** Asserts an {@link AwsError} of {@code type} with exactly {@code message}. */
	static void assertError(ThrowingCallable call, String type, String message) {
		assertThatThrownBy(call).isInstanceOf(AwsError.class)
			.hasMessage(message)
			.satisfies((error) -> org.assertj.core.api.Assertions.assertThat(((AwsError) error).type()).isEqualTo(type));
	}

}
