package dev.dynamorelay.it;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.dynamorelay.fixtures.RedisServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Redis fixture the fleet's tests stand on: a real Redis 7 or later on loopback that a test kills, restarts on
 * the same port and stops, each as it says, with nothing kept across a restart.
 */
class RedisServerIT {

	@Test
	void startsKillsRestartsOnTheSamePortAndStops() throws IOException {
		RedisServer redis = RedisServer.start();
		try (redis) {
			int port = redis.port();
			assertThat(redis.running()).isTrue();
			assertThat(redis.url()).isEqualTo("redis://127.0.0.1:" + port);
			assertThat(redis.command("PING")).isEqualTo("PONG");
			Matcher version = Pattern.compile("redis_version:(\\d+)\\.").matcher(redis.command("INFO", "server"));
			assertThat(version.find()).isTrue();
			assertThat(Integer.parseInt(version.group(1))).isGreaterThanOrEqualTo(7);
			assertThat(redis.command("SET", "before", "kill")).isEqualTo("OK");
			assertThat(redis.command("GET", "before")).isEqualTo("kill");

			redis.kill();
			assertThat(redis.running()).isFalse();
			assertRefused(port);
			// SIGKILL: no shutdown of its own.
			assertThat(redis.log()).doesNotContain("ready to exit");

			redis.restart();
			assertThat(redis.running()).isTrue();
			assertThat(redis.port()).isEqualTo(port);
			assertThat(redis.command("PING")).isEqualTo("PONG");
			assertThat(redis.command("GET", "before")).as("nothing is saved across a restart").isNull();
			assertThat(redis.command("SET", "before", "stop")).isEqualTo("OK");

			redis.stop();
			assertThat(redis.running()).isFalse();
			assertRefused(port);
			assertThat(redis.log()).contains("ready to exit");
			assertThat(redis.directory()).isDirectory();

			redis.restart();
			assertThat(redis.command("GET", "before")).as("nothing is saved by a graceful stop").isNull();
		}
		assertThat(redis.running()).isFalse();
		assertThat(Files.exists(redis.directory())).isFalse();
	}

	@Test
	void twoServersRunApart() {
		try (RedisServer one = RedisServer.start(); RedisServer two = RedisServer.start()) {
			assertThat(one.port()).isNotEqualTo(two.port());
			one.command("SET", "where", "one");
			assertThat(two.command("GET", "where")).isNull();
			one.kill();
			assertThat(two.command("PING")).isEqualTo("PONG");
		}
	}

	private static void assertRefused(int port) {
		assertThatThrownBy(() -> {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
			}
		}).isInstanceOf(ConnectException.class);
	}

}
