package dev.dynamorelay.bench.engine;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.bench.support.BenchDynamoDb;
import dev.dynamorelay.bench.support.Processes;

/** A server's process: the engine's JVM or dynalite's node. */
record EngineServer(Process process, URI endpoint, String version) implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** The npm packages of the engine's outside checks, dynalite among them, with their package-lock.json. */
	private static final Path DYNALITE_PACKAGES = Path.of("src", "test", "js", "engine");

	long pid() {
		return this.process.pid();
	}

	/** The engine as a user runs it on its own: the jar's {@code dynamodb} command, in memory, the JVM's defaults. */
	static EngineServer engine(Path jar, Path out) throws Exception {
		String flags = System.getenv("BENCH_ENGINE_JVM");
		List<String> given = (flags == null || flags.isBlank()) ? List.of() : List.of(flags.trim().split("\\s+"));
		BenchDynamoDb engine = BenchDynamoDb.start(jar, given, out.resolve("engine.log"));
		return new EngineServer(engine.process(), engine.endpoint(), "Java " + System.getProperty("java.version")
				+ ", the JVM's defaults" + (given.isEmpty() ? "" : " and " + flags.trim()));
	}

	/** dynalite's command line in memory, its tables ACTIVE at once (as the engine's are). */
	static EngineServer dynalite() throws IOException {
		Path folder = installed(DYNALITE_PACKAGES).resolve("node_modules").resolve("dynalite");
		int port = Processes.freePort();
		Process process = new ProcessBuilder("node", folder.resolve("cli.js").toString(), "--host", "127.0.0.1", "--port",
				Integer.toString(port), "--createTableMs", "0")
			.redirectErrorStream(true)
			.start();
		firstLine(process, "Dynalite listening");
		String version = JSON.readTree(folder.resolve("package.json").toFile()).get("version").asString();
		String node = new String(new ProcessBuilder("node", "--version").start().getInputStream().readAllBytes(),
				StandardCharsets.UTF_8).trim();
		System.out.printf("  dynalite %s: http://127.0.0.1:%d, pid %d, node %s%n", version, port, process.pid(), node);
		return new EngineServer(process, URI.create("http://127.0.0.1:" + port), "dynalite " + version + ", node " + node);
	}

	/** Waits for the process's line that says it listens, then drains what it prints after. */
	private static String firstLine(Process process, String prefix) throws IOException {
		BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		String line = output.readLine();
		while (line != null && !line.startsWith(prefix)) {
			line = output.readLine();
		}
		if (line == null) {
			process.destroyForcibly();
			throw new IllegalStateException("the process ended before saying: " + prefix);
		}
		Thread drain = new Thread(() -> output.lines().forEach((ignored) -> {
		}), "server-output");
		drain.setDaemon(true);
		drain.start();
		return line;
	}

	/**
	 * {@code folder} with its npm packages installed from its package-lock.json by {@code web/scripts/install.mjs},
	 * as the build installs web/'s and the engine's tests install these.
	 */
	private static Path installed(Path folder) throws IOException {
		Path log = Files.createTempFile("engine-npm", ".log");
		Process process = new ProcessBuilder("node", Path.of("web", "scripts", "install.mjs").toString(), folder.toString())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			if (!process.waitFor(10, TimeUnit.MINUTES)) {
				process.destroyForcibly();
				throw new IllegalStateException("npm ci in " + folder + " took over 10 minutes");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		String output = Files.readString(log, StandardCharsets.UTF_8);
		Files.deleteIfExists(log);
		if (process.exitValue() != 0) {
			throw new IllegalStateException("npm ci in " + folder + " failed:\n" + output);
		}
		return folder;
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
		}
	}

}
