package dev.dynamorelay.engine;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import dev.dynamorelay.engine.journal.JournalUnusableException;
import dev.dynamorelay.engine.wire.Fault;
import dev.dynamorelay.engine.wire.Faults;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;

/**
 * The engine on its own, without the server and without Spring: {@code --port PORT [--path DIR]} and the
 * options below; it prints one line with its endpoint once it listens, and runs until it is stopped (SIGTERM,
 * Ctrl-C). Exit status 2 for options it cannot take, 1 when it cannot start (the port is taken).
 */
public final class EngineMain {

	/**
	 * What the engine serves and its options, one a line: the body of its usage, for another program that runs it
	 * to show under a synopsis of its own (the jar's {@code dynamodb} command).
	 */
	public static final String OPTIONS = """
			Runs the project's own DynamoDB: DynamoDB's and DynamoDB Streams' JSON protocol on HOST:PORT.
			  --port PORT                  the port (default 8000; 0 takes a free one)
			  --host HOST                  the address to listen on (default 127.0.0.1)
			  --path DIR                   keep the data in DIR across restarts (default: in memory)
			  --region REGION              the region of calls whose credentials name none (default us-east-1)
			  --shard-rollover-seconds N   a stream's shard closes and a child opens after N seconds (default 14400)
			  --shard-rollover-records N   ... or after N records (default 100000)
			  --table-activation-millis N  a created table is CREATING for N ms before it is ACTIVE (default 0)
			Faults, for tests (also settable while running: POST X-Amz-Target DynamoRelayEngine.SetFaults):
			  --fault-target TARGET        the X-Amz-Target the fault options apply to (default: every target)
			  --throttle SHARE             answer this share (0 to 1) of calls with a throttling error
			  --throttle-type TYPE         ProvisionedThroughputExceededException (default), ThrottlingException
			                               or RequestLimitExceeded
			  --server-errors SHARE        answer this share of calls with a server error
			  --server-error-status S      500 (InternalServerError, default) or 503
			  --latency MILLIS             serve every call after this delay
			  --stall                      hold every call unanswered until the stall is lifted
			""";

	static final String USAGE = """
			Usage: dynamodb [--port PORT] [--host HOST] [--path DIR] [--region REGION]
			                [--shard-rollover-seconds N] [--shard-rollover-records N] [--table-activation-millis N]
			                [--fault-target TARGET] [--throttle SHARE] [--throttle-type TYPE]
			                [--server-errors SHARE] [--server-error-status 500|503] [--latency MILLIS] [--stall]
			""" + OPTIONS;

	/** The options that take a value (every one but --help and --stall). */
	private static final Set<String> VALUED = Set.of("--port", "--host", "--path", "--region", "--shard-rollover-seconds",
			"--shard-rollover-records", "--table-activation-millis", "--fault-target", "--throttle", "--throttle-type",
			"--server-errors", "--server-error-status", "--latency");

	private EngineMain() {
	}

	public static void main(String[] args) {
		System.exit(run(args, System.out, System.err, true));
	}

	/**
	 * Runs the engine with {@code args}; with {@code block}, until the JVM is stopped.
	 * @return the exit status
	 */
	static int run(String[] args, PrintStream out, PrintStream err, boolean block) {
		EngineOptions options;
		try {
			options = parse(args);
		}
		catch (IllegalArgumentException invalid) {
			err.println("dynamodb: " + invalid.getMessage());
			err.print(USAGE);
			return 2;
		}
		if (options == null) {
			out.print(USAGE);
			return 0;
		}
		try {
			return serve(options, out, err, block);
		}
		catch (IllegalArgumentException refused) {
			err.println("dynamodb: " + refused.getMessage());
			return 2;
		}
	}

	/**
	 * Starts the engine with {@code options}, prints the line with its endpoint on {@code out} once it listens, and
	 * runs until the JVM is stopped (SIGTERM, Ctrl-C), then stops it.
	 * @return 0 once stopped; 1 when it cannot listen (one line on {@code err} says why)
	 * @throws IllegalArgumentException for options the engine cannot honour (the message says why)
	 */
	public static int serve(EngineOptions options, PrintStream out, PrintStream err) {
		return serve(options, out, err, true);
	}

