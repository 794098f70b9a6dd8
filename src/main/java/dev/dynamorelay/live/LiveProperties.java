package dev.dynamorelay.live;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Live connections: how often the streams are read, and how many subscriptions a process serves. (The WebSocket
 * transport's own setting under the same prefix, {@code send-timeout}, is the transport's.)
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
 * @param maxPendingBytes the bytes of changes all subscriptions of the process may have waiting to be sent, as for
 * one subscription (below): beyond, the process's subscription with the most bytes waiting is dropped, as there;
 * unset: an eighth of the JVM's maximum heap
 * @param maxPendingBytesPerSubscription the bytes of changes one subscription may have waiting to be sent, in its
 * buffer (each change by its item's size, as DynamoDB sizes it) and handed to the transport but not yet written
 * to the socket (by its serialized size); a subscription further behind is dropped with UNAVAILABLE and
 * {@code extensions.after}, the eventId to resume after. One change is always taken when nothing waits.
 * @param maxPendingBytesPerConnection the bytes of changes all subscriptions of one connection (a WebSocket; an SSE
 * stream carries one subscription) may have waiting to be sent, counted as for one subscription: beyond, the
 * connection's subscription with the most bytes waiting is dropped, as there
 * @param maxReplayReads the most reads of the tables' streams (GetShardIterator, GetRecords) that resuming
 * subscriptions make at once, all of them together; resumes in one stretch of a shard share one reading of it,
 * and the reads take their places in the fair share of DynamoDB's calls as one request's
 * @param replayRate the changes that resuming subscriptions are handed per second, all of them together (what
 * catching up costs is judging each change, making it a message and sending it: this bounds its share of the
 * processors, so that other callers' requests keep their pace)
 * @param enabled whether this process serves the schema's live connections: false reads no stream and refuses
 * every subscription with UNAVAILABLE, for the instances of a deployment that leave subscriptions to others
 * (DynamoDB Streams serves two readers of a shard); queries and mutations are served either way
 * @param broker {@code none}: this process reads each table's stream itself, for its own subscribers (one instance,
 * or two: DynamoDB Streams serves two readers of a shard); {@code redis}: the instances of a deployment share the
 * streams' shards through the Kinesis Client Library, each shard read by one of them, and spread the changes through
 * Redis ({@code dynamo-relay.live.fleet.*}), for any number of instances
 */
@ConfigurationProperties("dynamo-relay.live")
public record LiveProperties(@DefaultValue("50ms") Duration pollInterval, @DefaultValue("500ms") Duration idlePollInterval,
		@DefaultValue("10000") int maxSubscriptions, @DefaultValue("100") int maxSubscriptionsPerCaller,
		@DefaultValue("256") int buffer, @DefaultValue("4MB") DataSize maxPendingBytesPerSubscription,
		@DefaultValue("16MB") DataSize maxPendingBytesPerConnection, DataSize maxPendingBytes,
		@DefaultValue("2") int maxReplayReads, @DefaultValue("2000") int replayRate,
		@DefaultValue("true") boolean enabled, @DefaultValue("none") Broker broker) {

	/** Where a process's live changes come from. */
	public enum Broker {

		/** Its own reading of each table's stream. */
		NONE,

		/** A fleet's: shard leases among the instances, changes through Redis. */
		REDIS

	}

	public LiveProperties {
		if (maxSubscriptions < 1 || maxSubscriptionsPerCaller < 1 || buffer < 1 || maxReplayReads < 1
				|| replayRate < 1) {
			throw new IllegalArgumentException("dynamo-relay.live limits must be at least 1");
		}
		if (maxPendingBytesPerSubscription.toBytes() < 1 || maxPendingBytesPerConnection.toBytes() < 1
				|| (maxPendingBytes != null && maxPendingBytes.toBytes() < 1)) {
			throw new IllegalArgumentException("dynamo-relay.live.max-pending-bytes, -per-connection and "
					+ "-per-subscription must be at least 1 byte, got " + maxPendingBytes + ", "
					+ maxPendingBytesPerConnection + " and " + maxPendingBytesPerSubscription);
		}
	}

	/** The bounds of the bytes held for subscribers. */
	public LiveMemory memory() {
		long max = (this.maxPendingBytes != null) ? this.maxPendingBytes.toBytes() : Runtime.getRuntime().maxMemory() / 8;
		return new LiveMemory(this.maxPendingBytesPerSubscription.toBytes(), this.maxPendingBytesPerConnection.toBytes(),
				max);
	}

	/** What the live engine takes of these. */
	public LiveSettings settings() {
		return new LiveSettings(this.pollInterval, this.idlePollInterval, this.maxSubscriptions,
				this.maxSubscriptionsPerCaller, this.buffer, this.maxReplayReads, this.replayRate, this.enabled);
	}

}
