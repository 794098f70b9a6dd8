package dev.dynamorelay.engine.journal;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;

import dev.dynamorelay.engine.streams.Streams;
import dev.dynamorelay.engine.value.ByteSink;
import dev.dynamorelay.engine.value.ItemCodec;

import static dev.dynamorelay.engine.journal.JournalFiles.SNAPSHOT_MAGIC;
import static dev.dynamorelay.engine.journal.JournalFiles.FILE_HEADER;
import static dev.dynamorelay.engine.journal.JournalFiles.LOG_FILE;
import static dev.dynamorelay.engine.journal.JournalFiles.SNAPSHOT_FILE;
import static dev.dynamorelay.engine.journal.JournalFiles.SNAPSHOT_TABLE;
import static dev.dynamorelay.engine.journal.JournalFiles.SNAPSHOT_ITEM;
import static dev.dynamorelay.engine.journal.JournalFiles.SNAPSHOT_STREAMS;
import static dev.dynamorelay.engine.journal.JournalFiles.SNAPSHOT_END;
import static dev.dynamorelay.engine.journal.JournalFiles.snapshotName;
import static dev.dynamorelay.engine.journal.JournalFiles.files;
import static dev.dynamorelay.engine.journal.JournalFiles.forceDirectory;
import static dev.dynamorelay.engine.journal.JournalFiles.writeBytes;

/**
 * Writes a snapshot of the store's tables and items and of the streams' checkpoint as of a log position, to a
 * temporary file that is forced and renamed into place, then deletes the older snapshots and log files it makes
 * unneeded. The store is read while writes go on: each item as of one moment, any state it had after the position
 * (replaying the log from the position sets every item right, since entries carry whole images).
 */
final class SnapshotWriter {

	private SnapshotWriter() {
	}

	/** Writes the snapshot of {@code position} in {@code directory}, in place once this returns. */
	static void write(Path directory, JournalledStore store, long position, Streams.Checkpoint checkpoint) throws IOException {
		Path temporary = directory.resolve(snapshotName(position) + ".tmp");
		try (FileOutputStream file = new FileOutputStream(temporary.toFile())) {
			file.write(ByteBuffer.allocate(FILE_HEADER).put(SNAPSHOT_MAGIC).putLong(position).array());
			DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new Frames.Output(file, 1 << 20), 1 << 16));
			writeTables(out, store);
			out.writeByte(SNAPSHOT_STREAMS);
			Streams.write(checkpoint, out);
			out.writeByte(SNAPSHOT_END);
			out.flush();
			file.getFD().sync();
		}
		catch (IOException | RuntimeException ex) {
			Files.deleteIfExists(temporary);
			throw ex;
		}
		Files.move(temporary, directory.resolve(snapshotName(position)), StandardCopyOption.ATOMIC_MOVE);
		forceDirectory(directory);
		// The older snapshots and log files are no longer needed; the oldest go first, so that a crash between
		// leaves a log that still follows on from what remains.
		for (Map.Entry<Long, Path> old : files(directory, SNAPSHOT_FILE).entrySet()) {
			if (old.getKey() < position) {
				Files.deleteIfExists(old.getValue());
			}
		}
		for (Map.Entry<Long, Path> old : files(directory, LOG_FILE).entrySet()) {
			if (old.getKey() < position) {
				Files.deleteIfExists(old.getValue());
			}
		}
	}

	/** Each table (its description and time to live), followed by its items. */
	private static void writeTables(DataOutputStream out, JournalledStore store) throws IOException {
		try {
			for (TableDescription table : store.tables()) {
				out.writeByte(SNAPSHOT_TABLE);
				writeBytes(out, LogCodec.json(table));
				TimeToLiveDescription timeToLive = store.timeToLive(table.tableName());
				out.writeBoolean(timeToLive != null);
				if (timeToLive != null) {
					writeBytes(out, LogCodec.json(timeToLive));
				}
				store.forEachItem(table.tableName(), (item) -> {
					try {
						out.writeByte(SNAPSHOT_ITEM);
						ByteSink bytes = new ByteSink(256);
						ItemCodec.writeAttributes(bytes, item);
						writeBytes(out, bytes.toByteArray());
					}
					catch (IOException ex) {
						throw new UncheckedIOException(ex);
					}
				});
			}
		}
		catch (UncheckedIOException ex) {
			throw ex.getCause();
		}
	}

}
