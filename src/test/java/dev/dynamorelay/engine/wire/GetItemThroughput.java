package dev.dynamorelay.engine.wire;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import dev.dynamorelay.engine.DynamoDbEngine;
import dev.dynamorelay.engine.EngineOptions;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

/**
 * A measurement, not a test: GetItem through HTTP against an engine in a process of its own, from 8 client threads
 * on the AWS SDK's synchronous CRT client; prints calls per second and the CPU per call of the engine's process
 * and of the client's (from /proc, Linux only).
 *
 * <pre>
 * java [-Dengine.jvm="FLAGS OF THE ENGINE'S JVM"] -cp target/test-classes:target/classes:$(cat classpath) \
 *     dev.dynamorelay.engine.wire.GetItemThroughput [SECONDS] [THREADS]
 * </pre>
 */
public final class GetItemThroughput {

	private GetItemThroughput() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals("engine")) {
			engine();
			return;
		}
		int seconds = (args.length > 0) ? Integer.parseInt(args[0]) : 20;
		int threads = (args.length > 1) ? Integer.parseInt(args[1]) : 8;
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
		String flags = System.getProperty("engine.jvm", "");
		if (!flags.isBlank()) {
			command.addAll(List.of(flags.split(" ")));
		}
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), GetItemThroughput.class.getName(), "engine"));
		Process engine = new ProcessBuilder(command)
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		try {
			BufferedReader out = new BufferedReader(new InputStreamReader(engine.getInputStream(), StandardCharsets.UTF_8));
			String line;
			while (!(line = out.readLine()).startsWith("http://")) {
				// The engine's JVM may say something first (a flight recording started).
				System.out.println(line);
			}
			URI endpoint = URI.create(line);
			try (DynamoDbClient client = Clients.crt(endpoint, (o) -> o.retryStrategy((r) -> r.maxAttempts(1)))) {
				GetItemRequest request = GetItemRequest.builder()
					.tableName("things")
					.key(Map.of("id", AttributeValue.fromS("item")))
					.build();
				System.out.println("warming up 10 s");
				load(client, request, threads, Duration.ofSeconds(10));
				long cpuBefore = cpuMillis(engine.pid());
				long clientBefore = cpuMillis(ProcessHandle.current().pid());
				long start = System.nanoTime();
				long calls = load(client, request, threads, Duration.ofSeconds(seconds));
				double elapsed = (System.nanoTime() - start) / 1e9;
				long cpu = cpuMillis(engine.pid()) - cpuBefore;
				long clientCpu = cpuMillis(ProcessHandle.current().pid()) - clientBefore;
				System.out.printf("GetItem over HTTP, %d client threads, %d s: %d calls, %.0f calls/s, engine CPU %.1f µs "
						+ "a call (%.2f cores busy), client CPU %.1f µs a call (%.2f cores busy)%n", threads, seconds, calls,
						calls / elapsed, cpu * 1000.0 / calls, cpu / 1000.0 / elapsed, clientCpu * 1000.0 / calls,
						clientCpu / 1000.0 / elapsed);
			}
		}
		finally {
			engine.destroy();
		}
	}

	private static long load(DynamoDbClient client, GetItemRequest request, int threads, Duration duration)
			throws InterruptedException {
		LongAdder calls = new LongAdder();
		AtomicBoolean stop = new AtomicBoolean();
		CountDownLatch done = new CountDownLatch(threads);
		List<Thread> workers = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			Thread worker = new Thread(() -> {
				try {
					while (!stop.get()) {
						client.getItem(request);
						calls.increment();
					}
				}
				finally {
					done.countDown();
				}
			});
			worker.start();
			workers.add(worker);
		}
		Thread.sleep(duration.toMillis());
		stop.set(true);
		done.await();
		return calls.sum();
	}

	/** The user and system CPU time of a process so far, from /proc (clock ticks of 10 ms). */
	private static long cpuMillis(long pid) throws Exception {
		String[] stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat")).split(" ");
		// Fields 14 and 15 (utime, stime), counted from 1; the command name has no spaces here.
		return (Long.parseLong(stat[13]) + Long.parseLong(stat[14])) * 10;
	}

	/**
	 * The engine's process: the store's GetItem of a 200-byte item (or, with {@code -Dengine.testActions=true},
	 * the tests' own GetItem over a map, to see the wire alone), the endpoint on the first line, served until
	 * killed.
	 */
	private static void engine() throws InterruptedException {
		Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("item"), "payload",
				AttributeValue.fromS("x".repeat(180)), "n", AttributeValue.fromN("12345"));
		DynamoDbEngine engine;
		if (Boolean.getBoolean("engine.testActions")) {
			TestActions actions = new TestActions();
			actions.items.put("item", item);
			engine = DynamoDbEngine.start(EngineOptions.defaults().withActions(actions.actions()));
		}
		else {
			engine = DynamoDbEngine.start(EngineOptions.defaults());
			engine.database().createTable(CreateTableRequest.builder().tableName("things")
				.attributeDefinitions((a) -> a.attributeName("id").attributeType("S"))
				.keySchema((k) -> k.attributeName("id").keyType("HASH"))
				.billingMode("PAY_PER_REQUEST")
				.build());
			engine.database().putItem(PutItemRequest.builder().tableName("things").item(item).build());
		}
		System.out.println(engine.endpoint());
		System.out.flush();
		new CountDownLatch(1).await();
	}

}
