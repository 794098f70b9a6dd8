package dev.dynamorelay.engine;

import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import org.slf4j.LoggerFactory;

import dev.dynamorelay.engine.action.Action;
import dev.dynamorelay.engine.journal.DatabaseJournal;
import dev.dynamorelay.engine.journal.Journal;
import dev.dynamorelay.engine.journal.JournalOptions;
import dev.dynamorelay.engine.journal.JournalUnusableException;
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

	/** The journal of {@link EngineOptions#path()}; null in memory. */
	private final Journal journal;

	private DynamoDbEngine(EngineOptions options, WireServer server, Database database, Streams streams, Journal journal) {
		this.options = options;
		this.server = server;
		this.database = database;
		this.streams = streams;
		this.journal = journal;
	}

	/**
	 * Starts an engine; with a {@code path}, first recovers its tables, items and stream records from the journal
	 * there, which then keeps every write before it is answered.
	 * @throws IllegalArgumentException for options it cannot honour (two operations of the options with one
	 * target)
	 * @throws JournalUnusableException when the {@code path} cannot be used (another engine uses it, it cannot be
	 * written, its journal is damaged: the message says which)
	 * @throws RuntimeException when the address cannot be bound
	 */
	public static DynamoDbEngine start(EngineOptions options) {
		Streams streams = new Streams(StreamsOptions.defaults()
			.withShards(options.shardRolloverRecords(), options.shardRolloverAge()));
		Database database = new Database(DatabaseOptions.defaults()
			.withRegion(options.region())
			.withTableStatusDelay(options.tableActivationDelay()));
		Journal journal = null;
		if (options.path() != null) {
			try {
				// The journal hears every commit, and tells the streams in the order of its log.
				journal = DatabaseJournal.open(options.path(), JournalOptions.defaults(), database, streams);
			}
			catch (IOException ex) {
				database.close();
				throw new JournalUnusableException(ex);
			}
		}
		else {
			// The streams hear every commit, in commit order, while the write's locks are held.
			database.addCommitListener(streams);
		}
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
			closeQuietly(journal);
			database.close();
			throw failed;
		}
		return new DynamoDbEngine(options, server, database, streams, journal);
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

	/** Stops the engine: its port and connections close, then its journal is forced and released. */
	@Override
	public void close() {
		this.server.close();
		closeQuietly(this.journal);
		this.database.close();
	}

	private static void closeQuietly(Journal journal) {
		if (journal == null) {
			return;
		}
		try {
			journal.close();
		}
		catch (IOException ex) {
			// Every write that was answered was forced already: what is lost here was never acknowledged.
			LoggerFactory.getLogger(DynamoDbEngine.class).warn("Closing the journal failed: {}", ex.toString());
		}
	}

}
