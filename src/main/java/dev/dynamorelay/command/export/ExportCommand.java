package dev.dynamorelay.command.export;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;

import graphql.schema.GraphQLSchema;
import graphql.schema.idl.TypeDefinitionRegistry;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

import dev.dynamorelay.command.cli.Commands;
import dev.dynamorelay.declaration.DeclarationReader;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.TablesProperties;
import dev.dynamorelay.dynamodb.DynamoDbConfiguration;
import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.dynamodb.StartupCalls;
import dev.dynamorelay.dynamodb.tables.TableSetup;
import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.pagination.ConnectionQuery;
import dev.dynamorelay.pagination.CursorCodec;
import dev.dynamorelay.pagination.CursorProperties;
import dev.dynamorelay.pagination.PageSizes;
import dev.dynamorelay.pagination.Paginator;
import dev.dynamorelay.pagination.ReadBudgets;
import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.ParsedSchema;
import dev.dynamorelay.schema.SchemaFiles;
import dev.dynamorelay.schema.SchemaProperties;

/**
 * {@code java -jar dynamo-relay.jar export <Type.field> --arg name=value ... --out FILE}: writes every
 * node of a declared connection to {@code FILE} as JSON Lines, through the same engine, declarations and
 * cursors as GraphQL; progress and the summary go to standard error.
 *
 * <p>It reads the server's own properties through a Spring context of the DynamoDB configuration alone
 * (no web server), as {@code generate-schema} does; it never creates tables or loads data. It needs a
 * configured DynamoDB endpoint (the embedded engine would be a new, empty database) and the
 * cursor secret (its positions are signed cursors). Exit codes: 0 done, 1 failed (resumable), 2 a command
 * line or position file that cannot be run.
 */
@Command(name = "export", sortOptions = false,
		customSynopsis = { "java -jar dynamo-relay.jar export <Type.field> [--arg name=value ...]",
				"    --out FILE [--resume | --force] [--segments N [--segment-range A-B]]",
				"    [--page-size N] [--concurrency N] [--pause MILLIS]",
				"    [--dynamo-relay.property=value ...]" },
		header = "Writes every node of a declared connection to a file, as JSON Lines.",
		description = { "%nIt reads through the same engine, declarations and signed cursors as GraphQL, one "
				+ "object per line. After each DynamoDB page it stores its position beside the output, from which "
				+ "--resume continues a stopped export with every item exactly once. Progress, the summary and "
				+ "errors go to standard error; standard output stays empty.", "" },
		footerHeading = "%nProperties (the server's own; also from the environment or application.yml):%n",
		footer = { "  --dynamo-relay.dynamodb.endpoint=URL  required: the DynamoDB, a URL or `aws`",
				"  --dynamo-relay.cursor.secret=SECRET   required: signs the position file",
				"  --dynamo-relay.schema.locations=...   the schema files (unset: the sample)",
				"  --dynamo-relay.dynamodb.timeout=60s   each DynamoDB call, retries included" },
		exitCodeListHeading = "%nExit codes:%n",
		exitCodeList = { "0:done, or nothing left to resume",
				"1:failed while running: run the same command with --resume",
				"2:a command line, position file or output that cannot be run" })
public final class ExportCommand implements Callable<Integer> {

	/** Defaults that the arguments override. */
	private static final String[] DEFAULTS = Commands.defaults("dynamo-relay.tables.create=false",
			"dynamo-relay.sample-data.enabled=false",
			// Beans are made when asked for: the embedded engine is refused before it would start.
			"spring.main.lazy-initialization=true",
			// One call of an export reads a 1 MB page (a parallel Scan's segment of a large table on a loaded
			// DynamoDB may take seconds), not an interactive page: a minute per call, retries included, unless configured.
			"dynamo-relay.dynamodb.timeout=60s");

	@Mixin
	private Commands.Help help;

	@Spec
	private CommandSpec spec;

	@Mixin
	private ExportOptions.Arguments arguments;

	/** The arguments that are no option of export: its Spring properties, or mistakes. */
	@Unmatched
	private List<String> unmatched = new ArrayList<>();

	ExportCommand() {
	}

	/**
	 * Runs the export.
	 * @param args the command line after {@code export}
	 * @return the process's exit code
	 */
	public static int run(String... args) {
		return Commands.execute(new ExportCommand(), args);
	}

