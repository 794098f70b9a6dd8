package dev.dynamorelay.dynamodb;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

import dev.dynamorelay.error.UnavailableException;

/** Tells a DynamoDB that cannot serve now apart from a request DynamoDB refused. */
public final class DynamoDbFailures {

	private DynamoDbFailures() {
	}

	/**
	 * Whether {@code failure} means DynamoDB was unreachable, silent past the timeout, or throttling
	 * past the SDK's retries (the contract's {@code UNAVAILABLE}).
	 */
	public static boolean isUnavailable(Throwable failure) {
		Throwable cause = unwrap(failure);
		if (cause instanceof UnavailableException || cause instanceof SdkClientException) {
			return true;
		}
		if (cause instanceof AwsServiceException service) {
			return service.isThrottlingException() || service.statusCode() >= 500;
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
