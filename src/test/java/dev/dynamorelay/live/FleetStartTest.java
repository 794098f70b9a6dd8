package dev.dynamorelay.live;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What stops a fleet's start before it reaches Redis, or when Redis does not answer or is too old. */
class FleetStartTest {

	@Test
	void noRedisUrlIsRefusedNamingTheProperty() {
		assertThatThrownBy(() -> new RedisBroker(fleet(null), (table, record) -> {
		})).isInstanceOf(FleetStartException.class)
			.hasMessage("dynamo-relay.live.broker=redis needs the Redis server: set dynamo-relay.live.fleet.redis-url "
					+ "(redis://host:6379)");
	}

	@Test
	void aUrlOfAnotherSchemeIsRefusedSayingWhatARedisUrlIs() {
		assertThatThrownBy(() -> new RedisBroker(fleet(URI.create("http://cache.example:6379")), (table, record) -> {
		})).isInstanceOf(FleetStartException.class)
			.hasMessageStartingWith("dynamo-relay.live.fleet.redis-url is no Redis URL")
			.hasMessageEndingWith("give redis://host:port or rediss://host:port");
	}

	@Test
	void aRedisThatDoesNotAnswerIsRefusedWithinTheConnectTimeoutWithoutItsPassword() throws Exception {
		int closed;
		try (ServerSocket socket = new ServerSocket(0)) {
			closed = socket.getLocalPort();
		}
		assertThatThrownBy(() -> new RedisBroker(fleet(URI.create("redis://:s3cret@127.0.0.1:" + closed)), (table, record) -> {
		})).isInstanceOf(FleetStartException.class)
			.hasMessageStartingWith("Redis at redis://***@127.0.0.1:" + closed + " did not answer within 2000 ms")
			.hasMessageContaining("Connection refused")
			.hasMessageEndingWith("start it, or fix dynamo-relay.live.fleet.redis-url (its host, port, password and TLS)")
			.hasMessageNotContaining("s3cret");
	}

	@Test
	void aRedisOlderThanSevenIsRefused() {
		assertThatThrownBy(() -> RedisBroker.checkVersion("# Server\r\nredis_version:6.2.14\r\nredis_mode:standalone\r\n",
				"redis://cache:6379")).isInstanceOf(FleetStartException.class)
			.hasMessage("Redis at redis://cache:6379 is version '6.2.14': live connections across instances need Redis 7 "
					+ "or later (or Valkey)");
		RedisBroker.checkVersion("# Server\r\nredis_version:7.0.15\r\n", "redis://cache:6379");
		RedisBroker.checkVersion("# Server\r\nredis_version:7.2.4\r\nvalkey_version:8.0.1\r\n", "redis://cache:6379");
	}

	@Test
	void anUnknownBrokerIsRefusedByTheBinding() {
		Binder binder = new Binder(new MapConfigurationPropertySource(Map.of("dynamo-relay.live.broker", "kafka")));
		assertThatThrownBy(() -> binder.bind("dynamo-relay.live", LiveProperties.class)).isInstanceOf(BindException.class)
			.hasRootCauseMessage("No enum constant dev.dynamorelay.live.LiveProperties.Broker.kafka");
		Binder redis = new Binder(new MapConfigurationPropertySource(Map.of("dynamo-relay.live.broker", "redis")));
		assertThat(redis.bind("dynamo-relay.live", LiveProperties.class).get().broker()).isEqualTo(LiveProperties.Broker.REDIS);
	}

	private static FleetProperties fleet(URI redis) {
		return new FleetProperties(redis, "leases", Duration.ofSeconds(10), 1000, Duration.ofHours(1), null,
				Duration.ofSeconds(2));
	}

}
