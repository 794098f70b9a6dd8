package dev.dynamorelay.bench.abuse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.Processes;
import dev.dynamorelay.bench.support.Stats;

/**
 * The server's memory in the abuse section: its heap after a full GC, its resident set and threads, and its class
 * histogram, before any attack, at the start, at half the window and at the end; and the rows that compare them.
 */
final class ServerMemory {

	private final Bench bench;

	private final long pid;

	ServerMemory(Bench bench, long pid) {
		this.bench = bench;
		this.pid = pid;
	}

	/**
	 * The server's memory now, after a full GC; {@code name} non-null also keeps its class histogram in
	 * {@code target/bench/abuse-histogram-<name>.txt}.
	 */
	Memory read(String name) throws Exception {
		long heap = Processes.heapUsedAfterGc(this.pid);
		Memory resident = resident();
		Map<String, long[]> histogram = new LinkedHashMap<>();
		String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
		String text = Processes.run(jcmd, Long.toString(this.pid), "GC.class_histogram");
		Files.writeString(Path.of("target", "bench", "abuse-histogram-" + name + ".txt"), text);
		Matcher line = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)", Pattern.MULTILINE).matcher(text);
		while (line.find()) {
			histogram.put(line.group(3), new long[] { Long.parseLong(line.group(1)), Long.parseLong(line.group(2)) });
		}
		return new Memory(heap, resident.rss(), resident.threads(), histogram);
	}

	/** The server's resident set and threads now, from /proc/PID/status; no heap figure. */
	Memory resident() throws IOException {
		Map<String, String> status = status(this.pid);
		return new Memory(-1, Long.parseLong(status.get("VmRSS").replaceAll("[^0-9]", "")) * 1024,
				Long.parseLong(status.get("Threads").trim()), Map.of());
	}

	/** The server's heap and RSS rows, with what grew most from the start to half the window and to the end. */
	void rows(Memory before, Memory start, Memory middle, Memory end) {
		double heapRatio = (double) end.heap() / start.heap();
		this.bench.row("abuse: server heap after GC at the end vs at the start (after a first %d s of attacks)"
			.formatted(Abuse.FIRST_ROUND.toSeconds()), Stats.mb(end.heap()), Stats.mb(start.heap()),
				"%.2fx; %s before any attack".formatted(heapRatio, Stats.mb(before.heap())),
				"<= 1.10x", heapRatio <= 1.10);
		double rssRatio = (double) end.rss() / start.rss();
		this.bench.row("abuse: server RSS (VmRSS) at the end vs at the start", Stats.mb(end.rss()), Stats.mb(start.rss()),
				"%.2fx; %s before any attack, %s at half the window; threads %d, %d, %s, %d".formatted(rssRatio,
						Stats.mb(before.rss()), (middle == null) ? "not read" : Stats.mb(middle.rss()), before.threads(),
						start.threads(), (middle == null) ? "-" : Long.toString(middle.threads()), end.threads()),
				"<= 1.10x", rssRatio <= 1.10);
		grown("before any attack to the start", before, start);
		grown("the start to the end", start, end);
	}

	/** Prints the classes whose instances after GC grew most in bytes from {@code from} to {@code to}. */
	private static void grown(String between, Memory from, Memory to) {
		List<Map.Entry<String, Long>> grown = new ArrayList<>();
		to.histogram().forEach((type, counts) -> grown
			.add(Map.entry(type, counts[1] - from.histogram().getOrDefault(type, new long[2])[1])));
		grown.sort(Map.Entry.<String, Long>comparingByValue().reversed());
		System.out.printf("  heap after GC, what grew most from %s (target/bench/abuse-histogram-*.txt):%n", between);
		for (Map.Entry<String, Long> each : grown.subList(0, Math.min(6, grown.size()))) {
			System.out.printf("    %+,.1f KB  %s (%,d -> %,d instances)%n", each.getValue() / 1024.0, each.getKey(),
					from.histogram().getOrDefault(each.getKey(), new long[2])[0], to.histogram().get(each.getKey())[0]);
		}
	}

	private static Map<String, String> status(long pid) throws IOException {
		Map<String, String> status = new LinkedHashMap<>();
		for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
			int colon = line.indexOf(':');
			if (colon > 0) {
				status.put(line.substring(0, colon), line.substring(colon + 1).trim());
			}
		}
		return status;
	}

}
