package dev.dynamorelay.engine.journal;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.store.CommitListener;
import dev.dynamorelay.engine.store.ItemChange;
import dev.dynamorelay.engine.streams.Streams;
import dev.dynamorelay.engine.value.ByteSink;
import dev.dynamorelay.engine.value.ByteSource;
import dev.dynamorelay.engine.value.ItemCodec;

/**
 * The engine's durability with {@code --path DIR}: a write-ahead log of every commit and table change, forced to
 * disk before the operation answers, and snapshots that bound the log a start replays. It is the store's
 * {@link CommitListener}, and tells the {@link Streams} of each commit in the log's own order, so that a snapshot
 * holds the stream records exactly as of its position and the records are kept across restarts too.
 *
 * <p>Writing: a commit's entry is encoded by the writer's thread, numbered and queued under a short lock; one
 * thread writes what is queued as one frame and forces it ({@code fsync}), then completes the futures of every
 * entry in it: writers that commit while a force is under way share the next one (group commit).
 *
 * <p>Snapshots, in the background when {@link JournalOptions#snapshotBytes} of log were written since the last:
 * at position P (taken under the lock, with the streams' checkpoint), the log goes on in a new file from P; the
 * store's tables and items are read while writes go on (each item as of one moment), written to a temporary file,
 * forced, renamed into place, and the log files before P deleted. Replaying from P sets each item to a state it had
 * after P, whatever the snapshot read, since entries carry whole images.
 *
 * <p>Recovery, at {@link #open}: the newest snapshot, then every entry of the log from its position. A torn last
 * frame of the newest log file (a crash while it was written: none of it was acknowledged) is cut off; a damaged
 * frame anywhere else, or followed by an intact one, or entries missing, stop the start with a
 * {@link JournalDamagedException}.
 *
 * <p>The store must have made a change visible before it tells the journal of it (still under the change's
 * locks), so that a snapshot started after it finds it.
 */
public final class Journal implements CommitListener, Closeable {

	private static final Logger logger = LoggerFactory.getLogger(Journal.class);

	/**
	 * The version of the files' format, the last two characters of their magic numbers. 02: items, keys and images
	 * in the engine's one binary form of items ({@code ItemCodec}); 01 (never released) had the streams' own.
	 */
	static final String FORMAT = "02";

	private static final String LOG_PREFIX = "DRJLOG";

	private static final String SNAPSHOT_PREFIX = "DRJSNP";

	private static final byte[] LOG_MAGIC = (LOG_PREFIX + FORMAT).getBytes(StandardCharsets.US_ASCII);

	private static final byte[] SNAPSHOT_MAGIC = (SNAPSHOT_PREFIX + FORMAT).getBytes(StandardCharsets.US_ASCII);

	private static final int FILE_HEADER = 16;

	private static final Pattern LOG_FILE = Pattern.compile("log-(\\d{20})\\.log");

	private static final Pattern SNAPSHOT_FILE = Pattern.compile("snapshot-(\\d{20})\\.snap");

	private static final byte SNAPSHOT_TABLE = 1;

	private static final byte SNAPSHOT_ITEM = 2;

	private static final byte SNAPSHOT_STREAMS = 3;

	private static final byte SNAPSHOT_END = 4;

	private final Path directory;

	private final JournalOptions options;

	private final JournalledStore store;

	private final Streams streams;

	private final FileChannel lockFile;

	private final FileLock directoryLock;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition queued = this.lock.newCondition();

	/** Entries to write, in the order of their numbers; guarded by {@link #lock}. */
	private List<Entry> queue = new ArrayList<>();

	/** The next entry's number; guarded by {@link #lock}. */
	private long next;

	/** Guarded by {@link #lock}. */
	private boolean closing;

	/** Set once a write or force failed: the journal takes nothing more. */
	private volatile IOException failure;

	private final Thread flusher;

	/** The log file being written, and where it starts; the flusher's own. */
	private FileChannel segment;

	private long segmentBytes;

	private final ByteSink frame = new ByteSink(1 << 16);

	private final ExecutorService snapshotter;

	private final AtomicReference<CompletableFuture<Void>> snapshot = new AtomicReference<>(CompletableFuture.completedFuture(null));

	private final AtomicLong forces = new AtomicLong();

	/** Run by the flusher when entries wait, before it takes them: a test holds it to gather a batch. */
	private volatile Runnable beforeBatch = () -> {
	};

	private final AtomicLong written = new AtomicLong();

	/** One entry of the log (or, without bytes, the start of a new log file at its number). */
	private record Entry(long number, byte[] bytes, CompletableFuture<Void> done) {

