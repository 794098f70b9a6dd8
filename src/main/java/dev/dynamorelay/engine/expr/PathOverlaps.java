package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.List;

/**
 * DynamoDB's refusal of document paths that overlap (one is the other or lies within it: {@code a} and
 * {@code a.b}) or conflict (one goes into a list where the other goes into a map: {@code a[1]} and {@code a.b}),
 * among the paths a projection reads or an update writes. Each path is compared with those before it, in order;
 * the first overlap is kept, and of conflicts the last found before it (as dynalite reports, checked against
 * DynamoDB).
 */
final class PathOverlaps {

	private final List<Path> paths = new ArrayList<>();

	private String overlap;

	private String conflict;

	void add(Path path) {
		if (this.overlap != null || path == null) {
			return;
		}
		for (Path earlier : this.paths) {
			compare(earlier, path);
			if (this.overlap != null) {
				return;
			}
		}
		this.paths.add(path);
	}

	private void compare(Path one, Path two) {
		List<Path.Element> first = one.elements();
		List<Path.Element> second = two.elements();
		for (int i = 0; i < first.size() && i < second.size(); i++) {
			Path.Element a = first.get(i);
			Path.Element b = second.get(i);
			if (a.getClass() != b.getClass()) {
				this.conflict = "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: "
						+ one.describe() + ", path two: " + two.describe();
				return;
			}
			if (!a.equals(b)) {
				return;
			}
		}
		this.overlap = "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: "
				+ one.describe() + ", path two: " + two.describe();
	}

	String overlapError() {
		return this.overlap;
	}

	String conflictError() {
		return this.conflict;
	}

}
