package dev.dynamorelay.bench.fairness;

/** What became of a hostile request: refused by the cost limits, cut by the request budget, served, or failed. */
public enum Outcome {

	REFUSED, CUT, SERVED, FAILED

}
