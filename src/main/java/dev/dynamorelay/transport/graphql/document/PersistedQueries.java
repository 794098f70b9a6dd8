package dev.dynamorelay.transport.graphql.document;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import graphql.ExecutionInput;
import graphql.GraphQLError;
import graphql.execution.preparsed.PreparsedDocumentEntry;
import graphql.execution.preparsed.persisted.ApolloPersistedQuerySupport;
import graphql.execution.preparsed.persisted.PersistedQueryCache;
import graphql.execution.preparsed.persisted.PersistedQueryCacheMiss;
import graphql.execution.preparsed.persisted.PersistedQueryError;
import graphql.execution.preparsed.persisted.PersistedQueryNotFound;
import graphql.execution.preparsed.persisted.PersistedQuerySupport;

import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.GraphQlErrors;

/**
 * Apollo's automatic persisted queries, on graphql-java's {@link ApolloPersistedQuerySupport}.
 *
 * <p>A request whose {@code extensions.persistedQuery} is {@code {version: 1, sha256Hash}} and that has
 * no query runs the query registered under that hash, or is answered {@code PersistedQueryNotFound}
 * (code {@link ErrorCode#PERSISTED_QUERY_NOT_FOUND}); the client then sends the query with its hash, which registers it. A query
 * sent with a hash must be what the hash says (the SHA-256 of its UTF-8 text, in hex), else
 * {@code INVALID_ARGUMENT}. Only valid documents are registered, at most {@code maxEntries} of them (others
 * are dropped by Caffeine's size policy, those used least recently and least often first), and none longer
 * than {@link DocumentCache#MAX_QUERY_LENGTH}: such a query runs but has to be sent in full every time.
 */
final class PersistedQueries extends ApolloPersistedQuerySupport {

	private static final Pattern SHA_256 = Pattern.compile("[0-9a-fA-F]{64}");

	PersistedQueries(int maxEntries) {
		super(new Registry(maxEntries));
	}

	/** Whether the request has an {@code extensions.persistedQuery}. */
	static boolean requested(ExecutionInput input) {
		return input.getExtensions() != null && input.getExtensions().get("persistedQuery") != null;
	}

	/** Whether the request sends a hash instead of its query. */
	static boolean hashOnly(ExecutionInput input) {
		String query = input.getQuery();
		return query == null || query.isBlank() || PersistedQuerySupport.PERSISTED_QUERY_MARKER.equals(query);
	}

	/** Why the request's {@code extensions.persistedQuery} cannot be used, or null when it can. */
	static PreparsedDocumentEntry malformed(ExecutionInput input) {
		if (input.getExtensions().get("persistedQuery") instanceof Map<?, ?> persisted
				&& persisted.get("version") instanceof Number version && version.doubleValue() == 1
				&& persisted.get("sha256Hash") instanceof String hash && SHA_256.matcher(hash).matches()) {
			return null;
		}
		return error(ErrorCode.INVALID_ARGUMENT, "extensions.persistedQuery must be {\"version\": 1, "
				+ "\"sha256Hash\": \"<the SHA-256 of the query's UTF-8 text, 64 hex digits>\"}.");
	}

	/** The answer to a hash without its query when persisted queries are switched off. */
	static PreparsedDocumentEntry notSupported() {
		return error(ErrorCode.PERSISTED_QUERY_NOT_SUPPORTED, "PersistedQueryNotSupported");
	}

	@Override
	protected PreparsedDocumentEntry mkMissingError(PersistedQueryError error) {
		if (error instanceof PersistedQueryNotFound) {
			// Apollo's link recognises the message and the code, and then sends the query with its hash.
			return error(ErrorCode.PERSISTED_QUERY_NOT_FOUND, "PersistedQueryNotFound");
		}
		return error(ErrorCode.INVALID_ARGUMENT, "extensions.persistedQuery.sha256Hash is not the SHA-256 "
				+ "of the query sent with it: hash the query's UTF-8 text exactly as sent (64 hex digits).");
	}

	private static PreparsedDocumentEntry error(ErrorCode code, String message) {
		GraphQLError error = GraphQlErrors.builder(code).message(message).build();
		return new PreparsedDocumentEntry(error);
	}

	/** The registered queries by hash, at most {@code maxEntries} of them. */
	private static final class Registry implements PersistedQueryCache {

		private final Cache<String, String> queries;

		Registry(int maxEntries) {
			// Upkeep on the registering thread, not in the common pool: a query is dropped as soon as the
			// bound is passed, and the next request that names its hash is told PersistedQueryNotFound.
			this.queries = Caffeine.newBuilder().maximumSize(maxEntries).executor(Runnable::run).build();
		}

		/**
		 * Resolves a hash to its query, or registers the query sent with it. Both go through
		 * {@code parse}, which throws {@code PersistedQueryNotFound} for no query and
		 * {@code PersistedQueryIdInvalid} for a query of another hash, and otherwise parses and validates
		 * the query (through {@link DocumentCache}'s documents by text).
		 */
		@Override
		public CompletableFuture<PreparsedDocumentEntry> getPersistedQueryDocumentAsync(Object persistedQueryId,
				ExecutionInput input, PersistedQueryCacheMiss parse) {
			String hash = persistedQueryId.toString().toLowerCase(Locale.ROOT);
			if (hashOnly(input)) {
				return CompletableFuture.completedFuture(parse.apply(this.queries.getIfPresent(hash)));
			}
			String query = input.getQuery();
			PreparsedDocumentEntry entry = parse.apply(query);
			if (!entry.hasErrors() && query.length() <= DocumentCache.MAX_QUERY_LENGTH) {
				this.queries.put(hash, query);
			}
			return CompletableFuture.completedFuture(entry);
		}

	}

}
