package dev.dynamorelay.engine.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.dynamorelay.engine.DynamoDbEngine;
import dev.dynamorelay.engine.EngineOptions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every malformed request gets DynamoDB's exact answer: status, body, CRC32 and length, as dynalite's
 * {@code test/connection.js} (written against DynamoDB) records them, in DynamoDB's order of checks.
 */
class WireProtocolTest {

	private static final TestActions ACTIONS = new TestActions();

	private static DynamoDbEngine engine;

	private static int port;

	@BeforeAll
	static void start() {
		engine = DynamoDbEngine.start(EngineOptions.defaults().withActions(ACTIONS.actions()));
		port = engine.endpoint().getPort();
	}

	@AfterAll
	static void stop() {
		engine.close();
	}

	private static RawHttp.Response post(Map<String, String> headers, String body) throws Exception {
		return RawHttp.exchange(port, "POST", "/", headers, body);
	}

	private static Map<String, String> headers(String... pairs) {
		Map<String, String> headers = new LinkedHashMap<>();
		for (int i = 0; i < pairs.length; i += 2) {
			headers.put(pairs[i], pairs[i + 1]);
		}
		return headers;
	}

	private static void assertRequestId(RawHttp.Response response) {
		assertThat(response.header("x-amzn-RequestId")).matches("[0-9A-Z]{52}");
	}

	private static void assertNotFound(RawHttp.Response response) {
		assertThat(response.status()).isEqualTo(404);
		assertThat(response.body()).isEqualTo("<UnknownOperationException/>\n");
		assertThat(response.header("x-amz-crc32")).isEqualTo("3552371480");
		assertThat(response.header("content-length")).isEqualTo("29");
		assertRequestId(response);
	}

