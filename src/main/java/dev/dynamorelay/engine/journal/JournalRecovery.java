package dev.dynamorelay.engine.journal;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;

import dev.dynamorelay.engine.store.ItemChange;
import dev.dynamorelay.engine.streams.Streams;
import dev.dynamorelay.engine.value.ByteSource;
import dev.dynamorelay.engine.value.ItemCodec;

import static dev.dynamorelay.engine.journal.JournalFiles.FORMAT;
import static dev.dynamorelay.engine.journal.JournalFiles.LOG_PREFIX;
import static dev.dynamorelay.engine.journal.JournalFiles.SNAPSHOT_PREFIX;
import static dev.dynamorelay.engine.journal.JournalFiles.LOG_MAGIC;
import static dev.dynamorelay.engine.journal.JournalFiles.SNAPSHOT_MAGIC;
import static dev.dynamorelay.engine.journal.JournalFiles.FILE_HEADER;
import static dev.dynamorelay.engine.journal.JournalFiles.LOG_FILE;
import static dev.dynamorelay.engine.journal.JournalFiles.SNAPSHOT_FILE;
import static dev.dynamorelay.engine.journal.JournalFiles.SNAPSHOT_TABLE;
import static dev.dynamorelay.engine.journal.JournalFiles.SNAPSHOT_ITEM;
import static dev.dynamorelay.engine.journal.JournalFiles.SNAPSHOT_STREAMS;
import static dev.dynamorelay.engine.journal.JournalFiles.SNAPSHOT_END;
import static dev.dynamorelay.engine.journal.JournalFiles.files;
import static dev.dynamorelay.engine.journal.JournalFiles.readBytes;

/**
 * Recovery at the journal's open: puts the store and the streams back as the newest snapshot and the log after it
 * say, deleting what a crash left unfinished (a snapshot's temporary file, a log file without its header, a torn
 * last frame) and refusing any other damage with a {@link JournalDamagedException}.
 */
final class JournalRecovery implements LogCodec.Replay {

	/** The journal's own logger: recovery is a part of the journal to whoever reads the log. */
	private static final Logger logger = LoggerFactory.getLogger(Journal.class);

	private final Path directory;

	private final JournalledStore store;

	private final Streams streams;

	long snapshotPosition;

	long replayed;

	long replayedBytes;

	JournalRecovery(Path directory, JournalledStore store, Streams streams) {
		this.directory = directory;
		this.store = store;
		this.streams = streams;
	}

	/** Recovers; returns the number the next entry takes. */
	long run() throws IOException {
		try (Stream<Path> listed = Files.list(this.directory)) {
			for (Path path : (Iterable<Path>) listed::iterator) {
				if (path.getFileName().toString().endsWith(".tmp")) {
					// A snapshot a crash interrupted: it was never in place.
					Files.delete(path);
				}
			}
		}
		TreeMap<Long, Path> snapshots = files(this.directory, SNAPSHOT_FILE);
		TreeMap<Long, Path> logs = files(this.directory, LOG_FILE);
		// Before anything is read or cut: a file of another format would otherwise read as damage, or (the newest
		// log) as a header a crash left unwritten, and be deleted.
		for (Path file : snapshots.values()) {
			checkFormat(file, SNAPSHOT_PREFIX);
		}
		for (Path file : logs.values()) {
			checkFormat(file, LOG_PREFIX);
		}
		if (!snapshots.isEmpty()) {
			this.snapshotPosition = snapshots.lastKey();
			loadSnapshot(snapshots.lastEntry().getValue(), this.snapshotPosition);
		}
		long expected = -1;
		for (Map.Entry<Long, Path> log : logs.entrySet()) {
			boolean newest = log.getKey().equals(logs.lastKey());
			expected = replayLog(log.getValue(), log.getKey(), newest, expected);
		}
		return Math.max(expected, this.snapshotPosition);
	}

	/** Refuses a file whose magic number is the journal's, of another format version. */
	private void checkFormat(Path file, String prefix) throws IOException {
		byte[] magic;
		try (InputStream in = Files.newInputStream(file)) {
			magic = in.readNBytes(8);
		}
		String text = new String(magic, StandardCharsets.ISO_8859_1);
		if (magic.length == 8 && text.startsWith(prefix) && !text.endsWith(FORMAT)) {
			throw new JournalFormatException("The journal in " + this.directory + " was written in format "
					+ text.substring(prefix.length()) + " (" + file.getFileName() + "); this engine reads format " + FORMAT
					+ " only, and converts no other. Move " + this.directory + " aside (or delete it) to start anew.");
		}
	}

	private JournalDamagedException damaged(Path file, String what) {
		return new JournalDamagedException("The journal in " + this.directory + " is damaged: " + file.getFileName() + " "
				+ what + ". Acknowledged writes past it cannot be recovered, so the engine does not start. Move "
				+ this.directory + " aside (or restore it from a copy) to start anew.");
	}

