package dev.dynamorelay.export;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of {@code export}: the connection, its {@code --arg}s, the output and how to read.
 * Arguments of the form {@code --some.property=value} (a name with a dot) are Spring properties and
 * passed on to the context, as {@code generate-schema} takes them.
 *
 * @param connection the connection's coordinates, {@code Type.field}
 * @param arguments each {@code --arg}'s values by name, in the order given (a name may repeat: a list)
 * @param out the output file
 * @param resume continue the export whose position file lies beside {@code out}
 * @param force replace an existing output and position file
 * @param segments a parallel Scan's number of segments; null: no parallel Scan
 * @param firstSegment the first segment this export reads (with {@code segments})
 * @param lastSegment the last segment this export reads, inclusive (with {@code segments})
 * @param pageSize the {@code Limit} of each DynamoDB call; null: none (DynamoDB's pages of 1 MB)
 * @param concurrency the most segments read at once
 * @param pauseMillis a pause after each page of each segment (gentle exports, and tests)
 * @param springArguments the Spring properties ({@code --name=value})
 */
record ExportOptions(String connection, Map<String, List<String>> arguments, Path out, boolean resume, boolean force,
		Integer segments, int firstSegment, int lastSegment, Integer pageSize, int concurrency, long pauseMillis,
		List<String> springArguments) {

	/**
	 * The heap one segment's page may take while it is parsed and written: DynamoDB ends a page at 1 MB,
	 * which the SDK's parsing and the items' maps make up to about 30 MB for small items (measured: 8
	 * pages at once peaked at about 250 MB).
	 */
	static final long PAGE_HEAP = 40L << 20;

	/** The heap the export needs besides its pages (Spring, the SDK, the schema). */
	static final long BASE_HEAP = 48L << 20;

	/**
	 * Segments read at once unless {@code --concurrency} says: 4 per core, and no more than the heap
	 * holds pages of ({@link #PAGE_HEAP} each besides {@link #BASE_HEAP}), so that the export's memory
	 * is bounded by its heap, never by the table.
	 */
	static int defaultConcurrency(int cores, long maxHeap) {
		long fits = Math.max(1, (maxHeap - BASE_HEAP) / PAGE_HEAP);
		return (int) Math.max(1, Math.min(4L * cores, fits));
	}

	/**
	 * The most segments of a parallel Scan, and the most read at once. A process reads at most
	 * {@code --concurrency} segments at once, each with one DynamoDB call in flight, so segments beyond
	 * that add no parallelism; yet each costs at least one Scan call and one position write even when it
	 * is empty, and its entry in the position file, which is rewritten after every page. A million
	 * segments of 30,000 items are almost all empty: the export made a call and rewrote a growing file
	 * for each, and read 566 items in 40 s. To share an export among machines, each runs a
	 * {@code --segment-range} of the same {@code --segments}.
	 */
	static final int MAX_SEGMENTS = 1024;

	static final String USAGE = "Usage: java -jar dynamo-relay.jar export <Type.field> [--arg name=value ...] --out FILE "
			+ "[--resume | --force] [--segments N [--segment-range A-B]] [--page-size N] [--concurrency N] "
			+ "[--pause MILLIS] [--dynamo-relay.property=value ...]";

	/**
	 * Parses the command line.
	 * @throws ExportException (exit code 2) for a command line that is not one
	 */
	static ExportOptions parse(String... args) {
		String connection = null;
		Map<String, List<String>> arguments = new LinkedHashMap<>();
		Path out = null;
		boolean resume = false;
		boolean force = false;
		Integer segments = null;
		String range = null;
		Integer pageSize = null;
		Integer concurrency = null;
		long pause = 0;
		List<String> spring = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			if (!arg.startsWith("--")) {
				if (connection != null) {
					throw usage("`%s`: only one connection is exported at a time (`%s` already).", arg, connection);
				}
				connection = arg;
				continue;
			}
			String name = arg.substring(2);
			String inline = null;
			int equals = name.indexOf('=');
			if (equals >= 0) {
				inline = name.substring(equals + 1);
				name = name.substring(0, equals);
			}
			if (name.contains(".")) {
				if (inline == null) {
					throw usage("`%s`: a property is given as `--%s=value`.", arg, name);
				}
				spring.add(arg);
				continue;
			}
			switch (name) {
				case "resume" -> resume = true;
				case "force" -> force = true;
				default -> {
					String value = inline;
					if (value == null) {
						if (i + 1 >= args.length) {
							throw usage("`--%s` needs a value.", name);
						}
						value = args[++i];
					}
					switch (name) {
						case "arg" -> {
							int at = value.indexOf('=');
							if (at <= 0) {
								throw usage("`--arg %s`: an argument is given as `--arg name=value`.", value);
							}
							arguments.computeIfAbsent(value.substring(0, at), (key) -> new ArrayList<>())
								.add(value.substring(at + 1));
						}
						case "out" -> out = Path.of(value);
						case "segments" -> segments = segments(value);
						case "segment-range" -> range = value;
						case "page-size" -> pageSize = number(name, value, 1, Integer.MAX_VALUE);
						case "concurrency" -> concurrency = number(name, value, 1, MAX_SEGMENTS);
						case "pause" -> pause = number(name, value, 0, Integer.MAX_VALUE);
						default -> throw usage("`--%s` is not an option of export.", name);
					}
				}
			}
		}
		if (connection == null) {
			throw usage("Name the connection to export, as `Type.field` (e.g. `Query.movies`).");
		}
		if (out == null) {
			throw usage("Name the output file with `--out FILE`.");
		}
		if (resume && force) {
			throw usage("Pass either `--resume` (continue the export) or `--force` (start it again), not both.");
		}
		int first = 0;
		int last = (segments != null) ? segments - 1 : 0;
		if (range != null) {
			if (segments == null) {
				throw usage("`--segment-range` needs `--segments N`: it names segments of a parallel Scan.");
			}
			String[] bounds = range.split("-", -1);
			if (bounds.length != 2) {
				throw usage("`--segment-range %s`: give the first and last segment, as `A-B` (e.g. `0-3`).", range);
			}
			first = number("segment-range", bounds[0], 0, segments - 1);
			last = number("segment-range", bounds[1], 0, segments - 1);
			if (first > last) {
				throw usage("`--segment-range %s`: the first segment is after the last.", range);
			}
		}
		int cores = Runtime.getRuntime().availableProcessors();
		int reading = (concurrency != null) ? concurrency : defaultConcurrency(cores, Runtime.getRuntime().maxMemory());
		return new ExportOptions(connection, arguments, out, resume, force, segments, first, last,
				pageSize, reading, pause, spring);
	}

	/** The position file: beside the output, named after it. */
	Path positionFile() {
		return this.out.resolveSibling(this.out.getFileName() + ".position");
	}

	/** The {@code --segments}, with why there are no more than {@link #MAX_SEGMENTS}. */
	private static int segments(String value) {
		int segments = number("segments", value, 1, Integer.MAX_VALUE);
		if (segments > MAX_SEGMENTS) {
			throw usage(("`--segments %s`: give at most %,d segments. One export reads at most %,d segments at once "
					+ "(--concurrency's most), one DynamoDB call each, and more segments add no speed but cost a call and a "
					+ "position write each, even when empty. To share a table among machines, give each a "
					+ "--segment-range of the same --segments."), value, MAX_SEGMENTS, MAX_SEGMENTS);
		}
		return segments;
	}

	private static int number(String option, String value, int min, int max) {
		try {
			int number = Integer.parseInt(value.trim());
			if (number >= min && number <= max) {
				return number;
			}
		}
		catch (NumberFormatException ex) {
			// refused below
		}
		throw usage("`--%s %s`: give a whole number from %d to %d.", option, value, min, max);
	}

	private static ExportException usage(String message, Object... values) {
		return ExportException.usage(message.formatted(values));
	}

}
