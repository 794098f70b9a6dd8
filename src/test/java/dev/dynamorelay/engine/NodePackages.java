package dev.dynamorelay.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The npm packages of the engine's outside checks ({@code src/test/js/engine}: dynalite, and the AWS SDK for
 * JavaScript v3), installed from their package-lock.json by {@code web/scripts/install.mjs} the first time a test
 * needs them, as the build installs web/'s.
 */
public final class NodePackages {

	/** The folder of the engine's outside checks. */
	public static final Path FOLDER = Path.of("src", "test", "js", "engine");

	private static boolean installed;

	private NodePackages() {
	}

	/**
	 * The folder, its packages installed.
	 * @throws IllegalStateException when npm could not install them (its output is in the message)
	 */
	public static synchronized Path installed() {
		if (installed) {
			return FOLDER;
		}
		try {
			Path log = Files.createTempFile("engine-npm", ".log");
			Process process = new ProcessBuilder("node", Path.of("web", "scripts", "install.mjs").toString(), FOLDER.toString())
				.redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			if (!process.waitFor(10, TimeUnit.MINUTES)) {
				process.destroyForcibly();
				throw new IllegalStateException("npm ci in " + FOLDER + " took over 10 minutes");
			}
			String output = Files.readString(log, StandardCharsets.UTF_8);
			Files.deleteIfExists(log);
			if (process.exitValue() != 0) {
				throw new IllegalStateException("npm ci in " + FOLDER + " failed:\n" + output);
			}
			installed = true;
			return FOLDER;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("node could not run (is it on the PATH?)", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
