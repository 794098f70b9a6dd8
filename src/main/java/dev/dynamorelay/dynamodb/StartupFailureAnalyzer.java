package dev.dynamorelay.dynamodb;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a start that DynamoDB did not serve in time (creating the tables, loading the sample data) as
 * what happened and which property to change, instead of a stack trace.
 */
class StartupFailureAnalyzer extends AbstractFailureAnalyzer<StartupCalls.StartupException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, StartupCalls.StartupException cause) {
		return new FailureAnalysis(cause.getMessage(), "Make DynamoDB at the endpoint answer "
				+ "(dynamo-relay.dynamodb.endpoint), or raise dynamo-relay.dynamodb.startup.timeout, then start again.",
				null);
	}

}
