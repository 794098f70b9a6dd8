package dev.dynamorelay.it.start;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * README's "Serve your own table in five steps", done as written: the commands of its code blocks run with bash in
 * a folder of their own (only the ports, the jar's and the script's paths and the java binary are put in), the diff of
 * step 3 is applied to the generated file line for line, and the query of step 5 answers what README shows. A step
 * that no longer works as README says fails here: step 3's diff once left the generated {@code CreateBookInput}
 * out, and the server refused to start with it.
 */
class ReadmeStepsIT {

	private static final Path JAR = Path.of("target/dynamo-relay-0.1.0-SNAPSHOT.jar").toAbsolutePath();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final List<Process> processes = new ArrayList<>();

	private int enginePort;

	private int serverPort;

	@TempDir
	Path folder;

	@AfterEach
	void stop() throws InterruptedException {
		for (Process process : this.processes) {
			process.destroy();
			if (!process.waitFor(20, TimeUnit.SECONDS)) {
				process.destroyForcibly();
			}
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void readmesFiveStepsServeTheBooksTableAsShown() throws Exception {
		assertThat(JAR).as("the jar, built by `package` before the integration tests").exists();
		String section = section(Files.readString(Path.of("README.md"), StandardCharsets.UTF_8),
				"## Serve your own table in five steps");
		List<String> blocks = blocks(section);
		this.enginePort = freePort();
		this.serverPort = freePort();

		// 1. The engine on its own, and the table.
		String engine = only(blocks, "dynamodb --port 8000");
		Process engineProcess = background(engine, "engine.log");
		awaitLine(this.folder.resolve("engine.log"), "listening on", engineProcess);
		run(only(blocks, "create-table.sh"), "create-table.log");
		assertThat(Files.readString(this.folder.resolve("create-table.log"))).contains("Created table Books with 6 items");

		// 2. The schema, generated.
		run(only(blocks, "generate-schema"), "generate-schema.log");
		Path schema = this.folder.resolve("books.graphqls");
		assertThat(schema).as("step 2's output").exists();
		assertThat(Files.readString(schema)).contains("type Book implements Node");

		// 3. The diff, applied.
		String diffBlock = section.substring(section.indexOf("```diff") + "```diff".length());
		Files.writeString(schema, applyDiff(Files.readString(schema), diffBlock.substring(0, diffBlock.indexOf("```"))));

		// 4. Checked, then served: a start that fails ends the process, whose log says why.
		run(only(blocks, " check "), "check.log");
		assertThat(Files.readString(this.folder.resolve("check.log"))).contains("no problem");
		Process server = background(only(blocks, "--dynamo-relay.cursor.secret=")
				+ " --server.port=" + this.serverPort, "server.log");
		awaitLine(this.folder.resolve("server.log"), "Ready: GraphQL at", server);

		// 5. The query, and README's answer.
		Matcher body = Pattern.compile("-d '(\\{.*\\})'").matcher(only(blocks, "books(author:"));
		assertThat(body.find()).as("step 5's request body").isTrue();
		HttpResponse<String> answer = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.serverPort + "/graphql"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body.group(1)))
				.build(), HttpResponse.BodyHandlers.ofString());
		String shownJson = section.substring(section.indexOf("```json") + "```json".length());
		Map<String, Object> shown = JSON.readValue(shownJson.substring(0, shownJson.indexOf("```")), Map.class);
		Map<String, Object> got = JSON.readValue(answer.body(), Map.class);
		Map<String, Object> shownBooks = (Map<String, Object>) ((Map<String, Object>) shown.get("data")).get("books");
		Map<String, Object> gotBooks = (Map<String, Object>) ((Map<String, Object>) got.get("data")).get("books");
		assertThat(gotBooks.get("edges")).as("the page").isEqualTo(shownBooks.get("edges"));
		assertThat(((Map<String, Object>) gotBooks.get("pageInfo")).get("hasNextPage"))
			.isEqualTo(((Map<String, Object>) shownBooks.get("pageInfo")).get("hasNextPage"));
		assertThat(got.get("extensions")).as("what it cost").isEqualTo(shown.get("extensions"));
	}

	/** README's text from {@code heading} to the next heading of its level. */
	private static String section(String readme, String heading) {
		int start = readme.indexOf(heading);
		assertThat(start).as(heading).isNotNegative();
		int end = readme.indexOf("\n## ", start + heading.length());
		return readme.substring(start, (end < 0) ? readme.length() : end);
	}

	/** The section's code blocks with no language: the commands. */
	private static List<String> blocks(String section) {
		List<String> blocks = new ArrayList<>();
		StringBuilder block = null;
		boolean command = false;
		for (String line : section.split("\n")) {
			if (line.startsWith("```")) {
				if (block == null) {
					block = new StringBuilder();
					command = line.equals("```");
				}
				else {
					if (command) {
						blocks.add(block.toString().strip());
					}
					block = null;
				}
			}
			else if (block != null) {
				block.append(line).append('\n');
			}
		}
		return blocks;
	}

	private static String only(List<String> blocks, String containing) {
		List<String> found = blocks.stream().filter((block) -> block.contains(containing)).toList();
		assertThat(found).as("README's command with " + containing).hasSize(1);
		return found.get(0);
	}

	/** The command as this machine runs it: the test's java, the jar and the script by their paths, the ports free. */
	private String local(String command) {
		return command.replace("java -jar target/dynamo-relay-0.1.0-SNAPSHOT.jar",
				Path.of(System.getProperty("java.home"), "bin", "java") + " -Xmx512m -jar " + JAR)
			.replace("bash examples/", "bash " + Path.of("examples").toAbsolutePath() + "/")
			.replace(":8000", ":" + this.enginePort)
			.replace("--port 8000", "--port " + this.enginePort)
			.replace("localhost:8080", "localhost:" + this.serverPort);
	}

	private Process background(String command, String log) throws IOException {
		Process process = new ProcessBuilder("bash", "-c", local(command)).directory(this.folder.toFile())
			.redirectErrorStream(true)
			.redirectOutput(this.folder.resolve(log).toFile())
			.start();
		this.processes.add(process);
		return process;
	}

	private void run(String command, String log) throws Exception {
		Process process = new ProcessBuilder("bash", "-c", local(command)).directory(this.folder.toFile())
			.redirectErrorStream(true)
			.redirectOutput(this.folder.resolve(log).toFile())
			.start();
		assertThat(process.waitFor(120, TimeUnit.SECONDS)).as(command + " ends").isTrue();
		assertThat(process.exitValue()).as(command + " (" + Files.readString(this.folder.resolve(log)) + ")").isZero();
	}

	private static void awaitLine(Path log, String line, Process process) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
		while (System.nanoTime() < deadline) {
			String text = Files.exists(log) ? Files.readString(log) : "";
			if (text.contains(line)) {
				return;
			}
			assertThat(process.isAlive()).as("the process is up; its log:\n" + text).isTrue();
			Thread.sleep(200);
		}
		throw new AssertionError("no `" + line + "` in " + log + " within 120 s:\n" + Files.readString(log));
	}

	/**
	 * Applies a diff whose hunks are separated by {@code ...} lines: each hunk's context and removed lines must
	 * stand together exactly once in the file, and are replaced by its context and added lines.
	 */
	static String applyDiff(String file, String diff) {
		String result = file;
		for (String hunk : diff.split("\\n \\.\\.\\.\\n")) {
			List<String> before = new ArrayList<>();
			List<String> after = new ArrayList<>();
			for (String line : hunk.strip().isEmpty() ? new String[0] : hunk.replaceAll("^\\n+|\\n+$", "").split("\\n")) {
				char marker = line.isEmpty() ? ' ' : line.charAt(0);
				String text = line.isEmpty() ? "" : line.substring(1);
				if (marker != '+') {
					before.add(text);
				}
				if (marker != '-') {
					after.add(text);
				}
			}
			String old = String.join("\n", before) + "\n";
			int at = result.indexOf(old);
			assertThat(at).as("the diff's lines\n" + old + "in the generated file").isNotNegative();
			assertThat(result.indexOf(old, at + 1)).as("the diff's lines\n" + old + "once in the generated file").isNegative();
			result = result.substring(0, at) + String.join("\n", after) + "\n" + result.substring(at + old.length());
		}
		return result;
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