	private static void assertBody(RawHttp.Response response, String body, long crc32, String contentType) {
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.body()).isEqualTo(body);
		assertThat(response.header("x-amz-crc32")).isEqualTo(Long.toString(crc32));
		assertThat(response.header("content-type")).isEqualTo(contentType);
		assertThat(response.header("content-length"))
			.isEqualTo(Integer.toString(body.getBytes(StandardCharsets.UTF_8).length));
		assertRequestId(response);
	}

	private static void assertSerialization(RawHttp.Response response, String contentType) {
		assertBody(response, "{\"__type\":\"com.amazon.coral.service#SerializationException\"}", 3948637019L,
				contentType);
	}

	private static void assertUnknownOperation(RawHttp.Response response, String contentType) {
		assertBody(response, "{\"__type\":\"com.amazon.coral.service#UnknownOperationException\"}", 1368724161L,
				contentType);
	}

	private static void assertMissingToken(RawHttp.Response response) {
		assertBody(response, "{\"__type\":\"com.amazon.coral.service#MissingAuthenticationTokenException\","
				+ "\"message\":\"Request is missing Authentication Token\"}", 2088342776L, "application/json");
	}

	private static void assertIncomplete(RawHttp.Response response, String message, long crc32) {
		assertBody(response, "{\"__type\":\"com.amazon.coral.service#IncompleteSignatureException\",\"message\":\""
				+ message + "\"}", crc32, "application/json");
	}

	@Test
	void answersTheHealthCheckOnGet() throws Exception {
		RawHttp.Response response = RawHttp.exchange(port, "GET", "/", Map.of(), "");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("healthy: dynamodb.us-east-1.amazonaws.com ");
		assertThat(response.header("x-amz-crc32")).isEqualTo("3128867991");
		assertThat(response.header("content-length")).isEqualTo("42");
		assertRequestId(response);
	}

	@Test
	void refusesOtherMethodsAndBodiesThatAreNotJsonByType() throws Exception {
		assertNotFound(RawHttp.exchange(port, "PUT", "/", Map.of(), ""));
		assertNotFound(RawHttp.exchange(port, "DELETE", "/", Map.of(), ""));
		assertNotFound(RawHttp.exchange(port, "OPTIONS", "/", Map.of(), ""));
		assertNotFound(post(Map.of(), "hi"));
		assertNotFound(post(headers("Content-Type", "whatever"), "hi"));
		assertNotFound(post(headers("Content-Type", "application/x-amz-json-1.1"), "hi"));
		assertNotFound(post(headers("Content-Type", "application/jsonasdf"), "hi"));
	}

	@Test
	void refusesABodyThatIsNotJson() throws Exception {
		assertSerialization(post(headers("Content-Type", "application/json"), "hi"), "application/json");
		assertSerialization(post(headers("Content-Type", "application/x-amz-json-1.0"), "hi"),
				"application/x-amz-json-1.0");
		assertSerialization(post(headers("Content-Type", "application/json;"), "hi"), "application/json");
		assertSerialization(post(headers("Content-Type", "  application/json  ;   asfd"), "hi"), "application/json");
		assertSerialization(post(headers("Content-Type", "application/json;blahblah"), "hi"), "application/json");
		assertSerialization(post(headers("Content-Type", "application/x-amz-json-1.0;blahblah"), "hi"),
				"application/x-amz-json-1.0");
		// Before the target and the signature are looked at.
		Map<String, String> signed = RawHttp.signed("DynamoDB_20120810.GetItem");
		assertSerialization(post(signed, "{\"TableName\":5"), "application/x-amz-json-1.0");
		signed.remove("Authorization");
		assertSerialization(post(signed, "{"), "application/x-amz-json-1.0");
	}

	@Test
	void refusesAMissingOrUnknownTarget() throws Exception {
		assertUnknownOperation(post(Map.of(), ""), "application/json");
		assertUnknownOperation(post(headers("Content-Type", "application/json"), "{}"), "application/json");
		assertUnknownOperation(post(headers("Content-Type", "application/x-amz-json-1.0"), "{}"),
				"application/x-amz-json-1.0");
		assertUnknownOperation(post(headers("Content-Type", "application/json;charset=asfdsaf"), "{}"),
				"application/json");
		assertUnknownOperation(post(headers("X-Amz-Target", "whatever"), ""), "application/json");
		assertUnknownOperation(post(headers("X-Amz-Target", "DynamoDB_20120810.ListTable"), ""), "application/json");
		// A signed call to an operation the engine does not serve, with a body of the wrong shape for any.
		Map<String, String> signed = RawHttp.signed("DynamoDB_20120810.DescribeBackup");
		assertUnknownOperation(post(signed, "{\"BackupArn\":5}"), "application/x-amz-json-1.0");
	}

	@Test
	void setsCorsHeadersForAnOrigin() throws Exception {
		RawHttp.Response unknown = post(headers("Origin", "whatever"), "");
		assertThat(unknown.header("access-control-allow-origin")).isEqualTo("*");
		assertUnknownOperation(unknown, "application/json");
		RawHttp.Response preflight = RawHttp.exchange(port, "OPTIONS", "/", headers("Origin", "whatever",
				"Access-Control-Request-Headers", "a, b, c", "Access-Control-Request-Method", "d"), "");
		assertThat(preflight.status()).isEqualTo(200);
		assertThat(preflight.body()).isEmpty();
		assertThat(preflight.header("access-control-allow-origin")).isEqualTo("*");
		assertThat(preflight.header("access-control-allow-headers")).isEqualTo("a, b, c");
		assertThat(preflight.header("access-control-allow-methods")).isEqualTo("d");
		assertThat(preflight.header("access-control-max-age")).isEqualTo("172800");
		assertThat(preflight.header("content-length")).isEqualTo("0");
		assertRequestId(preflight);
	}

	@Test
	void refusesACallWithoutASignature() throws Exception {
		String target = "DynamoDB_20120810.ListTables";
		assertMissingToken(post(headers("X-Amz-Target", target), ""));
		assertMissingToken(post(headers("X-Amz-Target", target, "Authorization", "AWS4"), ""));
		assertMissingToken(RawHttp.exchange(port, "POST", "/?X-Amz-Algorith",
				headers("X-Amz-Target", target, "Authorization", "X"), ""));
		assertMissingToken(RawHttp.exchange(port, "POST",
				"/?X-Amz-Credential=a&X-Amz-Signature=b&X-Amz-SignedHeaders=c&X-Amz-Date=d", headers("X-Amz-Target", target),
				""));
		// A body of the wrong shape is not looked at before the signature.
		assertMissingToken(post(headers("X-Amz-Target", target, "Content-Type", "application/json"), "{\"Limit\":\"a\"}"));
		assertBody(RawHttp.exchange(port, "POST", "/?X-Amz-Algorithm",
				headers("X-Amz-Target", target, "Authorization", "X"), ""),
				"{\"__type\":\"com.amazon.coral.service#InvalidSignatureException\",\"message\":\"Found both "
						+ "'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.\"}",
				2139606068L, "application/json");
	}

	@Test
	void refusesAnIncompleteSignature() throws Exception {
		String target = "DynamoDB_20120810.ListTables";
		assertIncomplete(post(headers("X-Amz-Target", target, "Authorization", "AWS4-"), ""),
				"Authorization header requires 'Credential' parameter. Authorization header requires 'Signature' "
						+ "parameter. Authorization header requires 'SignedHeaders' parameter. Authorization header "
						+ "requires existence of either a 'X-Amz-Date' or a 'Date' header. Authorization=AWS4-",
				1828866742L);
		assertIncomplete(post(headers("X-Amz-Target", target, "Authorization", "AWS4- Signature=b Credential=a",
				"Date", "a"), ""), "Authorization header requires 'SignedHeaders' parameter. "
						+ "Authorization=AWS4- Signature=b Credential=a", 15336762L);
		assertIncomplete(post(headers("X-Amz-Target", target, "Authorization", "AWS4- Signature=b,Credential=a",
				"Date", "a"), ""), "Authorization header requires 'SignedHeaders' parameter. "
						+ "Authorization=AWS4- Signature=b,Credential=a", 1159703774L);
		assertIncomplete(post(headers("X-Amz-Target", target, "Authorization", "AWS4- Signature=b, Credential=a",
				"Date", "a"), ""), "Authorization header requires 'SignedHeaders' parameter. "
						+ "Authorization=AWS4- Signature=b, Credential=a", 164353342L);
		assertIncomplete(RawHttp.exchange(port, "POST", "/?X-Amz-Algorithm", headers("X-Amz-Target", target), ""),
				"AWS query-string parameters must include 'X-Amz-Algorithm'. AWS query-string parameters must "
						+ "include 'X-Amz-Credential'. AWS query-string parameters must include 'X-Amz-Signature'. AWS "
						+ "query-string parameters must include 'X-Amz-SignedHeaders'. AWS query-string parameters must "
						+ "include 'X-Amz-Date'. Re-examine the query-string parameters.",
				2900502663L);
		assertIncomplete(RawHttp.exchange(port, "POST",
				"/?X-Amz-Algorithm=a&X-Amz-Credential=b&X-Amz-Signature=c&X-Amz-Date=d", headers("X-Amz-Target", target),
				""), "AWS query-string parameters must include 'X-Amz-SignedHeaders'. Re-examine the query-string "
						+ "parameters.", 3712057481L);
	}

	@Test
	void refusesAnEmptyBodyOfASignedCall() throws Exception {
		assertSerialization(post(RawHttp.signed("DynamoDB_20120810.ListTables"), ""), "application/x-amz-json-1.0");
	}

	@Test
	void refusesAMemberOfTheWrongTypeWithDynamoDbsMessage() throws Exception {
		RawHttp.Response response = post(RawHttp.signed("DynamoDB_20120810.GetItem"), "{\"TableName\":5}");
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.body()).isEqualTo("{\"__type\":\"com.amazon.coral.service#SerializationException\","
				+ "\"Message\":\"NUMBER_VALUE cannot be converted to String\"}");
		assertThat(response.header("x-amz-crc32")).isEqualTo(crc32(response.body()));
	}

	@Test
	void answersAnOperationWithItsJsonAndCrc32() throws Exception {
		RawHttp.Response response = post(RawHttp.signed("DynamoDB_20120810.ListTables"), "{}");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("{\"TableNames\":[\"things\"]}");
		assertThat(response.header("content-type")).isEqualTo("application/x-amz-json-1.0");
		assertThat(response.header("x-amz-crc32")).isEqualTo(crc32(response.body()));
		assertRequestId(response);
	}

	@Test
	void readsTheRegionFromTheCredentialScope() throws Exception {
		RawHttp.Response response = post(RawHttp.signed("DynamoDB_20120810.DescribeTable"), "{\"TableName\":\"things\"}");
		assertThat(response.body()).contains("\"TableArn\":\"arn:aws:dynamodb:eu-west-3:000000000000:table/things\"");
		RawHttp.Response health = RawHttp.exchange(port, "GET", "/",
				headers("Authorization", "AWS4-HMAC-SHA256 Credential=a/20240101/ap-south-1/dynamodb/aws4_request"), "");
		assertThat(health.body()).isEqualTo("healthy: dynamodb.ap-south-1.amazonaws.com ");
	}

	@Test
	void answersABugOfTheEngineAsInternalServerError() throws Exception {
		RawHttp.Response response = post(RawHttp.signed("DynamoDB_20120810.DeleteTable"), "{\"TableName\":\"things\"}");
		assertThat(response.status()).isEqualTo(500);
		assertThat(response.body()).isEqualTo("{\"__type\":\"com.amazonaws.dynamodb.v20120810#InternalServerError\","
				+ "\"message\":\"Internal server error\"}");
	}

	@Test
	void answersAClassItCannotLoadAsInternalServerError() throws Exception {
		RawHttp.Response response = post(RawHttp.signed("DynamoDB_20120810.UpdateTable"), "{\"TableName\":\"things\"}");
		assertThat(response.status()).isEqualTo(500);
		assertThat(response.body()).isEqualTo("{\"__type\":\"com.amazonaws.dynamodb.v20120810#InternalServerError\","
				+ "\"message\":\"Internal server error\"}");
	}

	@Test
	void refusesABodyOver16MegabytesAndKeepsTheConnection() throws Exception {
		byte[] body = new byte[16 * 1024 * 1024 + 1];
		Arrays.fill(body, (byte) 'a');
		try (RawHttp http = new RawHttp(port)) {
			http.send("POST", "/", Map.of(), body);
			RawHttp.Response refused = http.read();
			assertThat(refused.status()).isEqualTo(413);
			assertThat(refused.header("transfer-encoding")).isEqualTo("chunked");
			assertThat(refused.body()).isEmpty();
			assertThat(refused.header("x-amzn-RequestId")).isNull();
			http.send("GET", "/", Map.of(), new byte[0]);
			assertThat(http.read().status()).isEqualTo(200);
		}
		// 16 MB itself is read: here, a body that is not JSON by its type.
		try (RawHttp http = new RawHttp(port)) {
			http.send("POST", "/", Map.of(), Arrays.copyOf(body, body.length - 1));
			assertNotFound(http.read());
		}
	}

	@Test
	void refusesADeclaredLengthOver16MegabytesBeforeTheBodyIsSent() throws Exception {
		try (RawHttp http = new RawHttp(port)) {
			http.write(("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 16777217\r\nExpect: 100-continue\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			assertThat(http.read().status()).isEqualTo(413);
		}
	}

	@Test
	void keepsTheConnectionAliveAndAnswersPipelinedRequestsInOrder() throws Exception {
		try (RawHttp http = new RawHttp(port)) {
			ByteArrayOutput requests = new ByteArrayOutput();
			for (int i = 0; i < 5; i++) {
				byte[] body = ("{\"TableName\":\"things\",\"Item\":{\"id\":{\"S\":\"p" + i + "\"}}}")
					.getBytes(StandardCharsets.UTF_8);
				requests.write(RawHttp.head("POST", "/", RawHttp.signed("DynamoDB_20120810.PutItem"), body.length));
				requests.write(body);
				byte[] get = ("{\"TableName\":\"things\",\"Key\":{\"id\":{\"S\":\"p" + i + "\"}}}")
					.getBytes(StandardCharsets.UTF_8);
				requests.write(RawHttp.head("POST", "/", RawHttp.signed("DynamoDB_20120810.GetItem"), get.length));
				requests.write(get);
			}
			http.write(requests.toByteArray());
			for (int i = 0; i < 5; i++) {
				assertThat(http.read().body()).isEqualTo("{}");
				assertThat(http.read().body()).isEqualTo("{\"Item\":{\"id\":{\"S\":\"p" + i + "\"}}}");
			}
		}
	}

	@Test
	void closesTheConnectionWhenTheClientAsks() throws Exception {
		try (RawHttp http = new RawHttp(port)) {
			http.send("GET", "/", Map.of("Connection", "close"), new byte[0]);
			RawHttp.Response response = http.read();
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.header("connection")).isEqualTo("close");
			assertThat(http.closedByServer()).isTrue();
		}
	}

	private static String crc32(String body) {
		CRC32 crc = new CRC32();
		crc.update(body.getBytes(StandardCharsets.UTF_8));
		return Long.toString(crc.getValue());
	}

	private static final class ByteArrayOutput extends java.io.ByteArrayOutputStream {

		@Override
		public void write(byte[] bytes) {
			write(bytes, 0, bytes.length);
		}

	}

}
