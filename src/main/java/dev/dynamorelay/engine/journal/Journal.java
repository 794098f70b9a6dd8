package dev.dynamorelay.engine.journal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.store.CommitListener;
import dev.dynamorelay.engine.store.ItemChange;
import dev.dynamorelay.engine.streams.Streams;
import dev.dynamorelay.engine.value.ByteSink;

import static dev.dynamorelay.engine.journal.JournalFiles.LOG_MAGIC;
import static dev.dynamorelay.engine.journal.JournalFiles.FILE_HEADER;
import static dev.dynamorelay.engine.journal.JournalFiles.logName;
import static dev.dynamorelay.engine.journal.JournalFiles.forceDirectory;

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
 *
 * <p>This class is the writer; the files' names and format are {@link JournalFiles}', recovery is
 * {@link JournalRecovery}'s and a snapshot's file {@link SnapshotWriter}'s.
 */
public final class Journal implements CommitListener, Closeable {

	private static final Logger logger = LoggerFactory.getLogger(Journal.class);

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
			JournalRecovery recovery = new JournalRecovery(directory, store, streams);
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
		SnapshotWriter.write(this.directory, this.store, position, checkpoint);
		logger.trace("Snapshot of {} written at entry {}", this.directory, position);
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

}
