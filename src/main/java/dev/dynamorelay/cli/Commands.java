package dev.dynamorelay.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

import org.springframework.beans.BeansException;

/**
 * What the jar's commands ({@code generate-schema}, {@code generate-iam-policy}, {@code export}) share:
 * standard output holds the command's own output alone, a failure is one line on standard error, and
 * their Spring contexts log warnings only.
 */
public final class Commands {

	/** Logging of a command's Spring context: warnings, without Spring's start-up report or failure analysis. */
	private static final String[] QUIET = { "spring.main.log-startup-info=false", "logging.level.root=WARN",
			"logging.level.org.springframework=ERROR", "logging.level.org.springframework.boot.SpringApplication=OFF",
			"logging.level.org.springframework.boot.diagnostics=OFF" };

	private Commands() {
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

	/** A command's work: what it writes, and its exit code. */
	@FunctionalInterface
	public interface Body {

		int run(PrintStream out, PrintStream err);

	}

}
