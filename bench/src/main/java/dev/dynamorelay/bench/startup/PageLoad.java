package dev.dynamorelay.bench.startup;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntConsumer;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;

import dev.dynamorelay.bench.support.GraphQl;

/**
 * The start-up section's load generator: {@value #CLIENTS} clients of random pages at a server for a window, with
 * their latencies, the server's CPU and its JIT compiler threads' and GC's shares of it; servers loaded in turns.
 */
final class PageLoad {

	/** Clients of a page at once. */
	static final int CLIENTS = 8;

	private static final byte[] PAGE_START = "{\"data\":{\"purchasesByCategory\":{\"edges\":[{\"cursor\":\""
		.getBytes(StandardCharsets.UTF_8);

	private static final byte[] ERRORS = "\"errors\"".getBytes(StandardCharsets.UTF_8);

	private final CloseableHttpClient http = GraphQl.httpClient();

	/**
	 * For four servers of two kinds, A B A B, loaded in turns: how far apart two servers of one kind are, the
	 * larger CPU per page over the smaller, the larger of the two kinds.
	 */
	static double alike(Window[] sums) {
		double a = Math.max(sums[0].cpuPerPage(), sums[2].cpuPerPage()) / Math.min(sums[0].cpuPerPage(), sums[2].cpuPerPage());
		double b = Math.max(sums[1].cpuPerPage(), sums[3].cpuPerPage()) / Math.min(sums[1].cpuPerPage(), sums[3].cpuPerPage());
		return Math.max(a, b);
	}

	/**
	 * Loads each server alone for {@code warmUp}, then all of them in turns: {@code rounds} rounds of 10 s each,
	 * each round in a rotated order, {@code before} run ahead of a server's window. Returns each server's windows
	 * summed.
	 */
	Window[] inTurns(List<URI> servers, long[] pids, List<byte[]> bodies, Duration warmUp, int rounds,
			IntConsumer before) throws Exception {
		for (int i = 0; i < servers.size(); i++) {
			load(servers.get(i), bodies, System.nanoTime(), System.nanoTime() + warmUp.toNanos(), pids[i], true, CLIENTS);
		}
		Window[] sums = new Window[servers.size()];
		Arrays.fill(sums, Window.NONE);
		for (int round = 0; round < rounds; round++) {
			for (int k = 0; k < servers.size(); k++) {
				int i = (round + k) % servers.size();
				before.accept(i);
				long start = System.nanoTime();
				sums[i] = sums[i].plus(load(servers.get(i), bodies, start, start + Duration.ofSeconds(10).toNanos(), pids[i],
						false, CLIENTS));
			}
		}
		return sums;
	}

	/**
	 * {@code clients} clients of random pages until {@code to}; with {@code untilUp}, a failed request (the
	 * server not listening yet) is retried after 10 ms rather than failing the run.
	 */
	Window load(URI graphql, List<byte[]> pages, long from, long to, long pid, boolean untilUp, int clients)
			throws Exception {
		long cpuAtStart = cpu(pid);
		long[] kindsAtStart = cpuByKind(pid);
		ExecutorService pool = Executors.newFixedThreadPool(clients);
		List<Future<double[]>> results = new ArrayList<>();
		long[] first = { Long.MAX_VALUE };
		try {
			for (int c = 0; c < clients; c++) {
				results.add(pool.submit(() -> client(graphql, pages, to, untilUp, first)));
			}
			List<double[]> all = new ArrayList<>();
			for (Future<double[]> result : results) {
				all.add(result.get());
			}
			long cpuUsed = cpu(pid) - cpuAtStart;
			long[] kinds = cpuByKind(pid);
			double[] latencies = all.stream().flatMapToDouble(Arrays::stream).toArray();
			if (latencies.length == 0) {
				throw new IllegalStateException("no page in the window");
			}
			return new Window(latencies.length, latencies, to - from, cpuUsed, first[0], kinds[0] - kindsAtStart[0],
					kinds[1] - kindsAtStart[1]);
		}
		finally {
			pool.shutdownNow();
		}
	}

	/**
	 * One client: random pages back to back until {@code to}, their latencies (ms) within the window, the first answer's
	 * time into {@code first}.
	 */
	private double[] client(URI graphql, List<byte[]> pages, long to, boolean untilUp, long[] first)
			throws InterruptedException {
		double[] latencies = new double[1024];
		int count = 0;
		ThreadLocalRandom random = ThreadLocalRandom.current();
		while (true) {
			long now = System.nanoTime();
			if (now >= to) {
				return Arrays.copyOf(latencies, count);
			}
			byte[] body = pages.get(random.nextInt(pages.size()));
			try {
				byte[] answer = post(graphql, body);
				if (!GraphQl.startsWith(answer, PAGE_START) || GraphQl.indexOf(answer, ERRORS) >= 0) {
					throw new IllegalStateException("not a page: " + new String(answer, StandardCharsets.UTF_8));
				}
			}
			catch (RuntimeException ex) {
				if (!untilUp || count > 0) {
					throw ex;
				}
				Thread.sleep(10);
				continue;
			}
			long done = System.nanoTime();
			if (done <= to) {
				synchronized (first) {
					first[0] = Math.min(first[0], done);
				}
				if (count == latencies.length) {
					latencies = Arrays.copyOf(latencies, count * 2);
				}
				latencies[count++] = (done - now) / 1e6;
			}
		}
	}

	private static long cpu(long pid) {
		return ProcessHandle.of(pid).flatMap((process) -> process.info().totalCpuDuration()).map(Duration::toNanos)
			.orElse(0L);
	}

	/**
	 * CPU nanoseconds of the process's JIT compiler threads and of its GC and VM threads, from
	 * {@code /proc/PID/task} (Linux; zeros elsewhere). Threads that ended are not counted: compiler threads
	 * the JVM stops when idle lose their time, so the JIT's share is a lower bound.
	 */
	private static long[] cpuByKind(long pid) {
		long[] kinds = new long[2];
		Path tasks = Path.of("/proc", Long.toString(pid), "task");
		if (!Files.isDirectory(tasks)) {
			return kinds;
		}
		long tick = 10_000_000L; // USER_HZ is 100 on Linux
		try (var threads = Files.list(tasks)) {
			for (Path thread : threads.toList()) {
				try {
					String name = Files.readString(thread.resolve("comm")).trim();
					String stat = Files.readString(thread.resolve("stat"));
					String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
					long nanos = (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * tick;
					if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
						kinds[0] += nanos;
					}
					else if (name.startsWith("GC ") || name.startsWith("G1 ") || name.equals("VM Thread")) {
						kinds[1] += nanos;
					}
				}
				catch (IOException | RuntimeException ex) {
					// the thread ended meanwhile
				}
			}
		}
		catch (IOException ex) {
			return kinds;
		}
		return kinds;
	}

	byte[] post(URI uri, byte[] body) {
		HttpPost request = new HttpPost(uri);
		request.setEntity(new ByteArrayEntity(body, ContentType.APPLICATION_JSON));
		try {
			return this.http.execute(request, (response) -> {
				byte[] bytes = EntityUtils.toByteArray(response.getEntity());
				if (response.getCode() != 200) {
					throw new IllegalStateException("HTTP " + response.getCode());
				}
				return bytes;
			});
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	String get(URI uri) {
		try {
			return this.http.execute(new HttpGet(uri), (response) -> EntityUtils.toString(response.getEntity()));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
