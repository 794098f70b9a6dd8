package dev.dynamorelay.command.iam;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import dev.dynamorelay.declaration.DeclarationReader;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.schema.SchemaFiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The write actions of a type written as {@code @children} of a type in another table: a write of a child checks
 * its parent (ConditionCheckItem on the parent's table, in a transaction whose answer is read back with GetItem)
 * when the parent's owner rule is to be checked on the parent item.
 */
class IamPolicyWritesTest {

	private static final String SCHEMA = """
			type Query { node(id: ID!): Node }
			type List implements Node @table(name: "Lists", partitionKey: "listId")
			  @auth(rules: [{allow: OWNER, ownerField: "owner"}]) {
			  id: ID!  listId: String!  owner: String
			}
			type Wish implements Node @table(name: "Wishes", partitionKey: "listId", sortKey: "sku")
			  @auth(rules: [{allow: SIGNED_IN}]) {
			  id: ID!  listId: String!  sku: String!  note: String
			}
			input WishInput { sku: String!  note: String }
			input CreateListInput { listId: String!  owner: String  wishes: [WishInput!] @children(type: "Wish") }
			input AddWishInput { listId: String!  sku: String!  note: String }
			input UpdateWishInput { id: ID!  note: String }
			type Mutation {
			  createList(input: CreateListInput!): List! @create
			  addWish(input: AddWishInput!): Wish! @create
			  updateWish(input: UpdateWishInput!): Wish! @update
			  deleteWish(id: ID!): ID @delete(type: "Wish")
			}
			""";

	@Test
	void aWriteOfChildrenMayCheckTheirParent(@TempDir Path directory) throws IOException {
		Files.writeString(directory.resolve("lists.graphqls"), SCHEMA);
		Declarations declarations = DeclarationReader.read(SchemaFiles
			.resolve("file:" + directory + "/", new PathMatchingResourcePatternResolver())
			.parse(), "");
		Map<String, Set<String>> writes = IamPolicy.writes(declarations);
		assertThat(writes).containsEntry("ConditionCheckItem", Set.of("Lists"))
			.containsEntry("PutItem", Set.of("Lists", "Wishes"))
			.containsEntry("UpdateItem", Set.of("Wishes"))
			.containsEntry("DeleteItem", Set.of("Wishes"))
			.containsEntry("GetItem", Set.of("Wishes"));
	}

}
