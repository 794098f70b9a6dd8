package dev.dynamorelay.engine.wire;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.engine.EngineOptions;
import dev.dynamorelay.engine.EngineMainAccess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The engine as a process of its own (no Spring): {@code --port PORT}, one line with its endpoint, served until
 * it is stopped; its options, faults among them; the options it refuses.
 */
class StandaloneEngineTest {

	private static final Pattern ENDPOINT = Pattern.compile("DynamoDB engine listening on (http://\\S+) \\(in memory\\)");

	private static Process spawn(String... args) throws Exception {
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-cp", System.getProperty("java.class.path"), "dev.dynamorelay.engine.EngineMain"));
		command.addAll(List.of(args));
		return new ProcessBuilder(command).redirectErrorStream(true).start();
	}

	@Test
	void runsOnItsOwnPrintsItsEndpointAndStopsOnSigterm() throws Exception {
		long start = System.nanoTime();
		Process process = spawn("--port", "0", "--throttle", "0.25", "--fault-target", "DynamoDB_20120810.GetItem");
		try {
			BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
			String line = out.readLine();
			Duration up = Duration.ofNanos(System.nanoTime() - start);
			System.out.println("Standalone engine up in " + up.toMillis() + " ms (JVM start included): " + line);
			Matcher matcher = ENDPOINT.matcher(String.valueOf(line));
			assertThat(matcher.matches()).as(line).isTrue();
			URI endpoint = URI.create(matcher.group(1));
			assertThat(RawHttp.exchange(endpoint.getPort(), "GET", "/", Map.of(), "").body())
				.isEqualTo("healthy: dynamodb.us-east-1.amazonaws.com ");
			// The store's operations are served.
			assertThat(RawHttp.exchange(endpoint.getPort(), "POST", "/", RawHttp.signed("DynamoDB_20120810.ListTables"),
					"{}").body()).isEqualTo("{\"TableNames\":[]}");
			RawHttp.Response faults = RawHttp.exchange(endpoint.getPort(), "POST", "/",
					Map.of("Content-Type", "application/json", "X-Amz-Target", "DynamoRelayEngine.GetFaults"), "{}");
			assertThat(faults.body()).isEqualTo("{\"Faults\":{\"DynamoDB_20120810.GetItem\":{\"ThrottleShare\":0.25,"
					+ "\"ThrottleType\":\"ProvisionedThroughputExceededException\",\"ErrorShare\":0.0,\"ErrorStatus\":500,"
					+ "\"LatencyMillis\":0,\"Stall\":false}},\"Stalled\":0}");
			process.destroy();
			assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
		}
		finally {
			process.destroyForcibly();
		}
	}

	@Test
	void refusesOptionsItCannotTakeWithItsUsage() throws Exception {
		for (String[] args : List.of(new String[] { "--port" }, new String[] { "--port", "x" },
				new String[] { "--frobnicate", "1" }, new String[] { "--throttle", "2" },
				new String[] { "--server-error-status", "404", "--server-errors", "1" })) {
			ByteArrayOutputStream err = new ByteArrayOutputStream();
			int status = EngineMainAccess.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
			assertThat(status).as(String.join(" ", args)).isEqualTo(2);
			assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("dynamodb: ").contains("Usage: dynamodb");
		}
	}

	@Test
	void refusesAPathItCannotKeepDataInWithStatus1() throws Exception {
		java.nio.file.Path file = java.nio.file.Files.createTempFile("engine-data", ".txt");
		try {
			ByteArrayOutputStream err = new ByteArrayOutputStream();
			int status = EngineMainAccess.run(new String[] { "--port", "0", "--path", file.toString() },
					new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
			assertThat(status).isEqualTo(1);
			assertThat(err.toString(StandardCharsets.UTF_8))
				.isEqualTo("dynamodb: Cannot keep the journal in " + file + ": it is not a directory" + System.lineSeparator());
		}
		finally {
			java.nio.file.Files.delete(file);
		}
	}

	@Test
	void saysWhenItsPortIsTaken() throws Exception {
		try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			ByteArrayOutputStream err = new ByteArrayOutputStream();
			int status = EngineMainAccess.run(new String[] { "--port", Integer.toString(taken.getLocalPort()) },
					new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
			assertThat(status).isEqualTo(1);
			assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("dynamodb: cannot listen on 127.0.0.1:");
		}
	}

	@Test
	void readsItsOptions() {
		EngineOptions options = EngineMainAccess.parse("--port", "8123", "--host", "0.0.0.0", "--region", "eu-north-1",
				"--shard-rollover-seconds", "60", "--shard-rollover-records", "1000", "--table-activation-millis", "250",
				"--server-errors", "0.5", "--server-error-status", "503", "--latency", "20", "--stall");
		assertThat(options.port()).isEqualTo(8123);
		assertThat(options.host()).isEqualTo("0.0.0.0");
		assertThat(options.region()).isEqualTo("eu-north-1");
		assertThat(options.shardRolloverAge()).isEqualTo(Duration.ofSeconds(60));
		assertThat(options.shardRolloverRecords()).isEqualTo(1000);
		assertThat(options.tableActivationDelay()).isEqualTo(Duration.ofMillis(250));
		assertThat(options.faults()).containsExactly(Map.entry(Faults.ALL,
				new Fault(0, "ProvisionedThroughputExceededException", 0.5, 503, Duration.ofMillis(20), true)));
		assertThat(EngineMainAccess.parse().port()).isEqualTo(8000);
		assertThat(EngineMainAccess.parse().faults()).isEmpty();
		assertThat(EngineMainAccess.parse("--help")).isNull();
		assertThatThrownBy(() -> EngineMainAccess.parse("--throttle-type", "Nope", "--throttle", "1"))
			.isInstanceOf(IllegalArgumentException.class);
	}

}
