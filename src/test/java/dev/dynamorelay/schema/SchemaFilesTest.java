package dev.dynamorelay.schema;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import graphql.language.FieldDefinition;
import graphql.language.ObjectTypeDefinition;
import graphql.schema.idl.TypeDefinitionRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Schema files read and checked as the server reads them, from text in memory: every mistake is a problem at
 * the file, line and column where it is written, in words (what a syntax error expected and found, the
 * defined name a misspelt one is closest to), and the files of a location are found whatever their extension.
 */
class SchemaFilesTest {

	private static final PathMatchingResourcePatternResolver RESOLVER = new PathMatchingResourcePatternResolver();

	private static final String QUERY = "type Query { ping: String }\n";

	@Test
	void aSyntaxErrorSaysWhatWasExpectedAndWhatWasFoundWhereItWasFound() {
		assertThat(problems("type User {\n  id: ID!\n  name = String\n}\n"))
			.containsExactly(problem(3, 8, "syntax error: expected `:` or `(`, found `=`."));
	}

	@Test
	void aStringThatDoesNotEndIsSaidSoWhereItBegins() {
		assertThat(problems("type User {\n  id: ID! @deprecated(reason: \"old)\n}\n")).containsExactly(problem(2, 31,
				"syntax error: a string that does not end: close it with `\"` on the same line (or use `\"\"\"` for a block "
						+ "string)."));
	}

	@Test
	void aCharacterOfNoTokenIsNamed() {
		assertThat(problems("type User {\n  id: ID! %\n}\n"))
			.containsExactly(problem(2, 11, "syntax error: `%` is no character of GraphQL here."));
	}

	@Test
	void aFileOfCommentsOnlyIsToldToDeclareSomethingOrGo() {
		assertThat(problems("# nothing here yet\n\n")).containsExactly(problem(1, 1, "syntax error: the file holds no "
				+ "definition (`type`, `input`, `enum`, ...): remove it from dynamo-relay.schema.locations, or declare "
				+ "something in it."));
	}

	@Test
	void whatFollowsTheLastDefinitionMustBeginOne() {
		assertThat(problems("type User { id: ID! }\n}\n")).containsExactly(problem(2, 1, "syntax error: expected a "
				+ "definition (`type`, `input`, `enum`, `interface`, `union`, `scalar`, `extend`, `directive` or `schema`), "
				+ "found `}`."));
	}

	@Test
	void aMisspeltDirectiveIsReportedAtItsAtSignWithTheOneMeantAndInsteadOfGraphQlJavasReport() {
		assertThat(problems(QUERY + "type User {\n  id: ID! @deprecatd\n}\n")).containsExactly(problem(3, 11,
				"`@deprecatd` is no directive of the declaration language or of the schema. Did you mean `@deprecated`?"));
	}

	@Test
	void anUndefinedTypeIsReportedAtItsNameWithTheOneMeant() {
		assertThat(problems(QUERY + "type User {\n  id: ID!\n  name: Strng\n}\n"))
			.containsExactly(problem(4, 9, "type `Strng` is not defined. Did you mean `String`?"));
	}

	@Test
	void anEnumValueOfADirectiveArgumentIsCheckedAgainstTheEnumsValues() {
		assertThat(problems(QUERY + "type User @table(name: \"Users\", partitionKey: \"id\") {\n  id: ID!\n"
				+ "  at: Long @timestamp(format: EPOCH_MILIS)\n}\n")).containsExactly(problem(4, 31, "`EPOCH_MILIS` is no "
						+ "`DynamoTimestamp`: the values of `@timestamp(format:)` are `EPOCH_MILLIS`, `EPOCH_SECONDS` and `ISO`. "
						+ "Did you mean `EPOCH_MILLIS`?"));
	}

	@Test
	void aMisspeltArgumentIsNotAlsoReportedMissing() {
		assertThat(problems(QUERY + "type User @table(nme: \"Users\") {\n  id: ID!\n}\n")).containsExactly(
				problem(2, 18, "`@table` has no argument `nme`. Did you mean `name`?"),
				problem(2, 11, "`@table` needs its argument `partitionKey` (`String!`)."));
	}

	@Test
	void aConnectionTypeTheSchemaNamesIsGeneratedWithItsCount() {
		TypeDefinitionRegistry registry = files("type Query { users: UserConnection }\ntype User { id: ID! }\n").parse();
		assertThat(registry.getType("UserConnection", ObjectTypeDefinition.class).orElseThrow().getFieldDefinitions())
			.extracting(FieldDefinition::getName)
			.containsExactly("edges", "pageInfo", "totalCount");
		assertThat(registry.getType("UserEdge")).isPresent();
	}

	@Test
	void aConnectionTypeOfAnUndefinedTypeIsReportedWithTheConnectionMeant() {
		assertThat(problems("type Query { users: UsrConnection }\ntype User { id: ID! }\n")).containsExactly(problem(1, 21,
				"`UsrConnection` is the Connection type of `Usr`, which the schema does not define. Did you mean "
						+ "`UserConnection`?"));
	}

	@Test
	void aFolderGivesItsSchemaFilesOfBothExtensionsInOrderAfterTheLanguage(@TempDir Path folder) throws Exception {
		Files.writeString(folder.resolve("b.graphqls"), QUERY);
		Files.createDirectories(folder.resolve("more"));
		Files.writeString(folder.resolve("more/a.gqls"), "type User { id: ID! }\n");
		Files.writeString(folder.resolve("notes.txt"), "not a schema");
		SchemaFiles files = SchemaFiles.resolve(" " + folder + " ,", RESOLVER);
		assertThat(files.files().keySet()).containsExactly(folder.resolve("b.graphqls").toString(),
				folder.resolve("more/a.gqls").toString());
		assertThat(files.resources()).extracting(Resource::getFilename)
			.containsExactly("dynamo-relay.graphqls", "b.graphqls", "a.gqls");
	}

	@Test
	void aLocationWithoutSchemaFilesIsAProblemOfThatLocation(@TempDir Path folder) {
		String missing = folder.resolve("missing.graphqls").toString();
		assertThatExceptionOfType(DeclarationException.class)
			.isThrownBy(() -> SchemaFiles.resolve(folder + "," + missing, RESOLVER))
			.satisfies((ex) -> assertThat(ex.problems()).containsExactly(
					new Problem.UnreadableFiles(new Location(folder.toString(), 0), "holds no schema file (.graphqls or .gqls): check "
							+ "dynamo-relay.schema.locations."),
					new Problem.UnreadableFiles(new Location(missing, 0), "holds no schema file (.graphqls or .gqls): check "
							+ "dynamo-relay.schema.locations.")));
	}

	/** A problem as the report prints it: the kinds of problem are {@link ProblemTest}'s. */
	private static String problem(int line, int column, String message) {
		return new Location("shop.graphqls", line, column) + ": " + message;
	}

	private static SchemaFiles files(String text) {
		return new SchemaFiles(RESOLVER.getResource(SchemaFiles.LANGUAGE),
				Map.of("shop.graphqls", new ByteArrayResource(text.getBytes(StandardCharsets.UTF_8))));
	}

	private static List<String> problems(String text) {
		return assertThatExceptionOfType(DeclarationException.class).isThrownBy(() -> files(text).parse())
			.actual()
			.problems()
			.stream()
			.map(Problem::describe)
			.toList();
	}

}
