package dev.dynamorelay.engine.journal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import dev.dynamorelay.engine.streams.Streams;
import dev.dynamorelay.engine.streams.StreamsOptions;

/**
 * Measures, does not assert: the journal's write throughput with fsync, by writers at once, with and without
 * group commit. Run with {@code -Dengine.measure=true} (and {@code -Dengine.measure.dir=DIR} for another disk
 * than {@code target/}).
 */
@EnabledIfSystemProperty(named = "engine.measure", matches = "true")
class JournalMeasurementTest {

	@Test
	void measuresWritesAFsyncWithAndWithoutGroupCommit() throws Exception {
		Path base = Path.of(System.getProperty("engine.measure.dir", "target"));
		for (boolean group : new boolean[] { false, true }) {
			for (int writers : new int[] { 1, 4, 16, 64 }) {
				Path directory = Files.createTempDirectory(base, "journal-measure");
				ModelStore store = new ModelStore();
				Journal journal = Journal.open(directory, new JournalOptions(group, 64L << 20), store,
						new Streams(StreamsOptions.defaults()));
				store.listener(journal);
				store.describe(ModelStore.table("Items", StreamViewType.NEW_AND_OLD_IMAGES));
				ExecutorService pool = Executors.newFixedThreadPool(writers);
				long seconds = 3;
				long forces = journal.forces();
				long written = journal.written();
				long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
				List<CompletableFuture<Void>> running = new ArrayList<>();
				for (int w = 0; w < writers; w++) {
					int writer = w;
					running.add(CompletableFuture.runAsync(() -> {
						for (int n = 0; System.nanoTime() < end; n++) {
							String pk = writer + "-" + (n % 100);
							store.write("Items", pk, ModelStore.item(pk, "x".repeat(150) + n));
						}
					}, pool));
				}
				CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).join();
				pool.shutdown();
				long commits = journal.written() - written;
				long syncs = journal.forces() - forces;
				System.out.printf("group commit %-5s %2d writers: %,7.0f writes/s, %,6.0f fsyncs/s, %.1f writes an fsync%n", group,
						writers, commits / (double) seconds, syncs / (double) seconds, commits / (double) Math.max(1, syncs));
				journal.close();
			}
		}
	}

}
