package dev.dynamorelay.engine.journal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * kill -9 at any moment loses no acknowledged write: a child JVM ({@link JournalCrashChild}) writes with four
 * writers into the engine's database (and, fewer times, into the journal's test model) through the journal (snapshots every 32 KB of log, shards of 100 records), is killed with SIGKILL after
 * a random number of acknowledged writes, and is started again on the same directory, many times. After each
 * start every item holds the last version acknowledged for it, or the one after (written, not yet
 * acknowledged), and its stream records are its versions 1, 2, ... each once, in order, up to that version.
 *
 * <p>{@code -Djournal.crash.cycles=N} (default 15) and {@code -Djournal.crash.seed=S} repeat it otherwise.
 */
class JournalCrashIT {

	private static final String END = "\u0000end";

	@TempDir
	Path directory;

	@Test
	void aKilledDatabaseLosesNoAcknowledgedWrite() throws Exception {
		killAndRestart("database", Integer.getInteger("journal.crash.cycles", 15));
	}

	@Test
	void aKilledJournalOfTheTestModelLosesNoAcknowledgedWrite() throws Exception {
		killAndRestart("model", Math.max(1, Integer.getInteger("journal.crash.cycles", 15) / 3));
	}

	private void killAndRestart(String target, int cycles) throws Exception {
		long seed = Long.getLong("journal.crash.seed", System.nanoTime());
		Random random = new Random(seed);
		Map<String, Integer> acknowledged = new HashMap<>();
		long acknowledgements = 0;
		Path data = this.directory.resolve("data-" + target);
		for (int cycle = 0; cycle <= cycles; cycle++) {
			String context = "seed " + seed + ", start " + cycle;
			Child child = new Child(data, target, this.directory.resolve("stderr-" + target + "-" + cycle + ".txt"));
			try {
				Map<String, Integer> items = new HashMap<>();
				Map<String, Integer> streamed = new HashMap<>();
				for (String line = child.next(context); !line.equals("ready"); line = child.next(context)) {
					String[] parts = line.split(" ");
					switch (parts[0]) {
						case "item" -> items.put(parts[1], Integer.parseInt(parts[2]));
						case "stream" -> streamed.put(parts[1], Integer.parseInt(parts[2]));
						default -> fail(context + ": the child said " + line + child.errors());
					}
				}
				verify(context, acknowledged, items, streamed);
				// The child writes on from what it recovered: a version committed but not acknowledged before the
				// kill is the base of the next, so from now on it counts as acknowledged.
				streamed.forEach((pk, version) -> acknowledged.merge(pk, version, Math::max));
				if (cycle == cycles) {
					break;
				}
				int kill = 20 + random.nextInt(1_500);
				for (int i = 0; i < kill; i++) {
					acknowledge(child.next(context), acknowledged);
					acknowledgements++;
				}
				child.kill();
				// What the child printed before it died was acknowledged too.
				for (String line = child.next(context); !line.equals(END); line = child.next(context)) {
					acknowledge(line, acknowledged);
					acknowledgements++;
				}
			}
			finally {
				child.kill();
			}
		}
		assertThat(acknowledgements).as("writes acknowledged in all").isGreaterThan(cycles * 20L);
		System.out.println("JournalCrashIT (" + target + "): " + cycles + " kills, " + acknowledgements
				+ " acknowledged writes, seed " + seed);
	}

	private static void acknowledge(String line, Map<String, Integer> acknowledged) {
		String[] parts = line.split(" ");
		assertThat(parts[0]).as(line).isEqualTo("ack");
		acknowledged.merge(parts[1], Integer.parseInt(parts[2]), Math::max);
	}

	/** Each item at its last acknowledged version or the next; its stream records up to the same version. */
	private static void verify(String context, Map<String, Integer> acknowledged, Map<String, Integer> items,
			Map<String, Integer> streamed) {
		List<String> keys = new ArrayList<>(acknowledged.keySet());
		keys.addAll(streamed.keySet());
		keys.addAll(items.keySet());
		for (String pk : keys) {
			int last = acknowledged.getOrDefault(pk, 0);
			int version = streamed.getOrDefault(pk, 0);
			assertThat(version).as(context + ": the version of " + pk + " recovered, after " + last + " was acknowledged")
				.isBetween(last, last + 1);
			Integer expected = (version == 0 || version % 7 == 0) ? null : version;
			assertThat(items.get(pk)).as(context + ": the item " + pk + " at version " + version).isEqualTo(expected);
		}
	}

	/** A child JVM and the lines it prints, read as they come. */
	private static final class Child {

		private final Process process;

		private final Path errors;

		private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

		Child(Path data, String target, Path errors) throws IOException {
			this.errors = errors;
			String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
			this.process = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m", "-cp",
					System.getProperty("java.class.path"), JournalCrashChild.class.getName(), data.toString(), target)
				.redirectError(errors.toFile())
				.start();
			Thread reader = new Thread(() -> {
				try (BufferedReader in = new BufferedReader(new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
					for (String line = in.readLine(); line != null; line = in.readLine()) {
						this.lines.add(line);
					}
				}
				catch (IOException ex) {
					// The child is gone: what it printed is read.
				}
				this.lines.add(END);
			});
			reader.setDaemon(true);
			reader.start();
		}

		String next(String context) throws Exception {
			String line = this.lines.poll(60, TimeUnit.SECONDS);
			if (line == null) {
				fail(context + ": the child said nothing for 60 s" + errors());
			}
			if (line.equals(END) && this.process.isAlive()) {
				fail(context + ": the child closed its output" + errors());
			}
			return line;
		}

		void kill() throws InterruptedException {
			// SIGKILL on Unix: no shutdown hook, no close, no flush.
			this.process.destroyForcibly();
			this.process.waitFor(30, TimeUnit.SECONDS);
		}

		String errors() throws IOException {
			return Files.exists(this.errors) ? "\n" + Files.readString(this.errors) : "";
		}

	}

}
