package dev.dynamorelay.command.aot;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import dev.dynamorelay.command.cli.Commands;

/**
 * {@code java -jar dynamo-relay.jar aot-cache}: makes the JVM AOT cache (JEP 483/514/515, Java 25) that
 * lets a {@code java -jar} user start the server in about half the time and serve more in its first
 * minute, in one command.
 *
 * <p>A cache holds classes as loaded and linked, and the methods' profiles, of a training run; the JVM
 * maps it at start instead of loading, verifying and profiling those classes again. It cannot hold classes
 * read out of a fat jar's nested jars (Spring Boot's own class loader), so the command:
 * <ol>
 * <li>extracts the jar with Spring Boot's own tool ({@code -Djarmode=tools extract}) into the destination:
 * the application jar with its libraries in {@code lib/};</li>
 * <li>runs the extracted jar with {@code -XX:AOTCacheOutput} on the embedded default (the project's own
 * DynamoDB engine and the sample, on loopback ports of its own) under {@link TrainingLoad} for {@code --seconds}, stops it
 * gracefully, and waits while the JVM writes the cache;</li>
 * <li>prints the command that runs the server with it, and with {@link #RUN_FLAGS}.</li>
 * </ol>
 * The cache is valid for the same {@code java} (its exact version) and the same files; the server's
 * properties, schema and endpoint may differ from the training's: a cache holds code, not configuration.
 */
@Command(name = "aot-cache", sortOptions = false,
		customSynopsis = { "java -jar dynamo-relay.jar aot-cache [--destination=DIR] [--seconds=N]" },
		header = "Makes a JVM AOT cache (Java 25) for starting the server faster, and says how to run it.",
		description = { "%nExtracts this jar into DIR, trains the server there (the embedded default under "
				+ "a load of GraphQL and REST requests) with -XX:AOTCacheOutput, and writes DIR/dynamo-relay.aot. "
				+ "Run it with the java that will run the server: the cache is valid for that JVM only. "
				+ "Standard output holds the command that runs the server with the cache.", "" },
		exitCodeListHeading = "%nExit codes:%n",
		exitCodeList = { "0:the cache was written", "1:extracting or training failed (one line says why)",
				"2:a usage mistake, or a java older than 25" })
public final class AotCacheCommand implements Callable<Integer> {

	/** The cache's file name in the destination. */
	static final String CACHE = "dynamo-relay.aot";

	/**
	 * The JIT setting the printed command adds to the cache: the tiered compilation thresholds at four times
	 * the JVM's. Measured side by side with the cache on two cores (bench/README.md, "Start-up and the runtime
	 * levers"), fewer methods compiled early leave more of the cores to the requests: 1.25 to 1.5 times the pages
	 * in the first 30 s, the first answer under load 0.4 to 0.6 s sooner, and the same warm figures after 5 minutes (the
	 * last compilations come later: 78% of the warm pages/s at 2.5 minutes in one run).
	 */
	static final String RUN_FLAGS = "-XX:CompileThresholdScaling=4";

	/** How long the training server may take to answer its first request. */
	private static final Duration STARTUP = Duration.ofMinutes(3);

	/** How long the JVM may take to write the cache once the training server stopped. */
	private static final Duration WRITING = Duration.ofMinutes(10);

	@Mixin
	private Commands.Help help;

	@Spec
	private CommandSpec spec;

	@Option(names = "--destination", paramLabel = "DIR", description = "Where the extracted jar and the cache go "
			+ "(default: dynamo-relay-aot beside the jar); files already there are overwritten.")
	private Path destination;

	@Option(names = "--seconds", paramLabel = "N", defaultValue = "40",
			description = "Seconds of training load (default: ${DEFAULT-VALUE}).")
	private int seconds;

	private AotCacheCommand() {
	}

	/**
	 * Makes the cache.
	 * @return the process's exit code
	 */
	public static int run(String... args) {
		return Commands.execute(new AotCacheCommand(), args);
	}

	@Override
	public Integer call() {
		if (this.seconds < 5 || this.seconds > 3600) {
			throw new ParameterException(this.spec.commandLine(), "--seconds must be between 5 and 3600, got " + this.seconds + ".");
		}
		Path jar = ownJar();
		Path into = (this.destination != null) ? this.destination.toAbsolutePath().normalize()
				: jar.resolveSibling("dynamo-relay-aot");
		if (into.equals(jar.getParent())) {
			throw new ParameterException(this.spec.commandLine(), "--destination must not be the jar's own directory: "
					+ "the extracted application jar would overwrite " + jar.getFileName() + ".");
		}
		if (Runtime.version().feature() < 25) {
			throw new ParameterException(this.spec.commandLine(), "an AOT cache needs Java 25 or later, and this is Java "
					+ Runtime.version() + ": run this command with the Java 25 `java` that will run the server.");
		}
		return Commands.run("aot-cache", (out, err) -> {
			try {
				return make(jar, into, out, err);
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex.getMessage(), ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted", ex);
			}
		});
	}

