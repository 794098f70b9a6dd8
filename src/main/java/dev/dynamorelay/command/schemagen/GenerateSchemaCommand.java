package dev.dynamorelay.command.schemagen;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

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

import dev.dynamorelay.command.cli.Commands;
import dev.dynamorelay.declaration.TablesProperties;
import dev.dynamorelay.dynamodb.DynamoDbConfiguration;
import dev.dynamorelay.dynamodb.DynamoDbProperties;

/**
 * {@code java -jar dynamo-relay.jar generate-schema [--property=value...]}: prints a schema for the
 * tables at the configured DynamoDB endpoint to standard output, and nothing else.
 *
 * <p>It reads the server's own properties ({@code dynamo-relay.dynamodb.endpoint}, {@code .region},
 * {@code dynamo-relay.tables.prefix}, from arguments, the environment or {@code application.yml})
 * through a Spring context of the DynamoDB configuration alone, without a web server, and neither creates
 * tables nor loads sample data. Logs go to standard error. A failure is one paragraph on standard error
 * and exit code 1; an argument that is not a property, one line and exit code 2.
 */
@Command(name = "generate-schema", sortOptions = false,
		customSynopsis = { "java -jar dynamo-relay.jar generate-schema",
				"    [--dynamo-relay.property=value ...]" },
		header = "Prints a schema for the tables at the configured DynamoDB endpoint.",
		description = { "%nFor each table and index: a root connection, a type per entity, and their Connection "
				+ "and Edge types, from DescribeTable and a sample of each table's items. Standard output holds "
				+ "the schema alone. It creates no table and loads no data.", "" },
		footerHeading = "%nProperties (the server's own; also from the environment or application.yml):%n",
		footer = { "  --dynamo-relay.dynamodb.endpoint=URL  the DynamoDB: a URL, or `aws`",
				"                                        (unset: an empty, embedded DynamoDB)",
				"  --dynamo-relay.dynamodb.region=NAME   its region",
				"  --dynamo-relay.tables.prefix=PREFIX   only tables whose names start with it" },
		exitCodeListHeading = "%nExit codes:%n",
		exitCodeList = { "0:the schema was printed", "1:the tables could not be read",
				"2:an argument that is not a property" })
public final class GenerateSchemaCommand implements Callable<Integer> {

	/** Defaults that the arguments override. */
	private static final String[] DEFAULTS = Commands.defaults("dynamo-relay.tables.create=false",
			"dynamo-relay.sample-data.enabled=false");

	@Mixin
	private Commands.Help help;

	@Spec
	private CommandSpec spec;

	@Unmatched
	private List<String> properties = new ArrayList<>();

	private GenerateSchemaCommand() {
	}

	/**
	 * Generates the schema and prints it to {@link System#out}.
	 * @param args Spring Boot arguments ({@code --dynamo-relay.dynamodb.endpoint=http://127.0.0.1:8000})
	 * @return the process's exit code: 0 when the schema was printed, 1 when not, 2 for an argument that is
	 * not a property
	 */
	public static int run(String... args) {
		return Commands.execute(new GenerateSchemaCommand(), args);
	}

	@Override
	public Integer call() {
		String[] args = Commands.properties(this.spec, this.properties).toArray(String[]::new);
		return Commands.run("generate-schema", (out, err) -> {
			generate(args, out);
			return 0;
		});
	}

	/**
	 * Prints the schema before the context closes: closing the client waits out its event loops' quiet
	 * period (about two seconds).
	 */
	private static void generate(String[] args, PrintStream out) {
		try (ConfigurableApplicationContext context = start(args)) {
			DynamoDbProperties dynamo = context.getBean(DynamoDbProperties.class);
			String prefix = context.getBean(TablesProperties.class).prefix();
			String source = source(dynamo);
			String schema;
			try {
				schema = new SchemaGenerator(context.getBean(DynamoDbAsyncClient.class), prefix).generate(source);
			}
			catch (RuntimeException ex) {
				throw new IllegalStateException("could not read the tables at " + source + " (" + Commands.reason(ex)
						+ "). Is DynamoDB running there? Set dynamo-relay.dynamodb.endpoint "
						+ "(DYNAMO_RELAY_DYNAMODB_ENDPOINT) to its URL.", ex);
			}
			out.print(schema);
			out.flush();
		}
	}

	private static ConfigurableApplicationContext start(String[] args) {
		try {
			return new SpringApplicationBuilder(Context.class).web(WebApplicationType.NONE)
				.bannerMode(Banner.Mode.OFF)
				.registerShutdownHook(false)
				.properties(DEFAULTS)
				.run(args);
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("could not set up the DynamoDB client (" + Commands.reason(ex)
					+ "). Check dynamo-relay.dynamodb.endpoint, .region and .timeout.", ex);
		}
	}

	/** Where the tables are, for the schema's header. */
	private static String source(DynamoDbProperties dynamo) {
		if (dynamo.embedded()) {
			return "the embedded DynamoDB engine (dynamo-relay.dynamodb.endpoint is not set)";
		}
		if (dynamo.aws()) {
			return "AWS" + ((dynamo.region() != null) ? " (" + dynamo.region() + ")" : "");
		}
		return dynamo.url().orElseThrow().toString();
	}

	/**
	 * The context: DynamoDB's configuration alone. Not a {@code @Configuration}, so that the server's
	 * component scan leaves it out.
	 */
	@Import(DynamoDbConfiguration.class)
	@EnableConfigurationProperties(TablesProperties.class)
	static class Context {

	}

}