	@Override
	public Integer call() {
		ExportOptions options = options();
		return Commands.run("export", (out, err) -> {
			try {
				exportAlone(options, err);
				return 0;
			}
			catch (ExportException ex) {
				boolean commandLine = ex.exitCode() == ExportException.USAGE && ex.getMessage().startsWith("`--");
				// An --arg the connection refuses is a mistake of the command line, answered as picocli's are.
				err.println("export: " + ex.getMessage()
						+ (commandLine ? " " + Commands.usage(this.spec.commandLine()) : ""));
				return ex.exitCode();
			}
		});
	}

	/**
	 * The parsed command line, checked.
	 * @throws picocli.CommandLine.ParameterException for one that cannot be run
	 */
	ExportOptions options() {
		return this.arguments.options(this.unmatched);
	}

	/**
	 * Runs the export while holding a lock on {@code FILE.lock}: two runs on one output (a resume started
	 * twice, a --force beside a running export) would append to one file and store one position.
	 */
	private static void exportAlone(ExportOptions options, PrintStream err) {
		Path lockFile = options.out().resolveSibling(options.out().getFileName() + ".lock");
		try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
			FileLock lock;
			try {
				lock = channel.tryLock();
			}
			catch (OverlappingFileLockException ex) {
				lock = null;
			}
			if (lock == null) {
				throw ExportException.usage(("another export is writing %s (it holds %s): wait for it to end, or stop "
						+ "it first.").formatted(options.out(), lockFile));
			}
			export(options, err);
		}
		catch (IOException ex) {
			throw ExportException.failed("could not lock %s (%s).".formatted(lockFile, ex.getMessage()), ex);
		}
	}

	private static void export(ExportOptions options, PrintStream err) {
		refuseToOverwrite(options);
		try (ConfigurableApplicationContext context = start(options.springArguments())) {
			DynamoDbProperties dynamo = context.getBean(DynamoDbProperties.class);
			CursorProperties cursor = cursorSecret(context, dynamo);
			Optional<Written> written = written(options, new PositionSeal(cursor.secret(), cursor.previousSecrets()),
					err);
			if (written.isEmpty()) {
				return;
			}
			Declared declared = Declared.read(context);
			ExportTarget target = ExportTarget.resolve(declared.schema(), declared.declarations(), options.connection(),
					options.arguments());
			ConnectionDefinition<Item> definition = target.connection.definition();
			if (options.segments() != null && !definition.isScan()) {
				throw ExportException.usage(("`%s` is a DynamoDB Query, not a Scan: `--segments` splits a Scan into "
						+ "parallel segments. Leave it out.").formatted(options.connection()));
			}
			DynamoDbAsyncClient dynamoDb = context.getBean(DynamoDbAsyncClient.class);
			checkTables(context, dynamoDb, dynamo, declared.declarations(), definition, options);
			Item parent = (target.parentType != null) ? parent(dynamoDb, target, dynamo) : null;
			Optional<ConnectionQuery> query = target.query(parent);
			PositionFile position = written.get().position();
			if (query.isEmpty()) {
				// The parent holds no value for the connection's key: the connection is empty, as in GraphQL.
				position.cursors.put(0, PositionFile.DONE);
			}
			CursorCodec cursors = new CursorCodec(cursor.secret(), cursor.previousSecrets());
			Paginator paginator = new Paginator(dynamoDb, cursors, new PageSizes(20, 100),
					new ReadBudgets(1000, 10000, Long.MAX_VALUE, dynamo.timeout()));
			NodeJson json = new NodeJson(declared.schema());
			Expected expected = Expected.of(dynamoDb, definition, query, options);
			try {
				new Export(paginator, cursors, json, json.abstractNodes(target.connection), definition,
						query.orElseGet(() -> fallback(definition)), options, dynamo.timeout(), err, position,
						written.get().digest())
					.run(expected.items(), expected.note());
			}
			catch (IOException ex) {
				throw ExportException.failed("could not write %s (%s).".formatted(options.out(), ex.getMessage()), ex);
			}
		}
	}

	/** Refuses an export that would overwrite an output, or resume one that is not there. */
	private static void refuseToOverwrite(ExportOptions options) {
		if (options.resume() && !Files.exists(options.positionFile())) {
			throw ExportException.usage(("There is no position file %s to resume from: start the export without "
					+ "--resume.").formatted(options.positionFile()));
		}
		if (!options.resume() && !options.force()
				&& (Files.exists(options.out()) || Files.exists(options.positionFile()))) {
			throw ExportException.usage(("%s or its position file exists already: pass --resume to continue that "
					+ "export, or --force to start it again.").formatted(options.out()));
		}
	}

	/** The cursor properties, refused without a configured DynamoDB endpoint or a cursor secret. */
	private static CursorProperties cursorSecret(ConfigurableApplicationContext context, DynamoDbProperties dynamo) {
		if (dynamo.embedded()) {
			throw ExportException.usage(("Set dynamo-relay.dynamodb.endpoint (DYNAMO_RELAY_DYNAMODB_ENDPOINT) to the "
					+ "DynamoDB to export from (a URL, or `aws`): without it the export would start an embedded "
					+ "DynamoDB engine, a new and empty database."));
		}
		CursorProperties cursor = context.getBean(CursorProperties.class);
		if (cursor.secret() == null || cursor.secret().isBlank()) {
			throw ExportException.usage(("Set dynamo-relay.cursor.secret (DYNAMO_RELAY_CURSOR_SECRET): an export "
					+ "stores its position as signed cursors, and a resume needs the same secret."));
		}
		return cursor;
	}

	/**
	 * Where the export starts: the stored position and the digest of the output it covers on a resume,
	 * a new position otherwise; empty when the export being resumed is complete already.
	 */
	private static Optional<Written> written(ExportOptions options, PositionSeal seal, PrintStream err) {
		if (!options.resume()) {
			return Optional.of(new Written(PositionFile.start(options, seal), PositionFile.sha256()));
		}
		// The seal is checked first: nothing of a position file is believed before it holds.
		PositionFile position = PositionFile.read(options.positionFile(), seal);
		if (!position.sameExport(options)) {
			throw ExportException.usage(("%s is the position of another export (%s). Resume with the same "
					+ "connection, arguments and segments, or start again with --force.")
				.formatted(options.positionFile(), position.describe()));
		}
		MessageDigest digest = position.checkOutput(options.out());
		if (position.complete) {
			err.println("export: %s is complete already (%,d items in %s); nothing to resume."
				.formatted(position.describe(), position.items, options.out()));
			return Optional.empty();
		}
		return Optional.of(new Written(position, digest));
	}

	/**
	 * Refuses an export whose tables cannot be read, or that reads a global index holding only part of its
	 * items' attributes.
	 */
	private static void checkTables(ConfigurableApplicationContext context, DynamoDbAsyncClient dynamoDb,
			DynamoDbProperties dynamo, Declarations declarations, ConnectionDefinition<Item> definition,
			ExportOptions options) {
		String endpoint = dynamo.url().map(Object::toString).orElse("AWS");
		Map<String, Set<String>> partial;
		try {
			partial = new TableSetup(dynamoDb, declarations, context.getBean(StartupCalls.class)).check(endpoint);
		}
		catch (Exception ex) {
			throw ExportException.failed("the declared tables at %s cannot be read: %s".formatted(endpoint,
					Commands.reason(ex)), ex);
		}
		if (definition.globalIndex() && partial
			.containsKey(TableSetup.indexKey(definition.table(), definition.index().orElseThrow()))) {
			throw ExportException.failed(("`%s` reads the global index %s, which holds only part of its items' "
					+ "attributes; the export does not complete them from the table yet.")
				.formatted(options.connection(), definition.index().get()), null);
		}
	}

	/** A query for an empty connection, which is never read (its one segment is done). */
	private static ConnectionQuery fallback(ConnectionDefinition<Item> definition) {
		return definition.isScan() ? ConnectionQuery.scan()
				: ConnectionQuery.partition(AttributeValue.fromS("-"), dev.dynamorelay.model.SortOrder.ASC);
	}

	/** The parent a nested connection's {@code --arg}s name, read with one GetItem. */
	private static Item parent(DynamoDbAsyncClient dynamoDb, ExportTarget target, DynamoDbProperties dynamo) {
		Map<String, AttributeValue> key = target.parentItemKey();
		String named = target.parentKey.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + "=" + entry.getValue())
			.reduce((a, b) -> a + ", " + b)
			.orElse("");
		GetItemResponse found;
		try {
			found = dynamoDb.getItem((get) -> get.tableName(target.parentType.table().physicalName()).key(key)).join();
		}
		catch (CompletionException ex) {
			throw ExportException.failed("could not read the %s with %s: %s".formatted(target.parentType.name(), named,
					Commands.reason(ex)), ex);
		}
		if (!found.hasItem() || found.item().isEmpty() || !target.parentType.matches(found.item())) {
			throw ExportException.failed("There is no %s with %s in %s: nothing to export.".formatted(
					target.parentType.name(), named, target.parentType.table().physicalName()), null);
		}
		return new Item(target.parentType, found.item());
	}

	private static ConfigurableApplicationContext start(List<String> args) {
		try {
			return new SpringApplicationBuilder(Context.class).web(WebApplicationType.NONE)
				.bannerMode(Banner.Mode.OFF)
				.registerShutdownHook(false)
				.properties(DEFAULTS)
				.run(args.toArray(String[]::new));
		}
		catch (RuntimeException ex) {
			throw ExportException.failed("could not set up the DynamoDB client (" + Commands.reason(ex)
					+ "). Check dynamo-relay.dynamodb.endpoint, .region and .timeout.", ex);
		}
	}

	/**
	 * The context: DynamoDB's configuration and the properties the export reads. Not a
	 * {@code @Configuration}, so that the server's component scan leaves it out.
	 */
	@Import(DynamoDbConfiguration.class)
	@EnableConfigurationProperties({ SchemaProperties.class, TablesProperties.class, CursorProperties.class })
	static class Context {

	}

	/**
	 * Where an export starts writing.
	 *
	 * @param position its position file, new or stored
	 * @param digest the SHA-256 of the output's bytes the position covers
	 */
	private record Written(PositionFile position, MessageDigest digest) {
	}

	/**
	 * The declarations the export reads by.
	 *
	 * @param declarations the declared tables, entities and connections
	 * @param schema the executable schema, for the arguments' types and the nodes' JSON
	 */
	private record Declared(Declarations declarations, GraphQLSchema schema) {

		static Declared read(ConfigurableApplicationContext context) {
			String prefix = context.getBean(TablesProperties.class).prefix();
			try {
				TypeDefinitionRegistry registry = ParsedSchema
					.parse(SchemaFiles.resolve(context.getBean(SchemaProperties.class).locations(), context))
					.registry();
				return new Declared(DeclarationReader.read(registry, prefix), ExportTarget.schema(registry));
			}
			catch (DeclarationException ex) {
				throw ExportException.failed(ex.getMessage(), ex);
			}
		}

	}

	/**
	 * How many items the export is expected to hold, for the progress lines' ETA.
	 *
	 * @param items the approximate number; null: unknown (a Query, or DynamoDB did not say)
	 * @param note what the number is
	 */
	private record Expected(Long items, String note) {

		static Expected of(DynamoDbAsyncClient dynamoDb, ConnectionDefinition<Item> definition,
				Optional<ConnectionQuery> query, ExportOptions options) {
			Long count = definition.isScan() ? itemCount(dynamoDb, definition) : null;
			if (count == null) {
				return new Expected(null, null);
			}
			long items = (options.segments() != null)
					? count * (options.lastSegment() - options.firstSegment() + 1) / options.segments() : count;
			return new Expected(items, "DescribeTable's approximate count"
					+ (query.map(ConnectionQuery::filtered).orElse(false) ? ", before the filters" : ""));
		}

		/** DynamoDB's approximate item count of the table or index a Scan reads; null when unknown. */
		private static Long itemCount(DynamoDbAsyncClient dynamoDb, ConnectionDefinition<Item> definition) {
			try {
				DescribeTableResponse table = dynamoDb.describeTable((describe) -> describe.tableName(definition.table()))
					.join();
				if (definition.index().isEmpty()) {
					return table.table().itemCount();
				}
				String index = definition.index().get();
				List<Long> counts = new ArrayList<>();
				table.table().globalSecondaryIndexes().stream().filter((gsi) -> gsi.indexName().equals(index))
					.forEach((gsi) -> counts.add(gsi.itemCount()));
				table.table().localSecondaryIndexes().stream().filter((lsi) -> lsi.indexName().equals(index))
					.forEach((lsi) -> counts.add(lsi.itemCount()));
				return counts.isEmpty() ? null : counts.get(0);
			}
			catch (RuntimeException ex) {
				return null;
			}
		}

	}

}
