package dev.dynamorelay.error;

/**
 * A start that cannot go on without a property that is not set, told as the property and why it is needed
 * ({@link RequiredPropertyFailureAnalyzer}), not as a stack trace.
 */
public final class RequiredPropertyException extends RuntimeException {

	private final String property;

	/**
	 * @param property the property's name, e.g. {@code dynamo-relay.cursor.secret}
	 * @param why why this start needs it, as a sentence
	 */
	public RequiredPropertyException(String property, String why) {
		super(property + " is required: " + why);
		this.property = property;
	}

	/** The property's name. */
	public String property() {
		return this.property;
	}

}
