package dev.dynamorelay.command.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.springframework.beans.BeansException;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * What the jar's commands ({@code generate-schema}, {@code generate-iam-policy}, {@code export},
 * {@code aot-cache}) share: their command lines are parsed by picocli before any Spring context starts
 * ({@code --help} on standard output and exit code 0; a usage mistake one line on standard error and exit code 2), standard output
 * holds the command's own output alone, a failure is one line on standard error, and their Spring
 * contexts log warnings only.
 */
public final class Commands {

	/** The exit code of a command line that cannot be run. */
	public static final int USAGE = 2;

	/** Logging of a command's Spring context: warnings, without Spring's start-up report or failure analysis. */
	private static final String[] QUIET = { "spring.main.log-startup-info=false", "logging.level.root=WARN",
			"logging.level.org.springframework=ERROR", "logging.level.org.springframework.boot.SpringApplication=OFF",
			"logging.level.org.springframework.boot.diagnostics=OFF" };

	private Commands() {
	}

	/**
	 * Parses {@code args} for {@code command} (a picocli {@code @Command}, with its subcommands) and runs
	 * it: {@code --help} prints its help to standard output, a usage mistake is one line on standard error
	 * ({@link #refuse}).
	 * @return the process's exit code
	 */
	public static int execute(Object command, String... args) {
		return commandLine(command).execute(args);
	}

	/** The picocli command line of {@code command}, as every command of the jar parses it. */
	public static CommandLine commandLine(Object command) {
		return new CommandLine(command)
			// An argument that starts with @ is a value (a connection, a file), as before: no argument files.
			.setExpandAtFiles(false)
			// The last of a repeated option wins, as it did before.
			.setOverwrittenOptionsAllowed(true)
			.setParameterExceptionHandler(Commands::refuse);
	}

	/**
	 * Answers a usage mistake: {@code NAME: problem Usage: synopsis} in one line on standard error, and
	 * {@link #USAGE}. A script reading standard error gets one line; a person gets what to type.
	 */
	private static int refuse(ParameterException mistake, String[] args) {
		CommandLine command = mistake.getCommandLine();
		// A mistyped option is the likelier cause of what picocli found wrong after it (a required option missing).
		String problem = command.getUnmatchedArguments()
			.stream()
			.map((arg) -> propertyProblem(command.getCommandSpec(), arg))
			.flatMap(Optional::stream)
			.findFirst()
			.orElseGet(() -> problem(mistake, args));
		command.getErr().println(command.getCommandName() + ": " + problem + " " + usage(command));
		command.getErr().flush();
		return USAGE;
	}

	/** A command's synopsis in one line, {@code Usage: ...}, for a usage mistake's line. */
	public static String usage(CommandLine command) {
		return "Usage: " + command.getHelp().synopsis(0).replaceAll("\\s+", " ").trim();
	}

	/**
	 * What is wrong with a command line, in one sentence: picocli's own words where they are ours already
	 * (a converter's refusal, a command's check), else what is missing or needs a value.
	 */
	public static String problem(ParameterException mistake, String[] args) {
		if (mistake instanceof MissingParameterException missing && !missing.getMissing().isEmpty()) {
			return missing.getMissing().stream().map((spec) -> missing(spec, args)).collect(Collectors.joining(" "));
		}
		if (mistake instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()
				&& !unmatched.getCommandLine().getSubcommands().isEmpty()) {
			// The jar's own command line: its first word names no command.
			String word = unmatched.getUnmatched().get(0);
			Collection<String> commands = unmatched.getCommandLine().getSubcommands().keySet();
			return word.startsWith("-")
					? sentence("`" + word + "` is not an option", PropertyNames.load().suggestion(
							word.replaceFirst("^-+", "").replaceFirst("=.*", ""), List.of("--help", "--version")))
					: PropertyNames.closest(word, commands)
						.map((meant) -> sentence("`" + word + "` is not a command", Optional.of(meant)))
						.orElse("`" + word + "` is not a command (the commands: " + String.join(", ", commands) + ").");
		}
		ArgSpec spec = mistake.getArgSpec();
		if (mistake.getCause() instanceof TypeConversionException refused && spec != null
				&& spec.converters().length > 0) {
			// The command's own converters say what they refuse in a whole sentence, option and value included.
			return refused.getMessage();
		}
		return mistake.getMessage();
	}

