package dev.dynamorelay.it.guards;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.Http.Answer;
import dev.dynamorelay.it.Http;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Tokens;
import dev.dynamorelay.model.NodeIds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `@auth` rules of {@code src/test/resources/guarded/}: owners inside composed keys (settled before
 * reading), owners in stored attributes only (a filter on connections, a check of the item read on
 * lookups and node ids), groups of a custom claim, scopes in {@code scope} and {@code scp}, a field's
 * rule on an argument together with its items' type rules, and fields no rule covers.
 */
@TestPropertySource(properties = { "dynamo-relay.schema.locations=classpath:guarded/",
		"dynamo-relay.tables.prefix=Guarded_", "dynamo-relay.cursor.secret=guarded-secret" })
class GuardedAccessIT extends IntegrationTest {

	private static final String DOCS = "edges { node { docId author } } pageInfo { hasNextPage endCursor }";

	@DynamicPropertySource
	static void key(DynamicPropertyRegistry registry) {
		Tokens.configure(registry);
	}

	private Http http;

	private String team;

	private String otherTeam;

	private String tag;

	private String alice;

	private String bob;

	@BeforeEach
	void documents() {
		this.http = new Http(this.port);
		this.team = Fixtures.unique("team");
		this.otherTeam = Fixtures.unique("team");
		this.tag = Fixtures.unique("tag");
		this.alice = Fixtures.unique("alice");
		this.bob = Fixtures.unique("bob");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		items.add(Map.of("PK", s("TEAM#" + this.team), "SK", s("TEAM"), "name", s("Team " + this.team)));
		items.add(doc(this.team, "d1", this.alice));
		items.add(doc(this.team, "d2", this.bob));
		items.add(doc(this.team, "d3", this.alice));
		items.add(doc(this.otherTeam, "d4", this.alice));
		items.add(doc(this.otherTeam, "d5", this.bob));
		this.fixtures.put("Guarded_Docs", items);
		this.fixtures.put("Guarded_Audit", List.of(Map.of("auditId", s(Fixtures.unique("audit")), "what", s("x"))));
	}

	@Test
	void anOwnerInAComposedKeyIsSettledBeforeReading() {
		String query = "query ($teamId: String!) { team(teamId: $teamId) { teamId name } }";
		Answer member = this.http.post(member(this.alice, this.team), query, Map.of("teamId", this.team)).clean();
		assertThat(member.errors()).isEmpty();
		assertThat(member.at("data", "team", "name")).isEqualTo("Team " + this.team);
		assertThat(member.requests()).isEqualTo(1);

		Answer stranger = this.http.post(member(this.alice, this.otherTeam), query, Map.of("teamId", this.team)).clean();
		assertThat(stranger.codes()).containsExactly("FORBIDDEN");
		assertThat((String) stranger.errors().get(0).get("message")).contains("Query.team", "teamId", "team");
		assertThat(stranger.requests()).isZero();

		Answer noClaim = this.http.post(Tokens.of(this.alice), query, Map.of("teamId", this.team)).clean();
		assertThat(noClaim.codes()).as("a token without the `team` claim").containsExactly("FORBIDDEN");
		assertThat(noClaim.requests()).isZero();

		String id = NodeIds.encode(this.declarations.entity("Team"),
				Map.of("PK", s("TEAM#" + this.team), "SK", s("TEAM")));
		Answer node = this.http.post(member(this.alice, this.otherTeam), "query ($id: ID!) { node(id: $id) { id } }",
				Map.of("id", id)).clean();
		assertThat(node.codes()).containsExactly("FORBIDDEN");
		assertThat(node.requests()).isZero();
	}

	@Test
	void aConnectionWhoseKeyDoesNotHoldTheOwnerServesOnlyTheCallersItems() {
		Answer byTag = this.http.post(Tokens.of(this.alice), "query ($tag: String!) { docsByTag(tag: $tag, first: 10) { "
				+ DOCS + " } }", Map.of("tag", this.tag)).clean();
		assertThat(byTag.errors()).isEmpty();
		assertThat(docIds(byTag, "docsByTag")).containsExactly("d1", "d3", "d4");

		Answer nested = this.http.post(member(this.bob, this.team), "query ($teamId: String!) { team(teamId: $teamId) { "
				+ "docs(first: 10) { " + DOCS + " } } }", Map.of("teamId", this.team)).clean();
		assertThat(nested.errors()).isEmpty();
		assertThat(docIds(nested, "team", "docs")).containsExactly("d2");

		Answer editor = this.http.post(Tokens.of("ed", Map.of("cognito:groups", List.of("editors"))),
				"query ($tag: String!) { docsByTag(tag: $tag, first: 10) { " + DOCS + " } }", Map.of("tag", this.tag)).clean();
		assertThat(docIds(editor, "docsByTag")).as("group `editors` of `cognito:groups`").hasSize(5);

		Answer anonymous = this.http.post(null, "query ($tag: String!) { docsByTag(tag: $tag, first: 10) { " + DOCS + " } }",
				Map.of("tag", this.tag)).clean();
		assertThat(anonymous.status()).isEqualTo(401);
		assertThat(anonymous.codes()).containsExactly("UNAUTHENTICATED");
	}

