package dev.dynamorelay.declaration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import dev.dynamorelay.model.Item;
import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.ConflictingDeclarations;
import dev.dynamorelay.schema.Problem.UnknownName;
import dev.dynamorelay.schema.Problem.WrongAnswer;
import dev.dynamorelay.schema.SchemaFiles;
import dev.dynamorelay.schema.SchemaProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.fail;

/**
 * Every kind of mistake a schema file can make in its declarations stops the start with a problem at the
 * mistake's file and line that says what to change; several mistakes are reported together. Each mistake is a
 * schema file of its own under {@code src/test/resources/mistakes/declaration/}, whose first lines say what is
 * reported for it ({@link MistakeFile}); one test per folder reads them all.
 */
class DeclarationMistakesTest {

	/** A valid table: string keys, a global and a local index. */
	private static final String ITEMS = """
			type Item implements Node
			  @table(name: "Items", partitionKey: "pk", sortKey: "sk")
			  @globalIndex(name: "ByOwner", partitionKey: "owner", sortKey: "created")
			  @localIndex(name: "ByScore", sortKey: "score") {
			  id: ID!
			  pk: String!
			  sk: String!
			  owner: String
			  created: String
			  score: Int
			  done: Boolean
			  tags: [String!]
			}
			""";

	/** A table with a partition key only. */
	private static final String USERS = """
			type User implements Node @table(name: "Users", partitionKey: "userId") {
			  id: ID!
			  userId: String!
			  name: String
			}
			""";

	@TempDir
	Path dir;

	// ---- the schema files themselves

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void schemaFiles(String file) {
		assertReported("schema-files", file);
	}

	static List<String> schemaFiles() {
		return MistakeFile.in("declaration/schema-files");
	}

	@Test
	void aLocationWithoutSchemaFilesIsReported() throws IOException {
		Path empty = Files.createDirectory(this.dir.resolve("empty"));
		Files.writeString(empty.resolve("notes.txt"), "not a schema");
		Path missing = this.dir.resolve("missing.graphqls");
		String locations = "file:" + empty + "/, file:" + missing;
		assertThatExceptionOfType(DeclarationException.class)
			.isThrownBy(() -> SchemaFiles.resolve(locations, new PathMatchingResourcePatternResolver()))
			.satisfies((failure) -> {
				assertThat(failure.problems()).hasSize(2);
				assertThat(failure.problems().get(0).location()).isEqualTo(new Location("file:" + empty + "/", 0));
				assertThat(failure.problems().get(1).location()).isEqualTo(new Location("file:" + missing, 0));
				assertThat(failure.problems()).allSatisfy((problem) -> assertThat(problem.message())
					.contains("holds no schema file (.graphqls or .gqls)", "dynamo-relay.schema.locations"));
				assertThat(failure.getMessage()).startsWith("The schema files cannot be found (2 problems):");
			});
	}

	// ---- types and tables

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void tables(String file) {
		assertReported("tables", file);
	}

	static List<String> tables() {
		return MistakeFile.in("declaration/tables");
	}

	@Test
	void aKeyFieldMayBeRenamedWithAttribute() {
		Declarations declarations = read("""
				type Query {
				  node(id: ID!): Node
				}

				type User implements Node @table(name: "Users", partitionKey: "PK") {
				  id: ID!
				  userId: String! @attribute(name: "PK")
				}
				""");
		assertThat(declarations.entity("User").partition().source()).isEqualTo("{userId}");
	}

	@Test
	void anIndexMayBeDeclaredAgainAlike() {
		Declarations declarations = read("""
				type Query {
				  node(id: ID!): Node
				}

				type Customer implements Node
				  @table(name: "Shop", partitionKey: "PK", sortKey: "SK")
				  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "PROFILE")
				  @globalIndex(name: "GSI1", partitionKey: "GSI1PK", sortKey: "GSI1SK") {
				  id: ID!
				  customerId: String!
				}

				type Order implements Node
				  @table(name: "Shop", partitionKey: "PK", sortKey: "SK")
				  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "ORDER#{orderId}")
				  @globalIndex(name: "GSI1", partitionKey: "GSI1PK", sortKey: "GSI1SK") {
				  id: ID!
				  customerId: String!
				  orderId: String!
				}
				""");
		assertThat(declarations.tables().get("Shop").indexes()).containsOnlyKeys("GSI1");
	}

	// ---- connections, their arguments and lookups

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void connections(String file) {
		assertReported("connections", file);
	}