	private static int serve(EngineOptions options, PrintStream out, PrintStream err, boolean block) {
		// Netty logs through SLF4J when it finds it, and a logging backend left unconfigured (no Spring here) would
		// print its every DEBUG line; java.util.logging keeps to warnings.
		InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
		DynamoDbEngine engine;
		try {
			engine = DynamoDbEngine.start(options);
		}
		catch (IllegalArgumentException refused) {
			// options it cannot honour: the caller words them as its usage mistakes
			throw refused;
		}
		catch (JournalUnusableException unusable) {
			err.println("dynamodb: " + unusable.getMessage());
			return 1;
		}
		catch (RuntimeException failed) {
			err.println("dynamodb: cannot listen on " + options.host() + ":" + options.port() + ": " + failed.getMessage());
			return 1;
		}
		out.println("DynamoDB engine listening on " + engine.endpoint() + " (" + storage(options) + ")");
		out.flush();
		if (!block) {
			engine.close();
			return 0;
		}
		CountDownLatch stopped = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			engine.close();
			stopped.countDown();
		}, "dynamodb-engine-stop"));
		try {
			stopped.await();
		}
		catch (InterruptedException interrupted) {
			Thread.currentThread().interrupt();
		}
		return 0;
	}

	private static String storage(EngineOptions options) {
		return (options.path() != null) ? "data in " + options.path() : "in memory";
	}

	/**
	 * The options {@code args} give; null for {@code --help}.
	 * @throws IllegalArgumentException for an argument it cannot take (the message says which, and why)
	 */
	public static EngineOptions parse(String... args) {
		EngineOptions options = EngineOptions.defaults().withPort(8000);
		String target = Faults.ALL;
		Fault fault = Fault.NONE;
		double throttle = 0;
		String throttleType = fault.throttleType();
		double errors = 0;
		int errorStatus = 500;
		Duration rolloverAge = options.shardRolloverAge();
		long rolloverRecords = options.shardRolloverRecords();
		for (int i = 0; i < args.length; i++) {
			String name = args[i];
			if (name.equals("--help") || name.equals("-h")) {
				return null;
			}
			if (name.equals("--stall")) {
				fault = fault.withStall(true);
				continue;
			}
			if (!VALUED.contains(name)) {
				throw new IllegalArgumentException("unknown option " + name);
			}
			if (i + 1 >= args.length) {
				throw new IllegalArgumentException(name + " needs a value");
			}
			String value = args[++i];
			switch (name) {
				case "--port" -> options = options.withPort(integer(name, value));
				case "--host" -> options = options.withHost(value);
				case "--path" -> options = options.withPath(Path.of(value));
				case "--region" -> options = options.withRegion(value);
				case "--shard-rollover-seconds" -> rolloverAge = Duration.ofSeconds(integer(name, value));
				case "--shard-rollover-records" -> rolloverRecords = integer(name, value);
				case "--table-activation-millis" ->
					options = options.withTableActivationDelay(Duration.ofMillis(integer(name, value)));
				case "--fault-target" -> target = value;
				case "--throttle" -> throttle = share(name, value);
				case "--throttle-type" -> throttleType = value;
				case "--server-errors" -> errors = share(name, value);
				case "--server-error-status" -> errorStatus = integer(name, value);
				case "--latency" -> fault = fault.withLatency(Duration.ofMillis(integer(name, value)));
				default -> throw new IllegalArgumentException("unknown option " + name);
			}
		}
		fault = new Fault(throttle, throttleType, errors, errorStatus, fault.latency(), fault.stall());
		Map<String, Fault> faults = new LinkedHashMap<>();
		if (!fault.isNone()) {
			faults.put(target, fault);
		}
		return options.withShardRollover(rolloverAge, rolloverRecords).withFaults(faults);
	}

	private static int integer(String name, String value) {
		try {
			return Integer.parseInt(value);
		}
		catch (NumberFormatException notANumber) {
			throw new IllegalArgumentException(name + " takes a whole number, not " + value);
		}
	}

	private static double share(String name, String value) {
		try {
			return Double.parseDouble(value);
		}
		catch (NumberFormatException notANumber) {
			throw new IllegalArgumentException(name + " takes a share from 0 to 1, not " + value);
		}
	}

}
