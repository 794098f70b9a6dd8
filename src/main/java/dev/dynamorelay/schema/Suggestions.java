package dev.dynamorelay.schema;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/**
 * The "did you mean" of a problem: the known name closest to a mistyped one, by edit distance (insertions,
 * deletions, substitutions and swaps of two neighbours each count one; a difference of case alone counts
 * less), when it is close enough to be the name meant.
 *
 * <p>Written here because none of the libraries on the server's classpath offers one: graphql-java,
 * Spring and Jackson do not, picocli's is private to it, and commons-text is no dependency.
 */
public final class Suggestions {

	private Suggestions() {
	}

	/**
	 * The name of {@code known} closest to {@code name}, if one is within a third of its length (at least one
	 * edit); empty when none is, or {@code name} is one of them.
	 */
	public static Optional<String> closest(String name, Collection<String> known) {
		if (name == null || name.isEmpty() || known.contains(name)) {
			return Optional.empty();
		}
		int allowed = Math.max(1, name.length() / 3);
		return known.stream()
			.filter((candidate) -> candidate != null && !candidate.isEmpty())
			.filter((candidate) -> distance(name, candidate) <= allowed)
			.min(Comparator.comparingInt((String candidate) -> distance(name, candidate) * 2
					+ (sameCase(name, candidate) ? 0 : 1))
				.thenComparing(Comparator.naturalOrder()));
	}

	/** {@code " Did you mean `x`?"} for the closest of {@code known}, or nothing. */
	public static String didYouMean(String name, Collection<String> known) {
		return closest(name, known).map((closest) -> " Did you mean `" + closest + "`?").orElse("");
	}

	/**
	 * The end of a problem's sentence that says what to do: {@code ": " + what} when no name of {@code known} is
	 * close to {@code name}, else {@code ". Did you mean `x`? Otherwise " + what}.
	 */
	public static String orElse(String name, Collection<String> known, String what) {
		return closest(name, known).map((closest) -> ". Did you mean `" + closest + "`? Otherwise " + what)
			.orElse(": " + what);
	}

	/**
	 * The edit distance of {@code a} and {@code b} ignoring case: optimal string alignment (Damerau–Levenshtein), so
	 * that {@code endpiont} is one slip from {@code endpoint}. Also the command line's measure of a misspelt property.
	 */
	public static int distance(String a, String b) {
		String x = a.toLowerCase(Locale.ROOT);
		String y = b.toLowerCase(Locale.ROOT);
		int[][] d = new int[x.length() + 1][y.length() + 1];
		for (int i = 0; i <= x.length(); i++) {
			d[i][0] = i;
		}
		for (int j = 0; j <= y.length(); j++) {
			d[0][j] = j;
		}
		for (int i = 1; i <= x.length(); i++) {
			for (int j = 1; j <= y.length(); j++) {
				int cost = (x.charAt(i - 1) == y.charAt(j - 1)) ? 0 : 1;
				d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
				if (i > 1 && j > 1 && x.charAt(i - 1) == y.charAt(j - 2) && x.charAt(i - 2) == y.charAt(j - 1)) {
					d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
				}
			}
		}
		return d[x.length()][y.length()];
	}

	private static boolean sameCase(String a, String b) {
		return a.length() == b.length() && a.regionMatches(false, 0, b, 0, a.length());
	}

}
