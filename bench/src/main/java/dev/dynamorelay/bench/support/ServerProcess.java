package dev.dynamorelay.bench.support;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The server under measure: the jar as a process of its own, pointed at the benchmark's engine, its output in
 * {@code target/bench/server.log}, with {@code BENCH_SERVER_ARGS} and {@code BENCH_JFR} applied.
 */
public final class ServerProcess {

	private ServerProcess() {
	}

	/** Starts the jar on {@code port} against {@code dynamoDb}, with {@code more} arguments for its section. */
	public static Process start(Path jar, URI dynamoDb, int port, Path out, List<String> more) throws IOException {
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Xms1g", "-Xmx1g"));
		String jfr = System.getenv("BENCH_JFR");
		if (jfr != null && !jfr.isBlank()) {
			command.add("-XX:StartFlightRecording=filename=" + jfr + ",settings=profile");
		}
		command.addAll(List.of("-jar", jar.toString(), "--server.port=" + port,
				"--dynamo-relay.dynamodb.endpoint=" + dynamoDb, "--dynamo-relay.cursor.secret=benchmark",
				"--dynamo-relay.tables.create=true", "--dynamo-relay.sample-data.enabled=false", "--logging.level.root=WARN"));
		command.addAll(more);
		command.addAll(arguments());
		return new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(out.resolve("server.log").toFile())
			.start();
	}

	/** Waits until the server answers {@code { __typename }}, at most 120 s. */
	public static void await(Process server, GraphQl graphQl) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
		while (System.nanoTime() < deadline) {
			if (!server.isAlive()) {
				throw new IllegalStateException("the server exited; see target/bench/server.log");
			}
			try {
				graphQl.post("{ __typename }", Map.of());
				return;
			}
			catch (RuntimeException ex) {
				Thread.sleep(250);
			}
		}
		throw new IllegalStateException("the server did not start within 120 s; see target/bench/server.log");
	}

	/**
	 * More arguments for the server, from {@code BENCH_SERVER_ARGS} (space-separated), e.g.
	 * {@code --dynamo-relay.dynamodb.max-concurrency-per-request=4} to measure another setting.
	 */
	public static List<String> arguments() {
		String arguments = System.getenv("BENCH_SERVER_ARGS");
		return (arguments == null || arguments.isBlank()) ? List.of() : List.of(arguments.trim().split("\\s+"));
	}

	/** A numeric server property given in {@code BENCH_SERVER_ARGS}, or its default. */
	public static long argument(String property, long defaultValue) {
		for (String argument : arguments()) {
			if (argument.startsWith("--" + property + "=")) {
				return Long.parseLong(argument.substring(property.length() + 3));
			}
		}
		return defaultValue;
	}

}
