package dev.dynamorelay.engine;

import java.io.PrintStream;

/** The standalone entry point's parts, for tests in other packages. */
public final class EngineMainAccess {

	private EngineMainAccess() {
	}

	/** Runs the entry point without blocking: it starts the engine, prints its line, and stops it. */
	public static int run(String[] args, PrintStream out, PrintStream err) {
		return EngineMain.run(args, out, err, false);
	}

	public static EngineOptions parse(String... args) {
		return EngineMain.parse(args);
	}

}
