package dev.dynamorelay.transport.graphql.document;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import graphql.ExecutionInput;
import graphql.GraphQLError;
import graphql.execution.preparsed.PreparsedDocumentEntry;
import graphql.execution.preparsed.PreparsedDocumentProvider;
import graphql.language.NodeUtil;
import graphql.language.OperationDefinition;
import org.springframework.boot.graphql.autoconfigure.GraphQlSourceBuilderCustomizer;
import org.springframework.stereotype.Component;

import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.GraphQlErrors;
import dev.dynamorelay.transport.request.RequestScope;

/**
 * Finds the document of a request: keeps parsed and validated documents by query text, so that a
 * client paging with the same query (as Apollo and Relay do) is parsed and validated once, not on every
 * page; resolves Apollo's persisted-query hashes ({@link PersistedQueries}); and refuses a mutation
 * sent over GET ({@link GraphQlHttpEndpoint}).
 *
 * <p>At most {@value #MAX_ENTRIES} documents are kept, others dropped by Caffeine's size policy (those
 * used least recently and least often first); very long query texts are not kept at all. Variables are
 * not part of a document, so pages of one walk share an entry.
 */
@Component
class DocumentCache implements PreparsedDocumentProvider, GraphQlSourceBuilderCustomizer {

	static final int MAX_ENTRIES = 500;

	static final int MAX_QUERY_LENGTH = 16 * 1024;

	private final Cache<String, PreparsedDocumentEntry> documents = Caffeine.newBuilder()
		.maximumSize(MAX_ENTRIES)
		.build();

	/** Null when persisted queries are switched off. */
	private final PersistedQueries persistedQueries;

	DocumentCache(PersistedQueryProperties persistedQueries) {
		this.persistedQueries = persistedQueries.enabled() ? new PersistedQueries(persistedQueries.maxEntries()) : null;
	}

	@Override
	public CompletableFuture<PreparsedDocumentEntry> getDocumentAsync(ExecutionInput input,
			Function<ExecutionInput, PreparsedDocumentEntry> parseAndValidate) {
		return document(input, parseAndValidate)
			.thenApply((entry) -> refuseMutation(input, entry));
	}

	/**
	 * Refuses a mutation sent over a transport that runs none (GraphQL over HTTP: GET must not change
	 * anything), once its document is known (its query may have come as a persisted-query hash), before
	 * anything runs.
	 */
	private static PreparsedDocumentEntry refuseMutation(ExecutionInput input, PreparsedDocumentEntry entry) {
		RequestScope scope = RequestScope.of(input.getGraphQLContext());
		if (entry.hasErrors() || scope.transport().allowsMutations()) {
			return entry;
		}
		OperationDefinition operation;
		try {
			operation = NodeUtil.getOperation(entry.getDocument(), input.getOperationName()).operationDefinition;
		}
		catch (RuntimeException ex) {
			return entry; // no such operation, or several and no operationName: execution says so
		}
		if (operation.getOperation() != OperationDefinition.Operation.MUTATION) {
			return entry;
		}
		scope.refuseMutation();
		GraphQLError error = GraphQlErrors.builder(ErrorCode.INVALID_ARGUMENT)
			.message("A mutation is sent with POST; GET runs queries only.")
			.location(operation.getSourceLocation())
			.build();
		return new PreparsedDocumentEntry(error);
	}

	private CompletableFuture<PreparsedDocumentEntry> document(ExecutionInput input,
			Function<ExecutionInput, PreparsedDocumentEntry> parseAndValidate) {
		Function<ExecutionInput, PreparsedDocumentEntry> byText = (resolved) -> byText(resolved, parseAndValidate);
		if (PersistedQueries.requested(input)) {
			PreparsedDocumentEntry malformed = PersistedQueries.malformed(input);
			if (malformed != null) {
				return CompletableFuture.completedFuture(malformed);
			}
			if (this.persistedQueries != null) {
				return this.persistedQueries.getDocumentAsync(input, byText);
			}
			if (PersistedQueries.hashOnly(input)) {
				return CompletableFuture.completedFuture(PersistedQueries.notSupported());
			}
		}
		return CompletableFuture.completedFuture(byText.apply(input));
	}

	private PreparsedDocumentEntry byText(ExecutionInput input,
			Function<ExecutionInput, PreparsedDocumentEntry> parseAndValidate) {
		String query = input.getQuery();
		if (query.length() > MAX_QUERY_LENGTH) {
			return parseAndValidate.apply(input);
		}
		return this.documents.get(query, (text) -> parseAndValidate.apply(input));
	}

	@Override
	public void customize(org.springframework.graphql.execution.GraphQlSource.SchemaResourceBuilder builder) {
		builder.configureGraphQl((graphQl) -> graphQl.preparsedDocumentProvider(this));
	}

}
