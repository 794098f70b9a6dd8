package dev.dynamorelay.command.export;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.command.cli.Commands;
import dev.dynamorelay.error.InvalidCursorException;
import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.pagination.ConnectionQuery;
import dev.dynamorelay.pagination.ConnectionRead;
import dev.dynamorelay.pagination.CursorBinding;
import dev.dynamorelay.pagination.CursorCodec;
import dev.dynamorelay.pagination.Paginator;
import dev.dynamorelay.pagination.Position;

/**
 * One run of an export: reads each segment (the whole connection, or each segment of a parallel Scan)
 * one DynamoDB call at a time through the engine ({@link ConnectionRead#batch}), appends each call's
 * nodes to the output as JSON Lines, and stores the position after every call.
 *
 * <p>"Append a page, force it to disk, store the position" is one step under one lock, whichever
 * segment's page it is: the stored output length always covers exactly the pages whose positions are
 * stored. A kill between the append and the position leaves lines behind the stored length; a resume
 * cuts them off and reads that page again, so every item is in the file exactly once.
 *
 * <p>Memory stays flat: a segment holds one page (its items, nodes and their JSON) at a time, and a
 * cursor is encoded once per page, not per item.
 */
final class Export {

	/** Attempts of one page beyond the SDK's own retries, with a doubling back-off from {@link #BACKOFF}. */
	private static final int ATTEMPTS = 5;

	private static final Duration BACKOFF = Duration.ofMillis(500);

	private static final JsonFactory LINES = JsonFactory.builder().rootValueSeparator("\n").build();

	private final Paginator paginator;

	private final CursorCodec cursors;

	private final NodeJson json;

	private final boolean typename;

	private final ConnectionDefinition<Item> definition;

	private final ConnectionQuery query;

	private final ExportOptions options;

	private final Duration timeout;

	private final PrintStream err;

	private final PositionFile position;

	/** The SHA-256 of the output's bytes that {@link #position} covers (under {@link #lock}). */
	private final MessageDigest written;

	private final ReadStats stats = new ReadStats();

	private final Object lock = new Object();

	/** The capacity earlier runs consumed. */
	private final double baseCapacity;

	private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

	/** Items this run has written, pages this run has read (under {@link #lock}). */
	private long runItems;

	private long runPages;

	private FileChannel output;

	Export(Paginator paginator, CursorCodec cursors, NodeJson json, boolean typename,
			ConnectionDefinition<Item> definition, ConnectionQuery query, ExportOptions options, Duration timeout,
			PrintStream err, PositionFile position, MessageDigest written) {
		this.paginator = paginator;
		this.cursors = cursors;
		this.json = json;
		this.typename = typename;
		this.definition = definition;
		this.query = query;
		this.options = options;
		this.timeout = timeout;
		this.err = err;
		this.position = position;
		this.written = written;
		this.baseCapacity = position.capacity;
	}

