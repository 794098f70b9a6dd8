package dev.dynamorelay.command.check;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.Resource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import dev.dynamorelay.access.AccessRulesReader;
import dev.dynamorelay.command.cli.Commands;
import dev.dynamorelay.declaration.DeclarationReader;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.TablesProperties;
import dev.dynamorelay.dynamodb.DynamoDbConfiguration;
import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.dynamodb.StartupCalls;
import dev.dynamorelay.dynamodb.tables.TableSetup;
import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.ParsedSchema;
import dev.dynamorelay.schema.SchemaFiles;
import dev.dynamorelay.schema.SchemaProperties;

/**
 * {@code java -jar dynamo-relay.jar check [--property=value...]}: reads the schema files as the server's start
 * reads them ({@link ParsedSchema}, {@link DeclarationReader}, {@link AccessRulesReader}) and, when
 * {@code dynamo-relay.dynamodb.endpoint} is set, compares them with the tables there as the start does
 * ({@link TableSetup#check}, which only lists and describes tables: it never creates or changes one), and
 * prints every problem at its file and line.
 *
 * <p>A Spring context of the properties alone (and DynamoDB's client when there is an endpoint), without a web
 * server, Spring MVC or GraphQL: the declare-and-try loop's answer without a start.
 */
@Command(name = "check", sortOptions = false,
		customSynopsis = { "java -jar dynamo-relay.jar check [--watch] [--dynamo-relay.schema.locations=...]",
				"    [--dynamo-relay.dynamodb.endpoint=URL|aws] [--dynamo-relay.tables.prefix=...]" },
		header = "Checks the schema files, and the tables at an endpoint, as a start would, without starting.",
		description = { "%nReads the schema files as the server does and prints every problem at its file and line; "
				+ "with dynamo-relay.dynamodb.endpoint set, also compares every declared table, key, index and stream "
				+ "with the tables there (ListTables and DescribeTable only: nothing is created or changed).", "" },
		footerHeading = "%nProperties (the server's own; also from the environment or application.yml):%n",
		footer = { "  --dynamo-relay.schema.locations=...   the schema files (unset: the sample)",
				"  --dynamo-relay.dynamodb.endpoint=...  where the tables are (unset: the schema alone)",
				"  --dynamo-relay.tables.prefix=...      the prefix of the tables' names" },
		exitCodeListHeading = "%nExit codes:%n",
		exitCodeList = { "0:no problem (with --watch: stopped)", "1:problems, each on standard output at its file and line",
				"2:a usage mistake (an argument that is not a property)" })
public final class CheckCommand implements Callable<Integer> {

	// A check answers within seconds: an endpoint that does not answer is not waited for as a start waits.
	private static final String[] DEFAULTS = Commands.defaults("dynamo-relay.tables.create=false",
			"dynamo-relay.dynamodb.startup.timeout=10s", "dynamo-relay.dynamodb.startup.call-timeout=5s");

	@Mixin
	private Commands.Help help;

	@Spec
	private CommandSpec spec;

	@Option(names = "--watch", description = "Checks again each time a schema file in the folders of the schema files "
			+ "is saved, created or deleted, until stopped (Ctrl-C).")
	private boolean watch;

	@Unmatched
	private List<String> properties = new ArrayList<>();

	private CheckCommand() {
	}

	/**
	 * Checks and prints the report to {@link System#out}.
	 * @return 0 without a problem, 1 with problems, 2 for an argument that is not a property
	 */
	public static int run(String... args) {
		return Commands.execute(new CheckCommand(), args);
	}

	@Override
	public Integer call() {
		String[] args = Commands.properties(this.spec, this.properties).toArray(String[]::new);
		boolean watching = this.watch;
		return Commands.run("check", (out, err) -> check(args, watching, out));
	}

	private static int check(String[] args, boolean watch, PrintStream out) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(Context.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.registerShutdownHook(false)
			.properties(DEFAULTS)
			.run(args);
		try {
			return watch ? watch(context, out) : check(context, out);
		}
		finally {
			out.flush();
			// Closing DynamoDB's client waits out its event loops' quiet period (about two seconds) after the report is
			// out: the process ends without waiting for it, a caller in the same JVM gets its threads back meanwhile.
			Thread closing = new Thread(context::close, "check-close");
			closing.setDaemon(true);
			closing.start();
		}
	}

