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

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

import dev.dynamorelay.engine.store.Database;
import dev.dynamorelay.engine.store.DatabaseOptions;
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


	@Test
	void measuresRecoveryFromTheLogAndFromASnapshot() throws Exception {
		Path base = Path.of(System.getProperty("engine.measure.dir", "target"));
		int items = 100_000;
		for (boolean snapshot : new boolean[] { false, true }) {
			Path directory = Files.createTempDirectory(base, "journal-recovery");
			Database database = new Database(DatabaseOptions.defaults().withTimeToLiveSweep(java.time.Duration.ZERO));
			Journal journal = DatabaseJournal.open(directory, new JournalOptions(true, Long.MAX_VALUE), database,
					new Streams(StreamsOptions.defaults()));
			database.createTable(CreateTableRequest.builder()
				.tableName("Items")
				.billingMode(BillingMode.PAY_PER_REQUEST)
				.attributeDefinitions(AttributeDefinition.builder().attributeName("pk").attributeType("S").build())
				.keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build())
				.streamSpecification((stream) -> stream.streamEnabled(true).streamViewType("NEW_IMAGE"))
				.build());
			ExecutorService pool = Executors.newFixedThreadPool(32);
			List<CompletableFuture<Void>> writes = new ArrayList<>();
			for (int w = 0; w < 32; w++) {
				int writer = w;
				writes.add(CompletableFuture.runAsync(() -> {
					for (int i = writer; i < items; i += 32) {
						database.putItem(PutItemRequest.builder()
							.tableName("Items")
							.item(java.util.Map.of("pk", AttributeValue.fromS("item-" + i), "data", AttributeValue.fromS("x".repeat(180))))
							.build());
					}
				}, pool));
			}
			CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
			pool.shutdown();
			if (snapshot) {
				long start = System.nanoTime();
				journal.snapshot().join();
				System.out.printf("snapshot of %,d items (and their %,d stream records): %,d ms%n", items, items,
						(System.nanoTime() - start) / 1_000_000);
			}
			journal.close();
			database.close();
			long bytes;
			try (var files = Files.list(directory)) {
				bytes = files.mapToLong((file) -> file.toFile().length()).sum();
			}
			Database again = new Database(DatabaseOptions.defaults().withTimeToLiveSweep(java.time.Duration.ZERO));
			long start = System.nanoTime();
			Journal reopened = DatabaseJournal.open(directory, new JournalOptions(true, Long.MAX_VALUE), again,
					new Streams(StreamsOptions.defaults()));
			long elapsed = System.nanoTime() - start;
			long count = again.describeTable(DescribeTableRequest.builder().tableName("Items").build()).table().itemCount();
			System.out.printf("recovery of %,d items from %s (%,d MB on disk): %,d ms%n", count,
					snapshot ? "a snapshot" : "the log alone", bytes >> 20, elapsed / 1_000_000);
			reopened.close();
			again.close();
		}
	}

}
