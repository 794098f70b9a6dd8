package dev.dynamorelay.model;

/** The order of a connection over its sort key: DynamoDB's {@code ScanIndexForward}. */
public enum SortOrder {

	ASC, DESC

}