	@Test
	void aFieldsOwnRuleAndItsItemsRulesBothApply() {
		String query = "query ($teamId: String!) { teamDocs(teamId: $teamId, first: 10) { " + DOCS + " } }";
		Answer member = this.http.post(member(this.alice, this.team), query, Map.of("teamId", this.team)).clean();
		assertThat(docIds(member, "teamDocs")).as("a member, and author of two").containsExactly("d1", "d3");

		Answer scoped = this.http.post(Tokens.of(this.alice, Map.of("team", this.team, "scope", "openid docs:read")), query,
				Map.of("teamId", this.team)).clean();
		assertThat(docIds(scoped, "teamDocs")).as("a member with scope docs:read").containsExactly("d1", "d2", "d3");

		Answer scp = this.http.post(Tokens.of(this.alice, Map.of("team", this.team, "scp", List.of("docs:read"))), query,
				Map.of("teamId", this.team)).clean();
		assertThat(docIds(scp, "teamDocs")).as("the scope in `scp`").containsExactly("d1", "d2", "d3");

		Answer outsider = this.http.post(Tokens.of(this.alice, Map.of("team", this.otherTeam, "scope", "docs:read")),
				query, Map.of("teamId", this.team)).clean();
		assertThat(outsider.codes()).as("the scope does not make a member").containsExactly("FORBIDDEN");
		assertThat(outsider.requests()).isZero();
	}

	@Test
	void aLookupOrNodeWhoseKeyDoesNotHoldTheOwnerIsCheckedOnTheItemRead() {
		String query = "query ($teamId: String!, $docId: String!) { doc(teamId: $teamId, docId: $docId) { docId author } }";
		Answer own = this.http.post(Tokens.of(this.alice), query, Map.of("teamId", this.team, "docId", "d1")).clean();
		assertThat(own.at("data", "doc", "author")).isEqualTo(this.alice);

		Answer others = this.http.post(Tokens.of(this.alice), query, Map.of("teamId", this.team, "docId", "d2")).clean();
		Answer missing = this.http.post(Tokens.of(this.alice), query, Map.of("teamId", this.team, "docId", "none")).clean();
		assertThat(others.at("data", "doc")).isNull();
		assertThat(others.body().get("data")).as("another author's document answers as a missing one")
			.isEqualTo(missing.body().get("data"));
		assertThat(others.errors()).isEmpty();
		assertThat(others.requests()).as("it had to be read to be told").isEqualTo(1);

		List<String> ids = List.of(docId(this.team, "d1"), docId(this.team, "d2"), docId(this.otherTeam, "d4"));
		Answer nodes = this.http.post(Tokens.of(this.alice), "query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Doc { docId } } }",
				Map.of("ids", ids)).clean();
		assertThat(nodes.at("data", "nodes", 0, "docId")).isEqualTo("d1");
		assertThat(nodes.at("data", "nodes", 1)).as("another author's, as if missing").isNull();
		assertThat(nodes.at("data", "nodes", 2, "docId")).isEqualTo("d4");
		assertThat(nodes.errors()).isEmpty();
	}

	@Test
	void anAttributesOwnRulesHideItFromCallersItsTypeAllows() {
		String query = "query ($tag: String!) { docsByTag(tag: $tag, first: 10) { edges { node { docId author title } } } }";
		Answer editor = this.http.post(Tokens.of(this.alice, Map.of("cognito:groups", "editors")), query,
				Map.of("tag", this.tag)).clean();
		assertThat((List<?>) editor.at("data", "docsByTag", "edges")).as("an editor sees every document").hasSize(5);
		Map<Object, Object> titles = new HashMap<>();
		for (Object edge : (List<?>) editor.at("data", "docsByTag", "edges")) {
			Map<?, ?> node = (Map<?, ?>) ((Map<?, ?>) edge).get("node");
			titles.put(node.get("docId"), node.get("title"));
		}
		assertThat(titles).containsEntry("d1", "Doc d1").containsEntry("d3", "Doc d3").containsEntry("d4", "Doc d4")
			.containsEntry("d2", null).containsEntry("d5", null);
		assertThat(editor.codes()).containsExactly("FORBIDDEN", "FORBIDDEN");
		assertThat(editor.paths()).allMatch((path) -> path.startsWith("docsByTag.edges.") && path.endsWith(".node.title"));

		Answer scoped = this.http.post(Tokens.of(this.bob, Map.of("scope", "docs:read")), query, Map.of("tag", this.tag))
			.clean();
		assertThat(scoped.errors()).isEmpty();
		assertThat((List<?>) scoped.at("data", "docsByTag", "edges")).hasSize(5);
	}

