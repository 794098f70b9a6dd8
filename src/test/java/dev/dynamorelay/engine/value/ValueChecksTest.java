package dev.dynamorelay.engine.value;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.action.AwsError;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** DynamoDB's messages for values it does not hold (dynalite's test/putItem.js holds them, from DynamoDB). */
class ValueChecksTest {

	@Test
	void refusesAValueWithoutAType() {
		assertThat(ValueChecks.problem(AttributeValue.builder().build()))
			.isEqualTo("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
	}

	@Test
	void refusesAValueWithTwoTypes() {
		assertThat(ValueChecks.problem(AttributeValue.builder().s("a").n("1").build()))
			.isEqualTo("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes");
	}

	@Test
	void refusesAFalseNull() {
		assertThat(ValueChecks.problem(AttributeValue.fromNul(false)))
			.isEqualTo("One or more parameter values were invalid: Null attribute value types must have the value of true");
	}

	@Test
	void refusesEmptySets() {
		assertThat(ValueChecks.problem(AttributeValue.fromSs(List.of())))
			.isEqualTo("One or more parameter values were invalid: An string set  may not be empty");
		assertThat(ValueChecks.problem(AttributeValue.fromNs(List.of())))
			.isEqualTo("One or more parameter values were invalid: An number set  may not be empty");
		assertThat(ValueChecks.problem(AttributeValue.fromBs(List.of())))
			.isEqualTo("One or more parameter values were invalid: Binary sets should not be empty");
	}

	@Test
	void refusesSetsWithDuplicates() {
		assertThat(ValueChecks.problem(AttributeValue.fromSs(List.of("a", "a"))))
			.isEqualTo("One or more parameter values were invalid: Input collection [a, a] contains duplicates.");
		// numbers are duplicates by value
		assertThat(ValueChecks.problem(AttributeValue.fromNs(List.of("1", "1.0")))).isEqualTo("Input collection contains duplicates");
		assertThat(ValueChecks.problem(AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("a"), SdkBytes.fromUtf8String("a")))))
			.isEqualTo("One or more parameter values were invalid: Input collection [YQ==, YQ==]of type BS contains duplicates.");
	}

	@Test
	void refusesNumbersDynamoDbDoesNotHoldInsideSetsListsAndMaps() {
		assertThat(ValueChecks.problem(AttributeValue.fromNs(List.of("1", "x"))))
			.isEqualTo("The parameter cannot be converted to a numeric value: x");
		assertThat(ValueChecks.problem(AttributeValue.fromL(List.of(AttributeValue.fromN("1E+200")))))
			.isEqualTo("Number overflow. Attempting to store a number with magnitude larger than supported range");
		assertThat(ValueChecks.problem(AttributeValue.fromM(Map.of("a", AttributeValue.builder().build()))))
			.isEqualTo("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
	}

	@Test
	void refusesMoreThan32LevelsOfNesting() {
		AttributeValue value = AttributeValue.fromS("deep");
		for (int i = 0; i < 31; i++) {
			value = AttributeValue.fromL(List.of(value));
		}
		assertThat(ValueChecks.problem(value)).isNull();
		assertThat(ValueChecks.problem(AttributeValue.fromM(Map.of("a", value))))
			.isEqualTo("Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit");
	}

	@Test
	void writesNumbersBackInPlainNotation() {
		Map<String, AttributeValue> item = ValueChecks.checkItem(Map.of("n", AttributeValue.fromN("1E+2"), "ns",
				AttributeValue.fromNs(List.of("1.50")), "m", AttributeValue.fromM(Map.of("x", AttributeValue.fromN("-0.0")))));
		assertThat(item).containsEntry("n", AttributeValue.fromN("100"))
			.containsEntry("ns", AttributeValue.fromNs(List.of("1.5")))
			.containsEntry("m", AttributeValue.fromM(Map.of("x", AttributeValue.fromN("0"))));
	}

	@Test
	void throwsAValidationExceptionForAnItemWithABadValue() {
		assertThatThrownBy(() -> ValueChecks.checkItem(Map.of("a", AttributeValue.fromSs(List.of()))))
			.isInstanceOf(AwsError.class)
			.hasMessage("One or more parameter values were invalid: An string set  may not be empty");
	}

	@Test
	void namesTypesAsDynamoDbWritesThem() {
		assertThat(ValueChecks.typeName(AttributeValue.fromNul(true))).isEqualTo("NULL");
		assertThat(ValueChecks.typeName(AttributeValue.fromBool(true))).isEqualTo("BOOL");
		assertThat(ValueChecks.typeName(AttributeValue.fromNs(List.of("1")))).isEqualTo("NS");
	}

}
