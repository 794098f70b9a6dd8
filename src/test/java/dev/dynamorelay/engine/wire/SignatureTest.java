package dev.dynamorelay.engine.wire;

import java.util.List;
import java.util.Map;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import org.junit.jupiter.api.Test;

import dev.dynamorelay.engine.action.AwsError;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The signature's presence as DynamoDB checks it before the body ({@link Signature}), and the region a call's
 * credential scope names.
 */
class SignatureTest {

	private static final String SIGNED = "AWS4-HMAC-SHA256 Credential=AKID/20250301/eu-west-1/dynamodb/aws4_request, "
			+ "SignedHeaders=host;x-amz-date, Signature=0123abcd";

	@Test
	void aCompleteHeaderWithADateIsTakenWhateverItsSignature() {
		assertThat(Signature.check(SIGNED, Map.of(), headers("X-Amz-Date", "20250301T101530Z"))).isNull();
		assertThat(Signature.check(SIGNED, Map.of(), headers("Date", "Sat, 01 Mar 2025 10:15:30 GMT"))).isNull();
	}

	@Test
	void noSignatureAtAllIsAMissingToken() {
		AwsError missing = Signature.check(null, Map.of(), headers());
		assertThat(missing.type()).isEqualTo("MissingAuthenticationTokenException");
		assertThat(missing.getMessage()).isEqualTo("Request is missing Authentication Token");
		assertThat(Signature.check("Basic dXNlcjpwYXNz", Map.of(), headers()).type()).isEqualTo("MissingAuthenticationTokenException");
	}

	@Test
	void aHeaderWithoutItsParametersOrDateIsIncomplete() {
		AwsError incomplete = Signature.check("AWS4-HMAC-SHA256 Credential=AKID/20250301/us-east-1/dynamodb/aws4_request",
				Map.of(), headers());
		assertThat(incomplete.type()).isEqualTo("IncompleteSignatureException");
		assertThat(incomplete.getMessage()).isEqualTo("Authorization header requires 'Signature' parameter. "
				+ "Authorization header requires 'SignedHeaders' parameter. "
				+ "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
				+ "Authorization=AWS4-HMAC-SHA256 Credential=AKID/20250301/us-east-1/dynamodb/aws4_request");
	}

	@Test
	void aQueryStringSignatureNeedsItsFiveParametersAndNoHeaderBesideIt() {
		Map<String, List<String>> query = Map.of("X-Amz-Algorithm", List.of("AWS4-HMAC-SHA256"), "X-Amz-Credential",
				List.of("AKID/20250301/us-east-1/dynamodb/aws4_request"), "X-Amz-Signature", List.of("0123abcd"));
		AwsError incomplete = Signature.check(null, query, headers());
		assertThat(incomplete.type()).isEqualTo("IncompleteSignatureException");
		assertThat(incomplete.getMessage()).isEqualTo("AWS query-string parameters must include 'X-Amz-SignedHeaders'. "
				+ "AWS query-string parameters must include 'X-Amz-Date'. Re-examine the query-string parameters.");
		assertThat(Signature.check(SIGNED, query, headers("X-Amz-Date", "20250301T101530Z")).type())
			.isEqualTo("InvalidSignatureException");
	}

	@Test
	void theRegionIsTheCredentialScopesOrElseTheEnginesOwn() {
		assertThat(Signature.region(SIGNED, "us-east-1")).isEqualTo("eu-west-1");
		assertThat(Signature.region(null, "us-east-1")).isEqualTo("us-east-1");
		assertThat(Signature.region("AWS4-HMAC-SHA256 Credential=AKID//", "us-east-1")).isEqualTo("us-east-1");
	}

	private static HttpHeaders headers(String... namesAndValues) {
		HttpHeaders headers = new DefaultHttpHeaders();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			headers.set(namesAndValues[i], namesAndValues[i + 1]);
		}
		return headers;
	}

}
