package dev.dynamorelay.command.schemagen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import dev.dynamorelay.declaration.Declarations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The generator over tables described by hand (no DynamoDB): name clashes, the kinds of key templates of
 * single-table designs, and what is not one.
 */
class SchemaGeneratorTest {

	@Test
	void clashingNamesGetNumbers() {
		String schema = schema(table("Movie", "id", "S", null, null), table("Movies", "year", "N", null, null),
				table("Query", "q", "S", null, null), table("nodes", "n", "S", null, null),
				table("Things", "first", "S", "order", "S"));
		DeclarationLanguage.build(schema);
		assertThat(schema).contains("type Movie implements Node\n", "type Movie2 implements Node\n",
				"type Query2 implements Node\n", "type Node2 implements Node\n");
		assertThat(schema).contains("  movie(\n", "  movies(\n", "  query(\n", "  nodes2(\n", "  allNodes(");
		assertThat(schema).contains("""
				  movie(
				    movieId: String!
				""", """
				  ): MovieConnection! @query(partitionKey: "{movieId}")
				""", "  movieId: String! @attribute(name: \"id\")\n");
		assertThat(schema).contains("""
				  things(
				    first2: String!
				    first: Int
				    after: String
				    last: Int
				    before: String
				    order: SortOrder = ASC
				    orderBeginsWith: String @sortKey(op: BEGINS_WITH)
				    orderBetween: [String!] @sortKey(op: BETWEEN)
				  ): ThingConnection! @query(partitionKey: "{first2}")
				""");
	}

	@Test
	void tableWithoutItemsHasItsKeyFields() {
		String schema = schema(table("Events", "stream", "S", "seq", "N"));
		DeclarationLanguage.build(schema);
		assertThat(schema).contains("""
				"Table `Events`: partition key `stream` (S), sort key `seq` (N) (0 sampled items)."
				type Event implements Node
				  @table(name: "Events", partitionKey: "stream", sortKey: "seq") {
				  id: ID!
				  "Partition key (S)."
				  stream: String!
				  "Sort key (N)."
				  seq: Long!
				}
				""", "    seqBetween: [Long!] @sortKey(op: BETWEEN)\n").doesNotContain("seqBeginsWith");
	}

	@Test
	void attributeNamesAreEscapedInStrings() {
		String schema = schema(table("Notes", "noteId", "S", null, null, Map.of("noteId", s("n1"),
				"line\nbreak", s("x"), "back\\slash", s("y"))));
		DeclarationLanguage.build(schema);
		assertThat(schema).contains("  lineBreak: String @attribute(name: \"line\\nbreak\")\n",
				"  backSlash: String @attribute(name: \"back\\\\slash\")\n");
	}

	@Test
	void aPartitionAndSortKeyWithTheSameIdShareOnePlaceholder() {
		String schema = schema(table("Graph", "PK", "S", "SK", "S",
				Map.of("PK", s("ORDER#o1"), "SK", s("ORDER#o1"), "total", n("3")),
				Map.of("PK", s("USER#a"), "SK", s("USER#b"), "since", n("2020")),
				Map.of("PK", s("USER#a"), "SK", s("USER#c"), "since", n("2021"))));
		DeclarationLanguage.build(schema);
		assertThat(schema).contains("""
				  @key(partitionKey: "ORDER#{orderId}", sortKey: "ORDER#{orderId}") {
				  id: ID!
				  "The text after `ORDER#` in the partition key `PK`."
				  orderId: String!
				  total: Int
				}
				""", """
				  @key(partitionKey: "USER#{userId}", sortKey: "USER#{userId2}") {
				  id: ID!
				  "The text after `USER#` in the partition key `PK`."
				  userId: String!
				  "The text after `USER#` in the sort key `SK`."
				  userId2: String!
				  since: Int
				}
				""", "union GraphItem = Order | User\n");
	}

