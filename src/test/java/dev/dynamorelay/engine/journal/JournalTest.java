package dev.dynamorelay.engine.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import dev.dynamorelay.engine.streams.Streams;
import dev.dynamorelay.engine.streams.StreamsOptions;

import static dev.dynamorelay.engine.journal.ModelStore.item;
import static dev.dynamorelay.engine.journal.ModelStore.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The journal against a model store: what it restores, its group commit, snapshots, torn tails and damage. */
class JournalTest {

	@TempDir
	Path directory;

	private final List<Journal> opened = new ArrayList<>();

	/** A store and its streams, journalled in {@link #directory}. */
	private final class Engine {

		final ModelStore store = new ModelStore();

		final Streams streams = new Streams(StreamsOptions.defaults());

		final Journal journal;

		Engine(JournalOptions options) throws IOException {
			this.journal = Journal.open(JournalTest.this.directory, options, this.store, this.streams);
			JournalTest.this.opened.add(this.journal);
			this.store.listener(this.journal);
		}

		Engine() throws IOException {
			this(JournalOptions.defaults());
		}

		Engine restart() throws IOException {
			this.journal.close();
			return new Engine();
		}

		List<Record> records(String table) {
			String arn = this.streams.listStreams(ListStreamsRequest.builder().tableName(table).build()).streams().get(0).streamArn();
			List<Record> records = new ArrayList<>();
			for (var shard : this.streams.describeStream(DescribeStreamRequest.builder().streamArn(arn).build())
				.streamDescription()
				.shards()) {
				String iterator = this.streams.getShardIterator(GetShardIteratorRequest.builder()
					.streamArn(arn)
					.shardId(shard.shardId())
					.shardIteratorType(ShardIteratorType.TRIM_HORIZON)
					.build()).shardIterator();
				records.addAll(this.streams.getRecords(GetRecordsRequest.builder().shardIterator(iterator).build()).records());
			}
			return records;
		}

	}

	@AfterEach
	void close() throws IOException {
		for (Journal journal : this.opened) {
			journal.close();
		}
	}

	private Path newestLog() throws IOException {
		return JournalFiles.files(this.directory, java.util.regex.Pattern.compile("log-(\\d{20})\\.log")).lastEntry().getValue();
	}

	@Test
	void restoresTablesAndItemsAfterARestart() throws IOException {
		Engine engine = new Engine();
		engine.store.describe(table("Orders", null));
		engine.store.describe(table("Gone", null));
		engine.store.write("Gone", "x", item("x", "1"));
		engine.store.drop("Gone");
		for (int i = 0; i < 100; i++) {
			engine.store.write("Orders", "k" + (i % 10), item("k" + (i % 10), "v" + i));
		}
		engine.store.write("Orders", "k3", null);
		TableDescription changed = table("Orders", null).toBuilder().itemCount(9L).build();
		engine.store.describe(changed);
		Map<String, Object> before = engine.store.contents();

		Engine restarted = engine.restart();

		assertThat(restarted.store.contents()).isEqualTo(before);
		assertThat(restarted.store.get("Orders", "k3")).isNull();
		assertThat(restarted.store.get("Orders", "k4")).isEqualTo(item("k4", "v94"));
		// And it goes on writing, and recovering, from there.
		restarted.store.write("Orders", "k3", item("k3", "back"));
		assertThat(restarted.restart().store.get("Orders", "k3")).isEqualTo(item("k3", "back"));
	}

	@Test
	void aSnapshotBoundsTheLogAndRecoveryReadsItThenTheLogAfterIt() throws IOException {
		Engine engine = new Engine();
		engine.store.describe(table("Orders", StreamViewType.NEW_AND_OLD_IMAGES));
		for (int i = 0; i < 50; i++) {
			engine.store.write("Orders", "k" + (i % 7), item("k" + (i % 7), "v" + i));
		}
		engine.journal.snapshot().join();
		for (int i = 50; i < 80; i++) {
			engine.store.write("Orders", "k" + (i % 7), item("k" + (i % 7), "v" + i));
		}
		Map<String, Object> before = engine.store.contents();
		List<Record> records = engine.records("Orders");

		Engine restarted = engine.restart();

		assertThat(JournalFiles.files(this.directory, java.util.regex.Pattern.compile("snapshot-(\\d{20})\\.snap"))).hasSize(1);
		assertThat(JournalFiles.files(this.directory, java.util.regex.Pattern.compile("log-(\\d{20})\\.log")))
			.as("the log before the snapshot is deleted")
			.hasSize(2);
		assertThat(restarted.store.contents()).isEqualTo(before);
		// The stream records come back as they were: the same sequence numbers, eventIDs, images.
		assertThat(records).hasSize(80);
		assertThat(restarted.records("Orders")).isEqualTo(records);
	}