	/** A missing option or parameter: left out, or given without its value. */
	private static String missing(ArgSpec spec, String[] args) {
		if (spec instanceof OptionSpec option) {
			boolean given = Arrays.stream(args)
				.anyMatch((arg) -> Arrays.stream(option.names()).anyMatch((name) -> arg.equals(name)
						|| arg.startsWith(name + "=")));
			return given ? "`" + option.longestName() + "` needs a value." : option.longestName() + " is missing.";
		}
		return spec.paramLabel() + " is missing.";
	}

	/**
	 * The Spring properties among a command line's arguments that are no option of its command: each must
	 * be {@code --name=value}, a name with dots, and a {@code dynamo-relay.*} one that the configuration
	 * metadata knows ({@link #propertyProblem}).
	 * @throws ParameterException for any other argument
	 */
	public static List<String> properties(CommandSpec command, List<String> unmatched) {
		for (String arg : unmatched) {
			Optional<String> problem = propertyProblem(command, arg);
			if (problem.isPresent()) {
				throw new ParameterException(command.commandLine(), problem.get());
			}
			if (!arg.startsWith("--") || !arg.contains("=")) {
				throw new ParameterException(command.commandLine(),
						"`" + arg + "` is not an option: properties are given as `--name=value`.");
			}
		}
		return List.copyOf(unmatched);
	}

	/**
	 * What is wrong with {@code arg}, an argument of {@code command} that is none of its options, as a property:
	 * a name without a dot is an option the command does not have, a {@code dynamo-relay.*} name must be one the
	 * configuration metadata knows; each with what was most likely meant (the command's options, the properties).
	 * @return the problem in a sentence, or empty for another argument (a {@code --name=value} of another
	 * prefix, a word without dashes) that the command judges itself
	 */
	public static Optional<String> propertyProblem(CommandSpec command, String arg) {
		if (!arg.startsWith("--")) {
			return Optional.empty();
		}
		int equals = arg.indexOf('=');
		String name = arg.substring(2, (equals >= 0) ? equals : arg.length());
		boolean ours = PropertyNames.ours(name);
		if (!ours && name.contains(".")) {
			return Optional.empty();
		}
		PropertyNames names = PropertyNames.load();
		if (ours && names.known(name)) {
			return Optional.empty();
		}
		List<String> options = command.options().stream().map(OptionSpec::longestName).toList();
		return Optional.of(sentence("`--" + name + "` is not " + (ours ? "a property of dynamo-relay" : "an option of "
				+ command.name()), names.suggestion(name, options)));
	}

	/** {@code statement}, then {@code ; did you mean `suggestion`?} or, without a suggestion, a full stop. */
	public static String sentence(String statement, Optional<String> suggestion) {
		return statement + suggestion.map((meant) -> "; did you mean `" + meant + "`?").orElse(".");
	}

	/** A command's default properties: {@code more}, after the quiet logging of every command. */
	public static String[] defaults(String... more) {
		return Stream.concat(Arrays.stream(QUIET), Arrays.stream(more)).toArray(String[]::new);
	}

	/**
	 * Runs a command. While it runs, whatever else writes to {@link System#out} (a console log appender)
	 * writes to standard error, so that standard output is the command's own; a failure its body does
	 * not answer itself is {@code NAME failed: reason} on standard error and exit code 1.
	 * @param name the command, as its users type it
	 * @param body the command, given standard output and standard error
	 * @return the process's exit code
	 */
	public static int run(String name, Body body) {
		PrintStream out = System.out;
		PrintStream err = System.err;
		System.setOut(err);
		try {
			return body.run(out, err);
		}
		catch (RuntimeException | Error ex) {
			err.println(name + " failed: " + reason(ex));
			if (ex instanceof Error) {
				// Out of memory, a stack overflow: where it happened is worth the lines.
				ex.printStackTrace(err);
			}
			return 1;
		}
		finally {
			out.flush();
			err.flush();
			System.setOut(out);
		}
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

	/** The {@code -h}, {@code --help} option of every command (a picocli mixin). */
	public static final class Help {

		@Option(names = { "-h", "--help" }, usageHelp = true, description = "Shows this help and exits.")
		boolean help;

	}

	/** A command's work: what it writes, and its exit code. */
	@FunctionalInterface
	public interface Body {

		int run(PrintStream out, PrintStream err);

	}

}
