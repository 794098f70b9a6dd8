package dev.dynamorelay.bench.live;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.Processes;
import dev.dynamorelay.bench.support.Subscriber;
import dev.dynamorelay.bench.support.Stats;

/**
 * The heap one idle subscriber holds in the server: its live objects after a full GC (jcmd's class histogram) with
 * {@value #IDLE_SUBSCRIBERS} idle subscribers (each on a user and a connection of its own) minus without any; the server's CPU and threads meanwhile; and the
 * same subscriptions on 10 connections, which tells the connection's part from the subscription's.
 */
final class IdleHeap {

	/** The target for the heap of one idle subscriber. */
	private static final double HEAP_PER_SUBSCRIBER_KB = 20;

	private static final int IDLE_SUBSCRIBERS = 1_000;

	private final Live live;

	private final Bench bench;

	private final long serverPid;

	private final Duration window;

	IdleHeap(Live live, Bench bench, long serverPid, Duration window) {
		this.live = live;
		this.bench = bench;
		this.serverPid = serverPid;
		this.window = window;
	}

	/**
	 * The heap one idle subscriber holds in the server: its live objects after a full GC (jcmd's class histogram)
	 * with {@value #IDLE_SUBSCRIBERS} idle subscribers (each on a user of its own, each on a connection of its own)
	 * minus without any; the server's CPU meanwhile; the same subscriptions on 10 connections (100 each), which tells
	 * the connection's part from the subscription's. The classes that grew most with the 1,000 connections go to
	 * {@code target/bench/live-idle-heap.txt}.
	 */
	void run() throws Exception {
		System.out.printf("  heap of %,d idle subscribers ...%n", IDLE_SUBSCRIBERS);
		this.live.awaitSubscribers(0);
		Thread.sleep(2_000);
		Map<String, long[]> before = histogram();
		long without = total(before);
		long usedWithout = Processes.heapUsedAfterGc(this.serverPid);
		long threadsWithout = threads();
		long with;
		long usedWith;
		long threadsWith;
		double idleCpu;
		Map<String, long[]> after;
		List<Subscriber> subscribers = this.live.open(IDLE_SUBSCRIBERS, 1, IDLE_SUBSCRIBERS);
		try {
			Thread.sleep(2_000);
			after = histogram();
			with = total(after);
			usedWith = Processes.heapUsedAfterGc(this.serverPid);
			threadsWith = threads();
			Duration quiet = Duration.ofSeconds(Math.min(10, this.window.toSeconds()));
			long cpu = Processes.processCpuNanos(this.serverPid);
			Thread.sleep(quiet.toMillis());
			idleCpu = (Processes.processCpuNanos(this.serverPid) - cpu) / 1e6 / (quiet.toNanos() / 1e9);
		}
		finally {
			this.live.close(subscribers);
		}
		Thread.sleep(2_000);
		long withoutAgain = Processes.liveHeapAfterGc(this.serverPid);
		long shared;
		List<Subscriber> multiplexed = this.live.open(10, IDLE_SUBSCRIBERS / 10, IDLE_SUBSCRIBERS);
		try {
			Thread.sleep(2_000);
			shared = Processes.liveHeapAfterGc(this.serverPid);
		}
		finally {
			this.live.close(multiplexed);
		}
		double perSubscriber = (with - without) / 1024.0 / IDLE_SUBSCRIBERS;
		double perSubscription = (shared - withoutAgain) / 1024.0 / IDLE_SUBSCRIBERS;
		double usedPerSubscriber = (usedWith - usedWithout) / 1024.0 / IDLE_SUBSCRIBERS;
		this.bench.row("live: server heap per idle subscriber (%,d idle, one connection each, live objects after GC, minus none)"
			.formatted(IDLE_SUBSCRIBERS), "%.1f KB".formatted(perSubscriber), "-",
				"%s with, %s without (GC.heap_info's used: %.1f KB a subscriber); server threads %d with, %d without"
					.formatted(Stats.mb(with), Stats.mb(without), usedPerSubscriber, threadsWith, threadsWithout),
				"< %.0f KB".formatted(HEAP_PER_SUBSCRIBER_KB), perSubscriber < HEAP_PER_SUBSCRIBER_KB);
		this.bench.row("... the same %,d subscriptions on 10 connections (100 each): heap per subscription"
			.formatted(IDLE_SUBSCRIBERS), "%.1f KB".formatted(perSubscription), "-",
				"%s with, %s without; a connection's own part about %.0f KB".formatted(Stats.mb(shared),
						Stats.mb(withoutAgain), (perSubscriber - perSubscription) * IDLE_SUBSCRIBERS / (IDLE_SUBSCRIBERS - 10)),
				"-", null);
		this.bench.row("... server CPU with %,d idle subscribers (one connection each)".formatted(IDLE_SUBSCRIBERS),
				"%.1f ms/s".formatted(idleCpu), "-", "%.1f%% of a core".formatted(idleCpu / 10), "-", null);
		this.bench.figures.put("liveHeapPerIdleSubscriberKb", perSubscriber);
		this.bench.figures.put("liveHeapUsedPerIdleSubscriberKb", usedPerSubscriber);
		this.bench.figures.put("liveHeapPerIdleSubscriptionKb", perSubscription);
		this.bench.figures.put("liveIdleServerCpuMsPerSecond", idleCpu);
		grown(before, after);
	}

