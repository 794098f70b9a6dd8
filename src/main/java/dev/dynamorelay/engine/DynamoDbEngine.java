package dev.dynamorelay.engine;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.dynamorelay.engine.store.Database;
import dev.dynamorelay.engine.store.DatabaseOptions;
import dev.dynamorelay.engine.streams.Streams;
import dev.dynamorelay.engine.streams.StreamsOptions;
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

	private final Database database;

	private final Streams streams;

	private DynamoDbEngine(EngineOptions options, WireServer server, Database database, Streams streams) {
		this.options = options;
		this.server = server;
		this.database = database;
		this.streams = streams;
	}

	/**
	 * Starts an engine.
	 * @throws IllegalArgumentException for options it cannot honour (two operations of the options with one
	 * target, a {@code path} before the journal is built)
	 * @throws RuntimeException when the address cannot be bound
	 */
	public static DynamoDbEngine start(EngineOptions options) {
		if (options.path() != null) {
			// Refused rather than silently kept in memory: a caller who names a directory expects its data kept.
			throw new IllegalArgumentException(
					"This build of the engine keeps data in memory only: the journal behind --path is not built yet");
		}
		Streams streams = new Streams(StreamsOptions.defaults()
			.withShards(options.shardRolloverRecords(), options.shardRolloverAge()));
		Database database = new Database(DatabaseOptions.defaults()
			.withRegion(options.region())
			.withTableStatusDelay(options.tableActivationDelay()));
		// The streams hear every commit, in commit order, while the write's locks are held.
		database.addCommitListener(streams);
		Map<String, Action<?, ?>> actions = new LinkedHashMap<>();
		for (Action<?, ?> action : EngineActions.all(database, streams)) {
			actions.put(action.target(), action);
		}
		// The options' operations come besides the engine's own, or instead of one of them (a test's).
		Map<String, Action<?, ?>> added = new LinkedHashMap<>();
		for (Action<?, ?> action : options.actions()) {
			if (added.putIfAbsent(action.target(), action) != null) {
				throw new IllegalArgumentException("Two operations answer " + action.target());
			}
		}
		actions.putAll(added);
		Faults faults = new Faults();
		faults.setAll(options.faults());
		WireServer server;
		try {
			server = WireServer.start(options.host(), options.port(), actions, faults, options.region(),
					options.workerThreads());
		}
		catch (RuntimeException | Error failed) {
			database.close();
			throw failed;
		}
		return new DynamoDbEngine(options, server, database, streams);
	}

	/** Where the engine listens: {@code http://127.0.0.1:PORT}, the endpoint to give an SDK client. */
	public URI endpoint() {
		return this.server.endpoint();
	}

	/** The faults it injects, to change while it runs. */
	public Faults faults() {
		return this.server.faults();
	}

	/** Its tables and items. */
	public Database database() {
		return this.database;
	}

	/** Its streams: told of every commit of the store, they serve DynamoDB Streams' operations. */
	public Streams streams() {
		return this.streams;
	}

	/** The options it was started with. */
	public EngineOptions options() {
		return this.options;
	}

	/** Stops the engine: its port and connections close. */
	@Override
	public void close() {
		this.server.close();
		this.database.close();
	}

}
