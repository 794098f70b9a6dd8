package dev.dynamorelay.schema;

import java.util.List;

import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report of declarations that cannot be served: a heading with the number of problems, then each problem on
 * a line of its own in the order of the files, lines and columns, whatever order they were found in.
 */
class DeclarationExceptionTest {

	@Test
	void theProblemsAreCountedAndListedInTheOrderTheyAreWritten() {
		DeclarationException report = new DeclarationException("The declarations are wrong", List.of(
				new Problem.InvalidValue(new Location("shop.graphqls", 12, 3), "third"),
				new Problem.InvalidValue(new Location("auth.graphqls", 40, 1), "first"),
				new Problem.InvalidValue(new Location("shop.graphqls", 2, 9), "second")));
		assertThat(report.getMessage()).isEqualTo("""
				The declarations are wrong (3 problems):
				  auth.graphqls:40:1: first
				  shop.graphqls:2:9: second
				  shop.graphqls:12:3: third""");
		assertThat(report.problems()).extracting(Problem::message).containsExactly("third", "first", "second");
		assertThat(report.getStackTrace()).as("a report, not a failure of the server's code").isEmpty();
	}

	@Test
	void oneProblemIsSaidInTheSingular() {
		assertThat(new DeclarationException("Wrong", List.of(new Problem.InvalidValue(new Location("a.graphqls", 1), "it"))))
			.hasMessage("Wrong (1 problem):\n  a.graphqls:1: it");
	}

}
