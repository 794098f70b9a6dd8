package dev.dynamorelay.bench.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the benchmark reads of the processes it measures: their CPU time, a server's heap after a full GC (jcmd),
 * async-profiler's samples; and a free port for the next one.
 */
public final class Processes {

	private Processes() {
	}

	/** Heap in use after a full GC of the server, read with jcmd. */
	public static long heapUsedAfterGc(long pid) throws Exception {
		String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
		run(jcmd, Long.toString(pid), "GC.run");
		String info = run(jcmd, Long.toString(pid), "GC.heap_info");
		Matcher used = Pattern.compile("total \\d+K, used (\\d+)K").matcher(info);
		if (!used.find()) {
			throw new IllegalStateException("unexpected GC.heap_info output: " + info);
		}
		return Long.parseLong(used.group(1)) * 1024;
	}

	/**
	 * The bytes of the server's live objects, read with jcmd's class histogram, which makes a full GC first and
	 * counts what it kept. Unlike {@link #heapUsedAfterGc}, it leaves out what threads allocated since that GC:
	 * GC.heap_info counts the young regions they took whole (8 MB with 500 idle WebSocket clients pinging).
	 */
	public static long liveHeapAfterGc(long pid) throws Exception {
		String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
		String histogram = run(jcmd, Long.toString(pid), "GC.class_histogram");
		Matcher total = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$").matcher(histogram);
		if (!total.find()) {
			throw new IllegalStateException("unexpected GC.class_histogram output: " + histogram.lines().limit(5).toList());
		}
		return Long.parseLong(total.group(1));
	}

	/** Runs {@code command} and returns its output (standard error with it), waiting up to 60 s. */
	public static String run(String... command) throws Exception {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		process.waitFor(60, TimeUnit.SECONDS);
		return output;
	}

	/** Whether async-profiler is at hand ({@code ./bench/run} fetches it on Linux x86-64: {@code BENCH_PROFILER_LIB}). */
	public static boolean profilerAvailable() {
		String library = System.getenv("BENCH_PROFILER_LIB");
		return library != null && !library.isBlank();
	}

	/**
	 * Sends a command to async-profiler in the server; does nothing without it. With {@code BENCH_PROFILE=1}, the
	 * main section samples the 8-client window of a warm server into a flame graph,
	 * {@code target/bench/server-8-clients.html}; the metrics' cost samples a metered server.
	 */
	public static void profiler(long pid, String command) throws Exception {
		if (!profilerAvailable()) {
			return;
		}
		String library = System.getenv("BENCH_PROFILER_LIB");
		// Quoted, or jcmd would read the agent's own key=value options as its own.
		Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
				Long.toString(pid), "JVMTI.agent_load", library, "\"" + command + "\"")
			.redirectErrorStream(true)
			.start();
		String output = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (jcmd.waitFor() != 0 || !output.contains("return code: 0")) {
			throw new IllegalStateException("async-profiler `" + command + "` failed: " + output);
		}
	}

	public static long processCpuNanos(long pid) {
		return ProcessHandle.of(pid)
			.flatMap((process) -> process.info().totalCpuDuration())
			.orElseThrow(() -> new IllegalStateException("No CPU time for process " + pid))
			.toNanos();
	}

	public static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
