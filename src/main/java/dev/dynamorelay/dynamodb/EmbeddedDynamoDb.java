package dev.dynamorelay.dynamodb;

import java.net.URI;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.dynamorelay.engine.DynamoDbEngine;
import dev.dynamorelay.engine.EngineOptions;

/**
 * The project's own DynamoDB engine ({@link DynamoDbEngine}) serving HTTP on a free port of 127.0.0.1, inside
 * this process, in memory: the server's DynamoDB when no endpoint is configured.
 *
 * <p>The engine checks no signature, so it listens on loopback only. Its threads are daemons and it stops with the
 * application context, so a failed start never leaves the JVM hanging.
 */
public final class EmbeddedDynamoDb implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(EmbeddedDynamoDb.class);

	private final DynamoDbEngine engine;

	private EmbeddedDynamoDb(DynamoDbEngine engine) {
		this.engine = engine;
	}

	/** Starts an empty in-memory engine on 127.0.0.1; one database for every access key and region. */
	public static EmbeddedDynamoDb start() {
		return start(EngineOptions.defaults());
	}

	/**
	 * The same with {@code options} (tests inject faults, or roll stream shards over sooner); their host and port
	 * are the caller's: the server's own start keeps the defaults, loopback and a free port.
	 */
	public static EmbeddedDynamoDb start(EngineOptions options) {
		DynamoDbEngine engine;
		try {
			engine = DynamoDbEngine.start(options);
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("The embedded DynamoDB engine did not start: " + ex.getMessage(), ex);
		}
		logger.info("Embedded DynamoDB engine (in memory) listening on {}", engine.endpoint());
		return new EmbeddedDynamoDb(engine);
	}

	/** The loopback URL the SDK client talks to. */
	public URI endpoint() {
		return this.engine.endpoint();
	}

	/** The engine itself: its faults, its streams and its tables, for tests and tools in this process. */
	public DynamoDbEngine engine() {
		return this.engine;
	}

	@Override
	public void close() {
		this.engine.close();
	}

}
