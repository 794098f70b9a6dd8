package dev.dynamorelay.command.aot;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code java -jar dynamo-relay.jar aot-cache} as a user runs it (the packaged jar, a process of its own): the
 * refusals that need the jar itself. Each is one line on standard error with the usage, exit code 2, and
 * nothing extracted or started. (The whole command, which trains a server for 40 s on Java 25, is what the
 * benchmark's start-up section runs; its training load is {@link TrainingLoadIT}'s.)
 */
class AotCacheCommandIT {

	private static final Path JAR = Path.of("target/dynamo-relay-0.1.0-SNAPSHOT.jar");

	@TempDir
	Path dir;

	@Test
	void theJarsOwnDirectoryIsNoDestination() throws Exception {
		Result result = run("aot-cache", "--destination", JAR.toAbsolutePath().getParent().toString());
		assertThat(result.code()).as(result.stderr()).isEqualTo(2);
		assertThat(result.stderr().strip()).startsWith("aot-cache: --destination must not be the jar's own directory: "
				+ "the extracted application jar would overwrite dynamo-relay-0.1.0-SNAPSHOT.jar.")
			.contains(" Usage: java -jar dynamo-relay.jar aot-cache")
			.doesNotContain("\n", "Exception");
	}

	@Test
	void aJavaOlderThan25IsToldWhatToRunItWith() throws Exception {
		assumeTrue(Runtime.version().feature() < 25, "the tests' java is 25 or later");
		Path destination = this.dir.resolve("aot");
		Result result = run("aot-cache", "--destination", destination.toString());
		assertThat(result.code()).as(result.stderr()).isEqualTo(2);
		assertThat(result.stderr().strip()).startsWith("aot-cache: an AOT cache needs Java 25 or later, and this is Java "
				+ Runtime.version() + ": run this command with the Java 25 `java` that will run the server.")
			.doesNotContain("\n", "Exception");
		assertThat(destination).as("nothing extracted").doesNotExist();
	}

	private static Result run(String... args) throws Exception {
		assertThat(JAR).as("the jar, built by `package` before the integration tests").exists();
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-jar", JAR.toString()));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
		String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		return new Result(process.exitValue(), stderr);
	}

	private record Result(int code, String stderr) {
	}

}
