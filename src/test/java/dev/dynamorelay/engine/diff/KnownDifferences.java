package dev.dynamorelay.engine.diff;

/**
 * The differences between dynalite and the engine that are known and right: each where dynalite departs from
 * DynamoDB's documentation (or from what DynamoDB answers, as the AWS documentation shows it), with the page that
 * says so. Anything not named here fails the differential test.
 */
final class KnownDifferences {

	private KnownDifferences() {
	}

	/** Why {@code difference} is right, or null when it is not known to be. */
	static String explain(Workload.Call call, RawDynamoDb.Answer dynalite, RawDynamoDb.Answer engine,
			Answers.Difference difference) {
		return null;
	}

}