	/** The server's threads now (Linux: /proc/PID/status), or -1. */
	private long threads() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc", Long.toString(this.serverPid), "status"))) {
				if (line.startsWith("Threads:")) {
					return Long.parseLong(line.substring("Threads:".length()).trim());
				}
			}
		}
		catch (IOException | NumberFormatException ex) {
			// Not Linux: no count.
		}
		return -1;
	}

	/** The server's classes by name: instances and bytes (jcmd GC.class_histogram, after a full GC). */
	private Map<String, long[]> histogram() throws Exception {
		String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
		String text = Processes.run(jcmd, Long.toString(this.serverPid), "GC.class_histogram");
		Map<String, long[]> classes = new HashMap<>();
		Matcher line = Pattern.compile("(?m)^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)")
			.matcher(text);
		while (line.find()) {
			// A name two class loaders both loaded is one row here.
			classes.merge(line.group(3), new long[] { Long.parseLong(line.group(1)), Long.parseLong(line.group(2)) },
					(a, b) -> new long[] { a[0] + b[0], a[1] + b[1] });
		}
		return classes;
	}

	/** The bytes of all the classes of a histogram: the live objects after its full GC. */
	private static long total(Map<String, long[]> histogram) {
		return histogram.values().stream().mapToLong((counts) -> counts[1]).sum();
	}

	/** The classes that grew most between two histograms, to {@code target/bench/live-idle-heap.txt}. */
	private void grown(Map<String, long[]> before, Map<String, long[]> after) throws IOException {
		List<Map.Entry<String, long[]>> growth = new ArrayList<>();
		after.forEach((name, counts) -> {
			long[] was = before.getOrDefault(name, new long[2]);
			growth.add(Map.entry(name, new long[] { counts[0] - was[0], counts[1] - was[1] }));
		});
		growth.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
		StringBuilder text = new StringBuilder("The server's classes that grew most with %,d idle subscribers (one connection each), after GC:%n"
			.formatted(IDLE_SUBSCRIBERS));
		text.append("%12s %14s  %s%n".formatted("instances", "bytes", "class"));
		for (Map.Entry<String, long[]> each : growth.subList(0, Math.min(30, growth.size()))) {
			text.append("%+12d %+14d  %s%n".formatted(each.getValue()[0], each.getValue()[1], each.getKey()));
		}
		Path file = Path.of("target", "bench", "live-idle-heap.txt");
		Files.writeString(file, text);
		System.out.print(text.toString().lines().limit(8).map((line) -> "  " + line + "\n").reduce("", String::concat));
		System.out.println("  (the 30 largest in " + file + ")");
	}

}
