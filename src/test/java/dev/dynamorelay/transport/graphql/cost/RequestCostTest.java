package dev.dynamorelay.transport.graphql.cost;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import graphql.GraphQLContext;
import graphql.execution.CoercedVariables;
import graphql.language.Document;
import graphql.language.FragmentDefinition;
import graphql.language.OperationDefinition;
import graphql.parser.Parser;
import graphql.schema.GraphQLSchema;
import graphql.schema.idl.SchemaParser;
import graphql.schema.idl.UnExecutableSchemaGenerator;
import org.junit.jupiter.api.Test;

import dev.dynamorelay.transport.graphql.cost.RequestCost.Kind;
import dev.dynamorelay.transport.graphql.cost.RequestCost.Reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The cost estimate on small documents over a schema shaped like the sample's. */
class RequestCostTest {

	private static final GraphQLSchema SCHEMA = UnExecutableSchemaGenerator.makeUnExecutableSchema(new SchemaParser()
		.parse("""
				interface Node { id: ID! }
				interface Owner { purchases(first: Int, minAmount: Float): PurchaseConnection! }
				type PageInfo { hasNextPage: Boolean! endCursor: String }
				type User implements Node & Owner { id: ID! name: String
				  purchases(first: Int, after: String, last: Int, before: String, minAmount: Float): PurchaseConnection! }
				type Purchase implements Node { id: ID! amount: Float user: User }
				type Movie implements Node { id: ID! title: String }
				type UserConnection { edges: [UserEdge!]! pageInfo: PageInfo! totalCount: Int }
				type UserEdge { cursor: String! node: User! }
				type PurchaseConnection { edges: [PurchaseEdge!]! pageInfo: PageInfo! totalCount: Int }
				type PurchaseEdge { cursor: String! node: Purchase! }
				type MovieConnection { edges: [MovieEdge!]! pageInfo: PageInfo! totalCount: Int }
				type MovieEdge { cursor: String! node: Movie! }
				type Query {
				  node(id: ID!): Node
				  nodes(ids: [ID!]!): [Node]!
				  owner(id: ID!): Owner
				  user(userId: String!): User
				  users(first: Int, after: String, last: Int): UserConnection!
				  movies(year: Int!, first: Int, last: Int, titlePrefix: String, minRating: Float, size: Int = 7): MovieConnection!
				}
				type Mutation { touch(id: ID!): Purchase }
				"""));

	private static final Map<String, Reader> READERS = Map.of(
			"Query.users", Reader.of(Kind.CONNECTION),
			"User.purchases", new Reader(Kind.CONNECTION, Set.of("minAmount"), false),
			"Query.movies", new Reader(Kind.CONNECTION, Set.of("minRating"), false),
			"Query.user", Reader.of(Kind.LOOKUP),
			"Purchase.user", Reader.of(Kind.LOOKUP),
			"Query.node", Reader.of(Kind.NODE),
			"Query.nodes", Reader.of(Kind.NODES));

	private static final RequestCost.Sizes SIZES = new RequestCost.Sizes(20, 100, 1000, 10_000, 100);

	@Test
	void pageSizesMultiplyDownTheTree() {
		RequestCost cost = cost("{ users(first: 20) { edges { node { purchases(first: 10) { edges { node { id } } } } } } }");
		assertThat(cost.items()).isEqualTo(20 + 20 * 10);
		assertThat(cost.largestPart()).isEqualTo("20 users x 10 purchases = 200");
		assertThat(cost.depth()).isEqualTo(7);
		assertThat(cost.rootFields()).isEqualTo(1);
	}

	@Test
	void aConnectionWithoutSizeReadsTheDefaultSize() {
		assertThat(cost("{ users { edges { node { purchases { pageInfo { hasNextPage } } } } } }").items())
			.isEqualTo(20 + 20 * 20);
	}

	@Test
	void aFilteredPageReadsUpToTheReadBudgetAndItsEdgesStillMultiplyByThePageSize() {
		RequestCost cost = cost("""
				{ users(first: 5) { edges { node {
				  purchases(first: 10, minAmount: 5) { edges { node { user { name } } } } } } } }""");
		assertThat(cost.items()).isEqualTo(5 + 5 * 1000 + 5 * 10);
		assertThat(cost.largestPart()).isEqualTo("5 users x 1,000 purchases read (a filtered page: read budget) = 5,000");
		assertThat(cost("{ movies(year: 1, minRating: null) { edges { cursor } } }").items()).as("a null filter")
			.isEqualTo(20);
	}

