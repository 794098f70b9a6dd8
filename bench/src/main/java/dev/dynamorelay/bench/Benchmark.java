package dev.dynamorelay.bench;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import dev.dynamorelay.bench.abuse.Abuse;
import dev.dynamorelay.bench.engine.EngineSpeed;
import dev.dynamorelay.bench.export.Export;
import dev.dynamorelay.bench.fairness.Fairness;
import dev.dynamorelay.bench.fleet.Fleet;
import dev.dynamorelay.bench.live.Live;
import dev.dynamorelay.bench.pages.Pages;
import dev.dynamorelay.bench.startup.Startup;
import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.BenchData;
import dev.dynamorelay.bench.support.BenchDynamoDb;
import dev.dynamorelay.bench.support.GraphQl;
import dev.dynamorelay.bench.support.Processes;
import dev.dynamorelay.bench.support.Report;
import dev.dynamorelay.bench.support.ServerProcess;
import dev.dynamorelay.bench.writes.Writes;

/**
 * dynamo-relay side by side with raw DynamoDB, on one DynamoDB (the project's engine), in one run: the entry point
 * of {@code bench/run}.
 *
 * <p>Starts the engine on its own (the jar's {@code dynamodb} command, {@link BenchDynamoDb}) and the server jar
 * as child processes, the server pointed at the engine, loads {@link BenchData}, runs the sections that
 * {@code BENCH_ONLY} names (each in a package of its own: {@code pages}, {@code fairness}, {@code export},
 * {@code startup}, {@code abuse}, {@code writes}, {@code live}, {@code engine}; {@code fleet} starts processes of its
 * own), prints one table and writes it to
 * {@code target/bench/results.md} and {@code results.json}. Ratios are taken from samples measured interleaved
 * (A, B, A, B, ...), so both sides see the same machine at the same time.
 */
public final class Benchmark {

	private Benchmark() {
	}

