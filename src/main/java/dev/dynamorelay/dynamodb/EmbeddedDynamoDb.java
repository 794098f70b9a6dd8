package dev.dynamorelay.dynamodb;

import java.net.URI;

import com.amazonaws.services.dynamodbv2.local.server.LocalDynamoDBRequestHandler;
import com.amazonaws.services.dynamodbv2.local.server.LocalDynamoDBServerHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-memory DynamoDB Local serving HTTP on a free port of 127.0.0.1, inside this process.
 *
 * <p>DynamoDB Local's own {@code ServerRunner} binds every interface and sends telemetry; this class
 * mounts its request handler (as {@code DynamoDBProxyServer#setUpHandler} does) on a Jetty connector
 * of our own bound to loopback, and never configures telemetry. Its threads are daemons and it stops
 * with the application context, so a failed start never leaves the JVM hanging.
 */
public final class EmbeddedDynamoDb implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(EmbeddedDynamoDb.class);

	private final Server server;

	private final LocalDynamoDBServerHandler handler;

	private final URI endpoint;

	private EmbeddedDynamoDb(Server server, LocalDynamoDBServerHandler handler, URI endpoint) {
		this.server = server;
		this.handler = handler;
		this.endpoint = endpoint;
	}

	/** Starts an empty in-memory DynamoDB Local; one database for every access key and region. */
	public static EmbeddedDynamoDb start() {
		return start(new LocalDynamoDBRequestHandler(0, true, null, true, false));
	}

	/**
	 * The same, serving {@code requests}: in memory, on 127.0.0.1 (tests build a handler with DynamoDB Local's
	 * own test controls, such as closing every stream shard at once).
	 */
	public static EmbeddedDynamoDb start(LocalDynamoDBRequestHandler requests) {
		LocalDynamoDBServerHandler handler = new LocalDynamoDBServerHandler(requests, null);
		QueuedThreadPool threads = new QueuedThreadPool(32, 4);
		threads.setName("dynamodb-local");
		threads.setDaemon(true);
		Server server = new Server(threads);
		ServerConnector connector = new ServerConnector(server);
		connector.setHost("127.0.0.1");
		connector.setPort(0);
		server.addConnector(connector);
		ContextHandler context = new ContextHandler();
		context.setHandler(handler);
		server.setHandler(new ContextHandlerCollection(context));
		try {
			server.start();
		}
		catch (Exception ex) {
			stopQuietly(server, handler);
			throw new IllegalStateException("The embedded DynamoDB Local did not start: " + ex.getMessage(), ex);
		}
		URI endpoint = URI.create("http://127.0.0.1:" + connector.getLocalPort());
		logger.info("Embedded DynamoDB Local (in memory) listening on {}", endpoint);
		return new EmbeddedDynamoDb(server, handler, endpoint);
	}

	/** The loopback URL the SDK client talks to. */
	public URI endpoint() {
		return this.endpoint;
	}

	@Override
	public void close() {
		stopQuietly(this.server, this.handler);
	}

	private static void stopQuietly(Server server, LocalDynamoDBServerHandler handler) {
		try {
			server.stop();
		}
		catch (Exception ex) {
			logger.warn("Stopping the embedded DynamoDB Local failed", ex);
		}
		finally {
			handler.close();
		}
	}

}