		boolean rotation() {
			return this.bytes == null;
		}

	}

	private Journal(Path directory, JournalOptions options, JournalledStore store, Streams streams, FileChannel lockFile,
			FileLock directoryLock, long next) throws IOException {
		this.directory = directory;
		this.options = options;
		this.store = store;
		this.streams = streams;
		this.lockFile = lockFile;
		this.directoryLock = directoryLock;
		this.next = next;
		openSegment(next);
		this.flusher = new Thread(this::flush, "journal-flush");
		this.flusher.setDaemon(true);
		this.flusher.start();
		this.snapshotter = Executors.newSingleThreadExecutor((task) -> {
			Thread thread = new Thread(task, "journal-snapshot");
			thread.setDaemon(true);
			return thread;
		});
	}

	/**
	 * Recovers the store and the streams from {@code directory} (created if missing), then journals every commit
	 * from there on. The directory is locked: a second engine on it is refused.
	 * @throws JournalDamagedException when the files hold damage no crash makes
	 * @throws IOException when the directory cannot be used
	 */
	public static Journal open(Path directory, JournalOptions options, JournalledStore store, Streams streams)
			throws IOException {
		FileChannel lockFile;
		try {
			Files.createDirectories(directory);
			lockFile = FileChannel.open(directory.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
		}
		catch (java.nio.file.FileAlreadyExistsException ex) {
			throw new IOException("Cannot keep the journal in " + directory + ": it is not a directory", ex);
		}
		catch (java.nio.file.AccessDeniedException ex) {
			throw new IOException("Cannot keep the journal in " + directory + ": permission denied (" + ex.getFile() + ")", ex);
		}
		catch (IOException ex) {
			throw new IOException("Cannot keep the journal in " + directory + ": " + ex, ex);
		}
		FileLock directoryLock;
		try {
			directoryLock = lockFile.tryLock();
		}
		catch (OverlappingFileLockException ex) {
			directoryLock = null;
		}
		if (directoryLock == null) {
			lockFile.close();
			throw new IOException("Another engine uses " + directory + " (it holds " + directory.resolve("lock") + ")");
		}
		try {
			Recovery recovery = new Recovery(directory, store, streams);
			long next = recovery.run();
			Journal journal = new Journal(directory, options, store, streams, lockFile, directoryLock, next);
			logger.trace("Journal {} recovered: snapshot at {}, {} entries replayed, next entry {}", directory,
					recovery.snapshotPosition, recovery.replayed, next);
			if (recovery.replayedBytes >= options.snapshotBytes()) {
				journal.snapshot();
			}
			return journal;
		}
		catch (IOException | RuntimeException ex) {
			directoryLock.release();
			lockFile.close();
			throw ex;
		}
	}

	// ---------------------------------------------------------------------------------------------------------
	// Writing

	@Override
	public CompletableFuture<Void> committed(Instant time, List<ItemChange> changes) {
		return append(LogCodec.commit(time, changes), () -> this.streams.committed(time, changes));
	}

	@Override
	public CompletableFuture<Void> tableChanged(Instant time, TableDescription description, boolean deleted) {
		TimeToLiveDescription timeToLive = deleted ? null : this.store.timeToLive(description.tableName());
		return append(LogCodec.table(time, description, deleted, timeToLive),
				() -> this.streams.tableChanged(time, description, deleted));
	}

	/** Numbers and queues an entry, and tells the streams, under the lock: the log's order is the streams'. */
	private CompletableFuture<Void> append(byte[] bytes, Runnable inOrder) {
		CompletableFuture<Void> done = new CompletableFuture<>();
		this.lock.lock();
		try {
			// The change is in the store already: the streams hear of it even when it cannot be made durable.
			inOrder.run();
			if (this.failure != null || this.closing) {
				return CompletableFuture.failedFuture(unwritable());
			}
			this.queue.add(new Entry(this.next++, bytes, done));
			this.queued.signal();
		}
		finally {
			this.lock.unlock();
		}
		return done;
	}

	private AwsError unwritable() {
		IOException cause = this.failure;
		return AwsError.internal((cause != null) ? "The journal cannot write to " + this.directory + ": " + cause.getMessage()
				: "The journal of " + this.directory + " is closed");
	}

	/** The flusher: writes what is queued, a frame at a time, each forced before its writers hear of it. */
	private void flush() {
		while (true) {
			boolean empty;
			this.lock.lock();
			try {
				while (this.queue.isEmpty() && !this.closing) {
					this.queued.awaitUninterruptibly();
				}
				empty = this.queue.isEmpty();
			}
			finally {
				this.lock.unlock();
			}
			if (empty) {
				return;
			}
			this.beforeBatch.run();
			List<Entry> batch;
			this.lock.lock();
			try {
				batch = this.queue;
				this.queue = new ArrayList<>();
			}
			finally {
				this.lock.unlock();
			}
			int from = 0;
			while (from < batch.size()) {
				Entry first = batch.get(from);
				if (first.rotation()) {
					rotate(first);
					from++;
					continue;
				}
				int to = from + 1;
				int end = this.options.groupCommit() ? batch.size() : to;
				while (to < end && !batch.get(to).rotation()) {
					to++;
				}
				write(batch.subList(from, to));
				from = to;
			}
		}
	}

	/** One frame of entries, written and forced; then their writers hear of it. */
	private void write(List<Entry> entries) {
		if (this.failure != null) {
			entries.forEach((entry) -> entry.done().completeExceptionally(unwritable()));
			return;
		}
		ByteSink payload = this.frame;
		payload.reset();
		payload.writeLong(entries.get(0).number());
		payload.writeVarLong(entries.size());
		for (Entry entry : entries) {
			payload.writeByteArray(entry.bytes());
		}
		try {
			byte[] header = Frames.header(payload.array(), 0, payload.length());
			ByteBuffer[] buffers = { ByteBuffer.wrap(header), ByteBuffer.wrap(payload.array(), 0, payload.length()) };
			long length = header.length + payload.length();
			long wrote = 0;
			while (wrote < length) {
				wrote += this.segment.write(buffers);
			}
			this.segment.force(false);
			this.forces.incrementAndGet();
			this.written.addAndGet(entries.size());
			this.segmentBytes += length;
		}
		catch (IOException ex) {
			failed(ex);
			entries.forEach((entry) -> entry.done().completeExceptionally(unwritable()));
			return;
		}
		entries.forEach((entry) -> entry.done().complete(null));
		if (this.segmentBytes >= this.options.snapshotBytes() && this.snapshot.get().isDone()) {
			snapshot();
		}
	}

	private void rotate(Entry rotation) {
		try {
			if (this.failure != null) {
				throw this.failure;
			}
			this.segment.force(true);
			this.segment.close();
			openSegment(rotation.number());
			rotation.done().complete(null);
		}
		catch (IOException ex) {
			failed(ex);
			rotation.done().completeExceptionally(ex);
		}
	}

	private void failed(IOException ex) {
		if (this.failure == null) {
			this.failure = ex;
			logger.error("The journal in {} cannot write, and takes no more writes: {}", this.directory, ex.toString());
		}
	}

	/** A new log file whose entries start at {@code first}: its header forced, its name in the directory too. */
	private void openSegment(long first) throws IOException {
		Path path = this.directory.resolve(logName(first));
		FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
				StandardOpenOption.WRITE);
		ByteBuffer header = ByteBuffer.allocate(FILE_HEADER).put(LOG_MAGIC).putLong(first).flip();
		while (header.hasRemaining()) {
			channel.write(header);
		}
		channel.force(true);
		forceDirectory(this.directory);
		this.segment = channel;
		this.segmentBytes = 0;
	}

