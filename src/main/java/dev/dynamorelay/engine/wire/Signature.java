package dev.dynamorelay.engine.wire;

import java.util.List;
import java.util.Map;

import dev.dynamorelay.engine.action.AwsError;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * The signature's presence, as DynamoDB checks it before the body (not its validity: any key is taken), and the
 * region a call's credential scope names.
 */
final class Signature {

	private Signature() {
	}

	/**
	 * DynamoDB's refusal of a call whose signature is missing or incomplete, or null: an {@code Authorization}
	 * header of SigV4 with its three parameters and a date, or the query-string form with its five.
	 */
	static AwsError check(String authorization, Map<String, List<String>> query, HttpHeaders headers) {
		boolean queryAuth = query.containsKey("X-Amz-Algorithm");
		if (authorization != null && queryAuth) {
			return AwsError.of("InvalidSignatureException",
					"Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.");
		}
		if ((authorization == null && !queryAuth)
				|| (authorization != null && !authorization.strip().startsWith("AWS4-"))) {
			return AwsError.of("MissingAuthenticationTokenException", "Request is missing Authentication Token");
		}
		StringBuilder message = new StringBuilder();
		if (authorization != null) {
			Map<String, String> parameters = parameters(authorization);
			for (String name : new String[] { "Credential", "Signature", "SignedHeaders" }) {
				String value = parameters.get(name);
				if (value == null || value.isEmpty()) {
					message.append("Authorization header requires '").append(name).append("' parameter. ");
				}
			}
			if (!headers.contains("X-Amz-Date") && !headers.contains(HttpHeaderNames.DATE)) {
				message.append("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ");
			}
			if (message.length() > 0) {
				message.append("Authorization=").append(authorization);
			}
		}
		else {
			for (String name : new String[] { "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature",
					"X-Amz-SignedHeaders", "X-Amz-Date" }) {
				List<String> values = query.get(name);
				if (values == null || values.isEmpty() || values.get(0).isEmpty()) {
					message.append("AWS query-string parameters must include '").append(name).append("'. ");
				}
			}
			if (message.length() > 0) {
				message.append("Re-examine the query-string parameters.");
			}
		}
		return (message.length() > 0) ? AwsError.of("IncompleteSignatureException", message.toString()) : null;
	}

	/** The parameters after the algorithm: {@code Credential=..., SignedHeaders=..., Signature=...}. */
	private static Map<String, String> parameters(String authorization) {
		// Split on commas and spaces, as DynamoDB reads the header (without a regular expression: every call
		// passes here).
		Map<String, String> parameters = new java.util.HashMap<>();
		int length = authorization.length();
		int start = 0;
		boolean first = true;
		for (int i = 0; i <= length; i++) {
			if (i == length || authorization.charAt(i) == ',' || authorization.charAt(i) == ' ') {
				if (i > start) {
					if (first) {
						first = false;
					}
					else {
						String part = authorization.substring(start, i);
						int equals = part.indexOf('=');
						if (equals < 0) {
							parameters.put(part, null);
						}
						else {
							int next = part.indexOf('=', equals + 1);
							parameters.put(part.substring(0, equals),
									part.substring(equals + 1, (next < 0) ? part.length() : next));
						}
					}
				}
				else if (i == start && first && i < length) {
					// An empty piece before the algorithm still counts as the algorithm's place.
					first = false;
				}
				start = i + 1;
			}
		}
		return parameters;
	}

	/** The region of the SigV4 credential scope ({@code Credential=KEY/DATE/REGION/SERVICE/aws4_request}). */
	static String region(String authorization, String fallback) {
		if (authorization == null) {
			return fallback;
		}
		int credential = authorization.indexOf("Credential=");
		if (credential < 0) {
			return fallback;
		}
		int end = credential + "Credential=".length();
		int stop = end;
		while (stop < authorization.length() && authorization.charAt(stop) != ','
				&& authorization.charAt(stop) != ' ') {
			stop++;
		}
		String[] scope = authorization.substring(end, stop).split("/");
		return (scope.length >= 3 && !scope[2].isEmpty()) ? scope[2] : fallback;
	}

}
