package dev.dynamorelay.dynamodb;

import java.io.IOException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.Crc32MismatchException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.crt.http.HttpException;
import software.amazon.awssdk.core.exception.SdkServiceException;

import dev.dynamorelay.error.UnavailableException;

/** Tells a DynamoDB that cannot serve now apart from a request DynamoDB refused and from a bug of ours. */
public final class DynamoDbFailures {

	private DynamoDbFailures() {
	}

	/**
	 * Whether {@code failure} means DynamoDB could not be reached or did not answer in time (the
	 * contract's {@code UNAVAILABLE}): a connection refused, reset or closed, any other I/O error on the
	 * way, a call or attempt timeout, throttling past the SDK's retries, or a 5xx answer.
	 *
	 * <p>Every other client-side failure is not: a response the SDK cannot read (a JSON parser's error,
	 * although Jackson's exceptions are {@link IOException}s), a request it cannot build or sign, missing
	 * credentials. Those are bugs or misconfiguration, and retrying later would not help.
	 */
	public static boolean isUnavailable(Throwable failure) {
		Throwable cause = unwrap(failure);
		if (cause instanceof UnavailableException) {
			return true;
		}
		if (cause instanceof SdkServiceException service) {
			return service.isThrottlingException() || service.statusCode() >= 500;
		}
		if (cause instanceof ApiCallTimeoutException || cause instanceof ApiCallAttemptTimeoutException
				|| cause instanceof Crc32MismatchException) {
			// A CRC mismatch is a response damaged on the way.
			return true;
		}
		return cause instanceof SdkClientException && unreachable(cause.getCause());
	}

	/**
	 * Whether a cause chain reports the network: an I/O error (the SDK's and Netty's connection failures,
	 * read and write timeouts are all {@link IOException}s, some wrapped once more), the AWS CRT client's
	 * {@link HttpException} (a socket closed or refused, or a stream it cancelled when an attempt's time ran
	 * out, which it reports bare rather than as an I/O error) or a timeout (of
	 * connection acquisition, or an attempt's: when the SDK declines to retry an attempt that timed out, its
	 * retry quota spent, it reports the attempt's timeout wrapped in a client exception), and no parser
	 * error.
	 */
	private static boolean unreachable(Throwable cause) {
		boolean network = false;
		Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		for (Throwable current = cause; current != null && seen.add(current); current = current.getCause()) {
			if (isParserError(current)) {
				return false;
			}
			if (current instanceof IOException || current instanceof TimeoutException
					|| current instanceof ApiCallAttemptTimeoutException || current instanceof ApiCallTimeoutException
					|| current instanceof HttpException) {
				network = true;
			}
		}
		return network;
	}

	/** Jackson's exceptions (the SDK's shaded copy, or the original) extend IOException but report content. */
	private static boolean isParserError(Throwable failure) {
		for (Class<?> type = failure.getClass(); type != null; type = type.getSuperclass()) {
			String name = type.getName();
			if (name.endsWith(".jackson.core.JacksonException") || name.endsWith(".jackson.core.JsonProcessingException")) {
				return true;
			}
		}
		return false;
	}

	/** The failure inside the CompletionException and ExecutionException wrappers of futures. */
	public static Throwable unwrap(Throwable failure) {
		Throwable current = failure;
		while ((current instanceof CompletionException || current instanceof ExecutionException)
				&& current.getCause() != null) {
			current = current.getCause();
		}
		return current;
	}

}
