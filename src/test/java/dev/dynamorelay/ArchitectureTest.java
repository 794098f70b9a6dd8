package dev.dynamorelay;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The rooms of the house and the ways between them (docs/architecture.md draws them): the two wings that
 * face the outside (transports and commands) over the capabilities, over the declarations, over the
 * shared values; every arrow points down, no room of a floor leans on a room above it, and the engine is
 * reached only through its embedding.
 */
class ArchitectureTest {

	private static final JavaClasses MAIN = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.dynamorelay");

	@Test
	void everyArrowPointsDown() {
		Architectures.layeredArchitecture()
			.consideringOnlyDependenciesInLayers()
			.layer("Application").definedBy("dev.dynamorelay")
			.layer("Transports").definedBy("dev.dynamorelay.transport..")
			.layer("Commands").definedBy("dev.dynamorelay.command..")
			.layer("Capabilities").definedBy("dev.dynamorelay.pagination..", "dev.dynamorelay.write..",
					"dev.dynamorelay.live..", "dev.dynamorelay.access..", "dev.dynamorelay.metrics..",
					"dev.dynamorelay.sample..")
			.layer("DynamoDB").definedBy("dev.dynamorelay.dynamodb..")
			.layer("Declarations").definedBy("dev.dynamorelay.declaration..")
			.layer("Foundations").definedBy("dev.dynamorelay.model..", "dev.dynamorelay.schema..",
					"dev.dynamorelay.budget..", "dev.dynamorelay.error..")
			.layer("Engine").definedBy("dev.dynamorelay.engine..")
			.whereLayer("Application").mayNotBeAccessedByAnyLayer()
			.whereLayer("Transports").mayOnlyBeAccessedByLayers("Application")
			.whereLayer("Commands").mayOnlyBeAccessedByLayers("Application")
			.whereLayer("Capabilities").mayOnlyBeAccessedByLayers("Application", "Transports", "Commands")
			.whereLayer("DynamoDB").mayOnlyBeAccessedByLayers("Application", "Transports", "Commands", "Capabilities")
			.whereLayer("Declarations")
			.mayOnlyBeAccessedByLayers("Application", "Transports", "Commands", "Capabilities", "DynamoDB")
			.whereLayer("Foundations")
			.mayOnlyBeAccessedByLayers("Application", "Transports", "Commands", "Capabilities", "DynamoDB",
					"Declarations")
			.whereLayer("Engine").mayOnlyBeAccessedByLayers("DynamoDB", "Commands")
			.check(MAIN);
	}

	@Test
	void roomsImportEachOtherOneWay() {
		slices().matching("dev.dynamorelay.(*)..").should().beFreeOfCycles().check(MAIN);
		slices().matching("dev.dynamorelay.transport.(*)..").should().beFreeOfCycles().check(MAIN);
		slices().matching("dev.dynamorelay.command.(*)..").should().beFreeOfCycles().check(MAIN);
	}

	/** The values every capability shares lean on nothing but the foundations beside them. */
	@Test
	void theModelKnowsNoCapability() {
		noClasses().that()
			.resideInAPackage("dev.dynamorelay.model..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.dynamorelay.declaration..", "dev.dynamorelay.pagination..",
					"dev.dynamorelay.budget..")
			.check(MAIN);
	}

	/** The engine is embedded by one class and run on its own by one command; nothing else reaches into it. */
	@Test
	void theEngineIsReachedThroughItsEmbeddingOnly() {
		noClasses().that()
			.resideOutsideOfPackage("dev.dynamorelay.engine..")
			.and()
			.doNotHaveFullyQualifiedName("dev.dynamorelay.dynamodb.EmbeddedDynamoDb")
			.and()
			.doNotHaveFullyQualifiedName("dev.dynamorelay.command.dynamodb.DynamoDbCommand")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.dynamorelay.engine..")
			.check(MAIN);
	}

	/**
	 * The live engine owns its settings: its GraphQL side takes what it needs through the engines' own types and
	 * beans, never their {@code *Properties} (its WebSocket transport's own setting is the transport's).
	 */
	@Test
	void theLiveTransportTakesNoEngineSettings() {
		noClasses().that()
			.resideInAPackage("dev.dynamorelay.transport.graphql.live..")
			.should()
			.dependOnClassesThat(JavaClass.Predicates.simpleNameEndingWith("Properties")
				.and(JavaClass.Predicates.resideInAnyPackage("dev.dynamorelay.live..", "dev.dynamorelay.dynamodb..",
						"dev.dynamorelay.pagination..", "dev.dynamorelay.budget..", "dev.dynamorelay.write..")))
			.check(MAIN);
	}

	/** The engines' settings belong to the engines; GraphQL reads them through the engines' own types. */
	@Test
	void graphQlImportsNoEngineSettings() {
		noClasses().that()
			.resideInAPackage("dev.dynamorelay.transport.graphql..")
			.should()
			.dependOnClassesThat(resideInAnyPackage("dev.dynamorelay.pagination..", "dev.dynamorelay.write..",
					"dev.dynamorelay.live..", "dev.dynamorelay.budget..", "dev.dynamorelay.dynamodb..")
				.and(simpleNameEndingWith("Properties")))
			.check(MAIN);
	}

	/** The transports and the commands share what lies below them, never each other. */
	@Test
	void theWingsStandApart() {
		noClasses().that()
			.resideInAPackage("dev.dynamorelay.command..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.dynamorelay.transport..")
			.check(MAIN);
		noClasses().that()
			.resideInAPackage("dev.dynamorelay.transport..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.dynamorelay.command..")
			.check(MAIN);
	}

}