	@Test
	void aNumberSortKeyIsAWholePlaceholder() {
		String schema = schema(table("Readings", "PK", "S", "at", "N",
				Map.of("PK", s("SENSOR#s1"), "at", n("1735722000000"), "celsius", n("21.5")),
				Map.of("PK", s("SENSOR#s2"), "at", n("1735722000001"), "celsius", n("19"))));
		DeclarationLanguage.build(schema);
		assertThat(schema).contains("""
				type Sensor implements Node
				  @table(name: "Readings", partitionKey: "PK", sortKey: "at")
				  @key(partitionKey: "SENSOR#{sensorId}", sortKey: "{at}") {
				  id: ID!
				  "The text after `SENSOR#` in the partition key `PK`."
				  sensorId: String!
				  "Sort key (N)."
				  at: Long!
				  celsius: Float
				}
				""", "union ReadingsItem = Sensor\n");
	}

	@Test
	void kindsSharingAPrefixAreNamedFromBothKeys() {
		String schema = schema(table("Crm", "PK", "S", "SK", "S",
				Map.of("PK", s("CUSTOMER#c1"), "SK", s("PROFILE"), "name", s("Ada")),
				Map.of("PK", s("CUSTOMER#c1"), "SK", s("SETTINGS"), "theme", s("dark")),
				Map.of("PK", s("CUSTOMER#c1"), "SK", s("NOTE#1"), "text", s("hi")),
				Map.of("PK", s("ORDER#o1"), "SK", s("NOTE#1"), "text", s("ok"))));
		DeclarationLanguage.build(schema);
		assertThat(schema).contains("union CrmItem = CustomerNote | CustomerProfile | CustomerSettings | OrderNote\n",
				"  @key(partitionKey: \"CUSTOMER#{customerId}\", sortKey: \"SETTINGS\") {\n",
				"  @key(partitionKey: \"ORDER#{orderId}\", sortKey: \"NOTE#{noteId}\") {\n");
	}

	@Test
	void genericKeyNamesSplitEvenOneKind() {
		String schema = schema(table("Accounts", "pk", "S", null, null,
				Map.of("pk", s("ACCOUNT#1"), "owner", s("Ada")), Map.of("pk", s("ACCOUNT#2"), "owner", s("Alan"))));
		DeclarationLanguage.build(schema);
		assertThat(schema).contains("""
				type Account implements Node
				  @table(name: "Accounts", partitionKey: "pk")
				  @key(partitionKey: "ACCOUNT#{accountId}") {
				""", "union AccountsItem = Account\n");
	}

	@Test
	void keysWithoutEntityPrefixesAreOneKind() {
		// One prefix under a descriptive key name: an ordinary table whose ids happen to carry a prefix.
		String prefixedIds = schema(table("Orders", "orderId", "S", null, null, Map.of("orderId", s("ORDER#1")),
				Map.of("orderId", s("ORDER#2"))));
		assertThat(prefixedIds).contains("  @table(name: \"Orders\", partitionKey: \"orderId\") {\n")
			.doesNotContain("@key(", "union ");
		// Sort keys that are data, not a few constants.
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (String day : new String[] { "monday", "tuesday", "wednesday", "thursday" }) {
			items.add(Map.of("PK", s("USER#u1"), "SK", s(day)));
		}
		items.add(Map.of("PK", s("ORDER#o1"), "SK", s("ITEM#1")));
		assertThat(schema(new SampledTable("Log", description("PK", "S", "SK", "S"), items)))
			.contains("type Log implements Node\n")
			.doesNotContain("@key(");
		// A partition key without a prefix in one item.
		assertThat(schema(table("Mixed", "PK", "S", "SK", "S", Map.of("PK", s("USER#1"), "SK", s("A")),
				Map.of("PK", s("plain"), "SK", s("B")))))
			.doesNotContain("@key(");
		// Dates are no constants.
		assertThat(schema(table("Days", "PK", "S", "SK", "S", Map.of("PK", s("USER#1"), "SK", s("2025-01-01")),
				Map.of("PK", s("ORDER#1"), "SK", s("ITEM#1")))))
			.doesNotContain("@key(");
	}