	/**
	 * Runs the export to its end.
	 * @param expected the approximate number of items the export holds in all, for the ETA; null: unknown
	 * @param expectedNote what the expected number is, for the progress lines
	 * @throws ExportException when it stops (its position stays resumable)
	 */
	void run(Long expected, String expectedNote) throws IOException {
		List<Integer> pending = pending();
		// Every stored cursor is checked before anything is read or written; a segment's read is prepared
		// only when a worker takes it, so that memory does not grow with the number of segments.
		for (int segment : pending) {
			lane(segment);
		}
		this.output = openOutput();
		long started = System.nanoTime();
		ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "export-progress");
			thread.setDaemon(true);
			return thread;
		});
		progress.scheduleWithFixedDelay(() -> this.err.println(progress(started, expected, expectedNote)), 1, 1,
				TimeUnit.SECONDS);
		try (FileChannel closing = this.output) {
			readAll(pending);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw ExportException.failed("interrupted", ex);
		}
		finally {
			progress.shutdownNow();
		}
		RuntimeException failed = this.failure.get();
		if (failed != null) {
			this.err.println(summary(started, "stopped"));
			throw failed;
		}
		synchronized (this.lock) {
			this.position.complete = true;
			this.position.capacity = capacityNow();
			this.position.write(this.options.positionFile());
		}
		this.err.println(summary(started, "done"));
	}

	/** The segments not done yet, in order. */
	private List<Integer> pending() {
		List<Integer> pending = new ArrayList<>();
		for (int segment = this.position.firstSegment; segment <= this.position.lastSegment; segment++) {
			if (!PositionFile.DONE.equals(this.position.cursors.get(segment))) {
				pending.add(segment);
			}
		}
		return pending;
	}

	/**
	 * The output, opened to append: on a resume cut back to the bytes the stored position covers; else
	 * emptied, with the new position stored.
	 */
	private FileChannel openOutput() throws IOException {
		Path out = this.options.out();
		if (!this.options.resume()) {
			FileChannel output = FileChannel.open(out, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
					StandardOpenOption.TRUNCATE_EXISTING);
			this.position.write(this.options.positionFile());
			return output;
		}
		// The position's seal and the output's first outputBytes bytes were checked (PositionFile.checkOutput).
		FileChannel output = FileChannel.open(out, StandardOpenOption.WRITE, StandardOpenOption.CREATE);
		// Lines appended after the last stored position are read again.
		output.truncate(this.position.outputBytes);
		output.position(this.position.outputBytes);
		return output;
	}

	/** Reads the pending segments, at most {@code --concurrency} at once, until all are done or one fails. */
	private void readAll(List<Integer> pending) throws InterruptedException {
		int threads = Math.max(1, Math.min(this.options.concurrency(), pending.size()));
		ConcurrentLinkedQueue<Integer> queue = new ConcurrentLinkedQueue<>(pending);
		ExecutorService workers = Executors.newFixedThreadPool(threads, (task) -> {
			Thread thread = new Thread(task, "export-segment");
			thread.setDaemon(true);
			return thread;
		});
		for (int t = 0; t < threads; t++) {
			workers.execute(() -> readFrom(queue));
		}
		workers.shutdown();
		while (!workers.awaitTermination(1, TimeUnit.SECONDS)) {
			// waits for the segments
		}
	}

	/** One worker: reads segments from {@code queue} until it is empty or a segment failed. */
	private void readFrom(ConcurrentLinkedQueue<Integer> queue) {
		Integer segment;
		while (this.failure.get() == null && (segment = queue.poll()) != null) {
			try {
				read(lane(segment));
			}
			catch (RuntimeException ex) {
				this.failure.compareAndSet(null, ex);
			}
			catch (IOException ex) {
				this.failure.compareAndSet(null, ExportException.failed("could not write %s or its position "
					.formatted(this.options.out()) + "file (" + ex.getMessage() + ").", ex));
			}
			catch (Error ex) {
				// A segment that dies must stop the export, never leave it looking complete.
				this.failure.compareAndSet(null, ExportException.failed(("a segment stopped: %s. With less "
						+ "memory per page (--page-size) or fewer segments at once (--concurrency), or a larger "
						+ "-Xmx, run the same command with --resume.").formatted(ex), ex));
				if (!(ex instanceof OutOfMemoryError)) {
					throw ex;
				}
			}
		}
	}

	/** A segment to read, from its stored position (checked against its binding). */
	private Lane lane(int segment) {
		ConnectionQuery laneQuery = (this.position.segments != null)
				? this.query.withSegment(new ConnectionQuery.Segment(segment, this.position.segments)) : this.query;
		CursorBinding binding = CursorBinding.of(this.definition, laneQuery);
		String stored = this.position.cursors.get(segment);
		Map<String, AttributeValue> from = null;
		if (stored != null) {
			Position at;
			try {
				at = this.cursors.decode(binding, stored);
			}
			catch (InvalidCursorException ex) {
				throw ExportException.usage(("The position of segment %d in %s was not stored by this export (%s): the "
						+ "file was changed, or it is another connection's, arguments' or secret's. Start again with "
						+ "--force.").formatted(segment, this.options.positionFile(), ex.getMessage()));
			}
			from = at.isEnd() ? null : at.key();
		}
		return new Lane(segment, this.paginator.prepareWhole(this.definition, laneQuery), binding, from);
	}

	/** Reads one segment to its end, a page at a time. */
	private void read(Lane lane) throws IOException {
		ByteArrayOutputStream lines = new ByteArrayOutputStream(256 * 1024);
		Map<String, AttributeValue> from = lane.from();
		while (this.failure.get() == null) {
			ConnectionRead.Batch<Item> batch = batch(lane, from);
			lines.reset();
			if (!batch.nodes().isEmpty()) {
				try (JsonGenerator generator = LINES.createGenerator(ObjectWriteContext.empty(), lines)) {
					for (Item node : batch.nodes()) {
						this.json.write(generator, node, this.typename);
					}
				}
				lines.write('\n');
			}
			String cursor = (batch.next() == null) ? PositionFile.DONE
					: this.cursors.encode(lane.binding(), Position.of(batch.next()));
			synchronized (this.lock) {
				if (this.failure.get() != null) {
					return;
				}
				byte[] page = lines.toByteArray();
				ByteBuffer bytes = ByteBuffer.wrap(page);
				while (bytes.hasRemaining()) {
					this.output.write(bytes);
				}
				this.output.force(false);
				this.position.cursors.put(lane.segment(), cursor);
				this.position.outputBytes += page.length;
				this.written.update(page);
				this.position.outputSha256 = PositionFile.hex(this.written);
				this.position.items += batch.nodes().size();
				this.position.pages++;
				this.position.scanned += batch.scanned();
				this.runItems += batch.nodes().size();
				this.runPages++;
				this.position.capacity = capacityNow();
				this.position.write(this.options.positionFile());
			}
			if (batch.next() == null) {
				return;
			}
			from = batch.next();
			if (this.options.pauseMillis() > 0) {
				sleep(this.options.pauseMillis());
			}
		}
	}

	/** One page, tried again with a back-off when it fails even after the SDK's retries. */
	private ConnectionRead.Batch<Item> batch(Lane lane, Map<String, AttributeValue> from) {
		long backoff = BACKOFF.toMillis();
		for (int attempt = 1;; attempt++) {
			try {
				return lane.read().batch(from, this.options.pageSize(), this.timeout, this.stats).join();
			}
			catch (CompletionException ex) {
				Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
				if (attempt >= ATTEMPTS || this.failure.get() != null) {
					throw ExportException.failed(("DynamoDB failed a read of %s%s %d times (%s). The position of every "
							+ "page written is stored: run the same command with --resume to continue.").formatted(
									this.definition.field(),
									(this.position.segments != null) ? " (segment " + lane.segment() + ")" : "", attempt,
									Commands.reason(cause)), cause);
				}
				this.err.println("export: a read of %s failed (%s); trying again in %d ms".formatted(
						this.definition.field(), Commands.reason(cause), backoff));
				sleep(backoff);
				backoff *= 2;
			}
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw ExportException.failed("interrupted", ex);
		}
	}

	/** One progress line: items, pages, items/s, capacity, and an ETA when the total is known. */
	private String progress(long started, Long expected, String expectedNote) {
		long items;
		long pages;
		long runItems;
		double capacity;
		synchronized (this.lock) {
			items = this.position.items;
			pages = this.position.pages;
			runItems = this.runItems;
			capacity = capacityNow();
		}
		double seconds = (System.nanoTime() - started) / 1e9;
		double rate = runItems / Math.max(seconds, 1e-3);
		StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
				"export %s: %,d items, %,d pages, %,.0f items/s, %,.1f capacity units", this.definition.field(), items,
				pages, rate, capacity));
		if (expected != null && expected > 0) {
			long left = Math.max(0, expected - items);
			String eta = (rate > 0) ? duration(left / rate) : "?";
			line.append(String.format(Locale.ROOT, ", ETA %s (of ~%,d items, %s)", eta, expected, expectedNote));
		}
		return line.toString();
	}

	private String summary(long started, String how) {
		synchronized (this.lock) {
			double seconds = (System.nanoTime() - started) / 1e9;
			double capacity = capacityNow();
			return String.format(Locale.ROOT,
					"export %s %s: %,d items in %,d pages (%,d items and %,d pages in this run, %.1f s, %,.0f items/s), "
							+ "%,d items scanned, %,.1f capacity units, %,d bytes in %s",
					this.definition.field(), how, this.position.items, this.position.pages, this.runItems, this.runPages,
					seconds, this.runItems / Math.max(seconds, 1e-3), this.position.scanned, capacity,
					this.position.outputBytes, this.options.out());
		}
	}

	private static String duration(double seconds) {
		long whole = Math.round(seconds);
		if (whole < 60) {
			return whole + "s";
		}
		if (whole < 3600) {
			return (whole / 60) + "m" + (whole % 60) + "s";
		}
		return (whole / 3600) + "h" + (whole % 3600 / 60) + "m";
	}

	/** The capacity consumed so far, by earlier runs and this one. */
	private double capacityNow() {
		return this.baseCapacity + this.stats.costs().consumedCapacity();
	}

	/**
	 * A segment being read.
	 *
	 * @param segment its number (0 when the export is not a parallel Scan)
	 * @param read its prepared read
	 * @param binding the binding its cursors are issued and checked under
	 * @param from where it continues; null from its start
	 */
	private record Lane(int segment, ConnectionRead<Item> read, CursorBinding binding, Map<String, AttributeValue> from) {
	}

}
