package dev.dynamorelay.bench.startup;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.dynamorelay.bench.support.Processes;
import dev.dynamorelay.bench.support.Report;
import dev.dynamorelay.metrics.RecordingCost;

/**
 * The metrics' cost, two ways: across processes, server CPU per page of two metered servers and two without, loaded
 * in turns; inside one process, the share of a metered server's CPU samples (async-profiler) in the meters' code;
 * and what the meters record per page, timed alone in this JVM ({@code BENCH_ONLY=metrics}, and the start-up
 * section's end).
 */
final class MetricsCost {

	private final Report rows;

	private final Launcher launcher;

	private final PageLoad pageLoad;

	/** dynamo-relay's page bodies, the load of every server. */
	private final List<byte[]> bodies;

	MetricsCost(Report rows, Launcher launcher, PageLoad pageLoad, List<byte[]> bodies) {
		this.rows = rows;
		this.launcher = launcher;
		this.pageLoad = pageLoad;
		this.bodies = bodies;
	}

	/**
	 * The metrics' cost, two ways. Across processes: server CPU per page of two servers with the meters and two
	 * without, loaded in turns, the metered ones scraped every 10 s as Prometheus would; the two of each kind
	 * show the noise between processes alike, which is of the size of the target (a few per cent). Inside one
	 * process: the share of a metered server's CPU samples (async-profiler) in the meters' code, ours and
	 * Micrometer's, scrapes included; the JIT, the heap and the machine are then the same for both sides.
	 */
	void run(ServerRuntime runtime) throws Exception {
		System.out.printf("Metrics on vs off (%s) ...%n", runtime.name());
		List<Process> processes = new ArrayList<>();
		List<URI> servers = new ArrayList<>();
		try {
			for (int i = 0; i < 4; i++) {
				int port = Processes.freePort();
				boolean metered = i % 2 == 0;
				processes.add(metered ? this.launcher.start(runtime, List.of(), port, false)
						: this.launcher.start(runtime, List.of(), port, false, "--dynamo-relay.metrics.enabled=false"));
				servers.add(URI.create("http://127.0.0.1:" + port + "/graphql"));
			}
			long[] pids = processes.stream().mapToLong(Process::pid).toArray();
			URI[] scrapes = servers.stream().map((server) -> server.resolve("/actuator/prometheus")).toArray(URI[]::new);
			Window[] sums = this.pageLoad.inTurns(servers, pids, this.bodies, Duration.ofSeconds(120), 4, (i) -> {
				if (i % 2 == 0) {
					this.pageLoad.get(scrapes[i]);
				}
			});
			String scraped = this.pageLoad.get(scrapes[0]);
			if (!scraped.contains("dynamorelay_connection_pages_total{connection=\"Query.purchasesByCategory\"")) {
				throw new IllegalStateException("the metered server's scrape has no page counts");
			}
			Window on = sums[0].plus(sums[2]);
			Window off = sums[1].plus(sums[3]);
			double ratio = on.cpuPerPage() / off.cpuPerPage();
			double noise = PageLoad.alike(sums);
			this.rows.row("server CPU per page, metrics on (scraped every 10 s) vs off, two servers of each, 8 clients, "
					+ "4 x 10 s each in turns", "%.3f ms (%.3f, %.3f)".formatted(on.cpuPerPage(), sums[0].cpuPerPage(), sums[2].cpuPerPage()),
					"%.3f ms (%.3f, %.3f)".formatted(off.cpuPerPage(), sums[1].cpuPerPage(), sums[3].cpuPerPage()),
					"%.3fx (%.0f vs %.0f pages/s); two servers alike differ by up to %.3fx".formatted(ratio, on.perSecond(),
							off.perSecond(), noise), "-", null);
			this.rows.figure("metricsCpuRatio", ratio);
			this.rows.figure("metricsProcessNoise", noise);
			profileShare(pids[0], servers.get(0), scrapes[0]);
			// What the meters record per page, timed alone in this JVM once the servers are idle.
			double recording = RecordingCost.nanosPerPage();
			this.rows.row("... what the meters record per page (1 request timer, 2 DynamoDB call timers, 5 counters), "
					+ "timed in one JVM with a scrape every 5,000 pages", "%.0f ns".formatted(recording), "-",
					"%.3f%% of the server's CPU per page".formatted(100 * recording / 1e6 / off.cpuPerPage()), "<= 3%",
					recording / 1e6 <= 0.03 * off.cpuPerPage());
		}
		finally {
			for (Process process : processes) {
				Launcher.stop(process);
			}
		}
	}

	/** The row of the meters' share of a metered server's CPU samples, or why it was not measured. */
	private void profileShare(long pid, URI server, URI scrape) {
		String measure = "... the meters' share of a metered server's CPU (async-profiler, 20 s of the same load, "
				+ "scraped every 10 s): samples in dev.dynamorelay.metrics and Micrometer's meters";
		if (!Processes.profilerAvailable()) {
			this.rows.row(measure, "not measured: no async-profiler (Linux x86-64 only)", "-", "-", "<= 3%", null);
		}
		else {
			try {
				double share = meterShare(pid, server, scrape);
				this.rows.row(measure, "%.2f%%".formatted(share), "-", "of the server's CPU", "<= 3%", share <= 3);
				this.rows.figure("metricsProfileShare", share);
			}
			catch (Exception ex) {
				this.rows.row(measure, "not measured: " + ex.getMessage(), "-", "-", "<= 3%", null);
			}
		}
	}

	/**
	 * Samples a metered server's CPU for 20 s under the section's load (scraped every 10 s) and returns the per
	 * cent of samples with a meter's frame on the stack: dynamo-relay's meters and Micrometer's meters and
	 * registry. Micrometer's context propagation is not counted: it runs the same with the meters off.
	 */
	private double meterShare(long pid, URI server, URI scrape) throws Exception {
		Path collapsed = Path.of("target", "bench", "metrics-profile.collapsed").toAbsolutePath();
		Files.deleteIfExists(collapsed);
		Processes.profiler(pid, "start,event=itimer,interval=1ms");
		for (int i = 0; i < 2; i++) {
			this.pageLoad.get(scrape);
			long start = System.nanoTime();
			this.pageLoad.load(server, this.bodies, start, start + Duration.ofSeconds(10).toNanos(), pid, false, PageLoad.CLIENTS);
		}
		Processes.profiler(pid, "stop,file=" + collapsed + ",collapsed");
		long all = 0;
		long meters = 0;
		for (String line : Files.readAllLines(collapsed)) {
			int space = line.lastIndexOf(' ');
			long samples = Long.parseLong(line.substring(space + 1));
			String stack = line.substring(0, space);
			all += samples;
			if (stack.contains("dev/dynamorelay/metrics/") || stack.contains("io/micrometer/core/")
					|| stack.contains("io/micrometer/prometheusmetrics/") || stack.contains("io/prometheus/")) {
				meters += samples;
			}
		}
		if (all == 0) {
			throw new IllegalStateException("no samples in " + collapsed);
		}
		return 100.0 * meters / all;
	}

}
