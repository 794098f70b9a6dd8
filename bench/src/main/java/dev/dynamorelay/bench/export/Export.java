package dev.dynamorelay.bench.export;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.BenchData;

/**
 * The export of 1,000,000 items in 10,000 partitions ({@code export Query.allItems --segments N}, the jar as a
 * separate process with a 128 MB heap, through {@code bench/export-schema.graphqls}) beside a raw SDK parallel
 * Scan of the same table with the same N on the same engine ({@code BENCH_ONLY=export}, and a full run). The
 * export's time is its own reading and writing, from its summary line; the process's wall time (JVM and Spring
 * start, client shutdown) and its peak heap are reported beside it.
 */
public final class Export {

	private final Bench bench;

	private final DynamoDbAsyncClient dynamoDb;

	private final Path jar;

	private final URI endpoint;

	private final Path out;

	public Export(Bench bench, Path jar, URI endpoint, Path out) {
		this.bench = bench;
		this.dynamoDb = bench.dynamoDb();
		this.jar = jar;
		this.endpoint = endpoint;
		this.out = out;
	}

	public void run() throws Exception {
		int segments = Integer.parseInt(System.getenv().getOrDefault("BENCH_EXPORT_SEGMENTS", "8"));
		System.out.println("Loading 1,000,000 items in 10,000 partitions for the export ...");
		long loading = System.nanoTime();
		BenchData.loadExportItems(this.dynamoDb, "ExportItems", 1_000_000);
		System.out.printf("  loaded in %.0f s%n", (System.nanoTime() - loading) / 1e9);
		System.out.printf("Exporting 1,000,000 items (%d segments) against a raw parallel Scan ...%n", segments);
		rawParallelScan(segments);
		double[] raw = rawParallelScan(segments);
		Path file = this.out.resolve("items.jsonl");
		Path gc = this.out.resolve("export-gc.log");
		Exported exported = export(segments, file, gc);
		long lines;
		try (var stream = Files.lines(file)) {
			lines = stream.count();
		}
		long peak = 0;
		Matcher heap = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)").matcher(Files.readString(gc));
		while (heap.find()) {
			peak = Math.max(peak, Long.parseLong(heap.group(1)));
		}
		long items = exported.items;
		double seconds = exported.seconds;
		double ratio = seconds / raw[0];
		System.out.println("  " + exported.log.lines().filter((line) -> line.contains("items/s")).reduce((a, b) -> b).orElse(""));
		this.bench.row("export of %,d items (%d segments, JSON Lines) vs raw SDK parallel Scan".formatted(items, segments),
				"%.1f s, %,.0f items/s".formatted(seconds, items / seconds),
				"%.1f s, %,.0f items/s".formatted(raw[0], raw[1] / raw[0]), "%.2fx".formatted(ratio),
				"<= 1.3x, every item", ratio <= 1.3 && items == (long) raw[1]);
		this.bench.row("export process: wall time (JVM, Spring, client shutdown included), peak heap before GC (-Xmx128m)",
				"%.1f s, %d MB".formatted(exported.wall, peak), "-", "%,d lines written".formatted(lines),
				"one line per item", lines == items && items == (long) raw[1]);
		this.bench.figures.put("exportSeconds", seconds);
		this.bench.figures.put("exportRawScanSeconds", raw[0]);
		this.bench.figures.put("exportItems", items);
		this.bench.figures.put("exportPeakHeapMb", peak);
		Files.deleteIfExists(file);
	}

	/** An export's items and seconds from its summary line, its process's wall time, and its standard error. */
	private record Exported(long items, double seconds, double wall, String log) {
	}

	/** Runs the export process into {@code file}, its GC log in {@code gc}, and reads its summary line. */
	private Exported export(int segments, Path file, Path gc) throws Exception {
		Path stderr = this.out.resolve("export.err");
		List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
				"-Xlog:gc:file=" + gc, "-jar", this.jar.toString(), "export", "Query.allItems", "--segments",
				Integer.toString(segments), "--force", "--out", file.toString(),
				"--dynamo-relay.dynamodb.endpoint=" + this.endpoint, "--dynamo-relay.cursor.secret=bench-export",
				"--dynamo-relay.schema.locations=bench/export-schema.graphqls");
		long started = System.nanoTime();
		Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.redirectError(stderr.toFile())
			.start();
		if (!process.waitFor(30, TimeUnit.MINUTES) || process.exitValue() != 0) {
			throw new IllegalStateException("the export failed: " + Files.readString(stderr));
		}
		double wall = (System.nanoTime() - started) / 1e9;
		String log = Files.readString(stderr);
		Matcher summary = Pattern
			.compile("done: ([\\d,]+) items in ([\\d,]+) pages \\(.*?, ([\\d.]+) s, ([\\d,]+) items/s\\)")
			.matcher(log);
		if (!summary.find()) {
			throw new IllegalStateException("no summary line in the export's output: " + log);
		}
		return new Exported(Long.parseLong(summary.group(1).replace(",", "")), Double.parseDouble(summary.group(3)),
				wall, log);
	}

	/** A raw SDK parallel Scan of the export's table: its seconds, and the items it read. */
	private double[] rawParallelScan(int segments) throws Exception {
		long started = System.nanoTime();
		AtomicLong items = new AtomicLong();
		int threads = Math.min(segments, 4 * Runtime.getRuntime().availableProcessors());
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		List<Future<?>> done = new ArrayList<>();
		for (int segment = 0; segment < segments; segment++) {
			int each = segment;
			done.add(pool.submit(() -> {
				Map<String, AttributeValue> from = null;
				do {
					ScanResponse response = this.dynamoDb
						.scan(ScanRequest.builder()
							.tableName("ExportItems")
							.segment(each)
							.totalSegments(segments)
							.exclusiveStartKey(from)
							.build())
						.join();
					items.addAndGet(response.count());
					from = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
							? response.lastEvaluatedKey() : null;
				}
				while (from != null);
				return null;
			}));
		}
		for (Future<?> each : done) {
			each.get();
		}
		pool.shutdown();
		double seconds = (System.nanoTime() - started) / 1e9;
		System.out.printf("  raw parallel Scan: %,d items in %.1f s%n", items.get(), seconds);
		return new double[] { seconds, items.get() };
	}

}
