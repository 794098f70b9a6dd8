package dev.dynamorelay.it;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@code java -jar target/dynamo-relay-0.1.0-SNAPSHOT.jar export ...} as a separate process (the jar
 * is built in {@code package}, before failsafe runs), pointed at a test server's DynamoDB with a fixed
 * secret, and reads what it wrote.
 */
public final class ExportProcess {

	public static final Path JAR = Path.of("target/dynamo-relay-0.1.0-SNAPSHOT.jar");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final URI endpoint;

	private final List<String> properties;

	public ExportProcess(URI endpoint, String... properties) {
		this.endpoint = endpoint;
		this.properties = List.of(properties);
	}

	/** Starts an export; its standard error goes to {@code stderr}. */
	public Process start(Path stderr, String... args) throws IOException {
		assertThat(JAR).as("the jar, built by `package` before the integration tests").exists();
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-Xmx256m");
		command.add("-jar");
		command.add(JAR.toString());
		command.add("export");
		command.addAll(List.of(args));
		command.add("--dynamo-relay.dynamodb.endpoint=" + this.endpoint);
		command.add("--dynamo-relay.cursor.secret=export-test-secret");
		command.addAll(this.properties);
		return new ProcessBuilder(command).redirectErrorStream(false)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.redirectError(stderr.toFile())
			.start();
	}

	/** Runs an export to its end. */
	public Result run(Path folder, String... args) throws Exception {
		Path stderr = Files.createTempFile(folder, "export", ".err");
		Process process = start(stderr, args);
		assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the export ends").isTrue();
		return new Result(process.exitValue(), Files.readString(stderr, StandardCharsets.UTF_8));
	}

	/** The lines of a JSON Lines file, each parsed. */
	@SuppressWarnings("unchecked")
	public static List<Map<String, Object>> lines(Path file) throws IOException {
		List<Map<String, Object>> lines = new ArrayList<>();
		for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
			lines.add(JSON.readValue(line, Map.class));
		}
		return lines;
	}

	/** The position file's JSON; null while there is none. */
	@SuppressWarnings("unchecked")
	public static Map<String, Object> position(Path out) {
		try {
			return JSON.readValue(Files.readAllBytes(out.resolveSibling(out.getFileName() + ".position")), Map.class);
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/** The ids of exported nodes, in file order. */
	public static List<String> ids(List<Map<String, Object>> lines) {
		return lines.stream().map((line) -> (String) line.get("id")).toList();
	}

	/**
	 * What an export process did.
	 *
	 * @param exitCode its exit code
	 * @param stderr what it wrote to standard error
	 */
	public record Result(int exitCode, String stderr) {
	}

}
