package dev.dynamorelay.engine.action;

import java.util.function.Supplier;

/**
 * What an operation knows of the call it serves beyond its request: the region the caller signed for (the
 * credential scope of its SigV4 {@code Authorization} header), which DynamoDB writes into the ARNs it answers.
 * The wire sets it around each operation, on the thread that runs it; outside a call it is the default region.
 */
public final class RequestContext {

	/** The region of a call that names none, and of work done outside any call. */
	public static final String DEFAULT_REGION = "us-east-1";

	private static final ThreadLocal<String> REGION = new ThreadLocal<>();

	private RequestContext() {
	}

	/** The region of the call this thread serves. */
	public static String region() {
		String region = REGION.get();
		return (region != null) ? region : DEFAULT_REGION;
	}

	/** Runs {@code work} as a call signed for {@code region}. */
	public static <T> T call(String region, Supplier<T> work) {
		String outer = REGION.get();
		REGION.set(region);
		try {
			return work.get();
		}
		finally {
			if (outer == null) {
				REGION.remove();
			}
			else {
				REGION.set(outer);
			}
		}
	}

}
