package dev.dynamorelay.live;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Reports live connections as part of readiness: UP for one instance alone (it reads its streams itself); in a
 * fleet, UP while its broker (Redis) is reachable and DOWN while it is not (subscriptions are refused then, and a
 * load balancer sends their clients to an instance that takes them).
 */
class LiveHealthIndicator extends AbstractHealthIndicator {

	private final LiveConnections live;

	LiveHealthIndicator(LiveConnections live) {
		super("Live connections' health check failed");
		this.live = live;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		var leases = this.live.leases();
		if (leases.isEmpty()) {
			builder.up().withDetail("broker", "none").withDetail("subscriptions", this.live.subscriptions());
			return;
		}
		(this.live.fleetWorking() ? builder.up()
				: builder.down().withDetail("error", this.live.brokerReachable()
						? "This instance does not publish what it reads (Redis does not take its changes, or KCL did not start)"
						: "Redis is unreachable"))
			.withDetail("broker", "redis")
			.withDetail("subscriptions", this.live.subscriptions())
			.withDetail("leases", leases.get().held())
			.withDetail("channels", leases.get().channels());
	}

}
