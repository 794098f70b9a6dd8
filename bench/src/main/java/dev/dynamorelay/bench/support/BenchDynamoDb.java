package dev.dynamorelay.bench.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The benchmark's DynamoDB: the project's own engine as a process of its own, started by the jar's {@code dynamodb}
 * command (as a user or another program runs it), so that its CPU is its process's and the raw calls measure a
 * DynamoDB the server does not share a JVM with. Its standard error goes to {@code target/bench/dynamodb.log}.
 */
public final class BenchDynamoDb implements AutoCloseable {

	private static final Pattern LISTENING = Pattern.compile("DynamoDB engine listening on (http://\\S+) \\(.*\\)");

	/** The engine's heap: the main section's 1,000,000 movies and 200,000 purchases with their indexes. */
	private static final String HEAP = "-Xmx3g";

	private final Process process;

	private final URI endpoint;

	private BenchDynamoDb(Process process, URI endpoint) {
		this.process = process;
		this.endpoint = endpoint;
	}

	/** Starts {@code java -Xmx3g -jar JAR dynamodb --port 0} and waits for its endpoint line. */
	public static BenchDynamoDb start(Path jar, Path out) throws Exception {
		return start(jar, List.of(HEAP), out.resolve("dynamodb.log"));
	}

	/**
	 * Starts {@code java FLAGS -jar JAR dynamodb --port 0}, its standard error into {@code log}, and waits for its
	 * endpoint line.
	 */
	public static BenchDynamoDb start(Path jar, List<String> flags, Path log) throws Exception {
		List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
		command.addAll(flags);
		command.addAll(List.of("-jar", jar.toString(), "dynamodb", "--port", "0"));
		Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
		BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> {
			try {
				return lines.readLine();
			}
			catch (IOException ex) {
				throw new java.io.UncheckedIOException(ex);
			}
		});
		String line;
		try {
			line = first.get(60, TimeUnit.SECONDS);
		}
		catch (TimeoutException ex) {
			process.destroyForcibly();
			throw new IllegalStateException("the engine did not listen within 60 s; see " + log);
		}
		catch (Exception ex) {
			process.destroyForcibly();
			throw ex;
		}
		Matcher listening = LISTENING.matcher(String.valueOf(line));
		if (!listening.matches()) {
			process.destroyForcibly();
			throw new IllegalStateException("the engine said `" + line + "`, not where it listens; see " + log);
		}
		System.out.printf("DynamoDB: the engine on its own (pid %d) at %s%n", process.pid(), listening.group(1));
		return new BenchDynamoDb(process, URI.create(listening.group(1)));
	}

	/** Where it listens. */
	public URI endpoint() {
		return this.endpoint;
	}

	/** Its process. */
	public Process process() {
		return this.process;
	}

	/** Its process's id, for its CPU time. */
	public long pid() {
		return this.process.pid();
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
		}
	}

}