	public static void main(String[] args) throws Exception {
		((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
			.setLevel(ch.qos.logback.classic.Level.WARN);
		Path jar = Path.of(args[0]);
		Path out = Path.of("target", "bench");
		Files.createDirectories(out);
		long started = System.nanoTime();
		Report report = new Report();
		if ("fleet".equals(System.getenv("BENCH_ONLY"))) {
			// Three instances of a fleet, their own engine and Redis (Fleet), without the server below.
			new Fleet(report, out).run();
			report.write(out, (System.nanoTime() - started) / 1e9);
			System.exit(0);
		}
		if ("engine".equals(System.getenv("BENCH_ONLY"))) {
			// The engine beside dynalite (EngineSpeed), without the server.
			new EngineSpeed(new Bench(report, null, null, 0), jar, out).run();
			report.write(out, (System.nanoTime() - started) / 1e9);
			System.exit(0);
		}
		try (BenchDynamoDb dynamo = BenchDynamoDb.start(jar, out)) {
			withServer(jar, out, dynamo, report);
			report.write(out, (System.nanoTime() - started) / 1e9);
		}
		System.exit(0);
	}

	/** Starts the server against the engine, loads the data, runs the sections, and stops the server. */
	private static void withServer(Path jar, Path out, BenchDynamoDb dynamo, Report report) throws Exception {
		int port = Processes.freePort();
		String only = System.getenv("BENCH_ONLY");
		// The abuse section runs the server as README's production set-up has it: the actuator on its own port;
		// the write section serves a list mutation beside the sample's, the live section more subscriptions.
		int managementPort = Processes.freePort();
		List<String> setUp = switch (String.valueOf(only)) {
			case "abuse" -> Abuse.productionSetUp(managementPort);
			case "write" -> Writes.serverArguments();
			case "live" -> Live.serverArguments();
			default -> List.of();
		};
		Process server = ServerProcess.start(jar, dynamo.endpoint(), port, out, setUp);
		try (DynamoDbAsyncClient client = DynamoDbAsyncClient.builder()
			.httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(64))
			.endpointOverride(dynamo.endpoint())
			.region(Region.US_EAST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench")))
			.build()) {
			GraphQl graphQl = new GraphQl(URI.create("http://127.0.0.1:" + port + "/graphql"));
			Bench bench = new Bench(report, graphQl, client, dynamo.pid());
			ServerProcess.await(server, graphQl);
			load(client, only);
			sections(bench, new Run(jar, out, dynamo.endpoint(), server.pid(), port, managementPort), only);
		}
		finally {
			server.destroy();
			if (!server.waitFor(20, TimeUnit.SECONDS)) {
				server.destroyForcibly();
			}
		}
	}

	/** Loads what the sections of {@code only} read. */
	private static void load(DynamoDbAsyncClient client, String only) {
		if ("write".equals(only) || "live".equals(only)) {
			// Their writes need users (createPurchase checks that the user exists); nothing else is read.
			System.out.printf("Loading %,d users ...%n", BenchData.USERS);
			BenchData.loadUsers(client, "Users");
			return;
		}
		String movies = List.of("startup", "metrics", "transport").contains(only) ? null : "Movies";
		int movieCount = List.of("fairness", "abuse").contains(only) ? BenchData.FAIRNESS_MOVIES : BenchData.MOVIES;
		System.out.printf("Loading the data set (200,000 purchases, %,d movies) ...%n", (movies != null) ? movieCount : 0);
		long loading = System.nanoTime();
		BenchData.load(client, "Users", "UserPurchases", movies, movieCount);
		System.out.printf("  loaded in %.0f s%n", (System.nanoTime() - loading) / 1e9);
	}

	/** What the sections need of the run: the jar, the output folder, the engine, the server's process and ports. */
	private record Run(Path jar, Path out, URI endpoint, long serverPid, int port, int managementPort) {
	}

	/**
	 * BENCH_ONLY=export, startup, metrics, transport, fairness, abuse, write or live runs that section alone (after the
	 * load); main, the steps before the export and the start-up; unset, all but abuse, write and live.
	 */
	private static void sections(Bench bench, Run run, String only) throws Exception {
		boolean all = only == null || only.isBlank();
		if (all || only.equals("main")) {
			new Pages(bench, run.serverPid).run();
		}
		if ("fairness".equals(only)) {
			new Fairness(bench).runAlone();
		}
		if ("abuse".equals(only)) {
			new Abuse(bench, run.serverPid, run.port, run.managementPort).run();
		}
		if ("write".equals(only)) {
			new Writes(bench, bench.dynamoDb(), run.serverPid).run();
		}
		if ("live".equals(only)) {
			new Live(bench, bench.dynamoDb(), run.endpoint, run.serverPid, run.port).run();
		}
		if (all || List.of("startup", "metrics", "transport").contains(only)) {
			startup(bench, run, String.valueOf(only));
		}
		if (all || only.equals("export")) {
			new Export(bench, run.jar, run.endpoint, run.out).run();
		}
		if (all) {
			new EngineSpeed(bench, run.jar, run.out).run();
		}
	}

	/** The start-up section ({@link Startup}), its pages spread over 4 categories and 50 positions in each. */
	private static void startup(Bench bench, Run run, String only) throws Exception {
		Map<String, List<String>> cursors = new LinkedHashMap<>();
		for (int c = 0; c < 4; c++) {
			cursors.put(BenchData.category(c), bench.walkCursors(BenchData.category(c), 50));
		}
		Startup startup = new Startup(run.jar, run.endpoint, bench.dynamoDb(), run.out, bench.report(), cursors);
		switch (only) {
			case "metrics" -> startup.runMetricsOnly();
			case "transport" -> startup.runTransportOnly(Path.of("bench", "transport", "target", "bench-transport.jar"));
			default -> startup.run();
		}
	}

}
