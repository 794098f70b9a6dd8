package dev.dynamorelay.bench.abuse;

import dev.dynamorelay.bench.support.Stats;

/** The normal page's latencies and failures over a window of the 16 clients. */
record Normal(double[] latencies, int failed) {

	double p(double percentile) {
		return Stats.percentile(this.latencies, percentile);
	}

}
