package dev.dynamorelay.access;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

import graphql.schema.FieldCoordinates;
import graphql.schema.idl.TypeDefinitionRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import dev.dynamorelay.declaration.DeclarationReader;
import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.DeclarationException.Problem;
import dev.dynamorelay.schema.SchemaFiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Every kind of mistake in {@code @auth} rules stops the start with a problem at its line that says what to change. */
class AccessRulesMistakesTest {

	/** Orders in a single table: the customer is part of the composed partition key only. */
	private static final String ORDERS = """
			type Order implements Node
			  @table(name: "Shop", partitionKey: "PK", sortKey: "SK")
			  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "ORDER#{orderId}")
			  @globalIndex(name: "ByStatus", partitionKey: "status", sortKey: "SK")
			  @auth(rules: [{allow: OWNER, ownerField: "customerId"}]) {
			  id: ID!
			  customerId: String!
			  orderId: String!
			  status: String
			  total: Int
			}
			type OrderConnection { edges: [OrderEdge!]! pageInfo: PageInfo! }
			type OrderEdge { cursor: String! node: Order! }
			""";

	@TempDir
	Path dir;

	@Test
	void validRulesAreReadForTypesAndFields() {
		AccessRules rules = read(ORDERS + """
				input OrderInput { customerId: String! total: Int }
				type Query {
				  orders(customerId: String!, first: Int, after: String, last: Int, before: String): OrderConnection!
				    @query(partitionKey: "CUSTOMER#{customerId}") @auth(rules: [{allow: SIGNED_IN}])
				  node(id: ID!): Node @auth(rules: [{allow: GROUPS, groups: ["ops"], groupClaim: "roles"}, {allow: SCOPES, scopes: ["read"]}])
				}
				type Mutation {
				  placeOrder(input: OrderInput!): ID @auth(rules: [{allow: OWNER, ownerField: "input.customerId", identityClaim: "cid"}])
				  cancelOrder(id: ID!): ID @auth(rules: [{allow: OWNER, ownerField: "id.customerId"}])
				}
				""");
		assertThat(rules.type("Order")).containsExactly(new AuthRule.Owner("customerId", "sub"));
		assertThat(rules.field(FieldCoordinates.coordinates("Query", "node"))).containsExactly(
				new AuthRule.Groups(java.util.Set.of("ops"), "roles"), new AuthRule.Scopes(java.util.Set.of("read")));
		assertThat(rules.field(FieldCoordinates.coordinates("Mutation", "placeOrder")))
			.containsExactly(new AuthRule.Owner("input.customerId", "cid"));
		assertThat(rules.field(FieldCoordinates.coordinates("Query", "orders"))).containsExactly(new AuthRule.SignedIn());
	}

