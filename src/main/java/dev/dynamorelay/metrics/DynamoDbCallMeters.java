package dev.dynamorelay.metrics;

import java.util.concurrent.CompletionException;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Times every call of the DynamoDB client, from the SDK's start of the call to its result, retries and
 * back-off included: {@code dynamorelay.dynamodb.calls} by operation and outcome.
 *
 * <p>An execution interceptor rather than the SDK's {@code MetricPublisher}: a publisher makes the SDK
 * collect a few dozen metrics per call and attempt (HTTP pool, signing, marshalling times) only to keep
 * one of them.
 */
@Component
@ConditionalOnProperty(name = "dynamo-relay.metrics.enabled", matchIfMissing = true)
class DynamoDbCallMeters implements ExecutionInterceptor {

	private static final ExecutionAttribute<Long> STARTED = new ExecutionAttribute<>("dynamorelay.callStarted");

	private final ServerMeters meters;

	DynamoDbCallMeters(ServerMeters meters) {
		this.meters = meters;
	}

	@Override
	public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
		attributes.putAttribute(STARTED, System.nanoTime());
	}

	@Override
	public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
		record(attributes, "ok");
	}

	@Override
	public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
		record(attributes, outcome(context.exception()));
	}

	private void record(ExecutionAttributes attributes, String outcome) {
		Long started = attributes.getAttribute(STARTED);
		String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
		if (started != null && operation != null) {
			this.meters.dynamoDbCall(operation, outcome, System.nanoTime() - started);
		}
	}

	/** DynamoDB's error code, {@code timeout}, or {@code client} for a failure on this side. */
	static String outcome(Throwable failure) {
		Throwable cause = failure;
		while (cause instanceof CompletionException && cause.getCause() != null) {
			cause = cause.getCause();
		}
		if (cause instanceof AwsServiceException service && service.awsErrorDetails() != null
				&& service.awsErrorDetails().errorCode() != null) {
			return service.awsErrorDetails().errorCode();
		}
		if (cause instanceof ApiCallTimeoutException || cause instanceof ApiCallAttemptTimeoutException) {
			return "timeout";
		}
		return "client";
	}

}
