package dev.dynamorelay.transport.graphql.document;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.GraphQL;
import graphql.GraphQLError;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.SchemaParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link DocumentCache}'s persisted queries, on graphql-java alone. */
class PersistedQueriesTest {

	private static final String SCHEMA = "type Query { a: Int b: Int c: Int } type Mutation { m: Int }";

	@Test
	void registersVerifiedQueriesAndForgetsTheLeastRecentlyUsedBeyondTheBound() throws Exception {
		GraphQL graphQl = graphQl(new PersistedQueryProperties(true, 2));
		assertThat(code(run(graphQl, null, "{ a }"))).isEqualTo("PERSISTED_QUERY_NOT_FOUND");
		assertThat(run(graphQl, "{ a }", "{ a }").getErrors()).isEmpty();
		assertThat(run(graphQl, "{ b }", "{ b }").getErrors()).isEmpty();
		assertThat(run(graphQl, null, "{ a }").<Map<String, Object>>getData()).containsEntry("a", 1);
		assertThat(run(graphQl, "{ c }", "{ c }").getErrors()).isEmpty(); // drops { b }, used least recently
		assertThat(run(graphQl, null, "{ a }").getErrors()).isEmpty();
		assertThat(run(graphQl, null, "{ c }").getErrors()).isEmpty();
		assertThat(code(run(graphQl, null, "{ b }"))).isEqualTo("PERSISTED_QUERY_NOT_FOUND");
	}

	@Test
	void aHashOfAnotherQueryIsRefusedAndRegistersNothing() throws Exception {
		GraphQL graphQl = graphQl(new PersistedQueryProperties(true, 10));
		ExecutionResult mismatch = graphQl.execute(input("{ b }", sha256("{ a }")));
		assertThat(code(mismatch)).isEqualTo("INVALID_ARGUMENT");
		assertThat(mismatch.isDataPresent()).isFalse();
		assertThat(code(run(graphQl, null, "{ a }"))).isEqualTo("PERSISTED_QUERY_NOT_FOUND");
		// Even for a hash that is registered: the query sent is what runs, only if it is the hash's.
		run(graphQl, "{ a }", "{ a }");
		assertThat(code(graphQl.execute(input("{ b }", sha256("{ a }"))))).isEqualTo("INVALID_ARGUMENT");
	}

	@Test
	void invalidDocumentsAreAnsweredButNotRegistered() throws Exception {
		GraphQL graphQl = graphQl(new PersistedQueryProperties(true, 10));
		assertThat(code(run(graphQl, "{ nope }", "{ nope }"))).isNull(); // a validation error, coded later
		assertThat(code(run(graphQl, null, "{ nope }"))).isEqualTo("PERSISTED_QUERY_NOT_FOUND");
	}

	@Test
	void switchedOffAHashAloneIsNotSupportedAndAQueryWithItsHashJustRuns() throws Exception {
		GraphQL graphQl = graphQl(new PersistedQueryProperties(false, 10));
		ExecutionResult hashOnly = run(graphQl, null, "{ a }");
		assertThat(code(hashOnly)).isEqualTo("PERSISTED_QUERY_NOT_SUPPORTED");
		assertThat(hashOnly.getErrors().get(0).getMessage()).isEqualTo("PersistedQueryNotSupported");
		assertThat(run(graphQl, "{ a }", "{ a }").<Map<String, Object>>getData()).containsEntry("a", 1);
	}

	@Test
	void queriesWithoutAHashAreServedAsBefore() {
		GraphQL graphQl = graphQl(new PersistedQueryProperties(true, 10));
		assertThat(graphQl.execute("{ a b }").<Map<String, Object>>getData()).containsEntry("b", 2);
		assertThat(graphQl.execute("mutation { m }").<Map<String, Object>>getData()).containsEntry("m", 3);
	}

	private static ExecutionResult run(GraphQL graphQl, String query, String hashed) throws Exception {
		return graphQl.execute(input(query, sha256(hashed)));
	}

	private static ExecutionInput input(String query, String hash) {
		// As Spring GraphQL hands over a request without a query: its persisted-query marker.
		return ExecutionInput.newExecutionInput((query != null) ? query : "PersistedQueryMarker")
			.extensions(Map.of("persistedQuery", Map.of("version", 1, "sha256Hash", hash)))
			.build();
	}

	private static String code(ExecutionResult result) {
		List<GraphQLError> errors = result.getErrors();
		assertThat(errors).hasSize(1);
		return (errors.get(0).getExtensions() != null) ? (String) errors.get(0).getExtensions().get("code") : null;
	}

	private static GraphQL graphQl(PersistedQueryProperties properties) {
		RuntimeWiring wiring = RuntimeWiring.newRuntimeWiring()
			.type("Query", (type) -> type.dataFetcher("a", (env) -> 1).dataFetcher("b", (env) -> 2).dataFetcher("c", (env) -> 3))
			.type("Mutation", (type) -> type.dataFetcher("m", (env) -> 3))
			.build();
		return GraphQL.newGraphQL(new SchemaGenerator().makeExecutableSchema(new SchemaParser().parse(SCHEMA), wiring))
			.preparsedDocumentProvider(new DocumentCache(properties))
			.build();
	}

	private static String sha256(String text) throws Exception {
		return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
	}

}