	@Test
	void rulesMustBeWhereTheyGuardReads() {
		String schema = """
				type Stats @auth(rules: [{allow: PUBLIC}]) { count: Int }
				interface Named { name: String @auth(rules: [{allow: SIGNED_IN}]) }
				type User implements Node & Named @table(name: "Users", partitionKey: "userId") {
				  id: ID!
				  userId: String!
				  name: String
				  email: String @auth(rules: [{allow: OWNER, ownerField: "userId"}])
				}
				type Query { stats: Stats @auth(rules: [{allow: PUBLIC}]) user(userId: String!): User @lookup }
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).as("an attribute field may have rules").hasSize(2);
		assertProblem(problems.get(0), line(schema, "type Stats"), "`Stats`, which has no `@table`");
		assertProblem(problems.get(1), line(schema, "interface Named"), "the interface field `Named.name`",
				"each type that implements `Named`");
	}

	@Test
	void eachStrategyTakesWhatItNeedsAndNothingElse() {
		String schema = """
				type User implements Node @table(name: "Users", partitionKey: "userId") { id: ID! userId: String! }
				type Query {
				  a(userId: String!): User @lookup @auth(rules: [])
				  b(userId: String!): User @lookup @auth(rules: [{allow: PUBLIC, ownerField: "userId"}])
				  c(userId: String!): User @lookup @auth(rules: [{allow: OWNER}])
				  d(userId: String!): User @lookup @auth(rules: [{allow: GROUPS}])
				  e(userId: String!): User @lookup @auth(rules: [{allow: SCOPES, scopes: []}])
				  f(userId: String!): User @lookup @auth(rules: [{allow: OWNER, ownerField: "userId"}, {allow: OWNER, ownerField: "userId", identityClaim: "email"}])
				  g(userId: String!): User @lookup @auth(rules: [{allow: GROUPS, groups: ["x"], scopes: ["y"]}])
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(7);
		assertProblem(problems.get(0), line(schema, "a(userId"), "`Query.a` has no rules");
		assertProblem(problems.get(1), line(schema, "b(userId"), "`ownerField` does nothing in a PUBLIC rule");
		assertProblem(problems.get(2), line(schema, "c(userId"), "an OWNER rule needs `ownerField`");
		assertProblem(problems.get(3), line(schema, "d(userId"), "a GROUPS rule needs `groups`");
		assertProblem(problems.get(4), line(schema, "e(userId"), "a SCOPES rule needs `scopes`");
		assertProblem(problems.get(5), line(schema, "f(userId"), "two OWNER rules");
		assertProblem(problems.get(6), line(schema, "g(userId"), "`scopes` does nothing in a GROUPS rule");
	}

	@Test
	void anOwnerFieldMustLeadToAStringOrId() {
		String schema = ORDERS.replace("ownerField: \"customerId\"", "ownerField: \"total\"") + """
				input OrderInput { customerId: String! total: Int }
				type Query { order(customerId: String!, orderId: String!): Order @lookup }
				type Mutation {
				  a(input: OrderInput!): ID @auth(rules: [{allow: OWNER, ownerField: "input.nope"}])
				  b(input: OrderInput!): ID @auth(rules: [{allow: OWNER, ownerField: "input.total"}])
				  c(input: OrderInput!): ID @auth(rules: [{allow: OWNER, ownerField: "customer"}])
				  d(ids: [ID!]!): ID @auth(rules: [{allow: OWNER, ownerField: "ids.customerId"}])
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(5);
		assertProblem(problems.get(0), line(schema, "@auth(rules: [{allow: OWNER, ownerField: \"total\"}])"),
				"`ownerField` must be a String or ID field of `Order`", "`total`");
		assertProblem(problems.get(1), line(schema, "a(input"), "`input` has no field `nope`");
		assertProblem(problems.get(2), line(schema, "b(input"), "`input.total` is not a String or ID");
		assertProblem(problems.get(3), line(schema, "c(input"), "`customer` is neither an argument");
		assertProblem(problems.get(4), line(schema, "d(ids"), "`ids` is a list");
	}

	@Test
	void everyConnectionMustBeAbleToTellTheOwner() {
		String schema = ORDERS + """
				type Note implements Node
				  @table(name: "Shop", partitionKey: "PK", sortKey: "SK")
				  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "NOTE#{noteId}") {
				  id: ID!
				  customerId: String!
				  noteId: String!
				}
				union Thing = Order | Note
				type ThingConnection { edges: [ThingEdge!]! pageInfo: PageInfo! }
				type ThingEdge { cursor: String! node: Thing! }
				type Query {
				  mine(customerId: String!, first: Int, after: String, last: Int, before: String): OrderConnection!
				    @query(partitionKey: "CUSTOMER#{customerId}")
				  byStatus(status: String!, first: Int, after: String, last: Int, before: String): OrderConnection!
				    @query(index: "ByStatus")
				  everything(first: Int, after: String): ThingConnection! @scan
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(2);
		assertProblem(problems.get(0), line(schema, "byStatus("), "`Query.byStatus`", "no filter can match it");
		assertProblem(problems.get(1), line(schema, "everything("), "`Query.everything` returns several types",
				"`Order`'s owner (`customerId`)");
	}

	@Test
	void rulesOnATypeExtensionAreReadAndOnlyOnce() {
		String valid = """
				type User implements Node @table(name: "Users", partitionKey: "userId") { id: ID! userId: String! }
				extend type User @auth(rules: [{allow: SIGNED_IN}])
				type Query { user(userId: String!): User @lookup }
				""";
		assertThat(read(valid).type("User")).containsExactly(new AuthRule.SignedIn());
		String twice = """
				type User implements Node @table(name: "Users", partitionKey: "userId") @auth(rules: [{allow: PUBLIC}]) {
				  id: ID!
				  userId: String!
				}
				extend type User @auth(rules: [{allow: SIGNED_IN}])
				type Query { user(userId: String!): User @lookup }
				""";
		write(twice);
		DeclarationException failure = catchThrowableOfType(DeclarationException.class, () -> files().parse());
		assertThat(failure).isNotNull();
		assertThat(failure.problems()).singleElement()
			.satisfies((problem) -> assertThat(problem.message()).contains("'auth'", "non repeatable", "User"));
	}

	@Test
	void anIdArgumentsOwnerIsTheOwnerFieldOfATypeRule() {
		String schema = ORDERS + """
				type Mutation {
				  cancel(id: ID!): ID @auth(rules: [{allow: OWNER, ownerField: "id.customerId"}])
				  typo(id: ID!): ID @auth(rules: [{allow: OWNER, ownerField: "id.custId"}])
				}
				type Query { order(customerId: String!, orderId: String!): Order @lookup }
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "typo(id"), "no type with ids has an OWNER rule on `custId`");
	}

	@Test
	void anOwnerThatIsTheSortKeyOfWhatAConnectionReadsCannotBeFiltered() {
		String schema = """
				type Task implements Node @table(name: "Tasks", partitionKey: "project", sortKey: "assignee")
				  @auth(rules: [{allow: OWNER, ownerField: "assignee"}]) {
				  id: ID!
				  project: String!
				  assignee: String!
				}
				type TaskConnection { edges: [TaskEdge!]! pageInfo: PageInfo! }
				type TaskEdge { cursor: String! node: Task! }
				type Query {
				  tasks(project: String!, first: Int, after: String, last: Int, before: String): TaskConnection! @query
				}
				""";
		List<Problem> problems = problems(schema);
		assertThat(problems).hasSize(1);
		assertProblem(problems.get(0), line(schema, "tasks("), "the sort key of what it reads");
	}

	// ---- helpers

	private AccessRules read(String schema) {
		write(schema);
		TypeDefinitionRegistry registry = files().parse();
		return AccessRulesReader.read(registry, DeclarationReader.read(registry, ""));
	}

	private List<Problem> problems(String schema) {
		write(schema);
		TypeDefinitionRegistry registry = files().parse();
		DeclarationException failure = catchThrowableOfType(DeclarationException.class,
				() -> AccessRulesReader.read(registry, DeclarationReader.read(registry, "")));
		assertThat(failure).as("the rules were read without a problem").isNotNull();
		return failure.problems()
			.stream()
			.sorted(Comparator.comparingInt((Problem problem) -> problem.location().line()))
			.toList();
	}

	private SchemaFiles files() {
		return SchemaFiles.resolve("file:" + this.dir + "/", new PathMatchingResourcePatternResolver());
	}

	private void write(String schema) {
		try {
			Files.writeString(this.dir.resolve("rules.graphqls"), schema);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static int line(String schema, String snippet) {
		int at = schema.indexOf(snippet);
		assertThat(at).as("`%s` in the schema", snippet).isNotNegative();
		assertThat(schema.indexOf(snippet, at + 1)).as("`%s` once in the schema", snippet).isNegative();
		return (int) schema.substring(0, at).chars().filter((c) -> c == '\n').count() + 1;
	}

	private static void assertProblem(Problem problem, int line, String... fragments) {
		assertThat(problem.location().line()).as("where: %s", problem).isEqualTo(line);
		assertThat(problem.location().file()).endsWith("rules.graphqls");
		assertThat(problem.message()).as("what: %s", problem).contains(fragments);
	}

}
