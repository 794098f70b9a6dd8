package dev.dynamorelay.write;

import java.util.concurrent.atomic.AtomicInteger;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Tells what became of the attempts the SDK made at one write call, so that a write can tell its own earlier
 * attempt from another writer's item: the SDK retries a call whose answer it did not get (a connection reset,
 * an attempt's timeout, a 5xx), and an attempt whose answer was lost may have been made.
 *
 * <p>A client interceptor (the server's DynamoDB client takes every {@link ExecutionInterceptor} bean) that
 * counts, for a call that carries a {@link Call} ({@link #ATTRIBUTE}), the attempts sent and those DynamoDB
 * answered: 4xx (refused: not made; a failed condition is one) or 2xx (made).
 */
public final class WriteAttempts implements ExecutionInterceptor {

	/** The attempts of the call that carries it, among its request's execution attributes. */
	static final ExecutionAttribute<Call> ATTRIBUTE = new ExecutionAttribute<>("dynamo-relay.write-attempts");

	@Override
	public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
		Call call = attributes.getAttribute(ATTRIBUTE);
		if (call != null) {
			call.sent.incrementAndGet();
		}
	}

	@Override
	public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
		Call call = attributes.getAttribute(ATTRIBUTE);
		if (call == null) {
			return;
		}
		int status = context.httpResponse().statusCode();
		if (status >= 400 && status < 500) {
			call.refused.incrementAndGet();
		}
		else if (status >= 200 && status < 300) {
			call.made.incrementAndGet();
		}
	}

	/** The attempts of one write call. */
	static final class Call {

		private final AtomicInteger sent = new AtomicInteger();

		private final AtomicInteger refused = new AtomicInteger();

		private final AtomicInteger made = new AtomicInteger();

		/** Whether any attempt went out: with none, DynamoDB never saw the write. */
		boolean sent() {
			return this.sent.get() > 0;
		}

		/**
		 * Whether an attempt went out that DynamoDB did not answer with a refusal: unanswered, answered 5xx, or
		 * made. A call that failed with such an attempt may have been written.
		 */
		boolean mayHaveWritten() {
			return this.sent.get() > this.refused.get();
		}

		/**
		 * Whether an attempt before the last, which DynamoDB answered ({@code lastMade}: made, else refused), may
		 * have been written: its answer was lost on the way, was a 5xx, or was a success the SDK could not read.
		 * The last answer may then be about that attempt's work.
		 */
		boolean earlierMayHaveWritten(boolean lastMade) {
			int unanswered = this.sent.get() - this.refused.get() - this.made.get();
			return unanswered > 0 || this.made.get() > (lastMade ? 1 : 0);
		}

	}

}
