package dev.dynamorelay.live;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a fleet's part that stopped the start as what is wrong and what to do, instead of a stack trace. */
class FleetFailureAnalyzer extends AbstractFailureAnalyzer<FleetStartException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, FleetStartException cause) {
		return new FailureAnalysis(cause.getMessage(), "Fix what the description names, then start again; or run this "
				+ "instance alone with dynamo-relay.live.broker=none (docs/deploying.md, \"Several instances\").", null);
	}

}
