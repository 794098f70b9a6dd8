package dev.dynamorelay.transport.web;

import java.util.Map;

import graphql.parser.Parser;
import graphql.schema.GraphQLSchema;
import graphql.schema.idl.TypeDefinitionRegistry;
import graphql.schema.idl.UnExecutableSchemaGenerator;
import graphql.validation.ValidationError;
import graphql.validation.Validator;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import dev.dynamorelay.declaration.DeclarationReader;
import dev.dynamorelay.schema.SchemaFiles;
import dev.dynamorelay.schema.SchemaProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pages' description of a served schema: its root connections, what a page asks for, how a live change
 * finds its place, and GraphiQL's ready query, which must be a valid query of that schema and never the
 * sample's when the sample is not served.
 */
class ServedConnectionsTest {

	@Test
	void aSchemaOtherThanTheSampleGetsItsOwnConnectionsAndReadyQuery() {
		GraphQLSchema schema = schema("classpath:pages/");
		ServedConnections served = served("classpath:pages/", schema);
		assertThat(served.sample()).isFalse();
		assertThat(served.connections()).extracting(ServedConnections.Connection::field)
			.containsExactly("shelves", "booksByAuthor");
		ServedConnections.Connection shelves = served.connections().get(0);
		assertThat(shelves.arguments()).isEmpty();
		assertThat(shelves.sortField()).as("a Scan has no order to place a change by").isNull();
		assertThat(shelves.live()).isNull();
		assertThat(shelves.nodeSelection()).isEqualTo("id shelfId room");

		ServedConnections.Connection books = served.connections().get(1);
		assertThat(books.type()).isEqualTo("BookConnection");
		assertThat(books.arguments()).extracting(ServedConnections.Argument::name)
			.containsExactly("author", "order", "titlePrefix");
		assertThat(books.arguments().get(0)).isEqualTo(
				new ServedConnections.Argument("author", "String!", true, "text", java.util.List.of(), null));
		assertThat(books.arguments().get(1).required()).as("a default makes it optional").isFalse();
		assertThat(books.arguments().get(1).values()).containsExactly("ASC", "DESC");
		assertThat(books.arguments().get(1).defaultValue()).isEqualTo("ASC");
		assertThat(books.sortField()).isEqualTo("published");
		assertThat(books.sortNumeric()).isTrue();
		assertThat(books.descending()).isFalse();
		assertThat(books.live()).isEqualTo(new ServedConnections.Live("bookChanges", Map.of("author", "String!"),
				"after", "edge", "deletedId", "eventId"));

		// The connection that needs no argument, so that it runs as it is.
		assertThat(served.readyQuery()).contains("query Shelves($after: String)", "shelves(first: 5, after: $after)",
				"cursor", "node {", "shelfId", "hasNextPage", "endCursor")
			.doesNotContain("user(", "users", "purchases");
		assertThat(served.readyVariables()).isEqualTo("{\n  \"after\": null\n}");
		assertValid(schema, served.readyQuery());
	}

	@Test
	void requiredArgumentsAreVariablesWithAPlausibleValue() {
		GraphQLSchema schema = schema("classpath:store/");
		ServedConnections served = served("classpath:store/", schema);
		assertThat(served.sample()).isFalse();
		ServedConnections.Connection orders = served.connections().stream()
			.filter((connection) -> connection.field().equals("ordersByStatus"))
			.findFirst()
			.orElseThrow();
		assertThat(orders.sortField()).as("GSI1's sort key is `{placedAt}`").isEqualTo("placedAt");
		assertThat(orders.sortNumeric()).isFalse();
		assertThat(orders.live().field()).isEqualTo("orderChanges");
		assertThat(orders.live().arguments()).containsExactly(Map.entry("status", "String!"));
		assertThat(served.readyQuery()).contains("query OrdersByStatus($status: String!, $after: String)",
				"ordersByStatus(status: $status, first: 5, after: $after)", "\"status\"");
		assertThat(served.readyVariables()).isEqualTo("{\n  \"status\": \"status-1\",\n  \"after\": null\n}");
		assertValid(schema, served.readyQuery());
	}

	@Test
	void theSampleIsRecognisedAndItsConnectionsDescribed() {
		GraphQLSchema schema = schema(SchemaProperties.SAMPLE);
		ServedConnections served = served(SchemaProperties.SAMPLE, schema);
		assertThat(served.sample()).isTrue();
		assertThat(served.connections()).extracting(ServedConnections.Connection::field)
			.containsExactly("users", "purchasesByCategory", "movies");
		assertThat(served.connections().get(1).sortField()).isEqualTo("purchasedAt");
		assertThat(served.connections().get(2).sortField()).as("the sort key is a field").isEqualTo("title");
		assertThat(served.connections().get(0).live()).isNull();
		assertValid(schema, served.readyQuery());
	}

	@Test
	void aNodeOfSeveralTypesIsSelectedPerType() {
		GraphQLSchema schema = schema("classpath:shop/");
		ServedConnections served = served("classpath:shop/", schema);
		assertThat(served.connections()).allSatisfy((connection) -> assertValid(schema,
				"query { " + connection.field() + "(" + connection.arguments().stream()
					.filter(ServedConnections.Argument::required)
					.map((argument) -> argument.name() + ": " + literal(argument))
					.reduce((a, b) -> a + ", " + b).orElse("first: 1")
						+ ") { edges { node { " + connection.nodeSelection() + " } } } }"));
		assertValid(schema, served.readyQuery());
	}

	@Test
	void aConnectionWhoseDefaultOrderIsDescendingSaysSo(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
			throws java.io.IOException {
		java.nio.file.Files.writeString(dir.resolve("notes.graphqls"), """
				type Note implements Node @table(name: "Notes", partitionKey: "board", sortKey: "at") {
				  id: ID!
				  board: String!
				  at: Int!
				  text: String
				}
				type NoteConnection { edges: [NoteEdge!]! pageInfo: PageInfo! }
				type NoteEdge { cursor: String! node: Note! }
				type Query {
				  node(id: ID!): Node
				  latest(board: String!, first: Int, after: String, last: Int, before: String,
				         order: SortOrder = DESC): NoteConnection! @query
				}
				""");
		String location = "file:" + dir + "/";
		ServedConnections.Connection latest = served(location, schema(location)).connections().get(0);
		assertThat(latest.descending()).isTrue();
		assertThat(latest.sortField()).isEqualTo("at");
		assertThat(latest.sortNumeric()).isTrue();
	}

	private static String literal(ServedConnections.Argument argument) {
		return switch (argument.input()) {
			case "integer", "number" -> "1";
			case "boolean" -> "true";
			case "enum" -> argument.values().get(0);
			default -> "\"x\"";
		};
	}

	private static void assertValid(GraphQLSchema schema, String query) {
		java.util.List<ValidationError> errors = new Validator().validateDocument(schema, Parser.parse(query),
				java.util.Locale.ENGLISH);
		assertThat(errors).as(query).isEmpty();
	}

	private static TypeDefinitionRegistry registry(String location) {
		return SchemaFiles.resolve(location, new PathMatchingResourcePatternResolver()).parse();
	}

	private static GraphQLSchema schema(String location) {
		return UnExecutableSchemaGenerator.makeUnExecutableSchema(registry(location));
	}

	private static ServedConnections served(String location, GraphQLSchema schema) {
		return ServedConnections.of(schema, DeclarationReader.read(registry(location), ""));
	}

}
