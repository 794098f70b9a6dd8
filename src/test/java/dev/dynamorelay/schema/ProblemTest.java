package dev.dynamorelay.schema;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.schema.Problem.ConflictingDeclarations;
import dev.dynamorelay.schema.Problem.UnknownName;
import dev.dynamorelay.schema.Problem.WrongType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A declaration mistake's type, its location and its message: the sentence the report prints, with the
 * "did you mean" built from the name written and the names declared.
 */
class ProblemTest {

	private static final Location AT = new Location("shop.graphqls", 12, 5);

	@Test
	void anUnknownNameCloseToADeclaredOneSuggestsIt() {
		UnknownName problem = UnknownName.of(AT, "`@indexKey` of `Order` names index `ByStauts`, which table `Orders` "
				+ "does not declare.", "ByStauts", Set.of("ByStatus", "ByCustomer"));

		assertThat(problem.name()).isEqualTo("ByStauts");
		assertThat(problem.closest()).contains("ByStatus");
		assertThat(problem.message()).isEqualTo("`@indexKey` of `Order` names index `ByStauts`, which table `Orders` "
				+ "does not declare. Did you mean `ByStatus`?");
	}

	@Test
	void anUnknownNameFarFromEveryDeclaredOneIsTheSentenceAlone() {
		UnknownName problem = UnknownName.of(AT, "type `Widget` is not defined.", "Widget", List.of("Order", "User"));

		assertThat(problem.closest()).isEmpty();
		assertThat(problem.message()).isEqualTo("type `Widget` is not defined.");
	}

	@Test
	void anUnknownNameSaysWhatToDoOtherwise() {
		String otherwise = "add `@globalIndex` or `@localIndex` to a type of that table.";

		assertThat(UnknownName.orElse(AT, "`Query.orders` reads index `ByStauts`, which table `Orders` does not declare",
				"ByStauts", Set.of("ByStatus"), otherwise)
			.message()).isEqualTo("`Query.orders` reads index `ByStauts`, which table `Orders` does not declare. Did you "
					+ "mean `ByStatus`? Otherwise add `@globalIndex` or `@localIndex` to a type of that table.");
		assertThat(UnknownName.orElse(AT, "`Query.orders` reads index `Elsewhere`, which table `Orders` does not declare",
				"Elsewhere", Set.of("ByStatus"), otherwise)
			.message()).isEqualTo("`Query.orders` reads index `Elsewhere`, which table `Orders` does not declare: add "
					+ "`@globalIndex` or `@localIndex` to a type of that table.");
	}

	@Test
	void aProblemPrintsAsTheLineOfTheReport() {
		Problem problem = new WrongType(AT, "`Order.version` is a `@version`, which counts writes: declare it as `Int` "
				+ "or `Long`.");

		assertThat(problem.describe()).isEqualTo("shop.graphqls:12:5: `Order.version` is a `@version`, which counts "
				+ "writes: declare it as `Int` or `Long`.");
		assertThat(problem).hasToString(problem.describe());
		assertThat(new UnknownName(new Location("shop.graphqls", 3), "x", Optional.empty(), "`x` is no field."))
			.hasToString("shop.graphqls:3: `x` is no field.");
	}

	@Test
	void problemsOfTwoKindsWithOneMessageAreTwoProblems() {
		assertThat((Problem) new WrongType(AT, "same")).isNotEqualTo(new ConflictingDeclarations(AT, "same"))
			.isEqualTo(new WrongType(AT, "same"));
	}

	@Test
	void theReportListsEveryProblemInTheOrderOfTheFiles() {
		DeclarationException report = new DeclarationException("The schema's declarations cannot be served", List.of(
				new WrongType(new Location("b.graphqls", 2, 1), "second file."),
				new ConflictingDeclarations(new Location("a.graphqls", 9, 3), "first file, later line."),
				UnknownName.of(new Location("a.graphqls", 4, 7), "type `Ordr` is not defined.", "Ordr", Set.of("Order"))));

		assertThat(report.getMessage()).isEqualTo("""
				The schema's declarations cannot be served (3 problems):
				  a.graphqls:4:7: type `Ordr` is not defined. Did you mean `Order`?
				  a.graphqls:9:3: first file, later line.
				  b.graphqls:2:1: second file.""");
		assertThat(report.problems()).extracting((problem) -> problem.getClass().getSimpleName())
			.containsExactly("WrongType", "ConflictingDeclarations", "UnknownName");
	}

}
