package dev.dynamorelay.engine.expr;

/** The errors of one expression, by kind, in the order DynamoDB reports them; the first one is thrown. */
final class Errors {

	/** The most operators and functions an expression holds. */
	static final int MAX_OPERATORS = 300;

	private String first;

	/** Adds the error of the next kind, if there is one and none came before. */
	void add(String message) {
		if (this.first == null && message != null) {
			this.first = message;
		}
	}

	/**
	 * Refuses more than 300 operators and functions; DynamoDB stops counting at the first one too many, so the
	 * count it reports is always 301.
	 */
	void operators(int count) {
		if (count > MAX_OPERATORS) {
			add("The expression contains too many operators; operator count: " + (MAX_OPERATORS + 1));
		}
	}

	void throwFirst() {
		if (this.first != null) {
			throw new ExpressionException(this.first);
		}
	}

	/** A refusal of an expression, with DynamoDB's message without the expression's name. */
	static final class ExpressionException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		ExpressionException(String message) {
			super(message, null, false, false);
		}

	}

}
