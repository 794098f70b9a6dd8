package dev.dynamorelay.sample;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.dynamodb.StartupCalls;
import dev.dynamorelay.dynamodb.tables.DeclaredTables;
import dev.dynamorelay.dynamodb.tables.TablesReady;

/**
 * The sample data's load, overlapped with the rest of the start: it begins on a thread of its own as soon as
 * the tables exist ({@link TablesReady}) while Spring goes on building the server (the GraphQL schema, the
 * REST view, the web server), and the start waits for it before anything listens: as the first lifecycle
 * to start, before the web server's. No request ever sees a table half loaded, and a load that fails
 * fails the start, as before. The load's time and the rest of the start's now overlap on a second core
 * instead of adding up.
 */
final class SampleDataLoad implements TablesReady, SmartLifecycle, DisposableBean {

	private final DynamoDbAsyncClient dynamoDb;

	private final StartupCalls startup;

	private final boolean enabled;

	private volatile CompletableFuture<Void> loading = CompletableFuture.completedFuture(null);

	private volatile boolean running;

	SampleDataLoad(DynamoDbAsyncClient dynamoDb, StartupCalls startup, boolean enabled) {
		this.dynamoDb = dynamoDb;
		this.startup = startup;
		this.enabled = enabled;
	}

	@Override
	public void tablesReady(DeclaredTables tables) {
		if (!this.enabled) {
			return;
		}
		Declarations declarations = tables.declarations();
		CompletableFuture<Void> load = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				SampleData.loadIntoEmptyTables(this.dynamoDb, this.startup, declarations.entity("User").table().physicalName(),
						declarations.entity("Purchase").table().physicalName(),
						declarations.entity("Movie").table().physicalName());
				load.complete(null);
			}
			catch (Exception | Error ex) {
				load.completeExceptionally(ex);
			}
		}, "sample-data");
		thread.setDaemon(true);
		this.loading = load;
		thread.start();
	}

	/** Waits for the load; its failure (a {@link StartupCalls.StartupException}, say) fails the start. */
	@Override
	public void start() {
		try {
			this.loading.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while loading the sample data", ex);
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw new CompletionException(cause);
		}
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
	}

	/**
	 * A start that fails after the load began (another bean's failure) closes the context, the DynamoDB
	 * client after this: the load ends first, whole or failed, rather than stop halfway with its client
	 * closed under it (a half-loaded table would stay so, as loading skips tables that hold items).
	 */
	@Override
	public void destroy() {
		try {
			this.loading.get(Math.max(0, this.startup.left().toMillis()), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// Its failure was the start's to report, or the start is already being given up.
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** Before every other lifecycle, the web server's included: nothing listens until the data is in. */
	@Override
	public int getPhase() {
		return Integer.MIN_VALUE;
	}

}