	static List<String> connections() {
		return MistakeFile.in("declaration/connections");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void arguments(String file) {
		assertReported("arguments", file);
	}

	static List<String> arguments() {
		return MistakeFile.in("declaration/arguments");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void lookups(String file) {
		assertReported("lookups", file);
	}

	static List<String> lookups() {
		return MistakeFile.in("declaration/lookups");
	}

	// ---- writes: mutation fields, their inputs and answers; @version and @indexKey of the types they write

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void mutations(String file) {
		assertReported("mutations", file);
	}

	static List<String> mutations() {
		return MistakeFile.in("declaration/mutations");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void mutationInputs(String file) {
		assertReported("mutation-inputs", file);
	}

	static List<String> mutationInputs() {
		return MistakeFile.in("declaration/mutation-inputs");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void versionsAndIndexKeys(String file) {
		assertReported("versions-and-index-keys", file);
	}

	static List<String> versionsAndIndexKeys() {
		return MistakeFile.in("declaration/versions-and-index-keys");
	}

	// ---- several mistakes at once

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void several(String file) {
		assertReported("several", file);
	}

	static List<String> several() {
		return MistakeFile.in("declaration/several");
	}

	@Test
	void mistakesOfSeveralFilesAreReportedEachInItsFile() throws IOException {
		Path users = this.dir.resolve("users.graphqls");
		Files.writeString(users, """
				type Query {
				  node(id: ID!): Node
				  users(first: Int, after: String, order: SortOrder): UserConnection! @scan
				}
				""" + USERS);
		Path items = this.dir.resolve("items.graphqls");
		String itemsSchema = ITEMS + """
				extend type Query {
				  items(pk: String!, first: Int, after: String): ItemConnection! @query
				}
				""";
		Files.writeString(items, itemsSchema);
		DeclarationException failure = failureOf("file:" + this.dir + "/");
		assertThat(failure.problems()).hasSize(2);
		assertThat(failure.problems()).extracting((problem) -> new Location(problem.location().file(), problem.location().line()))
			.containsExactlyInAnyOrder(new Location(name(users), 3), new Location(name(items), line(itemsSchema, "items(pk")));
	}

	@Test
	void eachMistakeIsReportedAsTheKindOfFixItNeeds() throws IOException {
		String schema = ITEMS + """
				type Query {
				  node(id: ID!): Node
				  items(owner: String!, first: Int, after: String, last: Int, before: String): ItemConnection!
				    @query(index: "ByOwnr")
				  item(pk: String!, sk: String!): [Item] @lookup
				  twice(pk: String!, first: Int, after: String): ItemConnection! @query @scan
				}
				""";
		Files.writeString(this.dir.resolve("kinds.graphqls"), schema);
		DeclarationException failure = failureOf("file:" + this.dir + "/");
		assertThat(failure.problems()).extracting((problem) -> (Object) problem.getClass())
			.containsExactlyInAnyOrder(UnknownName.class, WrongAnswer.class, ConflictingDeclarations.class);
		UnknownName index = (UnknownName) failure.problems()
			.stream()
			.filter(UnknownName.class::isInstance)
			.findFirst()
			.orElseThrow();
		assertThat(index.name()).isEqualTo("ByOwnr");
		assertThat(index.closest()).contains("ByOwner");
		assertThat(index.location().line()).isEqualTo(line(schema, "@query(index: \"ByOwnr\")"));
		assertThat(index.message()).isEqualTo("`Query.items` reads index `ByOwnr`, which table `Items` does not declare. "
				+ "Did you mean `ByOwner`? Otherwise add `@globalIndex` or `@localIndex` to a type of that table.");
	}

	// ---- where each problem is reported

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void everyProblemIsAtALineAndColumnOfItsFile(String file) {
		SchemaFiles files = SchemaFiles.resolve("classpath:mistakes/declaration/" + file, new PathMatchingResourcePatternResolver());
		String name = files.files().keySet().iterator().next();
		DeclarationException failure = org.assertj.core.api.Assertions.catchThrowableOfType(DeclarationException.class,
				() -> DeclarationReader.read(files.parse(), ""));
		assertThat(failure).as(file).isNotNull();
		assertThat(failure.problems()).as(failure.getMessage()).allSatisfy((problem) -> {
			assertThat(problem.location().file()).isEqualTo(name);
			assertThat(problem.location().line()).isPositive();
			assertThat(problem.location().column()).isPositive();
			assertThat(failure.getMessage()).contains("\n  " + name + ":" + problem.location().line() + ":"
					+ problem.location().column() + ": " + problem.message());
		});
	}

	static List<String> everyProblemIsAtALineAndColumnOfItsFile() {
		return List.of("schema-files", "tables", "connections", "arguments", "lookups", "mutations", "mutation-inputs",
				"versions-and-index-keys", "several")
			.stream()
			.flatMap((folder) -> MistakeFile.in("declaration/" + folder).stream().map((each) -> folder + "/" + each))
			.toList();
	}

	// ---- valid schemas stay valid

	@Test
	void theSampleAndTheTestShopAreValid() {
		PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();
		Declarations sample = DeclarationReader.read(SchemaFiles.resolve(SchemaProperties.SAMPLE, resolver).parse(), "");
		assertThat(sample.tables()).containsOnlyKeys("Users", "UserPurchases", "Movies");
		Declarations shop = DeclarationReader.read(SchemaFiles.resolve("src/test/resources/shop/", resolver).parse(), "");
		assertThat(shop.tables()).containsOnlyKeys("Shop", "Readings");
	}

	// ---- helpers

	private static void assertReported(String folder, String file) {
		MistakeFile.read("declaration/" + folder, file).assertReportedBy(MistakeFile.DECLARATIONS);
	}

	/** The declarations of a valid schema file. */
	private Declarations read(String schema) {
		Path file = write(schema);
		return DeclarationReader
			.read(SchemaFiles.resolve("file:" + file.getParent() + "/", new PathMatchingResourcePatternResolver()).parse(), "");
	}

	private DeclarationException failureOf(String locations) {
		try {
			SchemaFiles files = SchemaFiles.resolve(locations, new PathMatchingResourcePatternResolver());
			DeclarationReader.read(files.parse(), "");
		}
		catch (DeclarationException failure) {
			return failure;
		}
		return fail("the declarations were read without a problem");
	}

	private Path write(String schema) {
		try {
			return Files.writeString(this.dir.resolve("mistake.graphqls"), schema);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String name(Path file) {
		return file.toAbsolutePath().normalize().toString();
	}

	/** The line (from 1) where {@code snippet} starts; it must occur once. */
	private static int line(String schema, String snippet) {
		int at = schema.indexOf(snippet);
		assertThat(at).as("`%s` in the schema", snippet).isNotNegative();
		assertThat(schema.indexOf(snippet, at + 1)).as("`%s` once in the schema", snippet).isNegative();
		return (int) schema.substring(0, at).chars().filter((c) -> c == '\n').count() + 1;
	}

}