	@Test
	void aConnectionAnOwnerRuleMayFilterWeighsAFilteredPageWithoutFilterArguments() {
		Map<String, Reader> readers = new java.util.HashMap<>(READERS);
		readers.put("User.purchases", new Reader(Kind.CONNECTION, Set.of("minAmount"), true));
		Document document = Parser.parse("{ users(first: 5) { edges { node { purchases(first: 10) { edges { cursor } } } } } }");
		RequestCost cost = new RequestCost(SCHEMA, document.getDefinitionsOfType(OperationDefinition.class).get(0),
				Map.of(), CoercedVariables.emptyVariables(), readers, SIZES, GraphQLContext.getDefault(), Locale.ROOT);
		assertThat(cost.items()).isEqualTo(5 + 5 * 1000);
		assertThat(cost("{ users(first: 5) { edges { node { purchases(first: 10) { edges { cursor } } } } } }").items())
			.as("without the owner rule").isEqualTo(5 + 5 * 10);
	}

	@Test
	void totalCountWeighsTheCountBudget() {
		assertThat(cost("{ user(userId: \"u\") { purchases(first: 2) { totalCount } } }").items())
			.isEqualTo(1 + 2 + 10_000);
		assertThat(cost("{ users(first: 3) { edges { node { purchases(first: 0) { totalCount } } } } }").items())
			.isEqualTo(3 + 0 + 3 * 10_000);
	}

	@Test
	void variablesFragmentsAndSkipIncludeAreAppliedAsExecutionDoes() {
		String document = """
				query($n: Int, $yes: Boolean!) { users(first: $n) { ...page } }
				fragment page on UserConnection {
				  totalCount @skip(if: $yes)
				  edges { node { ... on User { purchases { edges { node { user { id } } } } } } }
				  ... @include(if: false) { totalCount }
				}""";
		assertThat(cost(document, Map.of("n", 5, "yes", true)).items()).isEqualTo(5 + 5 * 20 + 5 * 20);
		assertThat(cost(document, Map.of("n", 5, "yes", false)).items()).isEqualTo(5 + 5 * 20 + 5 * 20 + 10_000);
		assertThat(cost(document, Map.of("yes", true)).items()).as("no $n: the default size")
			.isEqualTo(20 + 20 * 20 + 20 * 20);
	}

	@Test
	void fieldsOfOneResponseKeyMergeAndEachAliasCounts() {
		RequestCost cost = cost("""
				{ a: movies(year: 1, first: 10) { edges { node { id } } }
				  a: movies(year: 1, first: 10) { totalCount }
				  ...more }
				fragment more on Query { a: movies(year: 1, first: 10) { edges { cursor } } b: movies(year: 1, first: 10) { edges { cursor } } }""");
		assertThat(cost.rootFields()).isEqualTo(2);
		assertThat(cost.items()).isEqualTo(10 + 10_000 + 10);
	}

	@Test
	void lookupsReadOneItemAndNodesOnePerId() {
		assertThat(cost("{ node(id: \"x\") { id ... on User { purchases(first: 3) { edges { cursor } } } } }").items())
			.isEqualTo(1 + 3);
		assertThat(cost("query($ids: [ID!]!) { nodes(ids: $ids) { ... on User { purchases(first: 3) { totalCount } } } }",
				Map.of("ids", List.of("a", "b", "c", "d"))).items())
			.isEqualTo(4 + 4 * 3 + 4 * 10_000);
		assertThat(cost("{ nodes(ids: \"a\") { id } }").items()).as("a single id for a list").isEqualTo(1);
		assertThat(cost("mutation { touch(id: \"x\") { user { purchases(first: 4) { edges { cursor } } } } }").items())
			.as("a mutation's own reads are not estimated; what it selects is").isEqualTo(1 + 4);
	}

	@Test
	void aFieldOfAnInterfaceCostsAsItsImplementationsField() {
		assertThat(cost("{ owner(id: \"x\") { purchases(first: 7, minAmount: 1) { edges { node { user { id } } } } } }")
			.items()).isEqualTo(1000 + 7);
	}

	@Test
	void sizesAFieldRefusesReadNothing() {
		assertThat(cost("{ users(first: 101) { edges { node { purchases { totalCount } } } } }").items()).isZero();
		assertThat(cost("{ users(first: -1) { totalCount } }").items()).isZero();
		assertThat(cost("{ users(last: 100) { edges { cursor } } }").items()).isEqualTo(100);
		assertThat(cost("query($ids: [ID!]!) { nodes(ids: $ids) { id } }",
				Map.of("ids", java.util.Collections.nCopies(101, "a"))).items()).isZero();
	}

	@Test
	void argumentDefaultsOfTheSchemaApply() {
		// `size` is no page size; only first and last are.
		assertThat(cost("{ movies(year: 1) { edges { cursor } } }").items()).isEqualTo(20);
	}

