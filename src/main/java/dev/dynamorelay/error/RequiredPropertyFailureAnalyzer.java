package dev.dynamorelay.error;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a start stopped for want of a property: which one, why, and how to set it. */
class RequiredPropertyFailureAnalyzer extends AbstractFailureAnalyzer<RequiredPropertyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RequiredPropertyException cause) {
		return new FailureAnalysis(cause.getMessage(), "Set " + cause.property() + " (--" + cause.property()
				+ "=..., or the environment variable " + cause.property().toUpperCase(java.util.Locale.ROOT)
					.replace('.', '_').replace('-', '_') + "), then start again.", null);
	}

}
