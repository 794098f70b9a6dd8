package dev.dynamorelay.engine.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.dynamorelay.engine.action.AwsError;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DynamoDB's JSON read into and written from the SDK's model, with DynamoDB's own messages for a value of the
 * wrong type (as dynalite's tests, written against DynamoDB, record them in {@code test/helpers.js}'s
 * {@code assertType}).
 */
class JsonCodecTest {

	private final JsonCodec codec = new JsonCodec();

	private <B extends SdkPojo> B read(B builder, String json) {
		byte[] body = json.getBytes(StandardCharsets.UTF_8);
		this.codec.read(body, 0, body.length, builder);
		return builder;
	}

	private String write(SdkPojo pojo) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		this.codec.write(pojo, out);
		return out.toString(StandardCharsets.UTF_8);
	}

	private void assertSerialization(SdkPojo builder, String json, String message) {
		assertThatThrownBy(() -> read(builder, json)).isInstanceOfSatisfying(AwsError.class, (error) -> {
			assertThat(error.type()).isEqualTo("SerializationException");
			assertThat(error.getMessage()).isEqualTo(message);
		});
	}

	@Test
	void readsARequestIntoItsBuilder() {
		GetItemRequest request = read(GetItemRequest.builder(),
				"{\"TableName\":\"t\",\"Key\":{\"id\":{\"S\":\"a\"},\"n\":{\"N\":\"1.5\"},\"b\":{\"B\":\"AQI=\"}},"
						+ "\"ConsistentRead\":true,\"ExpressionAttributeNames\":{\"#a\":\"x\"}}")
			.build();
		assertThat(request.tableName()).isEqualTo("t");
		assertThat(request.key()).containsExactly(Map.entry("id", AttributeValue.fromS("a")),
				Map.entry("n", AttributeValue.fromN("1.5")),
				Map.entry("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { 1, 2 }))));
		assertThat(request.consistentRead()).isTrue();
		assertThat(request.expressionAttributeNames()).containsEntry("#a", "x");
	}

	@Test
	void readsNestedStructuresListsAndMaps() {
		BatchWriteItemRequest request = read(BatchWriteItemRequest.builder(),
				"{\"RequestItems\":{\"t\":[{\"PutRequest\":{\"Item\":{\"l\":{\"L\":[{\"M\":{\"x\":{\"SS\":[\"a\",\"b\"]}}},"
						+ "{\"NULL\":true},{\"BOOL\":false}]}}}},{\"DeleteRequest\":{\"Key\":{\"id\":{\"N\":\"7\"}}}}]}}")
			.build();
		assertThat(request.requestItems().get("t")).hasSize(2);
		AttributeValue list = request.requestItems().get("t").get(0).putRequest().item().get("l");
		assertThat(list.l()).containsExactly(
				AttributeValue.fromM(Map.of("x", AttributeValue.fromSs(List.of("a", "b")))),
				AttributeValue.fromNul(true), AttributeValue.fromBool(false));
		assertThat(request.requestItems().get("t").get(1).deleteRequest().key()).containsEntry("id",
				AttributeValue.fromN("7"));
	}

	@Test
	void ignoresUnknownMembersAndTakesNullAsAbsent() {
		GetItemRequest request = read(GetItemRequest.builder(),
				"{\"Whatever\":{\"deep\":[1,{\"x\":null}]},\"TableName\":null,\"ConsistentRead\":null,"
						+ "\"Key\":{\"id\":{\"S\":\"a\",\"Unknown\":5}}}")
			.build();
		assertThat(request.tableName()).isNull();
		assertThat(request.consistentRead()).isNull();
		assertThat(request.key()).containsExactly(Map.entry("id", AttributeValue.fromS("a")));
	}

	@Test
	void keepsAttributeValuesAsSentForTheStoreToJudge() {
		Map<String, AttributeValue> item = read(PutItemRequest.builder(),
				"{\"Item\":{\"two\":{\"S\":\"a\",\"N\":\"1\"},\"none\":{},\"nothing\":null,\"emptySet\":{\"SS\":[]},"
						+ "\"emptyList\":{\"L\":[]},\"falseNull\":{\"NULL\":false}}}")
			.build()
			.item();
		assertThat(item.get("two").s()).isEqualTo("a");
		assertThat(item.get("two").n()).isEqualTo("1");
		assertThat(item.get("none").type()).isEqualTo(AttributeValue.Type.UNKNOWN_TO_SDK_VERSION);
		// A null value in a map of attribute values reaches the store as an empty AttributeValue, which it refuses.
		assertThat(item.get("nothing").type()).isEqualTo(AttributeValue.Type.UNKNOWN_TO_SDK_VERSION);
		assertThat(item.get("emptySet").hasSs()).isTrue();
		assertThat(item.get("emptySet").ss()).isEmpty();
		assertThat(item.get("emptyList").hasL()).isTrue();
		assertThat(item.get("falseNull").nul()).isFalse();
	}

	@Test
	void keepsAnEmptyListOfTheRequestApartFromAnAbsentOne() {
		assertThat(read(GetItemRequest.builder(), "{\"AttributesToGet\":[]}").build().hasAttributesToGet()).isTrue();
		assertThat(read(GetItemRequest.builder(), "{}").build().hasAttributesToGet()).isFalse();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = {
			// String (helpers.js: assertType 'String')
			"{\"TableName\":true}|TRUE_VALUE cannot be converted to String",
			"{\"TableName\":false}|FALSE_VALUE cannot be converted to String",
			"{\"TableName\":23}|NUMBER_VALUE cannot be converted to String",
			"{\"TableName\":-2147483648}|NUMBER_VALUE cannot be converted to String",
			"{\"TableName\":2147483648}|NUMBER_VALUE cannot be converted to String",
			"{\"TableName\":34.56}|DECIMAL_VALUE cannot be converted to String",
			"{\"TableName\":[]}|Unrecognized collection type class java.lang.String",
			"{\"TableName\":{}}|Start of structure or map found where not expected",
			// Boolean
			"{\"ConsistentRead\":\"23\"}|Unexpected token received from parser",
			"{\"ConsistentRead\":23}|NUMBER_VALUE cannot be converted to Boolean",
			"{\"ConsistentRead\":34.56}|DECIMAL_VALUE cannot be converted to Boolean",
			"{\"ConsistentRead\":[]}|Unrecognized collection type class java.lang.Boolean",
			"{\"ConsistentRead\":{}}|Start of structure or map found where not expected",
			// List
			"{\"AttributesToGet\":\"23\"}|Unexpected field type",
			"{\"AttributesToGet\":true}|Unexpected field type",
			"{\"AttributesToGet\":34.56}|Unexpected field type",
			"{\"AttributesToGet\":{}}|Start of structure or map found where not expected",
			"{\"AttributesToGet\":[true]}|TRUE_VALUE cannot be converted to String",
			// Map<java.lang.String>
			"{\"ExpressionAttributeNames\":23}|Unexpected field type",
			"{\"ExpressionAttributeNames\":[]}|Unrecognized collection type java.util.Map<java.lang.String, java.lang.String>",
			"{\"ExpressionAttributeNames\":{\"#a\":5}}|NUMBER_VALUE cannot be converted to String",
			// Map<AttributeValue> and the attribute value's own members
			"{\"Key\":\"23\"}|Unexpected field type",
			"{\"Key\":[]}|Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>",
			"{\"Key\":{\"a\":\"23\"}}|Unexpected value type in payload",
			"{\"Key\":{\"a\":23}}|Unexpected value type in payload",
			"{\"Key\":{\"a\":[]}}|Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue",
			"{\"Key\":{\"a\":{\"S\":true}}}|TRUE_VALUE cannot be converted to String",
			"{\"Key\":{\"a\":{\"N\":5}}}|NUMBER_VALUE cannot be converted to String",
			"{\"Key\":{\"a\":{\"BOOL\":\"maybe\"}}}|Unexpected token received from parser",
			"{\"Key\":{\"a\":{\"NULL\":5}}}|NUMBER_VALUE cannot be converted to Boolean",
			"{\"Key\":{\"a\":{\"SS\":5}}}|Unexpected field type",
			"{\"Key\":{\"a\":{\"SS\":[5]}}}|NUMBER_VALUE cannot be converted to String",
			"{\"Key\":{\"a\":{\"L\":{}}}}|Start of structure or map found where not expected",
			"{\"Key\":{\"a\":{\"L\":[5]}}}|Unexpected value type in payload",
			"{\"Key\":{\"a\":{\"M\":[]}}}|Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>",
			"{\"Key\":{\"a\":{\"M\":{\"b\":true}}}}|Unexpected value type in payload",
			"{\"Key\":{\"a\":{\"L\":[{\"BS\":[5]}]}}}|only base-64-encoded strings are convertible to bytes",
			// Blob
			"{\"Key\":{\"a\":{\"B\":true}}}|only base-64-encoded strings are convertible to bytes",
			"{\"Key\":{\"a\":{\"B\":34.56}}}|only base-64-encoded strings are convertible to bytes",
			"{\"Key\":{\"a\":{\"B\":[]}}}|Unrecognized collection type class java.nio.ByteBuffer",
			"{\"Key\":{\"a\":{\"B\":{}}}}|Start of structure or map found where not expected",
			"{\"Key\":{\"a\":{\"B\":\"23456\"}}}|Base64 encoded length is expected a multiple of 4 bytes but found: 5",
			"{\"Key\":{\"a\":{\"B\":\"=+/=\"}}}|Invalid last non-pad Base64 character dectected",
			"{\"Key\":{\"a\":{\"B\":\"+/+=\"}}}|Invalid last non-pad Base64 character dectected" })
	void refusesAValueOfTheWrongTypeWithDynamoDbsMessage(String json, String message) {
		assertSerialization(GetItemRequest.builder(), json, message);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = {
			// Integer (ListTables' Limit; helpers.js: assertType 'Integer')
			"{\"Limit\":\"23\"}|STRING_VALUE cannot be converted to Integer",
			"{\"Limit\":true}|TRUE_VALUE cannot be converted to Integer",
			"{\"Limit\":false}|FALSE_VALUE cannot be converted to Integer",
			"{\"Limit\":[]}|Unrecognized collection type class java.lang.Integer",
			"{\"Limit\":{}}|Start of structure or map found where not expected",
			// Too large for the member: not documented by DynamoDB; the type's own message (docs/engine.md).
			"{\"Limit\":10000000000}|NUMBER_VALUE cannot be converted to Integer" })
	void refusesAnIntegerOfTheWrongType(String json, String message) {
		assertSerialization(ListTablesRequest.builder(), json, message);
	}

	@Test
	void truncatesADecimalWhereAnIntegerBelongs() {
		assertThat(read(ListTablesRequest.builder(), "{\"Limit\":3.9}").build().limit()).isEqualTo(3);
		assertThat(read(QueryRequest.builder(), "{\"Limit\":-1.5}").build().limit()).isEqualTo(-2);
	}

	@Test
	void namesTheStructureAndListTypesAsDynamoDbsModelDoes() {
		// BatchWriteItem (batchWriteItem.js: serializations)
		assertSerialization(BatchWriteItemRequest.builder(), "{\"RequestItems\":[]}",
				"Unrecognized collection type java.util.Map<java.lang.String, "
						+ "java.util.List<com.amazonaws.dynamodb.v20120810.WriteRequest>>");
		assertSerialization(BatchWriteItemRequest.builder(), "{\"RequestItems\":{\"t\":5}}",
				"class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl cannot be cast to class java.lang.Class "
						+ "(sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and java.lang.Class are in module "
						+ "java.base of loader 'bootstrap')");
		assertSerialization(BatchWriteItemRequest.builder(), "{\"RequestItems\":{\"t\":[5]}}",
				"Unexpected value type in payload");
		assertSerialization(BatchWriteItemRequest.builder(), "{\"RequestItems\":{\"t\":[[]]}}",
				"Unrecognized collection type class com.amazonaws.dynamodb.v20120810.WriteRequest");
		assertSerialization(BatchWriteItemRequest.builder(), "{\"RequestItems\":{\"t\":[{\"PutRequest\":5}]}}",
				"Unexpected field type");
		assertSerialization(BatchWriteItemRequest.builder(), "{\"RequestItems\":{\"t\":[{\"PutRequest\":[]}]}}",
				"Unrecognized collection type class com.amazonaws.dynamodb.v20120810.PutRequest");
		// BatchGetItem (batchGetItem.js: a map inside a list)
		assertSerialization(BatchGetItemRequest.builder(), "{\"RequestItems\":{\"t\":{\"Keys\":[5]}}}",
				"class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl cannot be cast to class java.lang.Class "
						+ "(sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and java.lang.Class are in module "
						+ "java.base of loader 'bootstrap')");
		assertSerialization(BatchGetItemRequest.builder(), "{\"RequestItems\":{\"t\":{\"Keys\":[[]]}}}",
				"Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>");
		assertSerialization(BatchGetItemRequest.builder(), "{\"RequestItems\":{\"t\":5}}",
				"Unexpected value type in payload");
		// CreateTable (createTable.js: a structure member)
		assertSerialization(CreateTableRequest.builder(), "{\"ProvisionedThroughput\":[]}",
				"Unrecognized collection type class com.amazonaws.dynamodb.v20120810.ProvisionedThroughput");
		assertSerialization(CreateTableRequest.builder(), "{\"ProvisionedThroughput\":{\"ReadCapacityUnits\":\"5\"}}",
				"STRING_VALUE cannot be converted to Long");
		assertSerialization(CreateTableRequest.builder(), "{\"KeySchema\":[5]}", "Unexpected value type in payload");
	}

	@Test
	void takesTheSpellingsOfABooleanThatDynamoDbTakes() {
		for (String yes : List.of("true", "TRUE", "1", "yes", "Yes")) {
			assertThat(read(GetItemRequest.builder(), "{\"ConsistentRead\":\"" + yes + "\"}").build().consistentRead())
				.isTrue();
		}
		for (String no : List.of("false", "0", "no", "NO")) {
			assertThat(read(GetItemRequest.builder(), "{\"ConsistentRead\":\"" + no + "\"}").build().consistentRead())
				.isFalse();
		}
	}

	@Test
	void refusesABodyThatIsNotJsonWithoutAMessageEvenAfterATypeError() {
		for (String json : List.of("{", "{\"TableName\":5", "{\"TableName\":5,}", "{} x", "{}{}", "hi",
				"{\"TableName\":\"a\"]")) {
			assertSerialization(GetItemRequest.builder(), json, null);
			assertThat(this.codec.isJson(json.getBytes(StandardCharsets.UTF_8), 0, json.length())).isFalse();
		}
		assertThat(this.codec.isJson("{\"a\":[1,{}]}".getBytes(StandardCharsets.UTF_8), 0, 12)).isTrue();
	}

	@Test
	void readsJsonThatIsNotAnObjectAsAnEmptyRequest() {
		assertThat(read(GetItemRequest.builder(), "[1,2]").build()).isEqualTo(GetItemRequest.builder().build());
		assertThat(read(GetItemRequest.builder(), "null").build()).isEqualTo(GetItemRequest.builder().build());
	}

	@Test
	void writesOnlyWhatIsPresent() {
		assertThat(write(GetItemResponse.builder().build())).isEqualTo("{}");
		assertThat(write(GetItemResponse.builder().item(Map.of("a", AttributeValue.fromS("x"))).build()))
			.isEqualTo("{\"Item\":{\"a\":{\"S\":\"x\"}}}");
		// A list the answer set, even empty, is written; one it never set is not.
		assertThat(write(QueryResponse.builder().items(List.of()).count(0).scannedCount(0).build()))
			.isEqualTo("{\"Items\":[],\"Count\":0,\"ScannedCount\":0}");
	}

	@Test
	void writesEveryKindOfValue() {
		Map<String, AttributeValue> item = new java.util.LinkedHashMap<>();
		item.put("s", AttributeValue.fromS("é\"\n"));
		item.put("n", AttributeValue.fromN("-1.5E+3"));
		item.put("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { (byte) 0xff, 0 })));
		item.put("ss", AttributeValue.fromSs(List.of("a")));
		item.put("ns", AttributeValue.fromNs(List.of("1", "2")));
		item.put("bs", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[] { 1 }))));
		item.put("m", AttributeValue.fromM(Map.of("x", AttributeValue.fromBool(true))));
		item.put("l", AttributeValue.fromL(List.of(AttributeValue.fromNul(true))));
		assertThat(write(GetItemResponse.builder().item(item).build())).isEqualTo("{\"Item\":{"
				+ "\"s\":{\"S\":\"é\\\"\\n\"},\"n\":{\"N\":\"-1.5E+3\"},\"b\":{\"B\":\"/wA=\"},\"ss\":{\"SS\":[\"a\"]},"
				+ "\"ns\":{\"NS\":[\"1\",\"2\"]},\"bs\":{\"BS\":[\"AQ==\"]},\"m\":{\"M\":{\"x\":{\"BOOL\":true}}},"
				+ "\"l\":{\"L\":[{\"NULL\":true}]}}}");
	}

	@Test
	void writesTimestampsAsEpochSecondsWithTheirFraction() {
		assertThat(write(TableDescription.builder().creationDateTime(Instant.ofEpochMilli(1_507_853_354_807L)).build()))
			.isEqualTo("{\"CreationDateTime\":1507853354.807}");
		assertThat(write(StreamRecord.builder().approximateCreationDateTime(Instant.ofEpochSecond(1_700_000_000L)).build()))
			.isEqualTo("{\"ApproximateCreationDateTime\":1700000000}");
	}

	@Test
	void writesAnErrorInDynamoDbsShape() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ErrorBodies.write(this.codec, AwsError.validation("bad"), out);
		assertThat(out.toString(StandardCharsets.UTF_8))
			.isEqualTo("{\"__type\":\"com.amazon.coral.validate#ValidationException\",\"message\":\"bad\"}");
		out.reset();
		ErrorBodies.write(this.codec, AwsError.conditionalCheckFailed(Map.of("id", AttributeValue.fromS("a"))), out);
		assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(
				"{\"__type\":\"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException\","
						+ "\"message\":\"The conditional request failed\",\"Item\":{\"id\":{\"S\":\"a\"}}}");
		out.reset();
		ErrorBodies.write(this.codec, AwsError.transactionCanceled(
				"Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]",
				List.of(CancellationReason.builder().code("ConditionalCheckFailed").message("The conditional request failed")
					.build(), CancellationReason.builder().code("None").build())), out);
		assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(
				"{\"__type\":\"com.amazonaws.dynamodb.v20120810#TransactionCanceledException\",\"Message\":\"Transaction "
						+ "cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]\","
						+ "\"CancellationReasons\":[{\"Code\":\"ConditionalCheckFailed\",\"Message\":\"The conditional "
						+ "request failed\"},{\"Code\":\"None\"}]}");
		out.reset();
		ErrorBodies.write(this.codec, AwsError.serialization("NUMBER_VALUE cannot be converted to String"), out);
		assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(
				"{\"__type\":\"com.amazon.coral.service#SerializationException\",\"Message\":\"NUMBER_VALUE cannot be "
						+ "converted to String\"}");
	}

}
