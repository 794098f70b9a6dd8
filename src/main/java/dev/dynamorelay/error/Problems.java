package dev.dynamorelay.error;

import java.net.URI;
import java.net.URISyntaxException;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

/**
 * The REST view's errors: Spring's {@link ProblemDetail} (RFC 9457, {@code application/problem+json})
 * carrying the contract's error code as the extension member {@code code}, and the HTTP status of each
 * code. Written by the MVC message converters, whose mapper has Spring Boot's mix-in for
 * {@link ProblemDetail}, which writes its properties as top-level members; a body written with a mapper of
 * one's own needs the same mix-in ({@code ProblemDetailJacksonMixin}).
 */
public final class Problems {

	/** {@code application/problem+json}. */
	public static final MediaType MEDIA_TYPE = MediaType.APPLICATION_PROBLEM_JSON;

	private static final URI ABOUT_BLANK = URI.create("about:blank");

	private Problems() {
	}

	/** A problem with the status of {@code code}. */
	public static ProblemDetail of(ErrorCode code, String detail, String instance) {
		return of(code.status(), code, detail, instance);
	}

	/**
	 * A problem: {@code type} {@code about:blank} (the status says what kind), {@code title} the status's
	 * phrase, {@code status}, {@code detail} (what to do), {@code instance} (the request's path) and
	 * {@code code}.
	 */
	public static ProblemDetail of(HttpStatus status, ErrorCode code, String detail, String instance) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setType(ABOUT_BLANK);
		problem.setTitle(status.getReasonPhrase());
		if (instance != null) {
			instance(problem, instance);
		}
		problem.setProperty("code", code.name());
		return problem;
	}

	/**
	 * Sets the request's path, as sent, as the problem's instance. A path that is no URI reference (Tomcat
	 * refuses a request for {@code /api/%zz}, and answers it with a problem) is set as a member of the same
	 * name instead, so that the answer is written, with the path as it came.
	 */
	private static void instance(ProblemDetail problem, String path) {
		try {
			problem.setInstance(new URI(path));
		}
		catch (URISyntaxException ex) {
			problem.setProperty("instance", path);
		}
	}

	/** Whether a request path is the REST view's, whose errors are problems rather than GraphQL bodies. */
	public static boolean restPath(String path) {
		return path != null && (path.equals("/api") || path.startsWith("/api/"));
	}

}
