package dev.dynamorelay.bench.pages;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.Clients;

import static dev.dynamorelay.bench.support.GraphQl.body;
import static dev.dynamorelay.bench.support.GraphQl.vars;
import static dev.dynamorelay.bench.support.Processes.processCpuNanos;
import static dev.dynamorelay.bench.support.Processes.profiler;
import static dev.dynamorelay.bench.support.Stats.percentile;

/**
 * Throughput and p99 of random 50-edge pages at 1, 8 and 32 clients, with the CPU per page at 8 of the server, of
 * the engine and of the load generator (each a process of its own), beside the raw ceiling: the same Query from 8
 * clients of the benchmark's SDK client.
 */
final class Throughput {

	private final Bench bench;

	private final long serverPid;

	Throughput(Bench bench, long serverPid) {
		this.bench = bench;
		this.serverPid = serverPid;
	}

	void run(List<String> cursors, String category, QueryRequest raw) throws Exception {
		for (int clients : new int[] { 1, 8, 32 }) {
			System.out.printf("Throughput with %d concurrent clients ...%n", clients);
			double[] result = throughput(clients, Duration.ofSeconds(8), cursors, category);
			this.bench.row("%d concurrent clients: pages/s, p99".formatted(clients), "%.0f pages/s".formatted(result[0]),
					"p99 %.2f ms".formatted(result[1]), "-",
					(clients == 8) ? ">= 1,000 pages/s on 2 cores" : "-", (clients == 8) ? result[0] >= 1000 : null);
			if (clients == 8) {
				cpuRows(result);
			}
		}
		double rawThroughput = rawThroughput(8, Duration.ofSeconds(5), raw);
		this.bench.row("8 concurrent raw SDK Queries (Limit 51) on the same engine", "-",
				"%.0f queries/s".formatted(rawThroughput), "-", "the ceiling the engine leaves", null);
	}

	/** The CPU per page at 8 clients: the server's, the engine's and the load generator's. */
	private void cpuRows(double[] result) {
		// The server and the engine share the 2 cores here; against DynamoDB proper only the server's
		// CPU counts.
		double serverCapacity = 2000 / result[2];
		this.bench.row("... CPU per page at 8 clients: server process / the engine's process",
				"%.2f ms".formatted(result[2]), "%.2f ms".formatted(result[3]),
				"%.0f pages/s on 2 cores of its own".formatted(serverCapacity), "-", null);
		double total = result[2] + result[3] + result[4];
		// The benchmark JVM's own GC and JIT count as the load generator's; the sum of all three is exact.
		this.bench.row("... CPU per page at 8 clients: load generator (the benchmark JVM) / all three",
				"%.2f ms".formatted(result[4]),
				"%.2f ms".formatted(total), "%.0f pages/s with 2 cores fully busy".formatted(2000 / total),
				"-", null);
		this.bench.figures.put("serverCpuMsPerPage", result[2]);
		this.bench.figures.put("dynamoDbCpuMsPerPage", result[3]);
		this.bench.figures.put("loadGeneratorCpuMsPerPage", result[4]);
	}

	/** Pages/s, p99 ms, and the server's, the engine's and the load generator's CPU ms per page over the measured window. */
	private double[] throughput(int clients, Duration duration, List<String> cursors, String category)
			throws Exception {
		long warmEnd = System.nanoTime() + Duration.ofSeconds(2).toNanos();
		long end = warmEnd + duration.toNanos();
		long serverCpu;
		long benchCpu;
		long dynamoDbCpu;
		List<byte[]> bodies = cursors.stream().map((cursor) -> body(Bench.PAGE, vars("c", category, "a", cursor))).toList();
		List<Double> all = new ArrayList<>();
		String profile = System.getenv("BENCH_PROFILE");
		boolean profiled = clients == 8 && profile != null && !profile.isBlank();
		try (Clients<List<Double>> running = Clients.start(clients, (client) -> () -> {
				List<Double> latencies = new ArrayList<>();
				ThreadLocalRandom random = ThreadLocalRandom.current();
				while (true) {
					long now = System.nanoTime();
					if (now > end) {
						return latencies;
					}
					this.bench.postPage(bodies.get(random.nextInt(bodies.size())));
					if (now > warmEnd) {
						latencies.add((System.nanoTime() - now) / 1e6);
					}
				}
			})) {
			if (profiled) {
				profiler(this.serverPid, "start,event=itimer,interval=1ms");
			}
			TimeUnit.NANOSECONDS.sleep(warmEnd - System.nanoTime());
			serverCpu = processCpuNanos(this.serverPid);
			benchCpu = processCpuNanos(ProcessHandle.current().pid());
			dynamoDbCpu = processCpuNanos(this.bench.dynamoDbPid());
			running.join().forEach(all::addAll);
		}
		serverCpu = processCpuNanos(this.serverPid) - serverCpu;
		if (profiled) {
			profiler(this.serverPid, "stop,file=" + Path.of("target", "bench", "server-8-clients.html").toAbsolutePath());
		}
		benchCpu = processCpuNanos(ProcessHandle.current().pid()) - benchCpu;
		long dynamoDbCpuUsed = processCpuNanos(this.bench.dynamoDbPid()) - dynamoDbCpu;
		double[] latencies = all.stream().mapToDouble(Double::doubleValue).toArray();
		if (latencies.length == 0) {
			throw new IllegalStateException("no page completed in the measured window");
		}
		// This JVM is the load generator (with its GC and JIT); the engine and the server are processes of their own.
		return new double[] { latencies.length / (duration.toNanos() / 1e9), percentile(latencies, 99),
				serverCpu / 1e6 / latencies.length, dynamoDbCpuUsed / 1e6 / latencies.length,
				benchCpu / 1e6 / latencies.length };
	}

	private double rawThroughput(int clients, Duration duration, QueryRequest raw) throws Exception {
		long end = System.nanoTime() + duration.toNanos();
		try (Clients<Integer> running = Clients.start(clients, (client) -> () -> {
			int count = 0;
			while (System.nanoTime() < end) {
				this.bench.dynamoDb().query(raw).join();
				count++;
			}
			return count;
		})) {
			return running.join().stream().mapToInt(Integer::intValue).sum() / (duration.toNanos() / 1e9);
		}
	}

}
