package dev.dynamorelay;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import dev.dynamorelay.command.aot.AotCacheCommand;
import dev.dynamorelay.command.check.CheckCommand;
import dev.dynamorelay.command.cli.Commands;
import dev.dynamorelay.command.cli.CompletionCommand;
import dev.dynamorelay.command.cli.PropertyNames;
import dev.dynamorelay.command.cli.Version;
import dev.dynamorelay.command.dynamodb.DynamoDbCommand;
import dev.dynamorelay.command.export.ExportCommand;
import dev.dynamorelay.command.iam.GenerateIamPolicyCommand;
import dev.dynamorelay.command.schemagen.GenerateSchemaCommand;

/**
 * The jar's command line beside the server: its commands, {@code --help} for them all and {@code --version}. A
 * command line of the server's {@code --property=value}s alone (or none) starts the server instead, once
 * {@link #serverProblem} finds every one of them a property; a first word that is no command is refused, with the
 * command it most likely meant. All of it is parsed here, before any Spring context.
 */
@Command(name = "dynamo-relay", sortOptions = false, versionProvider = Version.class,
		customSynopsis = { "java -jar dynamo-relay.jar [--property=value ...]",
				"       java -jar dynamo-relay.jar COMMAND [--help] [OPTIONS]" },
		description = { "Relay cursor connections served straight from Amazon DynamoDB. Without a command it "
				+ "starts the GraphQL server, configured by its properties (--name=value, the environment, "
				+ "application.yml); a command does one job with the same properties and exits.", "" },
		subcommands = { ExportCommand.class, GenerateSchemaCommand.class, GenerateIamPolicyCommand.class,
				CheckCommand.class, AotCacheCommand.class, DynamoDbCommand.class, CompletionCommand.class },
		commandListHeading = "%nCommands (`COMMAND --help` describes each):%n",
		exitCodeListHeading = "%nExit codes of the commands:%n",
		exitCodeList = { "0:done", "1:failed while running (one line on standard error says why)",
				"2:a usage mistake (one line on standard error, with the usage)" })
final class DynamoRelayCommands {

	/** The options that ask for this help, or the version, rather than the server. */
	private static final Set<String> HELP = Set.of("-h", "--help", "-V", "--version");

	/** The server's synopsis, for a mistake in its arguments. */
	private static final String SERVER_USAGE = "Usage: java -jar dynamo-relay.jar [--property=value ...]";

	@Mixin
	private Commands.Help help;

	@Option(names = { "-V", "--version" }, versionHelp = true, description = "Prints the version and exits.")
	private boolean version;

	private DynamoRelayCommands() {
	}

	/**
	 * Whether {@code args} name a command (or ask for the help or the version), rather than start the server: a
	 * first argument that is not an option is a command, and one that is none is refused as a command would be.
	 */
	static boolean named(String... args) {
		if (args.length == 0) {
			return false;
		}
		return HELP.contains(args[0]) || !args[0].startsWith("-");
	}

	/** The names of the commands. */
	static List<String> commands() {
		return Arrays.stream(DynamoRelayCommands.class.getAnnotation(Command.class).subcommands())
			.map((command) -> command.getAnnotation(Command.class).name())
			.toList();
	}

	/**
	 * What is wrong with the server's arguments {@code args}, if anything: each must be a property,
	 * {@code --name=value} (or one of Spring Boot's switches, {@code --debug}); a name without a dot is no
	 * option of the server, and a {@code dynamo-relay.*} name the configuration metadata does not know is a
	 * slip. Others' properties ({@code server.port}, {@code logging.level.*}) are Spring's to judge.
	 * @return the problem, in a sentence with what was most likely meant
	 */
	static Optional<String> serverProblem(String... args) {
		PropertyNames names = null;
		for (String arg : args) {
			if (!arg.startsWith("--") || arg.length() == 2) {
				return Optional.of("`" + arg + "` is not a property: the server's properties are given as `--name=value`"
						+ " (a command comes first: " + String.join(", ", commands()) + ").");
			}
			if (HELP.contains(arg)) {
				return Optional.of("`" + arg + "` is not an option of the server: give it first, `java -jar dynamo-relay.jar "
						+ arg + "`.");
			}
			int equals = arg.indexOf('=');
			String name = arg.substring(2, (equals >= 0) ? equals : arg.length());
			boolean ours = PropertyNames.ours(name);
			if (!ours && (name.contains(".") || PropertyNames.isSwitch(name))) {
				continue;
			}
			if (names == null) {
				names = PropertyNames.load();
			}
			if (ours && names.known(name)) {
				continue;
			}
			String what = ours ? "is not a property of dynamo-relay" : "is not an option of the server";
			return Optional.of(Commands.sentence("`--" + name + "` " + what, names.suggestion(name, List.of("--help", "--version"))));
		}
		return Optional.empty();
	}

	/**
	 * What is wrong with the environment {@code variables}, if anything: a {@code DYNAMO_RELAY_*} variable that
	 * names none of the project's properties would be bound to nothing, in silence, as a mistyped argument.
	 * @return the problem, in a sentence with the variable most likely meant
	 */
	static Optional<String> environmentProblem(Map<String, String> variables) {
		PropertyNames names = null;
		for (String variable : new TreeSet<>(variables.keySet())) {
			if (!PropertyNames.ours(variable, true)) {
				continue;
			}
			if (names == null) {
				names = PropertyNames.load();
			}
			if (!names.knownVariable(variable)) {
				return Optional.of(Commands.sentence("environment variable `" + variable + "` is not a property of "
						+ "dynamo-relay", names.variableSuggestion(variable)));
			}
		}
		return Optional.empty();
	}

	/**
	 * Refuses the server's arguments when {@link #serverProblem} finds one: one line on {@code err}.
	 * @return {@link Commands#USAGE}, or empty when the server may start
	 */
	static Optional<Integer> refuseServer(PrintStream err, String... args) {
		return serverProblem(args).or(() -> environmentProblem(System.getenv())).map((problem) -> {
			err.println("dynamo-relay: " + problem + " " + SERVER_USAGE);
			err.flush();
			return Commands.USAGE;
		});
	}

	/**
	 * Runs the command {@code args} name.
	 * @return the process's exit code
	 */
	static int run(String... args) {
		return Commands.execute(new DynamoRelayCommands(), args);
	}

}
