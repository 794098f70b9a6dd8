package dev.dynamorelay.command.cli;

import java.io.File;
import java.util.concurrent.Callable;

import org.springframework.boot.system.ApplicationHome;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar dynamo-relay.jar generate-completion}: a bash (and zsh) completion script of the jar's
 * commands and options, for a shell function {@code dynamo-relay} that the script defines to run this very jar
 * ({@code java -jar /path/to/dynamo-relay.jar}). picocli writes the completion itself; its stock script
 * completes a {@code dynamo-relay} program that does not exist and names picocli's version, so the script
 * here names the project's version and brings the program with it.
 */
@Command(name = "generate-completion", sortOptions = false,
		customSynopsis = { "java -jar dynamo-relay.jar generate-completion" },
		header = "Prints a bash/zsh completion script, with a `dynamo-relay` function that runs this jar.",
		description = { "%nInstall it for the present shell with%n"
				+ "  source <(java -jar dynamo-relay.jar generate-completion)%n"
				+ "or for every shell by saving it and sourcing it from ~/.bashrc (or ~/.zshrc):%n"
				+ "  java -jar dynamo-relay.jar generate-completion > ~/.dynamo-relay-completion.sh%n"
				+ "  echo '. ~/.dynamo-relay-completion.sh' >> ~/.bashrc%n"
				+ "Then `dynamo-relay <TAB>` lists the commands, `dynamo-relay export --<TAB>` their options.", "" },
		exitCodeListHeading = "%nExit codes:%n", exitCodeList = { "0:the script was printed", "2:a usage mistake" })
public final class CompletionCommand implements Callable<Integer> {

	/** The name the script's function and completion go by. */
	static final String NAME = "dynamo-relay";

	@Mixin
	private Commands.Help help;

	@Spec
	private CommandSpec spec;

	@Override
	public Integer call() {
		this.spec.commandLine().getOut().print(script(this.spec.root(), jar()));
		this.spec.commandLine().getOut().flush();
		return 0;
	}

	/** The script for the command {@code root}, whose function runs {@code jar}. */
	static String script(CommandSpec root, String jar) {
		String picocli = AutoComplete.bash(NAME, root.commandLine());
		// picocli's header (its version, its installation for a program on the PATH) gives way to ours; from the
		// shell options on, the script is picocli's, completing only the function.
		String body = picocli.substring(picocli.indexOf("if [ -n \"$BASH_VERSION\" ]"))
			.replace("complete -F _complete_" + NAME + " -o default " + NAME + " " + NAME + ".sh " + NAME + ".bash",
					"complete -F _complete_" + NAME + " -o default " + NAME)
			.replace("# `" + NAME + "`, `" + NAME + ".sh`, and `" + NAME + ".bash` commands.",
					"# `" + NAME + "` function.");
		String version = Version.of();
		return """
				#!/usr/bin/env bash
				#
				# Completion of dynamo-relay %s's commands and options, for bash (and zsh, by its bashcompinit).
				#
				# It defines `%s`, a function that runs %s, and completes its arguments:
				# `%s <TAB>` lists the commands, `%s export --<TAB>` an export's options.
				# Install it for this shell:   source <(java -jar %s generate-completion)
				# or for every shell: save it and source it from ~/.bashrc (or ~/.zshrc).
				# Made by `java -jar dynamo-relay.jar generate-completion`, with picocli.

				%s() { java -jar %s "$@"; }

				""".formatted(version, NAME, "java -jar " + jar, NAME, NAME, jar, NAME, quoted(jar)) + body;
	}

	/** This jar's path when it runs from one (the script's function runs it), else {@code dynamo-relay.jar}. */
	private static String jar() {
		File source = new ApplicationHome(CompletionCommand.class).getSource();
		return (source != null && source.isFile() && source.getName().endsWith(".jar")) ? source.getAbsolutePath()
				: "dynamo-relay.jar";
	}

	private static String quoted(String path) {
		return "'" + path.replace("'", "'\\''") + "'";
	}

}
