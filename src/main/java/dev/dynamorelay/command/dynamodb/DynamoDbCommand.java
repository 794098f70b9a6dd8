package dev.dynamorelay.command.dynamodb;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

import dev.dynamorelay.command.cli.Commands;
import dev.dynamorelay.engine.EngineMain;
import dev.dynamorelay.engine.EngineOptions;

/**
 * {@code java -jar dynamo-relay.jar dynamodb --port PORT [--path DIR]}: the project's own DynamoDB engine as a
 * process of its own, the one the server embeds when no endpoint is set, for other programs, tests and the
 * benchmark. No Spring context starts: the engine's own entry point ({@link EngineMain}) parses the options and
 * serves; this command only words its usage mistakes as the jar's other commands do (one line on standard error
 * with the usage, exit code 2).
 */
@Command(name = "dynamodb", sortOptions = false, usageHelpWidth = 120,
		customSynopsis = { DynamoDbCommand.SYNOPSIS },
		header = "Runs the project's own DynamoDB engine on its own, without the server.",
		description = { "%nThe engine the server embeds when dynamo-relay.dynamodb.endpoint is not set, as a process of "
				+ "its own, for the aws CLI, the AWS SDKs and other programs (docs/engine.md). It prints one line with its "
				+ "endpoint on standard output once it listens, and runs until it is stopped (SIGTERM, Ctrl-C). Options "
				+ "may also be given as --name=value.", "", EngineMain.OPTIONS },
		exitCodeListHeading = "%nExit codes:%n",
		exitCodeList = { "0:stopped", "1:it cannot listen (the port is taken, say)", "2:a usage mistake" })
public final class DynamoDbCommand implements Callable<Integer> {

	/** The command line, as its usage and its usage mistakes give it. */
	static final String SYNOPSIS = "java -jar dynamo-relay.jar dynamodb [--port PORT] [--path DIR] [OPTIONS]";

	@Mixin
	private Commands.Help help;

	@Spec
	private CommandSpec spec;

	/** Every argument but the help: the engine's entry point parses them. */
	@Unmatched
	private List<String> arguments = new ArrayList<>();

	private DynamoDbCommand() {
	}

	/**
	 * Runs the engine until the JVM is stopped; picocli, whose model of a command takes about as long to build as
	 * the engine takes to start, only for {@code --help}.
	 * @param args the command's arguments, after its name
	 * @return the process's exit code
	 */
	public static int run(String... args) {
		List<String> arguments = List.of(args);
		if (arguments.contains("-h") || arguments.contains("--help")) {
			return Commands.execute(new DynamoDbCommand(), args);
		}
		return serve(arguments);
	}

	@Override
	public Integer call() {
		return serve(this.arguments);
	}

	/** Parses {@code arguments} and runs the engine; a usage mistake as the jar's other commands answer one. */
	private static int serve(List<String> arguments) {
		try {
			EngineOptions options = EngineMain.parse(engineArguments(arguments));
			if (options == null) {
				// the help, given as the value of another option
				return Commands.execute(new DynamoDbCommand(), "--help");
			}
			// Standard output holds the endpoint line alone: whatever else writes there (a console log appender's
			// warnings) writes to standard error, as in the jar's other commands.
			PrintStream out = System.out;
			System.setOut(System.err);
			return EngineMain.serve(options, out, System.err);
		}
		catch (IllegalArgumentException mistake) {
			String problem = mistake.getMessage();
			System.err.println("dynamodb: " + problem + (problem.endsWith(".") ? "" : ".") + " Usage: " + SYNOPSIS);
			System.err.flush();
			return Commands.USAGE;
		}
	}

	/** The arguments as the engine's entry point takes them: {@code --name=value} split in two. */
	static String[] engineArguments(List<String> arguments) {
		List<String> split = new ArrayList<>();
		for (String argument : arguments) {
			int equals = argument.indexOf('=');
			if (argument.startsWith("--") && equals > 2) {
				split.add(argument.substring(0, equals));
				split.add(argument.substring(equals + 1));
			}
			else {
				split.add(argument);
			}
		}
		return split.toArray(String[]::new);
	}

}