	private void loadSnapshot(Path path, long position) throws IOException {
		try (InputStream raw = Files.newInputStream(path)) {
			byte[] header = raw.readNBytes(FILE_HEADER);
			if (header.length < FILE_HEADER || !Arrays.equals(header, 0, 8, SNAPSHOT_MAGIC, 0, 8)
					|| ByteBuffer.wrap(header, 8, 8).getLong() != position) {
				throw damaged(path, "does not start as a snapshot of entry " + position + " does");
			}
			DataInputStream in = new DataInputStream(
					new BufferedInputStream(new Frames.Input(raw, path.getFileName().toString(), FILE_HEADER), 1 << 16));
			String table = null;
			while (true) {
				int type;
				try {
					type = in.readUnsignedByte();
				}
				catch (EOFException ex) {
					throw damaged(path, "ends before its end");
				}
				switch (type) {
					case SNAPSHOT_TABLE -> {
						TableDescription description = LogCodec.fromJson(readBytes(in), TableDescription::builder);
						TimeToLiveDescription timeToLive = in.readBoolean()
								? LogCodec.fromJson(readBytes(in), TimeToLiveDescription::builder) : null;
						this.store.restoreTable(description, timeToLive);
						table = description.tableName();
					}
					case SNAPSHOT_ITEM -> {
						if (table == null) {
							throw damaged(path, "holds an item before any table");
						}
						ByteSource bytes = new ByteSource(readBytes(in));
						Map<String, AttributeValue> item = ItemCodec.readAttributes(bytes);
						if (!bytes.atEnd()) {
							throw damaged(path, "holds an item with bytes after its end");
						}
						this.store.restoreItem(table, item);
					}
					case SNAPSHOT_STREAMS -> this.streams.restore(in);
					case SNAPSHOT_END -> {
						return;
					}
					default -> throw damaged(path, "holds a part of unknown type " + type);
				}
			}
		}
		catch (JournalDamagedException ex) {
			if (ex.getMessage().startsWith("The journal in ")) {
				throw ex;
			}
			throw damaged(path, "fails its checks (" + ex.getMessage() + ")");
		}
		catch (EOFException | IllegalArgumentException ex) {
			throw damaged(path, "holds what is no snapshot (" + ex.getMessage() + ")");
		}
	}

	/** Replays one log file; returns the number the entry after its last takes. */
	private long replayLog(Path path, long first, boolean newest, long expected) throws IOException {
		byte[] bytes = Files.readAllBytes(path);
		if (bytes.length < FILE_HEADER || !Arrays.equals(bytes, 0, 8, LOG_MAGIC, 0, 8)
				|| ByteBuffer.wrap(bytes, 8, 8).getLong() != first) {
			if (newest) {
				// Created when a crash came, before its header was forced: nothing in it was acknowledged.
				Files.delete(path);
				return expected;
			}
			throw damaged(path, "does not start as a log file of entries from " + first + " does");
		}
		int at = FILE_HEADER;
		while (at < bytes.length) {
			int length = Frames.intactAt(bytes, at, bytes.length);
			if (length < 0) {
				if (newest && !Frames.anyIntactFrom(bytes, at + 1, bytes.length)) {
					// The frame being written when the process died: none of it was acknowledged.
					try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
						channel.truncate(at);
						channel.force(true);
					}
					logger.trace("Journal {}: cut a torn frame of {} bytes off {}", this.directory, bytes.length - at,
							path.getFileName());
					break;
				}
				throw damaged(path, "has a damaged record at byte " + at
						+ (newest ? " followed by intact ones" : " (and it is not the newest log file)"));
			}
			int payload = at + Frames.HEADER;
			ByteSource source = new ByteSource(bytes, payload, length);
			try {
				long number = source.readLong();
				long count = source.readVarLong();
				if (expected >= 0 && number != expected) {
					throw damaged(path, "lacks the entries " + expected + " to " + (number - 1) + " (byte " + at + ")");
				}
				if (expected < 0 && number > this.snapshotPosition) {
					throw damaged(path, "lacks the entries " + this.snapshotPosition + " to " + (number - 1)
							+ " after the snapshot");
				}
				for (long i = 0; i < count; i++) {
					int size = source.readVarint();
					int offset = source.position();
					source.skip(size);
					if (number + i >= this.snapshotPosition) {
						LogCodec.replay(bytes, offset, size, this);
						this.replayed++;
						this.replayedBytes += size;
					}
				}
				expected = number + count;
			}
			catch (IllegalArgumentException ex) {
				throw damaged(path, "has a record at byte " + at + " that cannot be read (" + ex.getMessage() + ")");
			}
			at = payload + length;
		}
		return expected;
	}

	@Override
	public void committed(Instant time, List<ItemChange> changes) {
		for (ItemChange change : changes) {
			if (change.newImage() != null) {
				this.store.restoreItem(change.table(), change.newImage());
			}
			else {
				this.store.restoreRemoval(change.table(), change.key());
			}
		}
		this.streams.committed(time, changes);
	}

	@Override
	public void tableChanged(Instant time, TableDescription description, boolean deleted,
			TimeToLiveDescription timeToLive) {
		if (deleted) {
			this.store.restoreDeletion(description.tableName());
		}
		else {
			this.store.restoreTable(description, timeToLive);
		}
		this.streams.tableChanged(time, description, deleted);
	}

}
