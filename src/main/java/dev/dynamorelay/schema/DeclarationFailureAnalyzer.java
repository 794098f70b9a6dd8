package dev.dynamorelay.schema;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports declarations that cannot be served as one readable list (file, line, what to change)
 * instead of a stack trace.
 */
class DeclarationFailureAnalyzer extends AbstractFailureAnalyzer<DeclarationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, DeclarationException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"Change the schema files (dynamo-relay.schema.locations) or the tables as each line says, then start again.",
				null);
	}

}
