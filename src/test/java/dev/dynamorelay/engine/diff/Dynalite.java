package dev.dynamorelay.engine.diff;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.dynamorelay.engine.NodePackages;

/**
 * dynalite (architect/dynalite, Apache-2.0), an independent DynamoDB written in Node.js, as a process of its own on
 * 127.0.0.1: the implementation the engine's answers are compared with. It is one of the npm packages of the
 * engine's outside checks ({@link NodePackages}); its tables are ACTIVE at once, as the engine's are.
 */
final class Dynalite implements AutoCloseable {


	private final Process process;

	private final URI endpoint;

	private Dynalite(Process process, URI endpoint) {
		this.process = process;
		this.endpoint = endpoint;
	}

	static Dynalite start() {
		Path cli = NodePackages.installed().resolve(Path.of("node_modules", "dynalite", "cli.js"));
		if (!Files.isRegularFile(cli)) {
			throw new IllegalStateException(cli + " is missing after npm ci: is dynalite in its package.json?");
		}
		int port = freePort();
		ProcessBuilder builder = new ProcessBuilder(List.of("node", cli.toString(), "--host", "127.0.0.1", "--port",
				Integer.toString(port), "--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0"))
			.redirectErrorStream(true);
		try {
			Process process = builder.start();
			BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
			String line = output.readLine();
			if (line == null || !line.startsWith("Dynalite listening")) {
				process.destroyForcibly();
				throw new IllegalStateException("dynalite did not start: " + line);
			}
			Thread drain = new Thread(() -> output.lines().forEach((ignored) -> {
			}), "dynalite-output");
			drain.setDaemon(true);
			drain.start();
			return new Dynalite(process, URI.create("http://127.0.0.1:" + port));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("dynalite did not start (is node on the PATH?)", ex);
		}
	}

	URI endpoint() {
		return this.endpoint;
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(5, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.process.destroyForcibly();
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