	@Test
	void theCycleOfUsersAndPurchasesMultipliesToMillions() {
		RequestCost cost = cost("""
				{ users(first: 100) { edges { node {
				  purchases(first: 100) { edges { node { user {
				    purchases(first: 100) { edges { node { user {
				      purchases(first: 100) { edges { node { id } } } } } } } } } } } } } } }""");
		assertThat(cost.items()).isEqualTo(100 + 10_000 + 10_000 + 1_000_000 + 1_000_000 + 100_000_000);
		assertThat(cost.largestPart())
			.isEqualTo("100 users x 100 purchases x 1 user x 100 purchases x 1 user x 100 purchases = 100,000,000");
		assertThat(cost.depth()).isEqualTo(15);
	}

	@Test
	void theReadmeExampleIsRefusedWithItsArithmetic() {
		String document = """
				{ users(first: 20) { edges { node {
				    purchases(first: 10, minAmount: 100) { totalCount edges { node { product user { name } } } } } } } }""";
		RequestCost cost = cost(document);
		assertThat(cost.depth()).isEqualTo(8);
		assertThat(CostLimits.refusal(cost, new LimitsProperties(15, 20, 25_000))).isEqualTo(new CostLimits.Refusal(
				"items", "The request may read about 220,220 items (the most: 20 users x 10,000 purchases counted "
						+ "(count budget) = 200,000); the limit is 25,000 (dynamo-relay.limits.max-items)."));
		assertThat(CostLimits.refusal(cost(document.replace("totalCount", "")), new LimitsProperties(15, 20, 25_000)))
			.isNull();
		assertThat(cost(document.replace("totalCount", "")).items()).isEqualTo(20_220);
		assertThat(CostLimits.refusal(cost(document.replace("totalCount", "")), new LimitsProperties(7, 20, 25_000)))
			.isEqualTo(new CostLimits.Refusal("depth",
					"The request nests fields 8 deep; the limit is 7 (dynamo-relay.limits.max-depth)."));
	}

	@Test
	void introspectionReadsNothingAndIsOneLevelDeep() {
		RequestCost cost = cost("""
				{ __schema { types { name fields { name type { name ofType { name ofType { name ofType { name } } } } } } }
				  __type(name: "User") { name } __typename }""");
		assertThat(cost.depth()).isEqualTo(1);
		assertThat(cost.rootFields()).isEqualTo(3);
		assertThat(cost.items()).isZero();
		assertThat(cost.largestPart()).isNull();
	}

	@Test
	void depthCountsThroughFragmentsOnce() {
		assertThat(cost("""
				{ ...a ...a }
				fragment a on Query { users { edges { ...b } } }
				fragment b on UserEdge { node { ...c } cursor }
				fragment c on User { purchases { edges { node { id } } } }""").depth()).isEqualTo(7);
	}

	@Test
	void fragmentsThatMultiplyEachOtherStopTheWalk() {
		StringBuilder document = new StringBuilder("{ users(first: 0) { edges { node { ...f0 } } } }\n");
		int levels = 6;
		for (int level = 0; level < levels; level++) {
			String next = (level + 1 < levels) ? "...f" + (level + 1) : "id";
			String aliases = java.util.stream.IntStream.range(0, 20)
				.mapToObj((i) -> "a" + i + ": purchases(first: 0) { edges { node { user { " + next + " } } } }")
				.collect(Collectors.joining(" "));
			document.append("fragment f").append(level).append(" on User { ").append(aliases).append(" }\n");
		}
		RequestCost cost = cost(document.toString());
		assertThat(cost.depth()).isEqualTo(3 + 4 * levels + 1);
		// first: 0 multiplies everything below by 0, so nothing below is walked.
		assertThat(cost.items()).isZero();
		RequestCost costly = cost(document.toString().replace("first: 0", "first: 1"));
		assertThatExceptionOfType(RequestCost.TooManySelections.class).isThrownBy(costly::items);
	}

	private static RequestCost cost(String document) {
		return cost(document, Map.of());
	}

	private static RequestCost cost(String text, Map<String, Object> variables) {
		Document document = Parser.parse(text);
		OperationDefinition operation = document.getDefinitionsOfType(OperationDefinition.class).get(0);
		Map<String, FragmentDefinition> fragments = document.getDefinitionsOfType(FragmentDefinition.class)
			.stream()
			.collect(Collectors.toMap(FragmentDefinition::getName, (fragment) -> fragment));
		return new RequestCost(SCHEMA, operation, fragments, CoercedVariables.of(variables), READERS, SIZES,
				GraphQLContext.getDefault(), Locale.ROOT);
	}

}
