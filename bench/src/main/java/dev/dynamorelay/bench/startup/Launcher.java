package dev.dynamorelay.bench.startup;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.dynamorelay.bench.support.Processes;
import dev.dynamorelay.bench.support.Report;

/**
 * How the start-up section runs its servers: each runtime's process against the benchmark's engine (or embedded),
 * stopped; the class archive and AOT cache trained as a user makes them; the JDKs and the Node server found.
 */
final class Launcher {

	private final Path jar;

	private final URI dynamoDb;

	private final Path out;

	private final Report rows;

	private final PageLoad pageLoad;

	Launcher(Path jar, URI dynamoDb, Path out, Report rows, PageLoad pageLoad) {
		this.jar = jar;
		this.dynamoDb = dynamoDb;
		this.out = out;
		this.rows = rows;
		this.pageLoad = pageLoad;
	}

	Process start(ServerRuntime runtime, List<String> flags, int port, boolean embedded, String... more)
			throws IOException {
		ProcessBuilder process;
		if (runtime.node()) {
			process = new ProcessBuilder(runtime.command(flags, List.of()));
			process.environment().putAll(Map.of("PORT", Integer.toString(port), "DYNAMODB_ENDPOINT", this.dynamoDb.toString(),
					"CURSOR_SECRET", "benchmark", "NODE_NO_WARNINGS", "1"));
		}
		else {
			List<String> arguments = new ArrayList<>(List.of("--server.port=" + port, "--logging.level.root=WARN"));
			if (!embedded) {
				arguments.addAll(List.of("--dynamo-relay.dynamodb.endpoint=" + this.dynamoDb,
						"--dynamo-relay.cursor.secret=benchmark", "--dynamo-relay.tables.create=true",
						"--dynamo-relay.sample-data.enabled=false"));
			}
			arguments.addAll(List.of(more));
			process = new ProcessBuilder(runtime.command(flags, arguments));
		}
		return process.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(this.out.resolve("startup-server.log").toFile()))
			.start();
	}

	static void stop(Process server) throws InterruptedException {
		server.destroy();
		if (!server.waitFor(30, TimeUnit.SECONDS)) {
			server.destroyForcibly();
			server.waitFor(10, TimeUnit.SECONDS);
		}
	}

	/**
	 * Trains a class archive: runs the server against the benchmark's engine under 40 s of load, then
	 * stops it (SIGTERM), at which the JVM writes {@code archive}.
	 */
	void train(String name, ServerRuntime runtime, List<String> flags, Path archive, List<String> arguments,
			List<byte[]> bodies) throws Exception {
		System.out.printf("Training %s ...%n", name);
		Files.createDirectories(archive.getParent());
		Files.deleteIfExists(archive);
		int port = Processes.freePort();
		long spawned = System.nanoTime();
		Process server = start(runtime, flags, port, false, arguments.toArray(String[]::new));
		try {
			URI graphql = URI.create("http://127.0.0.1:" + port + "/graphql");
			this.pageLoad.load(graphql, bodies, spawned, spawned + Duration.ofSeconds(40).toNanos(), server.pid(), true, PageLoad.CLIENTS);
		}
		finally {
			server.destroy();
			if (!server.waitFor(180, TimeUnit.SECONDS)) {
				server.destroyForcibly();
			}
		}
		if (!Files.isRegularFile(archive)) {
			throw new IllegalStateException("training wrote no " + archive + "; see " + this.out.resolve("startup-server.log"));
		}
		System.out.printf("  %s: %.0f MB%n", archive.getFileName(), Files.size(archive) / 1e6);
	}

	/**
	 * Makes the AOT cache as a {@code java -jar} user does, with the jar's own command ({@code java -jar
	 * dynamo-relay.jar aot-cache}, docs/deploying.md): extracted into {@code destination}, trained there on the
	 * embedded default.
	 * @return the java command it prints, split: java, its flags ({@code -XX:AOTCache} first), {@code -jar} and the jar
	 */
	List<String> aotCache(Path java25, Path destination) throws Exception {
		System.out.println("Making the AOT cache with `java -jar dynamo-relay.jar aot-cache` ...");
		long started = System.nanoTime();
		Process command = new ProcessBuilder(java25.toString(), "-jar", this.jar.toString(), "aot-cache", "--destination",
				destination.toString())
			.redirectError(ProcessBuilder.Redirect.appendTo(this.out.resolve("startup-server.log").toFile()))
			.start();
		String printed = new String(command.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		if (command.waitFor() != 0) {
			throw new IllegalStateException("aot-cache failed; see " + this.out.resolve("startup-server.log"));
		}
		List<String> run = List.of(printed.split(" "));
		System.out.printf("  %s (%.0f s)%n", printed, (System.nanoTime() - started) / 1e9);
		this.rows.row("AOT cache made by `java -jar dynamo-relay.jar aot-cache` (extract, 40 s of training on the embedded default)",
				"%.0f s".formatted((System.nanoTime() - started) / 1e9), "-",
				"%.0f MB".formatted(Files.size(Path.of(run.get(1).substring("-XX:AOTCache=".length()))) / 1e6), "-", null);
		return run;
	}

	/** The fat jar extracted by Spring Boot's own tool: an application jar with its libraries beside it. */
	Path extract(Path java) throws Exception {
		Path destination = this.out.resolve("startup").resolve("extracted");
		if (Files.exists(destination)) {
			try (var paths = Files.walk(destination)) {
				paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
			}
		}
		Process extract = new ProcessBuilder(java.toString(), "-Djarmode=tools", "-jar", this.jar.toString(), "extract",
				"--destination", destination.toString())
			.redirectErrorStream(true)
			.start();
		String output = new String(extract.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (extract.waitFor() != 0) {
			throw new IllegalStateException("extract failed: " + output);
		}
		// No library names a directory in its manifest's Class-Path, which a class archive refuses (JarContentsIT).
		return destination;
	}

	/** bench/node/server.mjs, its packages installed by bench/run ({@code npm ci}). */
	static Path nodeServer() {
		Path server = Path.of("bench", "node", "server.mjs").toAbsolutePath();
		if (!Files.isDirectory(server.resolveSibling("node_modules"))) {
			throw new IllegalStateException("bench/node has no node_modules: bench/run installs them (npm ci)");
		}
		return server;
	}

	static String nodeVersion() throws Exception {
		Process process = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		process.waitFor();
		return output.startsWith("v") ? output.substring(1) : output;
	}

	/** {@code BENCH_JAVA25}, else Temurin 25 where Debian-style machines have it, else null. */
	static Path java25() {
		String given = System.getenv("BENCH_JAVA25");
		Path home = (given != null && !given.isBlank()) ? Path.of(given) : Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");
		Path java = home.resolve("bin").resolve("java");
		return Files.isExecutable(java) ? java : null;
	}

	static String version(Path java) throws Exception {
		Process process = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		process.waitFor();
		Matcher matcher = Pattern.compile("version \"([0-9.]+)").matcher(output);
		return matcher.find() ? matcher.group(1) : "?";
	}

}
