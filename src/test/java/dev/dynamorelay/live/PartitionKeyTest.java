package dev.dynamorelay.live;

import java.util.List;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import static org.assertj.core.api.Assertions.assertThat;

/** A partition as subscriptions are registered and records routed by it: equal where DynamoDB's partition is one. */
class PartitionKeyTest {

	@Test
	void numbersAreOnePartitionByValue() {
		assertThat(PartitionKey.of("year", AttributeValue.fromN("10.0")))
			.isEqualTo(PartitionKey.of("year", AttributeValue.fromN("10")))
			.isEqualTo(PartitionKey.of("year", AttributeValue.fromN("1E+1")));
		assertThat(PartitionKey.of("year", AttributeValue.fromN("10"))).isNotEqualTo(
				PartitionKey.of("year", AttributeValue.fromN("10.5")));
	}

	@Test
	void aStringAndANumberOfTheSameTextAreTwoPartitions() {
		assertThat(PartitionKey.of("id", AttributeValue.fromS("10"))).isNotEqualTo(
				PartitionKey.of("id", AttributeValue.fromN("10")));
		assertThat(PartitionKey.of("id", AttributeValue.fromS("AAAA"))).isNotEqualTo(
				PartitionKey.of("id", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[3]))));
	}

	@Test
	void theSameValueOfAnotherAttributeIsAnotherPartition() {
		assertThat(PartitionKey.of("userId", AttributeValue.fromS("u1"))).isNotEqualTo(
				PartitionKey.of("category", AttributeValue.fromS("u1")));
	}

	@Test
	void binaryValuesAreEqualByTheirBytes() {
		assertThat(PartitionKey.of("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { 1, 2 }))))
			.isEqualTo(PartitionKey.of("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { 1, 2 }))));
	}

	@Test
	void aValueNoKeyHoldsIsInNoPartition() {
		assertThat(PartitionKey.of("userId", AttributeValue.fromL(List.of(AttributeValue.fromS("u1"))))).isEmpty();
		assertThat(PartitionKey.of("userId", AttributeValue.fromBool(true))).isEmpty();
	}

}
