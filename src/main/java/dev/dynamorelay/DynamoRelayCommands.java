package dev.dynamorelay;

import java.util.Arrays;
import java.util.Set;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import dev.dynamorelay.aot.AotCacheCommand;
import dev.dynamorelay.cli.Commands;
import dev.dynamorelay.dynamodb.DynamoDbCommand;
import dev.dynamorelay.export.ExportCommand;
import dev.dynamorelay.iam.GenerateIamPolicyCommand;
import dev.dynamorelay.schemagen.GenerateSchemaCommand;

/**
 * The jar's command line beside the server: its commands, and {@code --help} for them all. A command line
 * that names no command (none, or the server's {@code --property=value}s) starts the server instead, as it
 * always did; only this one is parsed here, before any Spring context.
 */
@Command(name = "dynamo-relay", sortOptions = false,
		customSynopsis = { "java -jar dynamo-relay.jar [--property=value ...]",
				"       java -jar dynamo-relay.jar COMMAND [--help] [OPTIONS]" },
		description = { "Relay cursor connections served straight from Amazon DynamoDB. Without a command it "
				+ "starts the GraphQL server, configured by its properties (--name=value, the environment, "
				+ "application.yml); a command does one job with the same properties and exits.", "" },
		subcommands = { ExportCommand.class, GenerateSchemaCommand.class, GenerateIamPolicyCommand.class,
				AotCacheCommand.class, DynamoDbCommand.class, AutoComplete.GenerateCompletion.class },
		commandListHeading = "%nCommands (`COMMAND --help` describes each):%n",
		exitCodeListHeading = "%nExit codes of the commands:%n",
		exitCodeList = { "0:done", "1:failed while running (one line on standard error says why)",
				"2:a usage mistake (one line on standard error, with the usage)" })
final class DynamoRelayCommands {

	/** The options that ask for this help rather than the server. */
	private static final Set<String> HELP = Set.of("-h", "--help");

	@Mixin
	private Commands.Help help;

	private DynamoRelayCommands() {
	}

	/** Whether {@code args} name a command (or ask for the help), rather than start the server. */
	static boolean named(String... args) {
		if (args.length == 0) {
			return false;
		}
		return HELP.contains(args[0]) || Arrays.stream(DynamoRelayCommands.class.getAnnotation(Command.class).subcommands())
			.anyMatch((command) -> command.getAnnotation(Command.class).name().equals(args[0]));
	}

	/**
	 * Runs the command {@code args} name.
	 * @return the process's exit code
	 */
	static int run(String... args) {
		return Commands.execute(new DynamoRelayCommands(), args);
	}

}
