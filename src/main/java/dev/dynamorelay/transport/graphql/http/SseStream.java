package dev.dynamorelay.transport.graphql.http;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.reactivestreams.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.graphql.execution.SubscriptionPublisherException;
import org.springframework.web.servlet.function.ServerResponse;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.GraphQlErrors;
import dev.dynamorelay.live.LiveMemory;

/**
 * Writes one Server-Sent Events stream of results (graphql-sse's distinct-connections mode: each result a
 * {@code next} event, then {@code complete}), in place of Spring GraphQL's writer, so that a client that reads
 * slowly or not at all holds nothing but its own stream:
 * <ul>
 * <li>it asks for one result at a time, and for the next once the last is written to the socket, telling the
 * stream's {@link LiveMemory.Connection} so ({@link LiveMemory#ONLY_SUBSCRIPTION}): what waits meanwhile waits in the subscriber's
 * buffer, counted and bounded in bytes (Spring GraphQL's writer asks for everything at once);</li>
 * <li>it writes on a thread of a pool of its own ({@link #WRITERS}), serially per stream: a write waits for its
 * client (up to Tomcat's write timeout) on that thread, never on one that serves others' changes (Spring
 * GraphQL's writer writes on whatever thread delivered the result, a Reactor thread that every subscription
 * shares);</li>
 * <li>a write that fails (the client hung up, the response was recycled at shutdown) ends the stream in one DEBUG
 * line ({@link SseClientGone}), never an ERROR with a stack trace;</li>
 * <li>a comment line, {@code : subscribed}, once a subscription is live, which commits the response;</li>
 * <li>a comment line every {@code keepAlive} while nothing else was written, so that proxies keep it open.</li>
 * </ul>
 */
final class SseStream extends BaseSubscriber<Map<String, Object>> {

	private static final Logger logger = LoggerFactory.getLogger(SseStream.class);

	/**
	 * The streams' writers: a thread for each stream that is writing now (a stream that waits for its next result
	 * holds none), made as needed and ended after a minute idle. Their number is bounded by the streams, which the
	 * live limits bound.
	 */
	private static final Scheduler WRITERS = Schedulers.fromExecutor(writerThreads(), true);

	private final ServerResponse.SseBuilder sse;

	private final LiveMemory.Connection connection;

	/** This stream's writes, one after another in order. */
	private final Scheduler.Worker worker = WRITERS.createWorker();

	private final Disposable.Swap keepAlive = Disposables.swap();

	private final AtomicBoolean ended = new AtomicBoolean();

	/** Whether anything was written since the last keep-alive tick. Only the worker touches it. */
	private boolean wrote;

	SseStream(ServerResponse.SseBuilder sse, LiveMemory.Connection connection, Duration keepAlive) {
		this.sse = sse;
		this.connection = connection;
		sse.onTimeout(() -> end(null));
		sse.onError((failure) -> end(failure));
		sse.onComplete(() -> end(null));
		connection.onSubscribed((id) -> run(this::subscribed));
		if (keepAlive != null && !keepAlive.isZero() && !keepAlive.isNegative()) {
			this.keepAlive.update(Schedulers.parallel().schedulePeriodically(() -> run(this::keepAlive),
					keepAlive.toMillis(), keepAlive.toMillis(), TimeUnit.MILLISECONDS));
		}
	}

	@Override
	protected void hookOnSubscribe(Subscription subscription) {
		subscription.request(1);
	}

	@Override
	protected void hookOnNext(Map<String, Object> result) {
		run(() -> {
			if (write("next", result)) {
				this.connection.written(LiveMemory.ONLY_SUBSCRIPTION);
				request(1);
			}
		});
	}

	@Override
	protected void hookOnError(Throwable failure) {
		Map<String, Object> errors;
		if (failure instanceof SubscriptionPublisherException resolved) {
			errors = resolved.toMap();
		}
		else {
			// Not resolved by the subscription's exception resolvers: a fault of the server, not of the client.
			String reference = UUID.randomUUID().toString();
			logger.error("Internal error {} in a stream of Server-Sent Events", reference, failure);
			errors = Map.of("errors", java.util.List.of(GraphQlErrors.builder(ErrorCode.INTERNAL)
				.message("Internal server error; the server log has the details under reference " + reference + ".")
				.build()
				.toSpecification()));
		}
		run(() -> {
			if (write("next", errors)) {
				complete();
			}
		});
	}

	@Override
	protected void hookOnComplete() {
		run(this::complete);
	}

	/** Runs {@code task} on the stream's writer, after what it runs now; nothing once the stream has ended. */
	private void run(Runnable task) {
		try {
			this.worker.schedule(task);
		}
		catch (java.util.concurrent.RejectedExecutionException ex) {
			// Ended: its writer is gone, and so is its client.
		}
	}

	private void complete() {
		if (write("complete", "")) {
			try {
				this.sse.complete();
			}
			catch (RuntimeException ex) {
				SseClientGone.told(ex);
			}
		}
		end(null);
	}

	/**
	 * The subscription is live: a comment, {@code : subscribed}, commits the response, so that its client's
	 * {@code connected} (graphql-sse), {@code open} (EventSource) or resolved {@code fetch} means that every change
	 * from now on reaches it. graphql-sse has no acknowledgement of its own, and the response's head waited for the
	 * first change or keep-alive (15 s) before.
	 */
	private void subscribed() {
		if (this.ended.get()) {
			return;
		}
		try {
			this.sse.comment("subscribed");
			this.sse.send();
			this.wrote = true;
		}
		catch (Exception ex) {
			gone(ex);
		}
	}

	private void keepAlive() {
		if (!this.wrote && !this.ended.get()) {
			try {
				this.sse.comment("");
				this.sse.send();
			}
			catch (Exception ex) {
				gone(ex);
				return;
			}
		}
		this.wrote = false;
	}

	/** Writes one event; false, and the stream ended, when the client cannot be written to. */
	private boolean write(String event, Object data) {
		if (this.ended.get()) {
			return false;
		}
		try {
			this.sse.event(event);
			this.sse.data(data);
			this.wrote = true;
			return true;
		}
		catch (Exception ex) {
			gone(ex);
			return false;
		}
	}

	/** The client is gone (or the response over): told in one DEBUG line, and the stream ends. */
	private void gone(Throwable failure) {
		SseClientGone.told(failure);
		end(failure);
		try {
			this.sse.error(failure);
		}
		catch (RuntimeException ex) {
			// The response was over already.
		}
	}

	/** Ends the stream once: its results are no longer asked for, and what its subscription holds is freed. */
	private void end(Throwable failure) {
		if (!this.ended.compareAndSet(false, true)) {
			return;
		}
		cancel();
		this.keepAlive.dispose();
		this.connection.close();
		run(this.worker::dispose);
	}

	private static ExecutorService writerThreads() {
		AtomicInteger threads = new AtomicInteger();
		return Executors.newCachedThreadPool((task) -> {
			Thread thread = new Thread(task, "sse-writer-" + threads.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
	}

}
