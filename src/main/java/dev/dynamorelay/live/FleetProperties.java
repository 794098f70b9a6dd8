package dev.dynamorelay.live;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Live connections across instances ({@code dynamo-relay.live.broker=redis}): the Kinesis Client Library's lease
 * table, which shares the tables' stream shards among the instances, and the Redis server the instance that reads
 * a shard publishes its changes to.
 *
 * @param redisUrl the Redis (7 or later) or Valkey server, {@code redis://host:port} ({@code rediss://} for TLS;
 * a password as {@code redis://:password@host:port}); required with {@code dynamo-relay.live.broker=redis}
 * @param leaseTable the DynamoDB table of the instances' shard leases, also the Kinesis Client Library's
 * application name: its coordinator state and worker metrics tables are named after it
 * ({@code <lease-table>-CoordinatorState}, {@code <lease-table>-WorkerMetricStats}); one per deployment, the same on
 * every instance of it. Created at start where the server creates tables ({@code dynamo-relay.tables.create}),
 * else checked
 * @param failoverTime how long an instance's shard lease lives without being renewed: after an instance stops
 * renewing (it died, or lost the network), another takes its shards after about this time, and the fleet's leader
 * assigns them on its next round (every half of it); when the dead instance was the leader, its leader's lock
 * expires after this time too, and a new leader makes the round
 * @param windowChanges the most changes Redis keeps of each table for resumes: a client that resumes after an
 * older change is told to refetch ({@code INVALID_CURSOR})
 * @param windowAge how long Redis keeps a change for resumes (within {@code window-changes})
 * @param workerId this instance's name among the lease holders; unset: the host name, the process id and a random
 * suffix (unique per start)
 * @param connectTimeout how long the start waits for Redis, and a command for its answer
 */
@ConfigurationProperties("dynamo-relay.live.fleet")
public record FleetProperties(URI redisUrl, @DefaultValue("dynamo-relay-leases") String leaseTable,
		@DefaultValue("10s") Duration failoverTime, @DefaultValue("100000") int windowChanges,
		@DefaultValue("1h") Duration windowAge, String workerId, @DefaultValue("5s") Duration connectTimeout) {

	public FleetProperties {
		if (windowChanges < 1) {
			throw new IllegalArgumentException("dynamo-relay.live.fleet.window-changes must be at least 1, got "
					+ windowChanges);
		}
		if (windowAge.toSeconds() < 1 || failoverTime.toMillis() < 1000 || connectTimeout.toMillis() < 1) {
			throw new IllegalArgumentException("dynamo-relay.live.fleet.window-age and failover-time must be at least "
					+ "a second, connect-timeout positive: got " + windowAge + ", " + failoverTime + " and "
					+ connectTimeout);
		}
	}

}