	@Test
	void streamRecordsContinueAfterARestartWithTheirNumbers() throws IOException {
		Engine engine = new Engine();
		engine.store.describe(table("Orders", StreamViewType.KEYS_ONLY));
		engine.store.write("Orders", "a", item("a", "1"));
		List<Record> first = engine.records("Orders");

		Engine restarted = engine.restart();
		restarted.store.write("Orders", "b", item("b", "1"));

		List<Record> records = restarted.records("Orders");
		assertThat(records.get(0)).isEqualTo(first.get(0));
		assertThat(records.get(1).dynamodb().sequenceNumber()).isGreaterThan(first.get(0).dynamodb().sequenceNumber());
	}

	@Test
	void writersWaitingTogetherShareOneForce() throws Exception {
		Engine engine = new Engine();
		engine.store.describe(table("Orders", null));
		long forcesBefore = engine.journal.forces();
		CountDownLatch gathered = new CountDownLatch(1);
		engine.journal.beforeBatch(() -> {
			try {
				gathered.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		List<CompletableFuture<Void>> writes = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			writes.add(engine.store.writeAsync("Orders", "k" + i, item("k" + i, "v")));
		}
		assertThat(writes).noneMatch(CompletableFuture::isDone);
		gathered.countDown();
		CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);

		assertThat(engine.journal.forces() - forcesBefore).isEqualTo(1);
	}

	@Test
	void withoutGroupCommitEachWriteIsForcedAlone() throws Exception {
		Engine engine = new Engine(new JournalOptions(false, 64L << 20));
		engine.store.describe(table("Orders", null));
		long forcesBefore = engine.journal.forces();
		CountDownLatch gathered = new CountDownLatch(1);
		engine.journal.beforeBatch(() -> {
			try {
				gathered.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		List<CompletableFuture<Void>> writes = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			writes.add(engine.store.writeAsync("Orders", "k" + i, item("k" + i, "v")));
		}
		gathered.countDown();
		CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);

		assertThat(engine.journal.forces() - forcesBefore).isEqualTo(50);
	}

	@Test
	void snapshotsTakenWhileWritersWriteLoseNothing() throws Exception {
		Engine engine = new Engine(new JournalOptions(true, 4_096));
		engine.store.describe(table("Orders", StreamViewType.NEW_IMAGE));
		ExecutorService pool = Executors.newFixedThreadPool(6);
		try {
			List<CompletableFuture<Void>> writers = new ArrayList<>();
			for (int w = 0; w < 6; w++) {
				writers.add(CompletableFuture.runAsync(() -> {
					for (int n = 0; n < 400; n++) {
						String pk = "k" + ThreadLocalRandom.current().nextInt(60);
						boolean delete = ThreadLocalRandom.current().nextInt(10) == 0;
						engine.store.write("Orders", pk, delete ? null : item(pk, Integer.toString(n)));
						if (n % 100 == 0) {
							engine.journal.snapshot();
						}
					}
				}, pool));
			}
			CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		}
		finally {
			pool.shutdown();
		}
		engine.journal.snapshot().join();
		Map<String, Object> before = engine.store.contents();
		List<Record> records = engine.records("Orders");

		Engine restarted = engine.restart();

		assertThat(restarted.store.contents()).isEqualTo(before);
		assertThat(restarted.records("Orders")).isEqualTo(records);
	}

	@Test
	void aTornLastFrameIsCutOffAndTheRestRecovered() throws IOException {
		Engine engine = new Engine();
		engine.store.describe(table("Orders", null));
		for (int i = 0; i < 20; i++) {
			engine.store.write("Orders", "k" + i, item("k" + i, "v"));
		}
		Map<String, Object> before = engine.store.contents();
		engine.journal.close();
		Path log = newestLog();
		byte[] bytes = Files.readAllBytes(log);
		// A frame the crash cut short: the first 30 bytes of a copy of the last 60 bytes.
		byte[] torn = java.util.Arrays.copyOfRange(bytes, bytes.length - 60, bytes.length - 30);
		Files.write(log, torn, StandardOpenOption.APPEND);

		Engine restarted = new Engine();

		assertThat(restarted.store.contents()).isEqualTo(before);
		assertThat(Files.size(log)).isEqualTo(bytes.length);
	}

	@Test
	void zerosAfterTheLastFrameAreATornTail() throws IOException {
		Engine engine = new Engine();
		engine.store.describe(table("Orders", null));
		engine.store.write("Orders", "a", item("a", "v"));
		Map<String, Object> before = engine.store.contents();
		engine.journal.close();
		Files.write(newestLog(), new byte[4096], StandardOpenOption.APPEND);

		assertThat(new Engine().store.contents()).isEqualTo(before);
	}

	@Test
	void aDamagedRecordFollowedByIntactOnesStopsTheStart() throws IOException {
		Engine engine = new Engine();
		engine.store.describe(table("Orders", null));
		for (int i = 0; i < 20; i++) {
			engine.store.write("Orders", "k" + i, item("k" + i, "v"));
		}
		engine.journal.close();
		Path log = newestLog();
		byte[] bytes = Files.readAllBytes(log);
		int middle = bytes.length / 2;
		bytes[middle] ^= 0x40;
		Files.write(log, bytes);

		assertThatThrownBy(Engine::new).isInstanceOf(JournalDamagedException.class)
			.hasMessageContaining("The journal in " + this.directory + " is damaged: " + log.getFileName()
					+ " has a damaged record at byte ")
			.hasMessageContaining("followed by intact ones")
			.hasMessageContaining("Move " + this.directory + " aside");
	}

	@Test
	void missingEntriesStopTheStart() throws IOException {
		Engine engine = new Engine();
		engine.store.describe(table("Orders", null));
		engine.store.write("Orders", "a", item("a", "v"));
		engine = engine.restart();
		engine.store.write("Orders", "b", item("b", "v"));
		engine = engine.restart();
		engine.store.write("Orders", "c", item("c", "v"));
		engine.journal.close();
		TreeMap<Long, Path> logs = JournalFiles.files(this.directory, java.util.regex.Pattern.compile("log-(\\d{20})\\.log"));
		Files.delete(logs.higherEntry(logs.firstKey()).getValue());

		assertThatThrownBy(Engine::new).isInstanceOf(JournalDamagedException.class).hasMessageContaining("lacks the entries");
	}

	@Test
	void aDamagedSnapshotStopsTheStart() throws IOException {
		Engine engine = new Engine();
		engine.store.describe(table("Orders", null));
		for (int i = 0; i < 20; i++) {
			engine.store.write("Orders", "k" + i, item("k" + i, "v" + i));
		}
		engine.journal.snapshot().join();
		engine.journal.close();
		Path snapshot = JournalFiles.files(this.directory, java.util.regex.Pattern.compile("snapshot-(\\d{20})\\.snap")).lastEntry().getValue();
		byte[] bytes = Files.readAllBytes(snapshot);
		bytes[bytes.length - 40] ^= 1;
		Files.write(snapshot, bytes);

		assertThatThrownBy(Engine::new).isInstanceOf(JournalDamagedException.class)
			.hasMessageContaining(snapshot.getFileName() + " fails its checks");
	}

	@Test
	void logFilesBeforeTheSnapshotThatACrashLeftAreNotReplayedAgain() throws IOException {
		Engine engine = new Engine();
		engine.store.describe(table("Orders", StreamViewType.NEW_IMAGE));
		for (int i = 0; i < 10; i++) {
			engine.store.write("Orders", "k" + i, item("k" + i, "v"));
		}
		Path beforeSnapshot = newestLog();
		byte[] kept = Files.readAllBytes(beforeSnapshot);
		engine.journal.snapshot().join();
		engine.store.write("Orders", "k0", item("k0", "after"));
		Map<String, Object> before = engine.store.contents();
		List<Record> records = engine.records("Orders");
		engine.journal.close();
		// A crash between the snapshot's rename and the deletion of the log before it.
		assertThat(beforeSnapshot).doesNotExist();
		Files.write(beforeSnapshot, kept);

		Engine restarted = new Engine();

		assertThat(restarted.store.contents()).isEqualTo(before);
		assertThat(restarted.records("Orders")).isEqualTo(records).hasSize(11);
	}

	@Test
	void aSecondEngineOnTheSameDirectoryIsRefused() throws IOException {
		new Engine();

		assertThatThrownBy(Engine::new).isInstanceOf(IOException.class)
			.hasMessage("Another engine uses " + this.directory + " (it holds " + this.directory.resolve("lock") + ")");
	}

	@Test
	void anInterruptedSnapshotIsForgotten() throws IOException {
		Engine engine = new Engine();
		engine.store.describe(table("Orders", null));
		engine.store.write("Orders", "a", item("a", "v"));
		Map<String, Object> before = engine.store.contents();
		engine.journal.close();
		Path temporary = this.directory.resolve(JournalFiles.snapshotName(1) + ".tmp");
		Files.write(temporary, new byte[] { 1, 2, 3 });

		assertThat(new Engine().store.contents()).isEqualTo(before);
		assertThat(temporary).doesNotExist();
	}

	/** Gives every journal file of the directory the magic number of format 01, the one before this engine's. */
	private Map<Path, byte[]> asFormat01() throws IOException {
		Map<Path, byte[]> files = new TreeMap<>();
		try (var listed = Files.list(this.directory)) {
			for (Path file : (Iterable<Path>) listed::iterator) {
				String name = file.getFileName().toString();
				if (name.endsWith(".log") || name.endsWith(".snap")) {
					byte[] bytes = Files.readAllBytes(file);
					assertThat(new String(bytes, 0, 8, java.nio.charset.StandardCharsets.US_ASCII)).endsWith("02");
					bytes[6] = '0';
					bytes[7] = '1';
					Files.write(file, bytes);
					files.put(file, bytes);
				}
			}
		}
		return files;
	}

	private Map<Path, byte[]> journalFiles() throws IOException {
		Map<Path, byte[]> files = new TreeMap<>();
		try (var listed = Files.list(this.directory)) {
			for (Path file : (Iterable<Path>) listed::iterator) {
				String name = file.getFileName().toString();
				if (name.endsWith(".log") || name.endsWith(".snap")) {
					files.put(file, Files.readAllBytes(file));
				}
			}
		}
		return files;
	}

	@Test
	void aDirectoryOfTheFormerFormatIsRefusedAndLeftAsItIs() throws IOException {
		Engine engine = new Engine();
		engine.store.describe(table("Orders", StreamViewType.NEW_IMAGE));
		engine.store.write("Orders", "a", item("a", "v"));
		engine.journal.snapshot().join();
		engine.store.write("Orders", "b", item("b", "v"));
		engine.journal.close();
		Map<Path, byte[]> former = asFormat01();
		Path snapshot = JournalFiles.files(this.directory, java.util.regex.Pattern.compile("snapshot-(\\d{20})\\.snap")).lastEntry().getValue();

		assertThatThrownBy(Engine::new).isInstanceOf(JournalFormatException.class)
			.hasMessage("The journal in " + this.directory + " was written in format 01 (" + snapshot.getFileName()
					+ "); this engine reads format 02 only, and converts no other. Move " + this.directory
					+ " aside (or delete it) to start anew.");
		assertThat(journalFiles()).containsOnlyKeys(former.keySet());
		former.forEach((file, bytes) -> assertThat(file).hasBinaryContent(bytes));
	}

	@Test
	void aNewestLogOfTheFormerFormatIsNotTakenForAHeaderACrashCutShort() throws IOException {
		Engine engine = new Engine();
		engine.store.describe(table("Orders", null));
		engine.store.write("Orders", "a", item("a", "v"));
		engine.journal.close();
		Path log = newestLog();
		Map<Path, byte[]> former = asFormat01();

		assertThatThrownBy(Engine::new).isInstanceOf(JournalFormatException.class)
			.hasMessageContaining("was written in format 01 (" + log.getFileName() + "); this engine reads format 02");
		assertThat(log).hasBinaryContent(former.get(log));
	}

}
