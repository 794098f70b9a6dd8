package dev.dynamorelay.schema;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The declarations cannot be served as written: every problem found, each with its file, line, column and
 * what to change, in the order of the files: one report of the {@link Problem}s a start found. The server does
 * not start.
 */
public class DeclarationException extends RuntimeException {

	private final List<Problem> problems;

	public DeclarationException(String heading, List<Problem> problems) {
		super(report(heading, problems), null, false, false);
		this.problems = List.copyOf(problems);
	}

	public List<Problem> problems() {
		return this.problems;
	}

	private static String report(String heading, List<Problem> problems) {
		return heading + " (" + problems.size() + ((problems.size() == 1) ? " problem" : " problems") + "):\n"
				+ problems.stream()
					.sorted(Comparator.comparing((Problem problem) -> problem.location().file())
						.thenComparingInt((problem) -> problem.location().line())
						.thenComparingInt((problem) -> problem.location().column()))
					.map((problem) -> "  " + problem.describe())
					.collect(Collectors.joining("\n"));
	}

}
