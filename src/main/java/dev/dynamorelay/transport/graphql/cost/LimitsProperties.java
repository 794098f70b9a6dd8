package dev.dynamorelay.transport.graphql.cost;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How large a request may be. Each is checked before anything is read; a request over any of them is
 * refused with {@code QUERY_TOO_COMPLEX}. README's "Cost limits" shows the arithmetic.
 *
 * @param maxDepth the deepest a field may be nested (a root field is at depth 1)
 * @param maxRootFields root fields of one operation, aliases of one field each counted
 * @param maxItems the items a request may read at most by its estimate (page sizes multiplied down the
 * tree, filtered pages weighed by the read budget, {@code totalCount} by the count budget)
 */
@ConfigurationProperties("dynamo-relay.limits")
public record LimitsProperties(@DefaultValue("15") int maxDepth, @DefaultValue("20") int maxRootFields,
		@DefaultValue("25000") long maxItems) {

	public LimitsProperties {
		if (maxDepth < 1 || maxRootFields < 1 || maxItems < 1) {
			throw new IllegalArgumentException(
					"dynamo-relay.limits.max-depth, .max-root-fields and .max-items must be at least 1, got %d / %d / %d"
						.formatted(maxDepth, maxRootFields, maxItems));
		}
	}

}
