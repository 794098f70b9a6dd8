package dev.dynamorelay.error;

import java.net.URI;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The REST view's errors: an RFC 9457 problem with the status of its code, the status's phrase as title, the
 * request's path as instance, and the contract's code as the member {@code code}.
 */
class ProblemsTest {

	@Test
	void eachCodeAnswersWithItsStatus() {
		assertThat(Problems.of(ErrorCode.INVALID_ARGUMENT, "d", "/api").getStatus()).isEqualTo(400);
		assertThat(Problems.of(ErrorCode.INVALID_CURSOR, "d", "/api").getStatus()).isEqualTo(400);
		assertThat(Problems.of(ErrorCode.QUERY_TOO_COMPLEX, "d", "/api").getStatus()).isEqualTo(400);
		assertThat(Problems.of(ErrorCode.UNAUTHENTICATED, "d", "/api").getStatus()).isEqualTo(401);
		assertThat(Problems.of(ErrorCode.FORBIDDEN, "d", "/api").getStatus()).isEqualTo(403);
		assertThat(Problems.of(ErrorCode.NOT_FOUND, "d", "/api").getStatus()).isEqualTo(404);
		assertThat(Problems.of(ErrorCode.CONFLICT, "d", "/api").getStatus()).isEqualTo(409);
		assertThat(Problems.of(ErrorCode.INTERNAL, "d", "/api").getStatus()).isEqualTo(500);
		assertThat(Problems.of(ErrorCode.UNAVAILABLE, "d", "/api").getStatus()).isEqualTo(503);
	}

	@Test
	void aProblemSaysItsKindByStatusWhatToDoWhereAndItsCode() {
		ProblemDetail problem = Problems.of(ErrorCode.INVALID_CURSOR, "Start again without `after`.", "/api/users?after=x");
		assertThat(problem.getType()).isEqualTo(URI.create("about:blank"));
		assertThat(problem.getTitle()).isEqualTo("Bad Request");
		assertThat(problem.getStatus()).isEqualTo(400);
		assertThat(problem.getDetail()).isEqualTo("Start again without `after`.");
		assertThat(problem.getInstance()).isEqualTo(URI.create("/api/users?after=x"));
		assertThat(problem.getProperties()).containsExactlyEntriesOf(java.util.Map.of("code", "INVALID_CURSOR"));
	}

	@Test
	void aStatusOtherThanTheCodesKeepsTheCode() {
		ProblemDetail problem = Problems.of(HttpStatus.METHOD_NOT_ALLOWED, ErrorCode.INVALID_ARGUMENT, "Use GET.", null);
		assertThat(problem.getStatus()).isEqualTo(405);
		assertThat(problem.getTitle()).isEqualTo("Method Not Allowed");
		assertThat(problem.getInstance()).isNull();
		assertThat(problem.getProperties()).containsEntry("code", "INVALID_ARGUMENT");
	}

	@Test
	void aPathThatIsNoUriIsKeptAsSentInAMemberOfItsOwn() {
		ProblemDetail problem = Problems.of(ErrorCode.INVALID_ARGUMENT, "d", "/api/%zz");
		assertThat(problem.getInstance()).isNull();
		assertThat(problem.getProperties()).containsEntry("instance", "/api/%zz").containsEntry("code", "INVALID_ARGUMENT");
	}

	@Test
	void onlyTheRestViewsPathsAnswerProblems() {
		assertThat(Problems.restPath("/api")).isTrue();
		assertThat(Problems.restPath("/api/users")).isTrue();
		assertThat(Problems.restPath("/apis")).isFalse();
		assertThat(Problems.restPath("/graphql")).isFalse();
		assertThat(Problems.restPath(null)).isFalse();
	}

}
