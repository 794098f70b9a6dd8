package dev.dynamorelay.bench.startup;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.dynamorelay.bench.support.Processes;
import dev.dynamorelay.bench.support.Report;

/**
 * Tomcat and Spring MVC against Reactor Netty and WebFlux ({@code BENCH_ONLY=transport}), on
 * {@code bench/transport}: one small Spring GraphQL application that serves this section's page from memory
 * (two waits of DynamoDB's length standing for its two calls) on either stack, so that only the transport
 * differs. Each stack from spawn (first answer, first 30 s), then two servers of each, warmed and loaded in
 * turns (server CPU per page). dynamo-relay itself runs on Tomcat only.
 */
final class Transport {

	private final Report rows;

	private final Path out;

	private final PageLoad pageLoad;

	private final List<byte[]> bodies;

	Transport(Report rows, Path out, PageLoad pageLoad, List<byte[]> bodies) {
		this.rows = rows;
		this.out = out;
		this.pageLoad = pageLoad;
		this.bodies = bodies;
	}

	/**
	 * Tomcat and Spring MVC against Reactor Netty and WebFlux ({@code BENCH_ONLY=transport}), on
	 * {@code bench/transport}: one small Spring GraphQL application that serves this section's page from memory
	 * (two waits of DynamoDB's length standing for its two calls) on either stack, so that only the transport
	 * differs. Each stack from spawn (first answer, first 30 s), then two servers of each, warmed and loaded in
	 * turns (server CPU per page). dynamo-relay itself runs on Tomcat only.
	 */
	void run(Path transportJar) throws Exception {
		if (!Files.isRegularFile(transportJar)) {
			throw new IllegalStateException(transportJar + " is missing: ./bench/run builds it");
		}
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		List<String> stacks = List.of("servlet", "reactive", "servlet", "reactive");
		Map<String, String> names = Map.of("servlet", "Tomcat + Spring MVC", "reactive", "Reactor Netty + WebFlux");
		System.out.printf("Transport: %s against %s, Java %s ...%n", names.get("servlet"), names.get("reactive"), Launcher.version(java));
		List<Process> processes = new ArrayList<>();
		List<URI> servers = new ArrayList<>();
		try {
			// Each stack alone from its spawn, as the start-up phases measure dynamo-relay, then stopped.
			for (String stack : List.of("servlet", "reactive")) {
				int port = Processes.freePort();
				long spawned = System.nanoTime();
				Process process = startTransport(java, transportJar, stack, port, "cold");
				try {
					Window first = this.pageLoad.load(URI.create("http://127.0.0.1:" + port + "/graphql"), this.bodies, spawned,
							spawned + Duration.ofSeconds(30).toNanos(), process.pid(), true, PageLoad.CLIENTS);
					this.rows.row("transport, first 30 s after spawn: " + names.get(stack), first.describe(), "-",
							"first answer %.2f s".formatted(first.firstSeconds(spawned)), "-", null);
				}
				finally {
					Launcher.stop(process);
				}
			}
			for (int i = 0; i < stacks.size(); i++) {
				int port = Processes.freePort();
				processes.add(startTransport(java, transportJar, stacks.get(i), port, Integer.toString(i + 1)));
				servers.add(URI.create("http://127.0.0.1:" + port + "/graphql"));
			}
			long[] pids = processes.stream().mapToLong(Process::pid).toArray();
			Window[] sums = this.pageLoad.inTurns(servers, pids, this.bodies, Duration.ofSeconds(60), 4, (i) -> {
			});
			Window servlet = sums[0].plus(sums[2]);
			Window reactive = sums[1].plus(sums[3]);
			double noise = PageLoad.alike(sums);
			this.rows.row("transport, warm server CPU per page: " + names.get("reactive") + " vs " + names.get("servlet")
					+ ", two servers of each, 8 clients, 4 x 10 s each in turns",
					"%.3f ms (%.3f, %.3f), %.0f pages/s".formatted(reactive.cpuPerPage(), sums[1].cpuPerPage(), sums[3].cpuPerPage(),
							reactive.perSecond()),
					"%.3f ms (%.3f, %.3f), %.0f pages/s".formatted(servlet.cpuPerPage(), sums[0].cpuPerPage(), sums[2].cpuPerPage(),
							servlet.perSecond()),
					"%+.3f ms a page (%.3fx); two servers alike differ by up to %.3fx".formatted(
							reactive.cpuPerPage() - servlet.cpuPerPage(), reactive.cpuPerPage() / servlet.cpuPerPage(), noise),
					"-", null);
			this.rows.figure("transportReactiveMinusServletMs", reactive.cpuPerPage() - servlet.cpuPerPage());
		}
		finally {
			for (Process process : processes) {
				Launcher.stop(process);
			}
		}
	}

	/** Starts bench/transport on one stack; its output goes to {@code transport-<stack>-<name>.log}. */
	private Process startTransport(Path java, Path transportJar, String stack, int port, String name) throws IOException {
		return new ProcessBuilder(java.toString(), "-jar", transportJar.toAbsolutePath().toString(), "--server.port=" + port,
				"--spring.main.web-application-type=" + stack)
			.redirectErrorStream(true)
			.redirectOutput(this.out.resolve("transport-" + stack + "-" + name + ".log").toFile())
			.start();
	}

}
