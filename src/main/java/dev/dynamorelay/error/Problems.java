package dev.dynamorelay.error;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * The REST view's errors: {@code application/problem+json} bodies (RFC 9457) that carry the contract's
 * error code as the extension member {@code code}, and the HTTP status of each code.
 */
public final class Problems {

	/** {@code application/problem+json}. */
	public static final MediaType MEDIA_TYPE = MediaType.APPLICATION_PROBLEM_JSON;

	private Problems() {
	}

	/** A problem with the status of {@code code}. */
	public static Map<String, Object> of(ErrorCode code, String detail, String instance) {
		return of(code.status(), code, detail, instance);
	}

	/**
	 * A problem: {@code type} {@code about:blank} (the status says what kind), {@code title} the status's
	 * phrase, {@code status}, {@code detail} (what to do), {@code instance} (the request's path) and
	 * {@code code}.
	 */
	public static Map<String, Object> of(HttpStatus status, ErrorCode code, String detail, String instance) {
		Map<String, Object> problem = new LinkedHashMap<>();
		problem.put("type", "about:blank");
		problem.put("title", status.getReasonPhrase());
		problem.put("status", status.value());
		problem.put("detail", detail);
		if (instance != null) {
			problem.put("instance", instance);
		}
		problem.put("code", code.name());
		return problem;
	}

	/** Whether a request path is the REST view's, whose errors are problems rather than GraphQL bodies. */
	public static boolean restPath(String path) {
		return path != null && (path.equals("/api") || path.startsWith("/api/"));
	}

}
