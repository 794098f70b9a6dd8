package dev.dynamorelay;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.ToIntFunction;

import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;

/**
 * What a command of the jar's command line returned and printed, for the tests that run one in this JVM.
 *
 * @param code the exit code the command returned
 * @param stdout what it printed on standard output
 * @param stderr what it printed on standard error
 */
public record CommandOutput(int code, String stdout, String stderr) {

	/**
	 * Runs {@code command} with {@code args}: System.out and System.err are captured while it runs and put
	 * back after, whatever it throws.
	 */
	public static CommandOutput run(ToIntFunction<String[]> command, String... args) {
		PrintStream out = System.out;
		PrintStream err = System.err;
		ByteArrayOutputStream stdout = new ByteArrayOutputStream();
		ByteArrayOutputStream stderr = new ByteArrayOutputStream();
		System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
		System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
		// What logback noted before the command (a warning of a logger used while an earlier test's context had
		// reset logging) is printed by the next start of logging, the command's: not the command's output.
		if (LoggerFactory.getILoggerFactory() instanceof LoggerContext logback) {
			logback.getStatusManager().clear();
		}
		try {
			int code = command.applyAsInt(args);
			return new CommandOutput(code, stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
		}
		finally {
			System.setOut(out);
			System.setErr(err);
		}
	}

}
