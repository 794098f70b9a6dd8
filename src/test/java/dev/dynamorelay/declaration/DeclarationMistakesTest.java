package dev.dynamorelay.declaration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.DeclarationException.Problem;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.SchemaFiles;
import dev.dynamorelay.schema.SchemaProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.fail;

/**
 * Every kind of mistake a schema file can make in its declarations stops the start with a problem at the
 * mistake's file and line that says what to change; several mistakes are reported together.
 */
class DeclarationMistakesTest {

	/** A valid table the field mistakes read: string keys, a global and a local index. */
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

	/** A valid table with a numeric sort key. */
	private static final String EVENTS = """
			type Event implements Node @table(name: "Events", partitionKey: "stream", sortKey: "seq") {
			  id: ID!
			  stream: String!
			  seq: Long!
			  kind: String
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

	@Test
	void aSyntaxErrorIsReportedWithItsFileAndLine() {
		String schema = """
				type Query {
				  user(userId: String!): User @lookup
				}

				type User implements Node @table(name: "Users", partitionKey: "userId") {
				  id: ID!
				  userId String!
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "userId String!"), "Invalid syntax", "String");
	}

	@Test
	void anUnknownTypeIsReportedWithItsFileAndLine() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type User implements Node @table(name: "Users", partitionKey: "userId") {
				  id: ID!
				  userId: String!
				  address: Address
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "type User"), "Address", "not present");
	}

	@Test
	void aDirectiveWithoutARequiredArgumentIsReportedWithItsFileAndLine() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type User implements Node
				  @table(name: "Users") {
				  id: ID!
				  userId: String!
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "type User"), "'User'", "non null argument 'partitionKey' on directive 'table'");
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

	@Test
	void keyAndIndexesNeedTable() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type Profile implements Node
				  @key(partitionKey: "PROFILE#{profileId}")
				  @globalIndex(name: "ByName", partitionKey: "name")
				  @localIndex(name: "ByAge", sortKey: "age") {
				  id: ID!
				  profileId: String!
				  name: String
				  age: Int
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(3);
		int line = line(schema, "type Profile");
		assertProblem(problems.get(0), line, "`@key` on `Profile` needs `@table` on the same type");
		assertProblem(problems.get(1), line, "`@globalIndex` on `Profile` needs `@table` on the same type");
		assertProblem(problems.get(2), line, "`@localIndex` on `Profile` needs `@table` on the same type");
	}

	@Test
	void tableNeedsANameAndAPartitionKey() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type User implements Node
				  @table(name: "", partitionKey: "userId") {
				  id: ID!
				  userId: String!
				}

				type Group implements Node
				  @table(name: "Groups", partitionKey: " ") {
				  id: ID!
				  groupId: String!
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "@table(name: \"\""), "`@table` on `User` needs a `name` and a `partitionKey`");
		assertProblem(problems.get(1), line(schema, "@table(name: \"Groups\""),
				"`@table` on `Group` needs a `name` and a `partitionKey`");
	}

	@Test
	void aTypeWithoutItsTablesKeyField() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type User implements Node
				  @table(name: "Users", partitionKey: "userId") {
				  id: ID!
				  name: String
				}

				type Visit implements Node
				  @table(name: "Visits", partitionKey: "page", sortKey: "at") {
				  id: ID!
				  page: String!
				  visitedAt: String
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "@table(name: \"Users\""),
				"`User` has no field for the table's partition key `userId`: add a field `userId` (or one with "
						+ "`@attribute(name: \"userId\")`), or give the key's template with `@key`.");
		assertProblem(problems.get(1), line(schema, "@table(name: \"Visits\""),
				"`Visit` has no field for the table's sort key `at`");
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
	void keySortKeyWithoutTableSortKey() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type Customer implements Node
				  @table(name: "Shop", partitionKey: "PK")
				  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "PROFILE") {
				  id: ID!
				  customerId: String!
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "@key("),
				"`@key` of `Customer` has a `sortKey`, but table `Shop` declares none: add `sortKey` to `@table`.");
	}

	@Test
	void tableSortKeyWithoutKeySortKey() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type Customer implements Node
				  @table(name: "Shop", partitionKey: "PK", sortKey: "SK")
				  @key(partitionKey: "CUSTOMER#{customerId}")
				  @globalIndex(name: "Inverted", partitionKey: "SK", sortKey: "PK") {
				  id: ID!
				  customerId: String!
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "@key("),
				"`Customer` needs a sort key template: table `Shop` has sort key `SK`.");
	}

	@Test
	void aKeyTemplateNamingNoField() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type Customer implements Node
				  @table(name: "Shop", partitionKey: "PK", sortKey: "SK")
				  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "ORDER#{orderedAt}") {
				  id: ID!
				  customerId: String!
				}

				type Note implements Node
				  @table(name: "Notes", partitionKey: "PK")
				  @key(partitionKey: "{noteId}") {
				  id: ID!
				  text: String
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "@key(partitionKey: \"CUSTOMER"),
				"key template `ORDER#{orderedAt}` of `Customer` names `{orderedAt}`, which is no field of `Customer`.");
		assertProblem(problems.get(1), line(schema, "@key(partitionKey: \"{noteId}"),
				"key template `{noteId}` of `Note` names `{noteId}`, which is no field of `Note`.");
	}

	@Test
	void aKeyFieldThatCannotBeAKey() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type Flag implements Node
				  @table(name: "Flags", partitionKey: "on") {
				  id: ID!
				  on: Boolean!
				}

				type Tagged implements Node
				  @table(name: "Tagged", partitionKey: "PK")
				  @key(partitionKey: "TAGS#{tags}") {
				  id: ID!
				  tags: [String!]
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "@table(name: \"Flags\""),
				"`Flag.on` is in a key but is neither a string, a number nor bytes.");
		assertProblem(problems.get(1), line(schema, "@key(partitionKey: \"TAGS"),
				"`Tagged.tags` is in a key but is neither a string, a number nor bytes.");
	}

	@Test
	void keyTemplatesOfBadSyntax() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type A implements Node @table(name: "A", partitionKey: "PK")
				  @key(partitionKey: "A#{aId") {
				  id: ID!
				  aId: String!
				}

				type B implements Node @table(name: "B", partitionKey: "PK")
				  @key(partitionKey: "B#bId}") {
				  id: ID!
				  bId: String!
				}

				type C implements Node @table(name: "C", partitionKey: "PK")
				  @key(partitionKey: "C#{first}{second}") {
				  id: ID!
				  first: String!
				  second: String!
				}

				type D implements Node @table(name: "D", partitionKey: "PK")
				  @key(partitionKey: "D#{d-id}") {
				  id: ID!
				  dId: String!
				}

				type E implements Node @table(name: "E", partitionKey: "PK")
				  @key(partitionKey: "") {
				  id: ID!
				  eId: String!
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(5);
		assertProblem(problems.get(0), line(schema, "\"A#{aId\""), "`{` without `}` in key template `A#{aId`.");
		assertProblem(problems.get(1), line(schema, "\"B#bId}\""), "`}` without `{` in key template `B#bId}`.");
		assertProblem(problems.get(2), line(schema, "{first}{second}"),
				"placeholders in key template `C#{first}{second}` need constant text between them, such as `#`.");
		assertProblem(problems.get(3), line(schema, "{d-id}"),
				"placeholder `{d-id}` in key template `D#{d-id}` is not a field or argument name.");
		assertProblem(problems.get(4), line(schema, "@key(partitionKey: \"\")"), "a key template must not be empty.");
	}

	@Test
	void typesOfOneTableDeclaringItsKeysDifferently() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type Customer implements Node
				  @table(name: "Shop", partitionKey: "PK", sortKey: "SK")
				  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "PROFILE") {
				  id: ID!
				  customerId: String!
				}

				type Order implements Node
				  @table(name: "Shop", partitionKey: "PK", sortKey: "SortKey")
				  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "ORDER#{orderId}") {
				  id: ID!
				  customerId: String!
				  orderId: String!
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "sortKey: \"SortKey\""),
				"`@table` of `Order` declares table `Shop` with other keys or type attribute than `Customer` does ("
						+ file() + ":" + line(schema, "sortKey: \"SK\"") + "): every type in one table declares the same "
						+ "`partitionKey`, `sortKey` and `typeAttribute`.");
	}

	@Test
	void typesOfOneTableStoringItsKeyAsTwoTypes() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type Cat implements Node
				  @table(name: "Pets", partitionKey: "petId", typeAttribute: "kind") {
				  id: ID!
				  petId: String!
				}

				type Dog implements Node
				  @table(name: "Pets", partitionKey: "petId", typeAttribute: "kind") {
				  id: ID!
				  petId: Int!
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "@table(name: \"Pets\", partitionKey: \"petId\", typeAttribute: \"kind\") {\n  id: ID!\n  petId: Int!"),
				"the types of table `Pets` store its key `petId` as both S and N.");
	}

	@Test
	void anIndexDeclaredTwiceWithOtherKeys() {
		String schema = """
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
				  @globalIndex(name: "GSI1", partitionKey: "GSI1PK") {
				  id: ID!
				  customerId: String!
				  orderId: String!
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "@globalIndex(name: \"GSI1\", partitionKey: \"GSI1PK\") {"),
				"index `GSI1` of table `Shop` is declared with other keys at " + file() + ":"
						+ line(schema, "sortKey: \"GSI1SK\"") + ".");
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

	@Test
	void anIndexWithoutItsKeyAttributeNames() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type Item implements Node
				  @table(name: "Items", partitionKey: "pk", sortKey: "sk")
				  @globalIndex(name: "ByOwner", partitionKey: "")
				  @localIndex(name: "ByScore", sortKey: " ") {
				  id: ID!
				  pk: String!
				  sk: String!
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "@globalIndex("), "`@globalIndex` needs its key attribute names.");
		assertProblem(problems.get(1), line(schema, "@localIndex("), "`@localIndex` needs its key attribute names.");
	}

	@Test
	void typesOfOneTableWhoseItemsCannotBeToldApart() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type Customer implements Node
				  @table(name: "Shop", partitionKey: "PK", sortKey: "SK")
				  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "{since}") {
				  id: ID!
				  customerId: String!
				  since: String
				}

				type Order implements Node
				  @table(name: "Shop", partitionKey: "PK", sortKey: "SK")
				  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "{orderedAt}") {
				  id: ID!
				  customerId: String!
				  orderedAt: String!
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "@table(name: \"Shop\", partitionKey: \"PK\", sortKey: \"SK\")\n  @key(partitionKey: \"CUSTOMER#{customerId}\", sortKey: \"{orderedAt}\")"),
				"`Customer` and `Order` share table `Shop` with keys of the same shape, so their items cannot be told "
						+ "apart: give them `@key` templates with distinct constant text (e.g. `ORDER#{orderId}`), or "
						+ "`@table(typeAttribute: ...)`.");
	}

	// ---- connections and lookups

	@Test
	void aConnectionOnATypeWithoutTable() {
		String schema = """
				type Query {
				  viewer: Viewer
				}

				type Viewer {
				  items(pk: String!, first: Int, after: String, last: Int, before: String): ItemConnection! @query
				  item(pk: String!, sk: String!): Item @lookup
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "items(pk"),
				"`Viewer.items` is declared on `Viewer`, which has no `@table`: connections and lookups belong to "
						+ "`Query` or to a type stored in a table.");
		assertProblem(problems.get(1), line(schema, "item(pk"), "`Viewer.item` is declared on `Viewer`");
	}

	@Test
	void aFieldWithMoreThanOneOfQueryScanAndLookup() {
		String schema = """
				type Query {
				  items(pk: String!, first: Int, after: String, last: Int, before: String): ItemConnection! @query @scan
				  item(pk: String!, sk: String!): Item @lookup @query
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "items(pk"),
				"`Query.items` has more than one of `@query`, `@scan` and `@lookup`: keep one.");
		assertProblem(problems.get(1), line(schema, "item(pk"),
				"`Query.item` has more than one of `@query`, `@scan` and `@lookup`: keep one.");
	}

	@Test
	void sortKeyOrFilterOnAFieldThatIsNoConnection() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  count(pk: String!,
				        from: String @sortKey(op: GE),
				        owner: String @filter(op: EQ)): Int
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "from: String"),
				"argument `from` of `Query.count` has `@sortKey`/`@filter`, but the field is no `@query` or `@scan` "
						+ "connection.");
		assertProblem(problems.get(1), line(schema, "owner: String @filter"), "argument `owner` of `Query.count`");
	}

	@Test
	void aConnectionReturningNoConnectionType() {
		String schema = """
				type Query {
				  items(pk: String!, first: Int, after: String, last: Int, before: String): [Item!]! @query
				  names(first: Int, after: String): String @scan
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "items(pk"),
				"`Query.items` returns `Item`, which is no connection type: return `XConnection` (with `edges` and "
						+ "`pageInfo`, or left undefined to be generated) for a node type `X`.");
		assertProblem(problems.get(1), line(schema, "names(first"), "`Query.names` returns `String`, which is no connection type");
	}

	@Test
	void aConnectionWhoseEdgesHaveNoNode() {
		String schema = """
				type Query {
				  items(pk: String!, first: Int, after: String, last: Int, before: String): ItemConnection! @query
				}

				type ItemConnection {
				  edges: [ItemEdge!]!
				  pageInfo: PageInfo!
				}

				type ItemEdge {
				  cursor: String!
				  item: Item!
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "items(pk"), "`ItemConnection`'s edges have no `node` field.");
	}

	@Test
	void aConnectionOfNodesStoredInNoTable() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  notes(first: Int, after: String): NoteConnection! @scan
				}

				type Note {
				  text: String
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "notes(first"),
				"`Query.notes`'s node type `Note` is stored in no table: give `Note` a `@table` (or make it an "
						+ "interface or union of such types).");
	}

	@Test
	void aConnectionOfAUnionOfTwoTables() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  everything(first: Int, after: String): AnythingConnection! @scan
				}

				union Anything = Item | User
				""" + ITEMS + USERS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "everything(first"),
				"`Query.everything` returns types of two tables (`Item` in `Items`, `User` in `Users`): a connection "
						+ "reads one.");
	}

	@Test
	void aSortKeyOrFilterArgumentOnATimestampThatIsNoString() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  logs(stream: String!, first: Int, after: String, last: Int, before: String,
				       since: Long @sortKey(op: GE),
				       between: [Int!] @sortKey(op: BETWEEN),
				       touchedAfter: Long @filter(attribute: "touched", op: GT)): LogConnection! @query
				}

				type Log implements Node @table(name: "Logs", partitionKey: "stream", sortKey: "at") {
				  id: ID!
				  stream: String!
				  at: String! @timestamp(format: EPOCH_MILLIS)
				  touched: String @timestamp(format: ISO)
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(3);
		assertProblem(problems.get(0), line(schema, "since: Long"),
				"`Query.logs(since:)` compares timestamp `at`: declare it as a `String` of ISO-8601 instants.");
		assertProblem(problems.get(1), line(schema, "between: [Int!]"),
				"`Query.logs(between:)` compares timestamp `at`: declare it as a `String` of ISO-8601 instants (`[String!]`).");
		assertProblem(problems.get(2), line(schema, "touchedAfter: Long"),
				"`Query.logs(touchedAfter:)` compares timestamp `touched`: declare it as a `String` of ISO-8601 instants.");
	}

	@Test
	void aTimestampFieldThatIsNoString() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type Log implements Node @table(name: "Logs", partitionKey: "stream", sortKey: "seq") {
				  id: ID!
				  stream: String!
				  seq: Long!
				  at: Int @timestamp(format: EPOCH_MILLIS)
				  seen: [Long!] @timestamp(format: EPOCH_SECONDS)
				  touched: [String!] @timestamp(format: ISO)
				  created: ID @timestamp(format: ISO)
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "at: Int"),
				"`Log.at` is `Int` with `@timestamp`, which serves ISO-8601 strings: declare it as `String` (or a list of "
						+ "`String`).");
		assertProblem(problems.get(1), line(schema, "seen: [Long!]"), "`Log.seen` is `[Long!]` with `@timestamp`");
	}

	@Test
	void aConnectionOfAnUndeclaredIndex() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  byName(name: String!, first: Int, after: String, last: Int, before: String): ItemConnection!
				    @query(index: "ByName")
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "@query(index: \"ByName\")"),
				"`Query.byName` reads index `ByName`, which table `Items` does not declare: add `@globalIndex` or "
						+ "`@localIndex` to a type of that table.");
	}

	@Test
	void consistentReadsOfAGlobalIndex() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  byOwner(owner: String!, first: Int, after: String, last: Int, before: String): ItemConnection!
				    @query(index: "ByOwner", consistentRead: true)
				  scanOwners(first: Int, after: String): ItemConnection!
				    @scan(index: "ByOwner", consistentRead: true)
				  byScore(pk: String!, first: Int, after: String, last: Int, before: String): ItemConnection!
				    @query(index: "ByScore", consistentRead: true)
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "@query(index: \"ByOwner\""),
				"`Query.byOwner` asks for consistent reads of global index `ByOwner`: DynamoDB reads global indexes "
						+ "eventually consistently only; remove `consistentRead`.");
		assertProblem(problems.get(1), line(schema, "@scan(index: \"ByOwner\""),
				"`Query.scanOwners` asks for consistent reads of global index `ByOwner`");
	}

	@Test
	void aConnectionWithoutFirstAndAfter() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  all(after: String): ItemConnection! @scan
				  some(pk: String!, first: Int, last: Int, before: String): ItemConnection! @query
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "all(after"),
				"connection `Query.all` needs the argument `first` (Relay: first, after, last, before).");
		assertProblem(problems.get(1), line(schema, "some(pk"),
				"connection `Query.some` needs the argument `after` (Relay: first, after, last, before).");
	}

	@Test
	void aQueryWithoutLastAndBefore() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(pk: String!, first: Int, after: String): ItemConnection! @query
				  allItems(first: Int, after: String): ItemConnection! @scan
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "items(pk"),
				"connection `Query.items` reads a key range and needs `last` and `before` too (Relay clients page "
						+ "backwards with them).");
	}

	@Test
	void aPartitionKeyPlaceholderNamingNothing() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(first: Int, after: String, last: Int, before: String): ItemConnection! @query
				  byOwner(first: Int, after: String, last: Int, before: String): ItemConnection!
				    @query(index: "ByOwner", partitionKey: "{ownerId}")
				}

				type User implements Node @table(name: "Users", partitionKey: "userId") {
				  id: ID!
				  userId: String!
				  items(first: Int, after: String, last: Int, before: String): ItemConnection!
				    @query(partitionKey: "USER#{accountId}")
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(3);
		assertProblem(problems.get(0), line(schema, "  items(first: Int, after: String, last: Int, before: String): ItemConnection! @query\n"),
				"`Query.items` fills key `pk` from `{pk}`, but `pk` is no argument of `items`: add the argument");
		assertProblem(problems.get(1), line(schema, "{ownerId}"),
				"`Query.byOwner` fills key `owner` from `{ownerId}`, but `ownerId` is no argument of `byOwner`");
		assertProblem(problems.get(2), line(schema, "@query(partitionKey: \"USER"),
				"`User.items` fills key `pk` from `{accountId}`, but `accountId` is no argument of `items` and no "
						+ "field of `User`: add the argument, or give `@query(partitionKey: ...)` a template such as "
						+ "`\"CUSTOMER#{customerId}\"`.");
	}

	@Test
	void aQueryPartitionKeyTemplateOfBadSyntax() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(owner: String!, first: Int, after: String, last: Int, before: String): ItemConnection!
				    @query(partitionKey: "OWNER#{owner")
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "@query(partitionKey"), "`{` without `}` in key template `OWNER#{owner`.");
	}

	@Test
	void aSortKeyPrefixWithoutAStringSortKey() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  events(stream: String!, first: Int, after: String, last: Int, before: String): EventConnection!
				    @query(sortKeyPrefix: "2025")
				  users(userId: String!, first: Int, after: String, last: Int, before: String): UserConnection!
				    @query(sortKeyPrefix: "X")
				}
				""" + EVENTS + USERS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "@query(sortKeyPrefix: \"2025\")"),
				"`Query.events` has a sort key prefix, but its table has no string sort key.");
		assertProblem(problems.get(1), line(schema, "@query(sortKeyPrefix: \"X\")"),
				"`Query.users` has a sort key prefix, but its table has no string sort key.");
	}

	@Test
	void sortKeyArgumentsOfAScan() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(first: Int, after: String,
				        from: String @sortKey(op: GE),
				        order: SortOrder = ASC): ItemConnection! @scan
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "from: String"),
				"`Query.items` is a Scan, which has no key range: `@sortKey` needs `@query`.");
		assertProblem(problems.get(1), line(schema, "order: SortOrder"),
				"`Query.items` is a Scan, which reads in DynamoDB's order only: remove `order`.");
	}

	@Test
	void aSortKeyArgumentOfATableWithoutSortKey() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  users(userId: String!, first: Int, after: String, last: Int, before: String,
				        nameFrom: String @sortKey(op: GE)): UserConnection! @query
				}
				""" + USERS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "nameFrom"),
				"`Query.users(nameFrom:)` compares the sort key, but the table or index read has none.");
	}

	@Test
	void betweenTakesAListAndOnlyBetween() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(pk: String!, first: Int, after: String, last: Int, before: String,
				        within: String @sortKey(op: BETWEEN),
				        from: [String!] @sortKey(op: GE)): ItemConnection! @query
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "within:"),
				"`Query.items(within:)` is BETWEEN: declare it as a list of two values, e.g. `[String!]`.");
		assertProblem(problems.get(1), line(schema, "from:"),
				"`Query.items(from:)` takes one value; only BETWEEN takes a list.");
	}

	@Test
	void beginsWithOnANumericSortKey() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  events(stream: String!, first: Int, after: String, last: Int, before: String,
				         seqPrefix: Long @sortKey(op: BEGINS_WITH)): EventConnection! @query
				}
				""" + EVENTS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "seqPrefix"),
				"`Query.events(seqPrefix:)` is BEGINS_WITH, but sort key `seq` is a number.");
	}

	@Test
	void lessThanUnderASortKeyPrefix() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(pk: String!, first: Int, after: String, last: Int, before: String,
				        before2025: String @sortKey(op: LT)): ItemConnection! @query(sortKeyPrefix: "ITEM#")
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "before2025"),
				"`Query.items(before2025:)` is LT on sort keys that start with `ITEM#`: one key condition cannot say "
						+ "both; use LE, or BETWEEN.");
	}

	@Test
	void aSortKeyArgumentOfAnotherTypeThanTheSortKey() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  events(stream: String!, first: Int, after: String, last: Int, before: String,
				         fromSeq: String @sortKey(op: GE),
				         seqWithin: [String!] @sortKey(op: BETWEEN)): EventConnection! @query
				  items(pk: String!, first: Int, after: String, last: Int, before: String,
				        skFrom: Int @sortKey(op: GE)): ItemConnection! @query
				}
				""" + ITEMS + EVENTS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(3);
		assertProblem(problems.get(0), line(schema, "fromSeq"),
				"`Query.events(fromSeq:)` is `String`, but sort key `seq` is N: declare it as `Int`, `Long`, `Float` or "
						+ "`Decimal`.");
		assertProblem(problems.get(1), line(schema, "seqWithin"),
				"`Query.events(seqWithin:)` is `String`, but sort key `seq` is N");
		assertProblem(problems.get(2), line(schema, "skFrom"),
				"`Query.items(skFrom:)` is `Int`, but sort key `sk` is S: declare it as `String`.");
	}

	@Test
	void aFilterOnAKeyOfTheQuery() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(pk: String!, first: Int, after: String, last: Int, before: String,
				        skIs: String @filter(attribute: "sk", op: EQ)): ItemConnection! @query
				  byOwner(owner: String!, first: Int, after: String, last: Int, before: String,
				          createdAfter: String @filter(attribute: "created", op: GT)): ItemConnection!
				    @query(index: "ByOwner")
				  allItems(first: Int, after: String, pk: String @filter(op: EQ)): ItemConnection! @scan
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "skIs"),
				"`Query.items(skIs:)` filters on key attribute `sk`: DynamoDB refuses a filter on a key of a Query; "
						+ "compare the sort key with `@sortKey` instead.");
		assertProblem(problems.get(1), line(schema, "createdAfter"),
				"`Query.byOwner(createdAfter:)` filters on key attribute `created`");
	}

	@Test
	void inTakesAListAndOnlyIn() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(pk: String!, first: Int, after: String, last: Int, before: String,
				        ownerIn: String @filter(attribute: "owner", op: IN),
				        ownerIs: [String!] @filter(attribute: "owner", op: EQ)): ItemConnection! @query
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "ownerIn"),
				"`Query.items(ownerIn:)` is IN: declare it as a list, e.g. `[String!]`.");
		assertProblem(problems.get(1), line(schema, "ownerIs"),
				"`Query.items(ownerIs:)` takes one value; only IN takes a list.");
	}

	@Test
	void inTakesNonNullValues() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(pk: String!, first: Int, after: String, last: Int, before: String,
				        ownerIn: [String] @filter(attribute: "owner", op: IN),
				        scoreIn: [Int!] @filter(attribute: "score", op: IN),
				        doneIn: [Boolean!]! @filter(attribute: "done", op: IN)): ItemConnection! @query
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "ownerIn"),
				"`Query.items(ownerIn:)` is IN: declare its values non-null, e.g. `[String!]`; DynamoDB compares no null.");
	}

	@Test
	void existsTakesABoolean() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(pk: String!, first: Int, after: String, last: Int, before: String,
				        hasOwner: String @filter(attribute: "owner", op: EXISTS)): ItemConnection! @query
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "hasOwner"),
				"`Query.items(hasOwner:)` is EXISTS: declare it as a `Boolean` (true: exists, false: does not).");
	}

	@Test
	void aListAttributeComparedOtherwiseThanByContains() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(pk: String!, first: Int, after: String, last: Int, before: String,
				        tag: String @filter(attribute: "tags", op: CONTAINS),
				        tagged: Boolean @filter(attribute: "tags", op: EXISTS),
				        tagIs: String @filter(attribute: "tags", op: EQ)): ItemConnection! @query
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "tagIs"),
				"`Query.items(tagIs:)` compares list attribute `tags`: only CONTAINS and EXISTS apply to a list.");
	}

	@Test
	void beginsWithOnValuesThatAreNeitherStringsNorBytes() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(pk: String!, first: Int, after: String, last: Int, before: String,
				        ownerPrefix: String @filter(attribute: "owner", op: BEGINS_WITH),
				        scorePrefix: String @filter(attribute: "score", op: BEGINS_WITH),
				        colourPrefix: String @filter(attribute: "colour", op: BEGINS_WITH),
				        sizePrefix: Int @filter(attribute: "size", op: BEGINS_WITH)): ItemConnection! @query
				  logs(stream: String!, first: Int, after: String, last: Int, before: String,
				       atPrefix: String @filter(attribute: "at", op: BEGINS_WITH),
				       touchedPrefix: String @filter(attribute: "touched", op: BEGINS_WITH)): LogConnection! @query
				}

				type Log implements Node @table(name: "Logs", partitionKey: "stream", sortKey: "seq") {
				  id: ID!
				  stream: String!
				  seq: Long!
				  at: String @timestamp(format: EPOCH_MILLIS)
				  touched: String @timestamp(format: ISO)
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(3);
		assertProblem(problems.get(0), line(schema, "scorePrefix"),
				"`Query.items(scorePrefix:)` is BEGINS_WITH on `score`, compared as a number: BEGINS_WITH compares "
						+ "strings and bytes only.");
		assertProblem(problems.get(1), line(schema, "sizePrefix"),
				"`Query.items(sizePrefix:)` is BEGINS_WITH on `size`, compared as a number");
		assertProblem(problems.get(2), line(schema, "atPrefix"),
				"`Query.logs(atPrefix:)` is BEGINS_WITH on `at`, compared as a timestamp stored as a number");
	}

	@Test
	void anOrderComparisonOfValuesThatAreNeitherStringsNumbersNorBytes() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(pk: String!, first: Int, after: String, last: Int, before: String,
				        ownerFrom: String @filter(attribute: "owner", op: GE),
				        scoreAbove: Int @filter(attribute: "score", op: GT),
				        doneAfter: Boolean @filter(attribute: "done", op: GT),
				        ownerBelow: Boolean @filter(attribute: "owner", op: LT),
				        flagUntil: Boolean @filter(attribute: "flag", op: LE)): ItemConnection! @query
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(3);
		assertProblem(problems.get(0), line(schema, "doneAfter"),
				"`Query.items(doneAfter:)` is GT on `done`, compared as a boolean: LT, LE, GT and GE compare strings, "
						+ "numbers and bytes only.");
		assertProblem(problems.get(1), line(schema, "ownerBelow"),
				"`Query.items(ownerBelow:)` is LT on `owner`, compared as a boolean");
		assertProblem(problems.get(2), line(schema, "flagUntil"),
				"`Query.items(flagUntil:)` is LE on `flag`, compared as a boolean");
	}

	@Test
	void containsOnValuesThatAreNeitherStringsNorLists() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(pk: String!, first: Int, after: String, last: Int, before: String,
				        ownerHas: String @filter(attribute: "owner", op: CONTAINS),
				        tagsHave: String @filter(attribute: "tags", op: CONTAINS),
				        sizesHave: Int @filter(attribute: "sizes", op: CONTAINS),
				        scoreHas: Int @filter(attribute: "score", op: CONTAINS),
				        doneHas: Boolean @filter(attribute: "done", op: CONTAINS)): ItemConnection! @query
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "scoreHas"),
				"`Query.items(scoreHas:)` is CONTAINS on `score`, compared as a number: CONTAINS finds a substring of a "
						+ "string or an element of a list or set only.");
		assertProblem(problems.get(1), line(schema, "doneHas"),
				"`Query.items(doneHas:)` is CONTAINS on `done`, compared as a boolean");
	}

	@Test
	void anArgumentThatDoesNothing() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(pk: String!, first: Int, after: String, last: Int, before: String,
				        owner: String): ItemConnection! @query
				}
				""" + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "owner: String)"),
				"argument `owner` of `Query.items` does nothing: give it `@sortKey` or `@filter`, use it in the "
						+ "`partitionKey` template, or remove it.");
	}

	@Test
	void aScanArgumentThatDoesNothing() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  users(userId: String, first: Int, after: String): UserConnection! @scan
				}
				""" + USERS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "users(userId"),
				"argument `userId` of `Query.users` does nothing: a Scan has no key to fill; give it `@filter`, or "
						+ "remove it.");
	}

	@Test
	void aLookupArgumentThatDoesNothing() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  user(userId: String!,
				       name: String,
				       active: Boolean @filter(op: EXISTS)): User @lookup
				}
				""" + USERS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "name: String,"),
				"argument `name` of `Query.user` does nothing: a `@lookup` reads one item by its key; use the argument "
						+ "in a key template (`@lookup(partitionKey: ..., sortKey: ...)`), or remove it.");
		assertProblem(problems.get(1), line(schema, "active:"),
				"argument `active` of `Query.user` has `@sortKey`/`@filter`, but the field is no `@query` or `@scan` "
						+ "connection.");
	}

	@Test
	void aLocalIndexOfATableWithoutSortKey() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type User implements Node @table(name: "Users", partitionKey: "userId")
				  @localIndex(name: "ByName", sortKey: "name") {
				  id: ID!
				  userId: String!
				  name: String
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "@localIndex"),
				"local index `ByName` needs table `Users` to have a sort key: DynamoDB has local indexes on tables with "
						+ "a partition and a sort key only; declare the table's `sortKey`, or `@globalIndex(name: \"ByName\", "
						+ "partitionKey: \"userId\", sortKey: \"name\")`.");
	}

	@Test
	void aLookupReturningAList() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  users(userId: String!): [User] @lookup
				}
				""" + USERS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "users(userId"),
				"`Query.users` is a `@lookup` of one item: return the type, not a list; a list is a connection.");
	}

	@Test
	void aLookupOfATypeStoredInNoTable() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  note(noteId: String!): Note @lookup
				}

				type Note {
				  noteId: String!
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "note(noteId"),
				"`Query.note` looks up `Note`, which is stored in no table: give it a `@table`.");
	}

	@Test
	void aLookupKeyPlaceholderNamingNothing() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  user(id: String!): User @lookup
				  item(pk: String!, key: String!): Item
				    @lookup(sortKey: "ITEM#{itemKey}")
				}
				""" + USERS + ITEMS;
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "user(id"),
				"`Query.user` fills key `userId` from `{userId}`, but `userId` is no argument of `user`: add the argument");
		assertProblem(problems.get(1), line(schema, "@lookup(sortKey"),
				"`Query.item` fills key `sk` from `{itemKey}`, but `itemKey` is no argument of `item`: add the argument, "
						+ "or give `@lookup(sortKey: ...)` a template");
	}

	// ---- several mistakes at once

	@Test
	void everyMistakeOfAFileIsReportedAtOnce() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  items(pk: String!, first: Int, after: String): ItemConnection! @query
				  allItems(first: Int, after: String, order: SortOrder): ItemConnection! @scan
				  events(stream: String!, first: Int, after: String, last: Int, before: String,
				         seqPrefix: Long @sortKey(op: BEGINS_WITH)): EventConnection! @query
				  user(userId: String!): [User] @lookup
				}
				""" + ITEMS + EVENTS + USERS;
		DeclarationException failure = failure(schema);
		assertThat(failure.problems()).hasSize(4);
		assertProblem(failure.problems().get(0), line(schema, "items(pk"), "needs `last` and `before` too");
		assertProblem(failure.problems().get(1), line(schema, "order: SortOrder"), "remove `order`");
		assertProblem(failure.problems().get(2), line(schema, "seqPrefix"), "is BEGINS_WITH, but sort key `seq` is a number");
		assertProblem(failure.problems().get(3), line(schema, "user(userId"), "return the type, not a list");
		assertThat(failure.getMessage()).startsWith("The schema's declarations cannot be served (4 problems):\n");
		for (Problem problem : failure.problems()) {
			assertThat(failure.getMessage()).contains("\n  " + problem);
		}
	}

	@Test
	void everyTableMistakeOfAFileIsReportedAtOnce() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				}

				type A implements Node @table(name: "A", partitionKey: "aId") {
				  id: ID!
				}

				type B implements Node @key(partitionKey: "B#{bId}") {
				  id: ID!
				  bId: String!
				}

				type C implements Node @table(name: "C", partitionKey: "PK")
				  @key(partitionKey: "C#{cId}", sortKey: "X") {
				  id: ID!
				  cId: String!
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).extracting((problem) -> problem.location().line())
			.containsExactly(line(schema, "type A"), line(schema, "type B"), line(schema, "@key(partitionKey: \"C#"));
	}

	@Test
	void tableAndFieldMistakesAreReportedTogetherWithoutFollowUps() {
		String schema = """
				type Query {
				  node(id: ID!): Node
				  notes(noteId: String!, first: Int, after: String, last: Int, before: String): NoteConnection! @query
				  note(noteId: String!): Note @lookup
				  users(first: Int): UserConnection! @scan
				  user(userId: String!, name: String): User @lookup
				}

				type Note implements Node @table(name: "Notes", partitionKey: "noteId") {
				  id: ID!
				  text: String
				  author: User @lookup
				}

				union Anything = Note | User
				""" + USERS + """
				extend type Query {
				  everything(first: Int, after: String): AnythingConnection! @scan
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(3);
		assertProblem(problems.get(0), line(schema, "users(first"), "connection `Query.users` needs the argument `after`");
		assertProblem(problems.get(1), line(schema, "name: String): User"), "argument `name` of `Query.user` does nothing");
		assertProblem(problems.get(2), line(schema, "type Note"), "`Note` has no field for the table's partition key `noteId`");
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
		assertThat(failure.problems()).extracting(Problem::location)
			.containsExactlyInAnyOrder(new Location(name(users), 3), new Location(name(items), line(itemsSchema, "items(pk")));
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

	/** The declarations of a valid schema file. */
	private Declarations read(String schema) {
		Path file = write(schema);
		return DeclarationReader
			.read(SchemaFiles.resolve("file:" + file.getParent() + "/", new PathMatchingResourcePatternResolver()).parse(), "");
	}

	/** The problems of a schema file with mistakes, in the order of the report: by file and line. */
	private List<Problem> problems(String schema) {
		return failure(schema).problems()
			.stream()
			.sorted(Comparator.comparing((Problem problem) -> problem.location().file())
				.thenComparingInt((problem) -> problem.location().line()))
			.toList();
	}

	/** The failure of a schema file with mistakes, its problems all in that file. */
	private DeclarationException failure(String schema) {
		write(schema);
		DeclarationException failure = failureOf("file:" + this.dir + "/");
		assertThat(failure.problems()).allSatisfy((problem) -> assertThat(problem.location().file()).isEqualTo(file()));
		return failure;
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

	/** The name problems of the schema file are reported under. */
	private String file() {
		return name(this.dir.resolve("mistake.graphqls"));
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

	private void assertProblem(Problem problem, int line, String... fragments) {
		assertThat(problem.location()).as("where: %s", problem).isEqualTo(new Location(file(), line));
		assertThat(problem.message()).as("what: %s", problem).contains(fragments);
		assertThat(problem.toString()).startsWith(file() + ":" + line + ": ");
	}

}
