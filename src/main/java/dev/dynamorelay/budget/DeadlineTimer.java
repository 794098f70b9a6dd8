package dev.dynamorelay.budget;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fails a request's DynamoDB calls still waiting for a place when its time runs out ({@link CallLimiter}):
 * one task per request whose calls had to wait, run at its deadline, so that the request answers then
 * however long the queues take to move, with no thread polling them.
 *
 * <p>The fields' continuations run on the timer's threads (they fail the fields and let the execution
 * finish, as the SDK's timeouts do on its own timer); two threads, so that one request's many fields do
 * not hold up another's deadline.
 */
final class DeadlineTimer {

	private static final ScheduledThreadPoolExecutor TIMER;

	static {
		AtomicInteger threads = new AtomicInteger();
		TIMER = new ScheduledThreadPoolExecutor(2, (task) -> {
			Thread thread = new Thread(task, "request-deadline-" + threads.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
	}

	private DeadlineTimer() {
	}

	/** Runs {@code task} at {@code deadline} ({@link System#nanoTime()}), at once if it has passed. */
	static void at(long deadline, Runnable task) {
		TIMER.schedule(task, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
	}

}
