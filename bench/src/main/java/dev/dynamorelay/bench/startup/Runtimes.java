package dev.dynamorelay.bench.startup;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.dynamorelay.bench.support.Report;

/**
 * The runtimes the start-up section measures, by key ({@code BENCH_RUNTIMES=node,25-aot,...} picks some): the Node
 * server, then dynamo-relay's levers, each a runtime of its own (Java 17 and 25 as the fat jar, Netty's HTTP client,
 * the AOT cache that {@code java -jar dynamo-relay.jar aot-cache} makes with the JIT and GC variants, Java 17's class
 * archive); the class archive and the AOT cache made as a user makes them.
 */
final class Runtimes {

	/**
	 * The runtimes measured, by key ({@code BENCH_RUNTIMES=node,25-aot,...} picks some, in this order): the
	 * Node server, then dynamo-relay's levers.
	 */
	static final List<String> RUNTIMES = List.of("node", "17", "25-netty", "25", "25-aot", "25-aot-x1", "25-aot-sooner",
			"25-aot-c1", "25-aot-serial");

	/** Every runtime key there is: {@link #RUNTIMES} and Java 17's class archive (AppCDS). */
	private static final List<String> ALL = List.of("node", "17", "17-cds", "25-netty", "25", "25-aot", "25-aot-x1",
			"25-aot-sooner", "25-aot-c1", "25-aot-serial");

	private final Launcher launcher;

	private final Path jar;

	private final Path out;

	private final Report rows;

	/** dynamo-relay's page bodies, the class archive's training load. */
	private final List<byte[]> bodies;

	/** The AOT cache's java command, split, once made. */
	private List<String> aotCache;

	Runtimes(Launcher launcher, Path jar, Path out, Report rows, List<byte[]> bodies) {
		this.launcher = launcher;
		this.jar = jar;
		this.out = out;
		this.rows = rows;
		this.bodies = bodies;
	}

	/** The runtimes selected, in order, made; the Java 25 ones left out (and a row saying so) without a JDK 25. */
	List<ServerRuntime> selected() throws Exception {
		List<String> keys = keys();
		Path java17 = Path.of(System.getProperty("java.home"), "bin", "java");
		Path java25 = Launcher.java25();
		if (java25 == null && keys.stream().anyMatch((key) -> key.startsWith("25"))) {
			this.rows.row("Java 25 levers", "not measured: no JDK 25 (set BENCH_JAVA25)", "-", "-", "-", null);
			keys = keys.stream().filter((key) -> !key.startsWith("25")).toList();
		}
		Path extracted = keys.contains("17-cds") ? this.launcher.extract(java17) : null;
		List<String> fatJar = List.of("-jar", this.jar.toString());
		List<String> thinJar = (extracted != null)
				? List.of("-jar", extracted.resolve("dynamo-relay-0.1.0-SNAPSHOT.jar").toString()) : null;
		Path startup = this.out.resolve("startup");
		List<ServerRuntime> runtimes = new ArrayList<>();
		for (String key : keys) {
			runtimes.add(runtime(key, java17, java25, fatJar, thinJar, startup));
		}
		return runtimes;
	}

	private static List<String> keys() {
		String given = System.getenv("BENCH_RUNTIMES");
		if (given == null || given.isBlank()) {
			return RUNTIMES;
		}
		return Arrays.stream(given.split(",")).map(String::trim).filter((key) -> !key.isEmpty()).toList();
	}

	private ServerRuntime runtime(String key, Path java17, Path java25, List<String> fatJar, List<String> thinJar, Path startup)
			throws Exception {
		return switch (key) {
			case "node" -> new ServerRuntime(key, "Node " + Launcher.nodeVersion() + " server (graphql-http, AWS SDK v3)", null, List.of(),
					List.of(Launcher.nodeServer().toString()), List.of());
			case "17" -> new ServerRuntime(key, "Java " + Launcher.version(java17) + ", fat jar", java17, List.of(), fatJar, List.of());
			case "17-cds" -> {
				Path cds = startup.resolve("app.jsa");
				this.launcher.train("Java 17 AppCDS", new ServerRuntime("", java17, List.of(), thinJar), List.of("-XX:ArchiveClassesAtExit=" + cds),
						cds, List.of(), this.bodies);
				yield new ServerRuntime(key, "Java " + Launcher.version(java17) + ", extracted + AppCDS", java17,
						List.of("-XX:SharedArchiveFile=" + cds), thinJar, List.of());
			}
			case "25" -> new ServerRuntime(key, "Java " + Launcher.version(java25) + ", fat jar", java25, List.of(), fatJar, List.of());
			case "25-netty" -> new ServerRuntime(key, "Java " + Launcher.version(java25) + ", fat jar, Netty HTTP client", java25, List.of(),
					fatJar, List.of("--dynamo-relay.dynamodb.http-client=netty"));
			case "25-aot", "25-aot-x1", "25-aot-sooner", "25-aot-c1", "25-aot-serial" -> aot(key, java25, startup);
			default -> throw new IllegalArgumentException("no runtime " + key + " (BENCH_RUNTIMES takes " + ALL + ")");
		};
	}

	/** The AOT cache's runtimes: as the command prints it, and its JIT and GC variants. */
	private ServerRuntime aot(String key, Path java25, Path startup) throws Exception {
		if (this.aotCache == null) {
			this.aotCache = this.launcher.aotCache(java25, startup.resolve("aot"));
		}
		List<String> aot = this.aotCache;
		// As printed: the cache and the command's JIT setting (AotCacheCommand.RUN_FLAGS), then -jar.
		int jar = aot.indexOf("-jar");
		List<String> flags = new ArrayList<>(aot.subList(1, jar));
		String name = "Java " + Launcher.version(java25) + ", AOT cache (`aot-cache` command"
				+ ((flags.size() > 1) ? ", its " + String.join(" ", flags.subList(1, flags.size())) : "") + ")";
		// The JIT variants replace the printed thresholds (C1 only as it was measured before them); the
		// Serial GC row keeps them.
		if (!key.equals("25-aot") && !key.endsWith("-serial")) {
			flags.removeIf((flag) -> flag.startsWith("-XX:CompileThresholdScaling="));
			name = "Java " + Launcher.version(java25) + ", AOT cache";
		}
		if (key.endsWith("-x1")) {
			// The JVM's own tiered thresholds (invocations and loops before each compilation tier).
			name += ", the JVM's own tiered thresholds (x1)";
		}
		else if (key.endsWith("-sooner")) {
			// At a quarter: methods leave the interpreter sooner, and more of them are compiled.
			flags.add("-XX:CompileThresholdScaling=0.25");
			name += ", tiered thresholds x0.25 (-XX:CompileThresholdScaling=0.25)";
		}
		else if (key.endsWith("-c1")) {
			flags.add("-XX:TieredStopAtLevel=1");
			name += ", C1 only (-XX:TieredStopAtLevel=1)";
		}
		else if (key.endsWith("-serial")) {
			flags.add("-XX:+UseSerialGC");
			name += ", Serial GC";
		}
		return new ServerRuntime(key, name, java25, flags, aot.subList(jar, aot.size()), List.of());
	}

}
