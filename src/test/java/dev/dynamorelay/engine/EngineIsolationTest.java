package dev.dynamorelay.engine;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The DynamoDB engine is a room of its own: it imports nothing else of the project, and no Spring, so that it
 * runs standalone without a Spring context and anyone may use it without the server.
 */
class EngineIsolationTest {

	private static final JavaClasses MAIN = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.dynamorelay");

	@Test
	void importsNothingElseOfTheProject() {
		noClasses().that()
			.resideInAPackage("dev.dynamorelay.engine..")
			.should()
			.dependOnClassesThat(resideInAPackage("dev.dynamorelay.").and(resideOutsideOfPackage("dev.dynamorelay.engine..")))
			.check(MAIN);
	}

	@Test
	void knowsNoSpring() {
		noClasses().that()
			.resideInAPackage("dev.dynamorelay.engine..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework..")
			.check(MAIN);
	}

	/** The assembly (DynamoDbEngine, EngineMain) uses the engine's packages, never the other way round. */
	@Test
	void itsPackagesDoNotUseTheAssembly() {
		noClasses().that()
			.resideInAPackage("dev.dynamorelay.engine.*..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.dynamorelay.engine")
			.check(MAIN);
	}

	@Test
	void itsPackagesImportEachOtherOneWay() {
		slices().matching("dev.dynamorelay.engine.(*)..").should().beFreeOfCycles().check(MAIN);
	}

}
