package dev.dynamorelay.transport.graphql.document;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Apollo's automatic persisted queries.
 *
 * @param enabled Apollo's automatic persisted queries: answer a request that sends only
 * {@code extensions.persistedQuery.sha256Hash} with the query registered under that hash (or
 * {@code PersistedQueryNotFound}); when off, such a request is answered {@code PersistedQueryNotSupported}
 * and clients send their queries in full
 * @param maxEntries how many registered queries are kept; beyond it, Caffeine's size policy drops those used
 * least recently and least often
 */
@ConfigurationProperties("dynamo-relay.persisted-queries")
public record PersistedQueryProperties(@DefaultValue("true") boolean enabled, @DefaultValue("1000") int maxEntries) {

	public PersistedQueryProperties {
		if (maxEntries < 1) {
			throw new IllegalArgumentException("dynamo-relay.persisted-queries.max-entries must be at least 1, not " + maxEntries);
		}
	}

}
