package dev.dynamorelay.access;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import graphql.schema.FieldCoordinates;
import graphql.schema.idl.TypeDefinitionRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import dev.dynamorelay.declaration.DeclarationReader;
import dev.dynamorelay.declaration.MistakeFile;
import dev.dynamorelay.schema.SchemaFiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every kind of mistake in {@code @auth} rules stops the start with a problem at its line that says what to change;
 * each mistake is a schema file of its own under {@code src/test/resources/mistakes/access/} ({@link MistakeFile}).
 */
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

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void mistakes(String file) {
		MistakeFile.read("access", file)
			.assertReportedBy((registry) -> AccessRulesReader.read(registry, DeclarationReader.read(registry, "")));
	}

	static List<String> mistakes() {
		return MistakeFile.in("access");
	}

	@Test
	void rulesOnATypeExtensionAreRead() {
		String valid = """
				type User implements Node @table(name: "Users", partitionKey: "userId") { id: ID! userId: String! }
				extend type User @auth(rules: [{allow: SIGNED_IN}])
				type Query { user(userId: String!): User @lookup }
				""";
		assertThat(read(valid).type("User")).containsExactly(new AuthRule.SignedIn());
	}

	// ---- helpers

	private AccessRules read(String schema) {
		write(schema);
		TypeDefinitionRegistry registry = files().parse();
		return AccessRulesReader.read(registry, DeclarationReader.read(registry, ""));
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

}
