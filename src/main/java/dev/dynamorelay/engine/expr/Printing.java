package dev.dynamorelay.engine.expr;

import java.util.Base64;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Values as DynamoDB's messages write them. */
final class Printing {

	private Printing() {
	}

	/** {@code N:1}, {@code S:a}, {@code B:YQ==}: a scalar's type and value, as BETWEEN's messages write it. */
	static String typed(AttributeValue value) {
		return Conditions.typeName(value) + ":" + scalar(value);
	}

	private static String scalar(AttributeValue value) {
		return switch (value.type()) {
			case S -> value.s();
			case N -> value.n();
			case B -> Base64.getEncoder().encodeToString(value.b().asByteArrayUnsafe());
			case BOOL -> value.bool().toString();
			case NUL -> "true";
			default -> value.toString();
		};
	}

}
