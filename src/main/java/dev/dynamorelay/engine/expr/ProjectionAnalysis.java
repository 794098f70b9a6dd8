package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.List;

/**
 * DynamoDB's checks of a projection expression (reserved words, undefined names, overlapping then conflicting
 * paths, in that order) and the {@link Projection} it stands for.
 */
final class ProjectionAnalysis {

	private ProjectionAnalysis() {
	}

	static Projection analyze(String text, Placeholders placeholders) {
		List<Syntax.PathRef> refs = Parser.projection(text);
		String[] undefined = new String[1];
		List<Path> paths = new ArrayList<>();
		for (Syntax.PathRef ref : refs) {
			paths.add(placeholders.path(ref, message -> {
				if (undefined[0] == null) {
					undefined[0] = message;
				}
			}));
		}
		PathOverlaps overlaps = new PathOverlaps();
		for (Path path : paths) {
			overlaps.add(path);
		}
		Errors errors = new Errors();
		errors.add(placeholders.pathProblem());
		errors.add(undefined[0]);
		errors.add(overlaps.overlapError());
		errors.add(overlaps.conflictError());
		errors.throwFirst();
		return new Projection(paths);
	}

}