	// ---------------------------------------------------------------------------------------------------------
	// Snapshots

	/** Writes a snapshot in the background (or joins the one under way); completes once it is in place. */
	public CompletableFuture<Void> snapshot() {
		while (true) {
			CompletableFuture<Void> running = this.snapshot.get();
			if (!running.isDone()) {
				return running;
			}
			CompletableFuture<Void> started = new CompletableFuture<>();
			if (this.snapshot.compareAndSet(running, started)) {
				this.snapshotter.execute(() -> {
					try {
						writeSnapshot();
						started.complete(null);
					}
					catch (Throwable ex) {
						logger.warn("Writing a snapshot of {} failed (the log keeps everything): {}", this.directory, ex.toString());
						started.completeExceptionally(ex);
					}
				});
				return started;
			}
		}
	}

	private void writeSnapshot() throws IOException {
		long position;
		Streams.Checkpoint checkpoint;
		CompletableFuture<Void> rotated = new CompletableFuture<>();
		this.lock.lock();
		try {
			if (this.closing || this.failure != null) {
				throw new IOException("the journal is closing or failed");
			}
			position = this.next;
			checkpoint = this.streams.checkpoint();
			this.queue.add(new Entry(position, null, rotated));
			this.queued.signal();
		}
		finally {
			this.lock.unlock();
		}
		rotated.join();
		Path temporary = this.directory.resolve(snapshotName(position) + ".tmp");
		try (FileOutputStream file = new FileOutputStream(temporary.toFile())) {
			file.write(ByteBuffer.allocate(FILE_HEADER).put(SNAPSHOT_MAGIC).putLong(position).array());
			DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new Frames.Output(file, 1 << 20), 1 << 16));
			try {
				for (TableDescription table : this.store.tables()) {
					out.writeByte(SNAPSHOT_TABLE);
					writeBytes(out, LogCodec.json(table));
					TimeToLiveDescription timeToLive = this.store.timeToLive(table.tableName());
					out.writeBoolean(timeToLive != null);
					if (timeToLive != null) {
						writeBytes(out, LogCodec.json(timeToLive));
					}
					this.store.forEachItem(table.tableName(), (item) -> {
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
		Files.move(temporary, this.directory.resolve(snapshotName(position)), StandardCopyOption.ATOMIC_MOVE);
		forceDirectory(this.directory);
		// The older snapshots and log files are no longer needed; the oldest go first, so that a crash between
		// leaves a log that still follows on from what remains.
		for (Map.Entry<Long, Path> old : files(this.directory, SNAPSHOT_FILE).entrySet()) {
			if (old.getKey() < position) {
				Files.deleteIfExists(old.getValue());
			}
		}
		for (Map.Entry<Long, Path> old : files(this.directory, LOG_FILE).entrySet()) {
			if (old.getKey() < position) {
				Files.deleteIfExists(old.getValue());
			}
		}
		logger.trace("Snapshot of {} written at entry {}", this.directory, position);
	}

	private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
		out.writeInt(bytes.length);
		out.write(bytes);
	}

	private static byte[] readBytes(DataInputStream in) throws IOException {
		int length = in.readInt();
		if (length < 0 || length > Frames.MAX_PAYLOAD) {
			throw new IOException("impossible length " + length);
		}
		byte[] bytes = new byte[length];
		in.readFully(bytes);
		return bytes;
	}

	// ---------------------------------------------------------------------------------------------------------
	// Closing and figures

	/**
	 * Writes and forces what is queued, waits for a snapshot under way, and releases the directory; a second call
	 * does nothing.
	 */
	@Override
	public void close() throws IOException {
		this.lock.lock();
		try {
			if (this.closing) {
				return;
			}
			this.closing = true;
			this.queued.signal();
		}
		finally {
			this.lock.unlock();
		}
		try {
			this.flusher.join();
			this.snapshot.get().handle((done, failure) -> null).join();
			this.snapshotter.shutdown();
			this.snapshotter.awaitTermination(1, TimeUnit.MINUTES);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		try {
			this.segment.force(true);
			this.segment.close();
		}
		finally {
			this.directoryLock.release();
			this.lockFile.close();
		}
	}

	/** For tests: what the flusher runs when entries wait, before it takes them. */
	void beforeBatch(Runnable action) {
		this.beforeBatch = action;
	}

	/** How many times the log was forced to disk. */
	public long forces() {
		return this.forces.get();
	}

	/** How many entries were written and forced. */
	public long written() {
		return this.written.get();
	}

	// ---------------------------------------------------------------------------------------------------------
	// Files

	static String logName(long first) {
		return String.format("log-%020d.log", first);
	}

	static String snapshotName(long position) {
		return String.format("snapshot-%020d.snap", position);
	}

	/** The directory's files whose names match, by the number in their name. */
	static TreeMap<Long, Path> files(Path directory, Pattern name) throws IOException {
		TreeMap<Long, Path> files = new TreeMap<>();
		try (Stream<Path> listed = Files.list(directory)) {
			for (Path path : (Iterable<Path>) listed::iterator) {
				Matcher matcher = name.matcher(path.getFileName().toString());
				if (matcher.matches()) {
					files.put(Long.parseLong(matcher.group(1)), path);
				}
			}
		}
		return files;
	}

	/** Makes the directory's entries (a file created, renamed) durable. */
	static void forceDirectory(Path directory) throws IOException {
		try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
			channel.force(true);
		}
		catch (IOException ex) {
			// Some systems cannot open a directory as a file; there, a rename is as durable as they make it.
			if (!System.getProperty("os.name", "").startsWith("Windows")) {
				throw ex;
			}
		}
	}

	// ---------------------------------------------------------------------------------------------------------
	// Recovery

	/** Puts the store and the streams back as the newest snapshot and the log after it say. */
	private static final class Recovery implements LogCodec.Replay {

		private final Path directory;

		private final JournalledStore store;

		private final Streams streams;

		long snapshotPosition;

		long replayed;

		long replayedBytes;

		Recovery(Path directory, JournalledStore store, Streams streams) {
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

}
