package dev.dynamorelay.it.start;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.DynamoRelayApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A default start (the sample on the embedded engine, nothing configured) is quiet: no WARN or ERROR line, since
 * nothing needs doing; no list printed twice (Spring Boot's schema report listed types up to four times); and its
 * last line says where GraphQL, GraphiQL and the browser page are. Before, it printed three WARNs (a random cursor
 * secret, no JWT key, Java older than 25), the report, and ended on the Java advice. The server runs in a JVM of its
 * own, as a person starts it: a JVM that other tests' contexts share warns of things no start does.
 */
class QuietStartIT {

	private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");

	@Test
	void aDefaultStartWarnsOfNothingAndEndsSayingWhereGraphiQlIs() throws Exception {
		String java = ProcessHandle.current().info().command().orElse(
				Path.of(System.getProperty("java.home"), "bin", "java").toString());
		Process server = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
				DynamoRelayApplication.class.getName(), "--server.port=0")
			.redirectErrorStream(true)
			.start();
		BlockingQueue<String> output = new LinkedBlockingQueue<>();
		Thread reader = new Thread(() -> {
			try (BufferedReader lines = new BufferedReader(
					new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
				for (String line; (line = lines.readLine()) != null;) {
					output.add(line);
				}
			}
			catch (java.io.IOException ex) {
				// The server was stopped.
			}
		}, "quiet-start-output");
		reader.setDaemon(true);
		reader.start();
		try {
			List<String> lines = new ArrayList<>();
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
			while (lines.stream().noneMatch((line) -> line.contains("Ready:")) && System.nanoTime() < deadline) {
				String line = output.poll(1, TimeUnit.SECONDS);
				if (line != null && !line.isBlank()) {
					lines.add(line);
				}
				assertThat(server.isAlive() || !output.isEmpty()).as("the server runs: %s", lines).isTrue();
			}
			// Whatever the start printed after its last line would come now.
			for (String line; (line = output.poll(2, TimeUnit.SECONDS)) != null;) {
				if (!line.isBlank()) {
					lines.add(line);
				}
			}
			String port = lines.stream().map(PORT::matcher).filter(Matcher::find).map((found) -> found.group(1))
				.findFirst().orElseThrow(() -> new AssertionError("no port in " + lines));
			assertThat(lines).as("WARN and ERROR lines of a default start")
				.noneMatch((line) -> line.matches("^\\S+\\s+(WARN|ERROR) .*"));
			assertThat(String.join("\n", lines)).as("Spring Boot's schema report").doesNotContain("Skipped types");
			assertThat(lines.get(lines.size() - 1)).as("the start's last line")
				.contains("Ready: GraphQL at http://localhost:" + port + "/graphql")
				.contains("GraphiQL at http://localhost:" + port + "/graphiql")
				.contains("the browser page at http://localhost:" + port + "/");
		}
		finally {
			server.destroy();
			if (!server.waitFor(30, TimeUnit.SECONDS)) {
				server.destroyForcibly();
			}
		}
	}

}