	@Test
	void aPlaceholderNeverShadowsAnAttributeOfAnotherValue() {
		String schema = schema(table("Shop", "PK", "S", "SK", "S",
				Map.of("PK", s("CUSTOMER#c1"), "SK", s("ORDER#o1"), "orderId", s("legacy-17"), "total", n("3")),
				Map.of("PK", s("CUSTOMER#c1"), "SK", s("ORDER#o2"), "orderId", s("o2"), "total", n("4")),
				Map.of("PK", s("CUSTOMER#c2"), "SK", s("PROFILE"), "customerId", s("c2"), "name", s("Ada")),
				Map.of("PK", s("CUSTOMER#c3"), "SK", s("PROFILE"), "name", s("Alan"))));
		DeclarationLanguage.build(schema);
		DeclarationLanguage.read(schema);
		// One order's own orderId differs from its key's: the key part and the attribute are two fields.
		assertThat(schema).contains("""
				  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "ORDER#{orderIdKey}") {
				  id: ID!
				  "The text after `CUSTOMER#` in the partition key `PK`."
				  customerId: String!
				  "The text after `ORDER#` in the sort key `SK`."
				  orderIdKey: String!
				  orderId: String
				  total: Int
				}
				""");
		// The customers' own customerId always is their key's: one field.
		assertThat(schema).contains("""
				  @key(partitionKey: "CUSTOMER#{customerId}", sortKey: "PROFILE") {
				  id: ID!
				  "The text after `CUSTOMER#` in the partition key `PK`."
				  customerId: String!
				  name: String
				}
				""");
	}

	@Test
	void aRenamedPlaceholderPassesOverAttributesOfItsNewName() {
		String schema = schema(table("Graph", "PK", "S", "SK", "S",
				Map.of("PK", s("USER#a"), "SK", s("USER#a"), "userId", s("legacy"), "userIdKey", s("other"), "age",
						n("7")),
				Map.of("PK", s("NOTE#n1"), "SK", s("NOTE#n1"), "noteId", AttributeValue.fromN("1"))));
		DeclarationLanguage.build(schema);
		DeclarationLanguage.read(schema);
		assertThat(schema).contains("""
				  @key(partitionKey: "USER#{userIdKey2}", sortKey: "USER#{userIdKey2}") {
				  id: ID!
				  "The text after `USER#` in the partition key `PK`."
				  userIdKey2: String!
				  age: Int
				  userId: String
				  userIdKey: String
				}
				""", """
				  @key(partitionKey: "NOTE#{noteIdKey}", sortKey: "NOTE#{noteIdKey}") {
				  id: ID!
				  "The text after `NOTE#` in the partition key `PK`."
				  noteIdKey: String!
				  noteId: Int
				}
				""");
	}