	private int make(Path jar, Path into, PrintStream out, PrintStream err) throws IOException, InterruptedException {
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		err.printf("aot-cache: extracting %s into %s%n", jar.getFileName(), into);
		exec(List.of(java.toString(), "-Djarmode=tools", "-jar", jar.toString(), "extract", "--force", "--destination",
				into.toString()), err);
		// A cache refuses a directory on the class path; no library's manifest adds one (JarContentsIT checks).
		Path application = into.resolve(jar.getFileName());
		Path cache = into.resolve(CACHE);
		Files.deleteIfExists(cache);
		int port = freePort();
		List<String> training = List.of(java.toString(), "-XX:AOTCacheOutput=" + cache, "-jar", application.toString(),
				"--server.port=" + port, "--logging.level.root=WARN");
		err.printf("aot-cache: training for %d s on the embedded default (port %d) ...%n", this.seconds, port);
		Path log = into.resolve("aot-training.log");
		ProcessBuilder builder = new ProcessBuilder(training).directory(into.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile());
		// The embedded default, whatever configures the server where the command runs: no endpoint, schema, port
		// or secret from the environment (an ./application.yml is not read either: the working directory is DIR).
		builder.environment().keySet().removeIf((name) -> name.startsWith("DYNAMO_RELAY_") || name.startsWith("SPRING_")
				|| name.startsWith("SERVER_") || name.startsWith("MANAGEMENT_") || name.equals("JAVA_TOOL_OPTIONS")
				|| name.equals("JDK_JAVA_OPTIONS"));
		Process server = builder.start();
		// The training JVM and the child JVM it starts to write the cache never outlive this command.
		Thread reaper = new Thread(() -> stop(server), "aot-cache-reaper");
		Runtime.getRuntime().addShutdownHook(reaper);
		try {
			try {
				TrainingLoad load = new TrainingLoad(URI.create("http://127.0.0.1:" + port));
				load.awaitUp(server, STARTUP);
				String done = load.run(Duration.ofSeconds(this.seconds), 2);
				err.println("aot-cache: " + done);
			}
			catch (RuntimeException ex) {
				throw new IllegalStateException(ex.getMessage() + " (the training server's log: " + log + ")", ex);
			}
			server.destroy();
			err.println("aot-cache: the training server is stopping; its JVM writes the cache ...");
			if (!server.waitFor(WRITING.toSeconds(), TimeUnit.SECONDS)) {
				throw new IllegalStateException("the JVM did not write the cache within " + WRITING.toMinutes() + " minutes; see " + log);
			}
		}
		finally {
			stop(server);
			Runtime.getRuntime().removeShutdownHook(reaper);
		}
		if (!Files.isRegularFile(cache)) {
			throw new IllegalStateException("the training JVM wrote no cache; see " + log);
		}
		err.printf("aot-cache: wrote %s (%d MB)%n", cache, Files.size(cache) / 1_000_000);
		out.println(runCommand(java, cache, application));
		return 0;
	}

	/** The command that runs the server with the cache, as the command prints it. */
	static String runCommand(Path java, Path cache, Path application) {
		return java + " -XX:AOTCache=" + cache + " " + RUN_FLAGS + " -jar " + application;
	}

	/** Stops the training JVM and whatever it started (the cache's writer), forcibly if it still runs. */
	private static void stop(Process server) {
		server.descendants().forEach(ProcessHandle::destroyForcibly);
		server.destroyForcibly();
		try {
			server.waitFor(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** The fat jar this command runs from ({@code java -jar}), else a usage mistake. */
	private Path ownJar() {
		String classPath = System.getProperty("java.class.path", "");
		Path jar = classPath.contains(java.io.File.pathSeparator) ? null : Path.of(classPath).toAbsolutePath();
		if (jar == null || !jar.toString().endsWith(".jar") || !Files.isRegularFile(jar)) {
			throw new ParameterException(this.spec.commandLine(),
					"aot-cache extracts the jar it runs from: run it as `java -jar dynamo-relay.jar aot-cache`.");
		}
		return jar;
	}

	private static void exec(List<String> command, PrintStream err) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes());
		if (process.waitFor() != 0) {
			throw new IllegalStateException("`" + String.join(" ", command.subList(1, command.size())) + "` failed: "
					+ output.strip());
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