	@Test
	void anOwnerInsideAComposedKeyCannotBeForgedWithItsSeparator() {
		this.fixtures.put("Guarded_Boards", List.of(Map.of("PK", s(this.alice + "#x#b1"), "title", s("not Alice's"))));
		Answer separator = this.http.post(Tokens.of(this.alice), "{ board(owner: \"" + this.alice + "\", boardId: \"x#b1\") { title } }")
			.clean();
		assertThat(separator.codes()).containsExactly("INVALID_ARGUMENT");
		assertThat((String) separator.errors().get(0).get("message")).contains("`boardId` must not contain `#`");
		assertThat(separator.requests()).isZero();

		String forged = NodeIds.encode(this.declarations.entity("Board"), Map.of("PK", s(this.alice + "#x#b1")));
		Answer node = this.http.post(Tokens.of(this.alice), "query ($id: ID!) { node(id: $id) { ... on Board { title } } }",
				Map.of("id", forged)).clean();
		assertThat(node.at("data", "node")).isNull();
		assertThat(node.codes()).as("the item of owner `%s#x`", this.alice).containsExactly("FORBIDDEN");
		assertThat(node.requests()).isZero();
	}

	@Test
	void claimsOfOtherShapesIdentifyNoOneAndAGroupStringIsOneName() {
		String query = "query ($tag: String!) { docsByTag(tag: $tag, first: 10) { edges { cursor } } }";
		Map<String, Object> tag = Map.of("tag", this.tag);
		for (Object sub : List.of("", "  ", List.of(this.alice), Map.of("id", this.alice), true)) {
			Answer answer = this.http.post(Tokens.of("ignored", Map.of("sub", sub)), query, tag).clean();
			// Spring refuses a token whose `sub` is no string (401); one it accepts identifies no one.
			assertThat(answer.codes()).as("sub %s", sub).isIn(List.of("FORBIDDEN"), List.of("UNAUTHENTICATED"));
			assertThat(answer.at("data", "docsByTag")).as("sub %s", sub).isNull();
		}
		Answer number = this.http.post(Tokens.of("ignored", Map.of("sub", 42)), query, tag).clean();
		assertThat(number.errors()).as("a whole number is an identity").isEmpty();
		assertThat((List<?>) number.at("data", "docsByTag", "edges")).isEmpty();
		Answer spaced = this.http.post(Tokens.of("x", Map.of("cognito:groups", "sys editors")), query, tag).clean();
		assertThat((List<?>) spaced.at("data", "docsByTag", "edges")).as("`sys editors` is not `editors`").isEmpty();
		Answer commas = this.http.post(Tokens.of("x", Map.of("scope", "docs:read,other")), query, tag).clean();
		assertThat((List<?>) commas.at("data", "docsByTag", "edges")).as("scopes are separated by spaces only").isEmpty();
	}

	@Test
	void aFieldNoRuleCoversIsClosedToEveryone() {
		for (String token : List.of(Tokens.of(this.alice), Tokens.of("root", Map.of("groups", List.of("admin"))))) {
			Answer audits = this.http.post(token, "{ audits(first: 5) { edges { node { auditId } } } }").clean();
			assertThat(audits.codes()).containsExactly("FORBIDDEN");
			assertThat((String) audits.errors().get(0).get("message")).contains("Query.audits", "Audit", "no @auth rule");
			assertThat(audits.requests()).isZero();
		}
		Answer admins = this.http.post(Tokens.of("root", Map.of("groups", List.of("admin"))),
				"{ auditsForAdmins(first: 5) { edges { node { auditId } } } }").clean();
		assertThat(admins.errors()).isEmpty();
		assertThat((List<?>) admins.at("data", "auditsForAdmins", "edges")).isNotEmpty();
		Answer others = this.http.post(Tokens.of(this.alice), "{ auditsForAdmins(first: 5) { edges { cursor } } }").clean();
		assertThat(others.codes()).containsExactly("FORBIDDEN");
	}

	private String member(String subject, String teamId) {
		return Tokens.of(subject, Map.of("team", teamId));
	}

	private String docId(String teamId, String docId) {
		return NodeIds.encode(this.declarations.entity("Doc"),
				Map.of("PK", s("TEAM#" + teamId), "SK", s("DOC#" + docId)));
	}

	private Map<String, AttributeValue> doc(String teamId, String docId, String author) {
		Map<String, AttributeValue> item = new HashMap<>();
		item.put("PK", s("TEAM#" + teamId));
		item.put("SK", s("DOC#" + docId));
		item.put("author", s(author));
		item.put("tag", s(this.tag));
		item.put("title", s("Doc " + docId));
		return item;
	}

	private static List<Object> docIds(Answer answer, String... connection) {
		assertThat(answer.errors()).isEmpty();
		Object[] path = new Object[connection.length + 2];
		path[0] = "data";
		System.arraycopy(connection, 0, path, 1, connection.length);
		path[path.length - 1] = "edges";
		return ((List<?>) answer.at(path)).stream().map((edge) -> (Object) ((Map<?, ?>) ((Map<?, ?>) edge).get("node")).get("docId"))
			.sorted(java.util.Comparator.comparing(String::valueOf))
			.toList();
	}

	private static AttributeValue s(String value) {
		return AttributeValue.fromS(value);
	}

}