	@Test
	void eachTypeHasACreateAnUpdateAndADelete() {
		String schema = schema(table("Concerts", "season", "N", "slug", "S",
				Map.of("season", n("2024"), "slug", s("opening"), "rating", n("4.5"), "tags",
						AttributeValue.fromSs(List.of("live")), "venue", AttributeValue.fromM(Map.of("city", s("Lyon"))),
						"id", s("c-1"))),
				table("Events", "stream", "S", "seq", "N"));
		DeclarationLanguage.build(schema);
		Declarations declarations = DeclarationLanguage.read(schema);
		assertThat(declarations.mutations()).extracting((mutation) -> mutation.name() + " " + mutation.kind())
			.containsExactlyInAnyOrder("Mutation.createConcert CREATE", "Mutation.updateConcert UPDATE",
					"Mutation.deleteConcert DELETE", "Mutation.createEvent CREATE", "Mutation.deleteEvent DELETE");
		assertThat(schema).contains("""
				"Writes of each type's items: a create, an update and a delete, served as declared (no Java). Delete \
				the ones clients should not have, and the inputs only they take, when you tune this file; add \
				`@version`, `@generated`, `@references`, `@constraint` and `@auth` where they fit. A write fills a \
				secondary index's key only from fields of the type: add `@indexKey` for the others."
				type Mutation {
				  "Creates one `Concert` (PutItem); CONFLICT when one with the same key exists."
				  createConcert(input: CreateConcertInput!): Concert! @create
				  "Updates the fields given of the `Concert` with this id (UpdateItem); NOT_FOUND when there is none."
				  updateConcert(input: UpdateConcertInput!): Concert! @update
				  "Deletes the `Concert` with this id (DeleteItem); answers the id, or null when there was none."
				  deleteConcert(id: ID!): ID @delete(type: "Concert")
				  "Creates one `Event` (PutItem); CONFLICT when one with the same key exists."
				  createEvent(input: CreateEventInput!): Event! @create
				  "Deletes the `Event` with this id (DeleteItem); answers the id, or null when there was none."
				  deleteEvent(id: ID!): ID @delete(type: "Event")
				}
				""");
		assertThat(schema).contains("""
				"A new `Concert`: its key fields, and any of its other fields. `tags`, `venue` are left out: a write \
				would not store them as sampled (a set is written as a list, JSON only as a string, number or boolean)."
				input CreateConcertInput {
				  "Partition key (N)."
				  season: Int!
				  "Sort key (S)."
				  slug: String!
				  concertId: String
				  rating: Float
				}
				""", """
				input UpdateConcertInput {
				  "The `Concert` to update."
				  id: ID!
				  concertId: String
				  rating: Float
				}
				""", """
				input CreateEventInput {
				  "Partition key (S)."
				  stream: String!
				  "Sort key (N)."
				  seq: Long!
				}
				""").doesNotContain("UpdateEventInput");
	}

	@Test
	void noTablesNoMutation() {
		String schema = schema();
		DeclarationLanguage.build(schema);
		assertThat(schema).doesNotContain("type Mutation", "\ninput ");
	}

	@Test
	void theSchemaCheckRefusesRedefinitionsAndUnknownDirectives() {
		assertThatThrownBy(() -> DeclarationLanguage.build("type PageInfo { a: Int }\ntype Query { a: Int }"))
			.hasMessageContaining("PageInfo");
		assertThatThrownBy(() -> DeclarationLanguage.build("type Query { a: Int @tabel(name: \"x\") }"))
			.hasMessageContaining("tabel");
		assertThatThrownBy(() -> DeclarationLanguage.build("type Query { a: Int @sortKey(op: BEGINS_WITH) }"))
			.hasMessageContaining("sortKey");
	}

	private static String schema(SampledTable... tables) {
		String schema = SchemaGenerator.schema("http://127.0.0.1:8000", "", List.of(tables));
		assertThat(schema).isEqualTo(SchemaGenerator.schema("http://127.0.0.1:8000", "", List.of(tables)));
		DeclarationLanguage.read(schema);
		return schema;
	}

	@SafeVarargs
	private static SampledTable table(String name, String partitionKey, String partitionType, String sortKey,
			String sortType, Map<String, AttributeValue>... items) {
		return new SampledTable(name, description(partitionKey, partitionType, sortKey, sortType), List.of(items));
	}

	private static TableDescription description(String partitionKey, String partitionType, String sortKey,
			String sortType) {
		List<AttributeDefinition> definitions = new ArrayList<>();
		List<KeySchemaElement> keys = new ArrayList<>();
		definitions.add(AttributeDefinition.builder()
			.attributeName(partitionKey)
			.attributeType(ScalarAttributeType.fromValue(partitionType))
			.build());
		keys.add(KeySchemaElement.builder().attributeName(partitionKey).keyType(KeyType.HASH).build());
		if (sortKey != null) {
			definitions.add(AttributeDefinition.builder()
				.attributeName(sortKey)
				.attributeType(ScalarAttributeType.fromValue(sortType))
				.build());
			keys.add(KeySchemaElement.builder().attributeName(sortKey).keyType(KeyType.RANGE).build());
		}
		return TableDescription.builder().attributeDefinitions(definitions).keySchema(keys).build();
	}

	private static AttributeValue s(String value) {
		return AttributeValue.fromS(value);
	}

	private static AttributeValue n(String value) {
		return AttributeValue.fromN(value);
	}

}
