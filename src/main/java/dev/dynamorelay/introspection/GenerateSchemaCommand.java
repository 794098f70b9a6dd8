package dev.dynamorelay.introspection;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import org.springframework.beans.BeansException;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import dev.dynamorelay.dynamodb.DynamoDbConfiguration;
import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.dynamodb.TablesProperties;

/**
 * {@code java -jar dynamo-relay.jar generate-schema [--property=value...]}: prints a schema for the
 * tables at the configured DynamoDB endpoint to standard output, and nothing else.
 *
 * <p>It reads the server's own properties ({@code dynamo-relay.dynamodb.endpoint}, {@code .region},
 * {@code dynamo-relay.tables.prefix}, from arguments, the environment or {@code application.yml})
 * through a Spring context of the DynamoDB configuration alone, without a web server, and neither creates
 * tables nor loads sample data. Logs go to standard error. A failure is one paragraph on standard error
 * and exit code 1.
 */
public final class GenerateSchemaCommand {

	/** Defaults that the arguments override. */
	private static final String[] DEFAULTS = { "dynamo-relay.tables.create=false",
			"dynamo-relay.sample-data.enabled=false", "spring.main.log-startup-info=false", "logging.level.root=WARN",
			// Failures are reported in one paragraph below, not as logged stack traces.
			"logging.level.org.springframework=ERROR", "logging.level.org.springframework.boot.SpringApplication=OFF",
			"logging.level.org.springframework.boot.diagnostics=OFF" };

	private GenerateSchemaCommand() {
	}

	/**
	 * Generates the schema and prints it to {@link System#out}.
	 * @param args Spring Boot arguments ({@code --dynamo-relay.dynamodb.endpoint=http://127.0.0.1:8000})
	 * @return the process's exit code: 0 when the schema was printed, 1 when not
	 */
	public static int run(String... args) {
		PrintStream out = System.out;
		PrintStream err = System.err;
		// Whatever writes to standard output while the context runs (a console log appender) writes to
		// standard error instead: standard output is the schema's alone.
		System.setOut(err);
		try {
			generate(args, out);
			return 0;
		}
		catch (RuntimeException ex) {
			err.println("generate-schema failed: " + reason(ex));
			err.flush();
			return 1;
		}
		finally {
			System.setOut(out);
		}
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
				throw new IllegalStateException("could not read the tables at " + source + " (" + reason(ex)
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
			throw new IllegalStateException("could not set up the DynamoDB client (" + reason(ex)
					+ "). Check dynamo-relay.dynamodb.endpoint, .region and .timeout.", ex);
		}
	}

	/** Where the tables are, for the schema's header. */
	private static String source(DynamoDbProperties dynamo) {
		if (dynamo.embedded()) {
			return "the embedded DynamoDB Local (dynamo-relay.dynamodb.endpoint is not set)";
		}
		if (dynamo.aws()) {
			return "AWS" + ((dynamo.region() != null) ? " (" + dynamo.region() + ")" : "");
		}
		return dynamo.url().orElseThrow().toString();
	}

	/**
	 * Why something failed, in one line: the message of the first exception that is not a mere wrapper
	 * (of a future, or of Spring's bean creation), with its root cause's message when that adds anything.
	 */
	public static String reason(Throwable failure) {
		List<Throwable> chain = new ArrayList<>();
		for (Throwable cause = failure; cause != null && !chain.contains(cause); cause = cause.getCause()) {
			chain.add(cause);
		}
		Throwable first = chain.stream()
			.filter((cause) -> !(cause instanceof CompletionException || cause instanceof ExecutionException
					|| cause instanceof BeansException) && message(cause) != null)
			.findFirst()
			.orElse(chain.get(chain.size() - 1));
		Throwable root = chain.get(chain.size() - 1);
		String reason = (message(first) != null) ? message(first) : first.getClass().getName();
		String rootMessage = message(root);
		if (root != first && rootMessage != null && !reason.contains(rootMessage)) {
			reason = reason + ": " + rootMessage;
		}
		return reason.replaceAll("\\s+", " ").trim();
	}

	private static String message(Throwable failure) {
		String message = failure.getMessage();
		return (message == null || message.isBlank()) ? null : message;
	}

	/**
	 * The context: DynamoDB's configuration alone. Not a {@code @Configuration}, so that the server's
	 * component scan leaves it out.
	 */
	@Import(DynamoDbConfiguration.class)
	static class Context {

	}

}
