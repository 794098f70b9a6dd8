package dev.dynamorelay.graphql.live;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.dynamorelay.live.LiveSettings;

/**
 * Live connections: how often the streams are read, and how many subscriptions a process serves.
 *
 * @param pollInterval how long a stream reader waits before reading a shard again after a read that found
 * nothing, while the table has subscribers (a read that found records reads again at once)
 * @param idlePollInterval the same while the table has no subscribers: the reader keeps its place in the
 * stream, so that the first subscriber is served from the first second
 * @param maxSubscriptions the most subscriptions the process serves at once; beyond, a subscription is refused
 * with UNAVAILABLE
 * @param maxSubscriptionsPerCaller the most subscriptions one caller (one token subject; callers without a
 * token, one network address) holds at once; beyond, QUERY_TOO_COMPLEX
 * @param buffer the changes a subscriber may have waiting to be sent; a subscriber further behind is dropped
 * with UNAVAILABLE (consecutive updates of one item are merged before that)
 * @param enabled whether this process serves the schema's live connections: false reads no stream and refuses
 * every subscription with UNAVAILABLE, for the instances of a deployment that leave subscriptions to others
 * (DynamoDB Streams serves two readers of a shard); queries and mutations are served either way
 */
@ConfigurationProperties("dynamo-relay.live")
public record LiveProperties(@DefaultValue("50ms") Duration pollInterval, @DefaultValue("500ms") Duration idlePollInterval,
		@DefaultValue("10000") int maxSubscriptions, @DefaultValue("100") int maxSubscriptionsPerCaller,
		@DefaultValue("256") int buffer, @DefaultValue("true") boolean enabled) {

	public LiveProperties {
		if (maxSubscriptions < 1 || maxSubscriptionsPerCaller < 1 || buffer < 1) {
			throw new IllegalArgumentException("dynamo-relay.live limits must be at least 1");
		}
	}

	/** What the live engine takes of these. */
	public LiveSettings settings() {
		return new LiveSettings(this.pollInterval, this.idlePollInterval, this.maxSubscriptions,
				this.maxSubscriptionsPerCaller, this.buffer, this.enabled);
	}

}
