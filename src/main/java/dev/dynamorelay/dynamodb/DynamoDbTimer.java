package dev.dynamorelay.dynamodb;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The timer of the DynamoDB client's call and attempt timeouts (and of its retry back-off).
 *
 * <p>The SDK's default timer keeps a cancelled timeout queued until it would have fired and wakes a
 * thread to discard it: two per DynamoDB call, about 3% of a page's server CPU under load (measured with
 * async-profiler). This one drops a timeout as soon as its call completes. It is not an
 * {@code Executor} bean, so Spring's own task executors are configured as usual.
 */
public final class DynamoDbTimer implements AutoCloseable {

	private final ScheduledThreadPoolExecutor executor;

	DynamoDbTimer() {
		AtomicInteger threads = new AtomicInteger();
		// As many threads as the SDK's default timer. With FUTURE_COMPLETION_EXECUTOR = Runnable::run, a call
		// that times out continues (and a retry after back-off runs its next attempt) on one of them.
		this.executor = new ScheduledThreadPoolExecutor(5, (task) -> {
			Thread thread = new Thread(task, "dynamodb-timer-" + threads.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		this.executor.setRemoveOnCancelPolicy(true);
	}

	ScheduledExecutorService executor() {
		return this.executor;
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

}
