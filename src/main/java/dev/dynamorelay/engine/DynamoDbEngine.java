package dev.dynamorelay.engine;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.dynamorelay.engine.wire.Faults;
import dev.dynamorelay.engine.wire.WireServer;

/**
 * The project's own DynamoDB, running: its operations assembled and served over HTTP on the options' address.
 * {@link #start(EngineOptions)} is up in milliseconds (no scanning, no reflection beyond the AWS SDK's model);
 * {@link #close()} stops it.
 *
 * <pre>{@code
 * try (DynamoDbEngine engine = DynamoDbEngine.start(EngineOptions.defaults())) {
 *     DynamoDbClient client = DynamoDbClient.builder().endpointOverride(engine.endpoint())...
 * }
 * }</pre>
 */
public final class DynamoDbEngine implements AutoCloseable {

	private final EngineOptions options;

	private final WireServer server;

	private DynamoDbEngine(EngineOptions options, WireServer server) {
		this.options = options;
		this.server = server;
	}

	/**
	 * Starts an engine.
	 * @throws IllegalArgumentException for options it cannot honour (two operations with one target, a
	 * {@code path} before the journal is built)
	 * @throws RuntimeException when the address cannot be bound
	 */
	public static DynamoDbEngine start(EngineOptions options) {
		if (options.path() != null) {
			// Refused rather than silently kept in memory: a caller who names a directory expects its data kept.
			throw new IllegalArgumentException(
					"This build of the engine keeps data in memory only: the journal behind --path is not built yet");
		}
		Map<String, Action<?, ?>> actions = new LinkedHashMap<>();
		for (Action<?, ?> action : EngineActions.all()) {
			register(actions, action);
		}
		for (Action<?, ?> action : options.actions()) {
			register(actions, action);
		}
		Faults faults = new Faults();
		faults.setAll(options.faults());
		WireServer server = WireServer.start(options.host(), options.port(), actions, faults, options.region(),
				options.workerThreads());
		return new DynamoDbEngine(options, server);
	}

	private static void register(Map<String, Action<?, ?>> actions, Action<?, ?> action) {
		if (actions.putIfAbsent(action.target(), action) != null) {
			throw new IllegalArgumentException("Two operations answer " + action.target());
		}
	}

	/** Where the engine listens: {@code http://127.0.0.1:PORT}, the endpoint to give an SDK client. */
	public URI endpoint() {
		return this.server.endpoint();
	}

	/** The faults it injects, to change while it runs. */
	public Faults faults() {
		return this.server.faults();
	}

	/** The options it was started with. */
	public EngineOptions options() {
		return this.options;
	}

	/** Stops the engine: its port and connections close. */
	@Override
	public void close() {
		this.server.close();
	}

}
