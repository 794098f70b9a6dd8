package dev.dynamorelay.command.export;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import dev.dynamorelay.command.cli.Commands;

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

	/**
	 * Parses the command line (as {@code export} does, with its checks).
	 * @throws ExportException (exit code 2) for a command line that is not one
	 */
	static ExportOptions parse(String... args) {
		ExportCommand command = new ExportCommand();
		try {
			Commands.commandLine(command).parseArgs(args);
			return command.options();
		}
		catch (ParameterException ex) {
			throw ExportException.usage(Commands.problem(ex, args));
		}
	}

	/** The position file: beside the output, named after it. */
	Path positionFile() {
		return this.out.resolveSibling(this.out.getFileName() + ".position");
	}

	/**
	 * The options of {@code export} as picocli fills them (a mixin of {@link ExportCommand}), with what
	 * {@code --help} says of each; {@link #options} checks them together.
	 */
	static final class Arguments {

		@Spec(Spec.Target.MIXEE)
		private CommandSpec spec;

		@Parameters(index = "0", paramLabel = "<Type.field>",
				description = "The connection, as Type.field (e.g. Query.movies).")
		private String connection;

		@Option(names = "--arg", paramLabel = "name=value", converter = Argument.Converter.class,
				description = { "One of the field's arguments, converted by its GraphQL type as a query takes it "
						+ "(order=DESC, minRating=7.5). A list is comma-separated or a repeated --arg; left-out "
						+ "arguments take their defaults. A nested connection's parent is named by its key's "
						+ "placeholders (User.purchases --arg userId=user-01)." })
		private List<Argument> arguments = new ArrayList<>();

		@Option(names = "--out", required = true, paramLabel = "FILE",
				description = "The output, JSON Lines; its position is stored in FILE.position.")
		private Path out;

		@Option(names = "--resume",
				description = "Continue the export whose FILE.position is there (same connection, arguments and "
						+ "segments).")
		private boolean resume;

		@Option(names = "--force", description = "Start again, replacing an existing output and position file.")
		private boolean force;

		@Option(names = "--segments", paramLabel = "N", converter = Segments.class,
				description = "Read a Scan connection as a DynamoDB parallel Scan of N segments (1 to 1,024).")
		private Integer segments;

		@Option(names = "--segment-range", paramLabel = "A-B", converter = SegmentRange.Converter.class,
				description = "With --segments: only segments A to B (inclusive), so that several machines share "
						+ "one export.")
		private SegmentRange range;

		@Option(names = "--page-size", paramLabel = "N", converter = PageSize.class,
				description = "The Limit of each DynamoDB call. Default: none (DynamoDB's pages of 1 MB).")
		private Integer pageSize;

		@Option(names = "--concurrency", paramLabel = "N", converter = Concurrency.class,
				description = "Segments read at once (1 to 1,024). Default: as many as the heap holds pages of, "
						+ "at most 4 per core.")
		private Integer concurrency;

		@Option(names = "--pause", paramLabel = "MILLIS", converter = Pause.class,
				description = "A pause after each page of each segment: a gentler export. Default: 0.")
		private int pause;

		/**
		 * The options checked together, with the Spring properties among {@code unmatched} (the arguments
		 * that are no option of export).
		 * @throws ParameterException for a command line that cannot be run
		 */
		ExportOptions options(List<String> unmatched) {
			List<String> spring = properties(unmatched);
			if (this.resume && this.force) {
				throw usage("Pass either `--resume` (continue the export) or `--force` (start it again), not both.");
			}
			int first = 0;
			int last = (this.segments != null) ? this.segments - 1 : 0;
			if (this.range != null) {
				if (this.segments == null) {
					throw usage("`--segment-range` needs `--segments N`: it names segments of a parallel Scan.");
				}
				try {
					first = number("segment-range", this.range.first(), 0, this.segments - 1);
					last = number("segment-range", this.range.last(), 0, this.segments - 1);
				}
				catch (TypeConversionException ex) {
					throw usage("%s", ex.getMessage());
				}
				if (first > last) {
					throw usage("`--segment-range %s`: the first segment is after the last.", this.range.given());
				}
			}
			Map<String, List<String>> values = new LinkedHashMap<>();
			this.arguments.forEach((argument) -> values.computeIfAbsent(argument.name(), (name) -> new ArrayList<>())
				.add(argument.value()));
			int cores = Runtime.getRuntime().availableProcessors();
			int reading = (this.concurrency != null) ? this.concurrency
					: defaultConcurrency(cores, Runtime.getRuntime().maxMemory());
			return new ExportOptions(this.connection, values, this.out, this.resume, this.force, this.segments, first,
					last, this.pageSize, reading, this.pause, spring);
		}

		/**
		 * The Spring properties, {@code --name.with.dots=value}, passed on to the context as
		 * {@code generate-schema} takes them; any other argument is a mistake.
		 */
		private List<String> properties(List<String> unmatched) {
			for (String arg : unmatched) {
				if (!arg.startsWith("--")) {
					throw usage("`%s`: only one connection is exported at a time (`%s` already).", arg, this.connection);
				}
				// A mistyped option or dynamo-relay.* property, with what it most likely meant.
				Commands.propertyProblem(this.spec, arg).ifPresent((problem) -> {
					throw usage("%s", problem);
				});
				int equals = arg.indexOf('=');
				String name = arg.substring(2, (equals >= 0) ? equals : arg.length());
				if (!name.contains(".")) {
					throw usage("`--%s` is not an option of export.", name);
				}
				if (equals < 0) {
					throw usage("`%s`: a property is given as `--%s=value`.", arg, name);
				}
			}
			return List.copyOf(unmatched);
		}

		private ParameterException usage(String message, Object... values) {
			return new ParameterException(this.spec.commandLine(), message.formatted(values));
		}

	}

	/** A whole number option from {@code min} to {@code max}: a converter that names the option when it refuses. */
	private abstract static class WholeNumber implements ITypeConverter<Integer> {

		private final String option;

		private final int min;

		private final int max;

		WholeNumber(String option, int min, int max) {
			this.option = option;
			this.min = min;
			this.max = max;
		}

		@Override
		public Integer convert(String value) {
			return number(this.option, value, this.min, this.max);
		}

	}

	static final class PageSize extends WholeNumber {

		PageSize() {
			super("page-size", 1, Integer.MAX_VALUE);
		}

	}

	static final class Concurrency extends WholeNumber {

		Concurrency() {
			super("concurrency", 1, MAX_SEGMENTS);
		}

	}

	static final class Pause extends WholeNumber {

		Pause() {
			super("pause", 0, Integer.MAX_VALUE);
		}

	}

	/** The {@code --segments}, with why there are no more than {@link #MAX_SEGMENTS}. */
	static final class Segments extends WholeNumber {

		Segments() {
			super("segments", 1, Integer.MAX_VALUE);
		}

		@Override
		public Integer convert(String value) {
			int segments = super.convert(value);
			if (segments > MAX_SEGMENTS) {
				throw new TypeConversionException(("`--segments %s`: give at most %,d segments. One export reads at "
						+ "most %,d segments at once (--concurrency's most), one DynamoDB call each, and more segments add "
						+ "no speed but cost a call and a position write each, even when empty. To share a table among "
						+ "machines, give each a --segment-range of the same --segments.").formatted(value, MAX_SEGMENTS,
								MAX_SEGMENTS));
			}
			return segments;
		}

	}

	/**
	 * A {@code --segment-range A-B} as given: its segments are numbers of {@code --segments}, so they are
	 * read once that is known.
	 */
	record SegmentRange(String given, String first, String last) {

		static final class Converter implements ITypeConverter<SegmentRange> {

			@Override
			public SegmentRange convert(String value) {
				String[] bounds = value.split("-", -1);
				if (bounds.length != 2) {
					throw new TypeConversionException(
							"`--segment-range %s`: give the first and last segment, as `A-B` (e.g. `0-3`).".formatted(value));
				}
				return new SegmentRange(value, bounds[0], bounds[1]);
			}

		}

	}

	/** An {@code --arg name=value}. */
	record Argument(String name, String value) {

		static final class Converter implements ITypeConverter<Argument> {

			@Override
			public Argument convert(String given) {
				int at = given.indexOf('=');
				if (at <= 0) {
					throw new TypeConversionException(
							"`--arg %s`: an argument is given as `--arg name=value`.".formatted(given));
				}
				return new Argument(given.substring(0, at), given.substring(at + 1));
			}

		}

	}

	/**
	 * A whole number from {@code min} to {@code max}.
	 * @throws TypeConversionException naming the option and the value when it is not one
	 */
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
		throw new TypeConversionException(
				"`--%s %s`: give a whole number from %d to %d.".formatted(option, value, min, max));
	}

}