	private static int check(ConfigurableApplicationContext context, PrintStream out) {
		String prefix = context.getBean(TablesProperties.class).prefix();
		Declarations declarations;
		ParsedSchema schema;
		try {
			schema = ParsedSchema.parse(SchemaFiles.resolve(context.getBean(SchemaProperties.class).locations(), context));
			declarations = DeclarationReader.read(schema.registry(), prefix);
			AccessRulesReader.read(schema.registry(), declarations);
		}
		catch (DeclarationException problems) {
			out.println(problems.getMessage());
			return 1;
		}
		String served = "%s in %s from %s".formatted(count(declarations.entities().size(), "declared type"),
				count(declarations.tables().size(), "table"), String.join(", ", schema.files().files().keySet()));
		DynamoDbProperties dynamo = context.getBean(DynamoDbProperties.class);
		if (dynamo.embedded()) {
			out.println(served + ": no problem (tables not compared: dynamo-relay.dynamodb.endpoint is not set).");
			return 0;
		}
		StartupCalls calls = context.getBean(StartupCalls.class);
		try {
			new TableSetup(context.getBean(DynamoDbAsyncClient.class), declarations, calls).check(calls.endpoint());
		}
		catch (DeclarationException problems) {
			out.println(problems.getMessage());
			return 1;
		}
		catch (Exception ex) {
			throw new IllegalStateException("could not read the tables at " + calls.endpoint() + " ("
					+ Commands.reason(ex) + "). Is DynamoDB running there? Check dynamo-relay.dynamodb.endpoint.", ex);
		}
		out.println(served + ": no problem; the tables at " + calls.endpoint() + " match.");
		return 0;
	}

	private static String count(int n, String what) {
		return n + " " + what + ((n == 1) ? "" : "s");
	}

	/**
	 * Checks, then again each time a schema file ({@code .graphqls}, {@code .gqls}) in the folders of the schema
	 * files changes, until the thread is interrupted or the process stopped: the declare-and-try loop's answer at
	 * each save, from the same context (the client made once).
	 * @return 0 once stopped
	 */
	private static int watch(ConfigurableApplicationContext context, PrintStream out) {
		try (WatchService watcher = FileSystems.getDefault().newWatchService()) {
			Set<Path> watched = new LinkedHashSet<>();
			while (true) {
				try {
					check(context, out);
				}
				catch (RuntimeException ex) {
					// A file deleted or unreadable, DynamoDB away: said, and the next save checks again.
					out.println("check failed: " + Commands.reason(ex));
				}
				for (Path folder : folders(context)) {
					if (watched.add(folder)) {
						folder.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
								StandardWatchEventKinds.ENTRY_DELETE);
					}
				}
				if (watched.isEmpty()) {
					out.println("check: no schema file is a file to watch (a classpath: location?); stopped.");
					return 1;
				}
				out.println("Watching " + watched + " (Ctrl-C stops).");
				out.flush();
				Set<String> changed = changes(watcher);
				out.println();
				out.println("Changed: " + String.join(", ", changed) + ". Checking again.");
			}
		}
		catch (InterruptedException | ClosedWatchServiceException ex) {
			Thread.currentThread().interrupt();
			return 0;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The schema files that changed, once one did: after the first change, what follows within a tenth of a
	 * second (an editor's save is several events) joins it.
	 */
	private static Set<String> changes(WatchService watcher) throws InterruptedException {
		Set<String> changed = new TreeSet<>();
		while (changed.isEmpty()) {
			WatchKey key = watcher.take();
			do {
				for (WatchEvent<?> event : key.pollEvents()) {
					if (event.context() instanceof Path file && isSchema(file)) {
						changed.add(((Path) key.watchable()).resolve(file).toString());
					}
				}
				key.reset();
				key = watcher.poll(100, java.util.concurrent.TimeUnit.MILLISECONDS);
			}
			while (key != null);
		}
		return changed;
	}

	private static boolean isSchema(Path file) {
		String name = file.getFileName().toString();
		return name.endsWith(".graphqls") || name.endsWith(".gqls");
	}

	/** The folders of the schema files that are files (a {@code classpath:} location's may not be). */
	private static Set<Path> folders(ConfigurableApplicationContext context) {
		Set<Path> folders = new LinkedHashSet<>();
		List<Resource> files;
		try {
			files = List.copyOf(SchemaFiles.resolve(context.getBean(SchemaProperties.class).locations(), context)
				.files()
				.values());
		}
		catch (RuntimeException ex) {
			// None to be found now (the check just said why): the folders watched so far stay watched.
			return folders;
		}
		for (Resource resource : files) {
			if (resource.isFile()) {
				try {
					folders.add(resource.getFile().toPath().toAbsolutePath().getParent());
				}
				catch (IOException ex) {
					// not a file after all: not watched
				}
			}
		}
		return folders;
	}

	/**
	 * The context: the properties, and DynamoDB's client when an endpoint is set. Not a {@code @Configuration},
	 * so that the server's component scan leaves it out.
	 */
	@EnableConfigurationProperties({ SchemaProperties.class, TablesProperties.class, DynamoDbProperties.class })
	@Import(Tables.class)
	static class Context {

	}

	/** DynamoDB's client, only with an endpoint: without one the schema alone is checked, no engine started. */
	@ConditionalOnExpression("'${dynamo-relay.dynamodb.endpoint:}'.trim() != ''")
	@Import(DynamoDbConfiguration.class)
	static class Tables {

	}

}
